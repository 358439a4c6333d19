#include "rank/OperatorStats.hpp"

#include <algorithm>
#include <unordered_map>

namespace marey {
namespace {

void AddSample(OperatorStat& stat, TimeNs durNs) {
    stat.minNs = stat.count ? std::min(stat.minNs, durNs) : durNs;
    stat.maxNs = stat.count ? std::max(stat.maxNs, durNs) : durNs;
    stat.totalNs = SaturatingAdd(stat.totalNs, durNs);
    ++stat.count;
}

void FinishTable(std::vector<OperatorStat>& stats, TimeNs totalNs) {
    for (OperatorStat& stat : stats)
        stat.share =
            totalNs > 0 ? static_cast<double>(stat.totalNs) / static_cast<double>(totalNs) : 0.0;
    std::sort(stats.begin(), stats.end(), [](const OperatorStat& a, const OperatorStat& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
}

void AddCore(OperatorStat& stat, std::string_view core) {
    if (core.empty()) return;
    // "AI_CORE/MIX_AIC": a name can run on several kinds of core.
    for (size_t at = 0; at <= stat.core.size();) {
        const size_t end = std::min(stat.core.find('/', at), stat.core.size());
        if (std::string_view(stat.core).substr(at, end - at) == core) return;
        at = end + 1;
    }
    if (!stat.core.empty()) stat.core += '/';
    stat.core += core;
}

// The per-class totals that hold anything, with their share of 'totalNs'.
std::vector<CoreClassTotal> NonEmptyCoreTotals(const CoreClassTotal (&classes)[5], TimeNs totalNs) {
    std::vector<CoreClassTotal> out;
    for (CoreClassTotal total : classes) {
        if (!total.count) continue;
        total.share =
            totalNs > 0 ? static_cast<double>(total.totalNs) / static_cast<double>(totalNs) : 0.0;
        out.push_back(total);
    }
    return out;
}

}  // namespace

OperatorTables OperatorsFromKernels(const KernelTable& kernels, bool includeCommunication) {
    OperatorTables tables;
    std::unordered_map<StringId, size_t> byName, byType;
    CoreClassTotal classes[5] = {{CoreClass::kAiCore},
                                 {CoreClass::kAiCpu},
                                 {CoreClass::kCommunication},
                                 {CoreClass::kOther},
                                 {CoreClass::kGpu}};
    for (const KernelRow& row : kernels.rows) {
        if (!includeCommunication && row.coreClass == CoreClass::kCommunication) continue;
        auto [nameAt, newName] = byName.try_emplace(row.name, tables.byName.size());
        if (newName) {
            OperatorStat stat;
            stat.name = std::string(kernels.strings.Get(row.name));
            stat.type = std::string(kernels.strings.Get(row.type));
            stat.coreClass = row.coreClass;
            tables.byName.push_back(std::move(stat));
        }
        auto [typeAt, newType] = byType.try_emplace(row.type, tables.byType.size());
        if (newType) {
            OperatorStat stat;
            stat.name = stat.type = std::string(kernels.strings.Get(row.type));
            stat.coreClass = row.coreClass;
            tables.byType.push_back(std::move(stat));
        }
        for (OperatorStat* stat :
             {&tables.byName[nameAt->second], &tables.byType[typeAt->second]}) {
            AddSample(*stat, row.durNs);
            AddCore(*stat, kernels.strings.Get(row.core));
        }
        CoreClassTotal& total = classes[static_cast<int>(row.coreClass)];
        ++total.count;
        total.totalNs = SaturatingAdd(total.totalNs, row.durNs);
        tables.totalNs = SaturatingAdd(tables.totalNs, row.durNs);
    }
    FinishTable(tables.byName, tables.totalNs);
    FinishTable(tables.byType, tables.totalNs);
    tables.byCore = NonEmptyCoreTotals(classes, tables.totalNs);
    tables.source = "kernel_details.csv";
    return tables;
}

OperatorTables OperatorsFromOpStatistic(const OpStatistic& table) {
    OperatorTables tables;
    CoreClassTotal classes[5] = {{CoreClass::kAiCore},
                                 {CoreClass::kAiCpu},
                                 {CoreClass::kCommunication},
                                 {CoreClass::kOther},
                                 {CoreClass::kGpu}};
    for (const OpStatisticRow& row : table.rows) {
        OperatorStat stat;
        stat.name = stat.type = row.type;
        stat.core = row.coreType;
        stat.coreClass = ClassifyCore(row.coreType);
        stat.count = row.count;
        stat.totalNs = row.totalNs;
        stat.minNs = row.minNs;
        stat.maxNs = row.maxNs;
        tables.totalNs = SaturatingAdd(tables.totalNs, row.totalNs);
        CoreClassTotal& total = classes[static_cast<int>(stat.coreClass)];
        total.count += row.count;
        total.totalNs = SaturatingAdd(total.totalNs, row.totalNs);
        tables.byType.push_back(std::move(stat));
    }
    FinishTable(tables.byType, tables.totalNs);
    tables.byCore = NonEmptyCoreTotals(classes, tables.totalNs);
    tables.source = "op_statistic.csv (by type only)";
    return tables;
}

std::vector<std::pair<std::string, double>> TopComputeTypes(const OperatorTables& tables,
                                                            size_t count) {
    std::vector<std::pair<std::string, double>> top;
    TimeNs compute = 0;
    for (const OperatorStat& stat : tables.byType)
        if (stat.coreClass != CoreClass::kCommunication)
            compute = SaturatingAdd(compute, stat.totalNs);
    for (const OperatorStat& stat : tables.byType) {
        if (top.size() >= count) break;
        if (stat.coreClass == CoreClass::kCommunication || compute <= 0) continue;
        top.push_back(
            {stat.name, static_cast<double>(stat.totalNs) / static_cast<double>(compute)});
    }
    return top;
}

}  // namespace marey
