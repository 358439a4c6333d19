#include "db/DbOverlap.hpp"

#include <algorithm>

namespace marey {

namespace {

// 'ranges' minus 'cut', both sorted and disjoint.
std::vector<TimeRange> Subtract(const std::vector<TimeRange>& ranges,
                                const std::vector<TimeRange>& cut) {
    std::vector<TimeRange> left;
    size_t c = 0;
    for (const TimeRange& range : ranges) {
        TimeNs cursor = range.startNs;
        while (c < cut.size() && cut[c].endNs <= cursor) ++c;
        for (size_t k = c; k < cut.size() && cut[k].startNs < range.endNs; ++k) {
            if (cut[k].startNs > cursor) left.push_back({cursor, cut[k].startNs});
            cursor = std::max(cursor, cut[k].endNs);
        }
        if (cursor < range.endNs) left.push_back({cursor, range.endNs});
    }
    return left;
}

}  // namespace

OverlapAnalysis AnalyzeOverlap(std::vector<TimeRange> computing,
                               std::vector<TimeRange> communication,
                               const std::vector<std::pair<TimeNs, TimeNs>>& steps) {
    OverlapAnalysis result;
    result.computing = UniteRanges(std::move(computing));
    result.communication = UniteRanges(std::move(communication));
    result.notOverlapped = Subtract(result.communication, result.computing);
    std::vector<TimeRange> busy = result.computing;
    busy.insert(busy.end(), result.communication.begin(), result.communication.end());
    busy = UniteRanges(std::move(busy));
    // The profiler counts free time between the first and the last device activity of a step:
    // before the first is Preparing, after the last the step's host work.
    std::vector<TimeRange> windows;
    auto activeWithin = [&](TimeNs start, TimeNs end) {
        TimeNs first = end, last = start;
        for (auto it = std::lower_bound(busy.begin(), busy.end(), start,
                                        [](const TimeRange&r, TimeNs t) { return r.endNs <= t; });
             it != busy.end() && it->startNs < end; ++it) {
            first = std::min(first, std::max(it->startNs, start));
            last = std::max(last, std::min(it->endNs, end));
        }
        if (first < last) windows.push_back({first, last});
    };
    if (!steps.empty()) {
        for (const auto& [start, end] : steps) activeWithin(start, end);
        windows = UniteRanges(std::move(windows));
    } else if (!busy.empty()) {
        windows.push_back({busy.front().startNs, busy.back().endNs});
    }
    result.free = Subtract(windows, busy);
    return result;
}

}  // namespace marey
