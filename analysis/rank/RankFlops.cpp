#include "rank/RankFlops.hpp"

#include <algorithm>
#include <filesystem>

#include "load/AnalysisFile.hpp"

namespace marey {

FlopsSummary SummarizeOperatorFlops(const std::vector<OperatorFlops>& operators) {
    FlopsSummary summary;
    if (operators.empty()) return summary;
    summary.mflops = summary.gflopsPerS = summary.utilizationPercent = 0;
    for (const OperatorFlops& op : operators) {
        summary.mflops += op.mflops;
        summary.gflopsPerS += op.gflopsPerS;
        summary.utilizationPercent += op.utilizationPercent;
    }
    const double count = static_cast<double>(operators.size());
    summary.gflopsPerS /= count;
    summary.utilizationPercent /= count;
    return summary;
}

RankFlops ReadRankFlops(const FlopsFiles& files) {
    RankFlops flops;
    flops.problems = files.problems;
    const auto fileName = [](const std::string& path) {
        return std::filesystem::path(path).filename().string();
    };
    ReadAnalysisFile(files.operators, flops.problems, [&](std::string_view text) {
        auto table = ParseOperatorFlopsText(text, files.operators);
        if (!table.ok()) return flops.problems.push_back(table.message());
        AddFileProblems(files.operators, table.value().problems, flops.problems);
        flops.operators = std::move(table.value().operators);
        std::stable_sort(
            flops.operators.begin(), flops.operators.end(),
            [](const OperatorFlops& a, const OperatorFlops& b) { return a.mflops > b.mflops; });
    });
    ReadAnalysisFile(files.summary, flops.problems, [&](std::string_view text) {
        auto summary = ParseFlopsSummaryJson(text, files.summary);
        if (!summary.ok()) return flops.problems.push_back(summary.message());
        flops.summary = summary.value().summary;
        flops.problems.insert(flops.problems.end(), summary.value().problems.begin(),
                              summary.value().problems.end());
        flops.summarySource = fileName(files.summary);
    });
    if (!flops.Known() && !flops.operators.empty()) {
        flops.summary = SummarizeOperatorFlops(flops.operators);
        flops.summarySource = fileName(files.operators);
    }
    ReadAnalysisFile(files.scope, flops.problems, [&](std::string_view text) {
        auto tree = ParseFlopsScopeJson(text, files.scope);
        if (!tree.ok()) return flops.problems.push_back(tree.message());
        flops.problems.insert(flops.problems.end(), tree.value().problems.begin(),
                              tree.value().problems.end());
        flops.scopes = std::move(tree.value());
    });
    return flops;
}

}  // namespace marey
