#pragma once
// Loads a rank's profiler database (and the analysis.db beside it) into the model and the rank
// tables a text export gives, so that every view and analysis reads it as it reads text.
#include <memory>
#include <string>
#include <vector>

#include "core/Status.hpp"
#include "db/DbRankTables.hpp"
#include "load/KernelTable.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "model/TraceModel.hpp"

namespace marey {

struct LoadedDatabase {
    std::unique_ptr<TraceModel> model;
    KernelTable kernels;  // what kernel_details.csv holds
    RankTables tables;    // steps, communication, links, memory
};

// Fails only when 'profilerDb' cannot be opened as a SQLite database; everything else it meets is
// in model->report.problems or tables.problems, and the rest loads. 'analysisDb' may be empty.
// Without analysis.db's StepTraceTime, steps are computed from STEP_TIME and the Overlap Analysis.
// 'timelineOnly' leaves the memory tables unread (several ranks in one timeline, the benchmark).
// 'progress' (may be null) moves as the tables are read, and its cancel ends the load soon after,
// failing with "<file>: cancelled". The model keeps the database open (its source's 'database'),
// so that the details of a selected row are read without opening the file again.
Result<LoadedDatabase> LoadProfilerDatabase(const std::string& profilerDb,
                                            const std::string& analysisDb,
                                            const LoadOptions& options = {},
                                            bool timelineOnly = false,
                                            LoadProgress* progress = nullptr);

}  // namespace marey
