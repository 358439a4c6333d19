#pragma once
// `marey sql PATH [QUERY] [--csv|--json]`: SQL over what marey opens (sql/SqlSession.hpp).

namespace marey {

// Returns the process exit code: 0 every statement ran, 1 the path could not be loaded or a
// statement failed, 2 usage.
int RunSqlCommand(int argc, char** argv);

}  // namespace marey
