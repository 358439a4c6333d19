#include "compare/ClusterCheck.hpp"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace marey {

size_t ClusterCheckResult::RanksRegressed() const {
    return static_cast<size_t>(std::count_if(ranks.begin(), ranks.end(),
                                             [](const RankCheck& r) { return r.result.Failed(); }));
}

size_t ClusterCheckResult::Improvements() const {
    size_t count = 0;
    for (const RankCheck& r : ranks) count += r.result.improvements.size();
    return count;
}

namespace {

// Whether a regression may be another rank's slowdown seen as waiting (see the header).
bool CanBeWaiting(const CheckFinding& finding) {
    switch (finding.kind) {
        case CheckKind::kStep:
        case CheckKind::kCommunication:
            return true;
        case CheckKind::kPhase:
            return finding.name == "communication_not_overlapped";
        case CheckKind::kOperator:
        case CheckKind::kType:
            return IsCommunicationOperator(finding.name);
        case CheckKind::kInput:
            return false;  // the rank's own input pipeline, whatever the others do
        case CheckKind::kCriticalPath:
            // A path's communication is its wait for the other ranks; the rest is its own.
            return finding.name == "communication";
    }
    return true;
}

}  // namespace

const CheckFinding* LargestOwnWorkRegression(const CheckResult& result) {
    // Regressions come largest first.
    for (const CheckFinding& finding : result.regressions)
        if (!CanBeWaiting(finding)) return &finding;
    return nullptr;
}

void OrderWorstFirst(std::vector<RankCheck>& ranks) {
    auto severity = [](const RankCheck& r) {
        const CheckFinding* own = LargestOwnWorkRegression(r.result);
        return std::make_tuple(r.result.Failed(), own ? std::llabs(own->changeNs) : TimeNs{0},
                               r.result.regressions.size());
    };
    std::stable_sort(ranks.begin(), ranks.end(), [&](const RankCheck& x, const RankCheck& y) {
        const auto sx = severity(x), sy = severity(y);
        if (sx != sy) return sx > sy;
        return x.rank < y.rank;
    });
}

}  // namespace marey
