#include "rank/TraceSummary.hpp"

#include <cstdio>

namespace marey {

TraceSummary Summarize(const TraceModel& model, size_t topCount) {
    TraceSummary summary;
    const ImportReport& report = model.report;
    summary.events = report.eventCount;
    for (size_t c = 0; c < report.phases.byChar.size(); ++c)
        if (report.phases.byChar[c])
            summary.eventsByPhase.push_back(
                {std::string(1, static_cast<char>(c)), report.phases.byChar[c]});
    if (report.phases.other) summary.eventsByPhase.push_back({"other", report.phases.other});
    summary.processes = model.processes.size();
    for (const Process& process : model.processes) summary.tracks += process.tracks.size();
    summary.slices = model.sliceCount;
    for (const Track& track : model.tracks) summary.overlappingSlices += track.overlapSliceCount;
    summary.flowsMatched = report.matchedFlows;
    summary.flowsUnmatched = report.unmatchedFlowEvents;
    summary.counterSamples = model.counterSampleCount;
    summary.instants = model.instantCount;
    summary.firstNs = model.firstNs;
    summary.lastNs = model.lastNs;
    summary.problemCount = report.problemCount;
    summary.problems = report.problems;
    RangeStatsResult all = ComputeRangeStats(model, AllSliceTracks(model), INT64_MIN, INT64_MAX);
    if (all.byName.size() > topCount) all.byName.resize(topCount);
    summary.top = std::move(all.byName);
    return summary;
}

}  // namespace marey
