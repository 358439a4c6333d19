#pragma once
// Time per device operator, by name and by type, from kernel_details.csv (or the profiler's own
// op_statistic.csv when that is all there is).
#include <string>
#include <vector>

#include "load/KernelTable.hpp"
#include "load/OpStatisticCsv.hpp"

namespace marey {

struct OperatorStat {
    std::string name;  // operator name, or type in the by-type table
    std::string type;  // its type (the same as name in the by-type table)
    CoreClass coreClass = CoreClass::kOther;
    std::string core;  // "Accelerator Core" / "Core Type" as written; several joined by '/'
    uint64_t count = 0;
    TimeNs totalNs = 0, minNs = 0, maxNs = 0;
    double share = 0;  // of the total time of every operator in the table

    TimeNs AverageNs() const { return count ? totalNs / static_cast<TimeNs>(count) : 0; }
};

struct CoreClassTotal {
    CoreClass coreClass;
    uint64_t count = 0;
    TimeNs totalNs = 0;
    double share = 0;
};

struct OperatorTables {
    std::vector<OperatorStat> byName;  // largest total first
    std::vector<OperatorStat> byType;
    std::vector<CoreClassTotal> byCore;  // AI Core, AI CPU, communication, other (non-empty ones)
    TimeNs totalNs = 0;
    std::string source;
};

// Aggregates every task of the table. 'includeCommunication' false leaves HCCL tasks out, as the
// profiler's op_statistic.csv does. O(n log n).
OperatorTables OperatorsFromKernels(const KernelTable& kernels, bool includeCommunication = true);

// The by-type table from op_statistic.csv (no by-name table: that file has none).
OperatorTables OperatorsFromOpStatistic(const OpStatistic& table);

// (type, share) of the largest compute types, for the overview's advice.
std::vector<std::pair<std::string, double>> TopComputeTypes(const OperatorTables& tables,
                                                            size_t count);

}  // namespace marey
