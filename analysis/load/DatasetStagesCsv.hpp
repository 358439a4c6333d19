#pragma once
// MindSpore's dataset.csv (dataset_N.csv before 2.5): for each dataset operation ("Pipeline",
// "MapOp(ID:3)") and each stage of it (Build, WorkerGet, WorkerProcess, GetFromPreviousOp, …), how
// often it ran and its mean time. Header "Operation,Stage,Occurrences,Avg. time (us),Custom Info";
// columns are found by name. Every row that cannot be read is named with its line and left out.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

struct DatasetStage {
    std::string operation;  // "Pipeline", "MapOp(ID:3)"
    std::string stage;      // "WorkerProcess"
    int64_t occurrences = 0;
    TimeNs averageNs = 0;
    TimeNs totalNs = 0;      // occurrences × the mean, held at INT64_MAX
    std::string customInfo;  // as written (a Python dict's text); empty when none
};

struct DatasetStageTable {
    std::vector<DatasetStage> stages;  // in the file's order
    std::vector<ImportProblem> problems;
};

// Reads dataset.csv. A row with an occurrence count that is not a whole number from 0 up, a mean
// that is not a time from 0 up, another width than the header, a repeated (operation, stage), or
// cut at the file's end, is named and left out. Fails without an Operation, Stage, Occurrences or
// Avg. time column.
Result<DatasetStageTable> ParseDatasetStagesCsv(std::string_view text, const std::string& name);

}  // namespace marey
