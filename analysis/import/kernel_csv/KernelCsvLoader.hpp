#pragma once
// kernel_details.csv (one row per device task, written by the Ascend profilers) as a timeline:
// one track per stream, or per accelerator core when the file has no stream column.
#include <memory>
#include <string>

#include "core/Status.hpp"
#include "import/chrome_json/TraceLoader.hpp"

namespace marey {

// Columns are found by header name, so the 8-column Level0 file, the 46-column Level1/2 file
// and the 2023 variants all load. Rows with bad times are skipped with a message naming the
// column; short rows read their missing fields as empty.
Result<std::unique_ptr<TraceModel>> LoadKernelDetailsCsv(TraceText text, const std::string& name,
                                                         const LoadOptions& options = {});

}  // namespace marey
