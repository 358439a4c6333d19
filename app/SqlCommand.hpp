#pragma once
// `marey sql PATH [QUERY] [--csv|--json]`: SQL over what marey opens (sql/SqlSession.hpp).

#include <string>

#include "core/Status.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "rank/LoadedRank.hpp"

namespace marey {

// What `marey sql` reads of 'path': a rank folder with its tables, any other source its timeline
// only.
Result<LoadedRank> LoadSqlSource(const std::string& path, const LoadOptions& options);

// Returns the process exit code: 0 every statement ran, 1 the path could not be loaded or a
// statement failed, 2 usage.
int RunSqlCommand(int argc, char** argv);

}  // namespace marey
