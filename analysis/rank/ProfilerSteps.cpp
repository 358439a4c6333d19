#include "rank/ProfilerSteps.hpp"

#include <algorithm>

namespace marey {

std::vector<ProfilerStepSpan> FindProfilerSteps(const TraceModel& model) {
    constexpr std::string_view kPrefix = "ProfilerStep#";
    // Names first (few), then one pass over the slices looking each name up by id.
    std::vector<int32_t> stepOfName(model.strings.size(), -1);
    std::vector<ProfilerStepSpan> steps;
    std::vector<char> found;
    for (StringId id = 1; id < model.strings.size(); ++id) {
        const std::string_view name = model.strings.Get(id);
        if (name.size() <= kPrefix.size() || name.substr(0, kPrefix.size()) != kPrefix) continue;
        stepOfName[id] = static_cast<int32_t>(steps.size());
        steps.push_back({std::string(name.substr(kPrefix.size())), 0, 0});
        found.push_back(0);
    }
    if (steps.empty()) return steps;
    for (const Track& track : model.tracks) {
        for (const Row& row : track.rows) {
            for (size_t i = 0; i < row.size(); ++i) {
                const int32_t step = stepOfName[row.name[i]];
                if (step < 0) continue;
                ProfilerStepSpan& span = steps[static_cast<size_t>(step)];
                if (!found[step] || row.start[i] < span.startNs)
                    span.startNs = row.start[i], span.endNs = row.end[i];
                found[step] = 1;
            }
        }
    }
    std::vector<ProfilerStepSpan> placed;
    for (size_t i = 0; i < steps.size(); ++i)
        if (found[i]) placed.push_back(std::move(steps[i]));
    std::sort(
        placed.begin(), placed.end(),
        [](const ProfilerStepSpan& a, const ProfilerStepSpan& b) { return a.startNs < b.startNs; });
    return placed;
}

}  // namespace marey
