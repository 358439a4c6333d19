#include "compare/RunDamage.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/TextFormat.hpp"
#include "rank/ProfilerSteps.hpp"

namespace marey {
namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

std::string PercentText(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", share * 100);
    return text;
}

void AddModelDamage(const TraceModel& model, const std::string& file,
                    std::vector<std::string>& damage) {
    const ImportReport& report = model.report;
    if (report.truncated)
        damage.push_back(file + ": truncated: the file ends before its events do; only the " +
                         "events before the cut were loaded");
    const double events = static_cast<double>(std::max<uint64_t>(report.eventCount, 1));
    const double share = static_cast<double>(report.problemCount) / events;
    if (share > kMaxProblemShare)
        damage.push_back(
            file + ": " + CountText(report.problemCount, "import problem", "import problems") +
            " in " + CountText(report.eventCount, "event", "events") + " (" + PercentText(share) +
            "), above the " + PercentText(kMaxProblemShare) + " a check accepts");
    // A step slice that never ended: the recording stopped inside the step.
    std::set<std::string> cut;
    for (const UnfinishedSlice& slice : model.unfinished) {
        const std::string_view name =
            model.Name(model.tracks[slice.track].rows[slice.row].name[slice.index]);
        if (name.substr(0, kStepPrefix.size()) == kStepPrefix) cut.emplace(name);
    }
    for (const std::string& name : cut)
        damage.push_back(file + ": " + name + " never ended: the recording stopped inside it");
}

}  // namespace

std::vector<std::string> FindRunDamage(const LoadedRank& rank) {
    std::vector<std::string> damage;
    if (!rank.model) return damage;
    const TraceModel& model = *rank.model;
    const std::string file = model.sources.empty() ? rank.path : model.sources.front().path;
    AddModelDamage(model, file, damage);
    // Steps the profiler's own table lists and the trace lacks: the trace was cut (or its step
    // slices were), and a step-by-step comparison would silently skip them.
    const RankAnalysis& analysis = *rank.analysis;
    if (!analysis.steps || analysis.stepsFromTrace) return damage;
    std::set<std::string> placed;
    for (const ProfilerStepSpan& span : FindProfilerSteps(model)) placed.insert(span.step);
    if (placed.empty()) return damage;  // a trace without step slices places none of them
    std::string missing;
    size_t count = 0;
    for (const StepRow& row : analysis.steps->rows)
        if (!row.step.empty() && !placed.count(row.step)) {
            if (count++ < 10) missing += (missing.empty() ? "" : ", ") + row.step;
        }
    if (count)
        damage.push_back(file + ": " + std::to_string(count) + " step" + (count == 1 ? "" : "s") +
                         " of step_trace_time.csv not in the trace (" + missing +
                         (count > 10 ? ", …" : "") + "): its steps were cut");
    return damage;
}

}  // namespace marey
