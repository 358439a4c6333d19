#pragma once
// op_statistic.csv: the profiler's own per-operator-type totals (Level1 and Level2).
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

struct OpStatisticRow {
    std::string type;      // "OP Type"
    std::string coreType;  // "Core Type": AI_CORE, AI_VECTOR_CORE, AI_CPU, …
    uint64_t count = 0;
    TimeNs totalNs = 0, minNs = 0, avgNs = 0, maxNs = 0;
    double ratioPercent = 0;  // "Ratio(%)" as written
};

struct OpStatistic {
    std::vector<OpStatisticRow> rows;
    std::vector<ImportProblem> problems;
};

// Reads the text of an op_statistic.csv; columns by header name; a bad cell reads 0 and is
// reported. Fails only without an "OP Type" column.
Result<OpStatistic> ParseOpStatisticCsv(std::string_view text, const std::string& name);

}  // namespace marey
