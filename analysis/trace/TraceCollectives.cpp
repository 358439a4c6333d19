#include "trace/TraceCollectives.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "load/EventFields.hpp"

namespace marey {
namespace {

// "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, …)" →
// "ncclKernel_AllReduce_RING_LL_Sum_float".
std::string ShortKernelName(std::string_view name) {
    const size_t paren = name.find('(');
    std::string_view head = name.substr(0, paren);
    while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
    return std::string(head.empty() ? name : head);
}

bool IsPointToPoint(const std::string& name) {
    return name.find("SendRecv") != std::string::npos || name.find("Send") != std::string::npos ||
           name.find("Recv") != std::string::npos;
}

// The label of the step window of 'group' that holds 'ns', or "" (AssignSteps' rule for device
// work without a launch).
std::string StepHolding(const TraceAnalyses& analyses, const StepFinder& steps, uint32_t group,
                        TimeNs ns) {
    const uint32_t step = steps.Holding(group, ns);
    return step == kNoStep ? std::string() : analyses.steps[step].label;
}

void AddGpuCollectives(const TraceModel& model, const TraceAnalyses& analyses, uint32_t group,
                       const std::vector<uint32_t>* indices, std::vector<TraceCollective>& out) {
    std::map<std::pair<uint32_t, std::string>, uint32_t> seen;
    const std::vector<DeviceActivity>& all = analyses.activities.activities;
    const size_t count = indices ? indices->size() : all.size();
    for (size_t i = 0; i < count; ++i) {
        const DeviceActivity& activity = all[indices ? (*indices)[i] : i];
        const DeviceStream& stream = analyses.activities.streams[activity.stream];
        if (stream.group != group || stream.ascend ||
            activity.kind.activityClass != ActivityClass::kCommunication)
            continue;
        const SliceAddress& slice = activity.slice;
        const CollectiveFields fields = ReadCollectiveFields(
            model.TextOf(slice.track), model.tracks[slice.track].rows[slice.row].Ref(slice.index));
        const std::string kernel = ShortKernelName(model.Name(activity.name));
        const bool recorded = !fields.collective.empty() && !fields.group.empty();
        const std::string name =
            recorded ? "pg " + std::string(fields.group) + " " + std::string(fields.collective)
                     : kernel;
        const uint32_t place = seen[{activity.step, name}]++;
        TraceCollective collective;
        collective.step =
            activity.step == kNoStep ? std::string() : analyses.steps[activity.step].label;
        collective.name =
            name + (recorded && fields.sequence ? " seq " + std::to_string(*fields.sequence)
                                                : "#" + std::to_string(place));
        collective.group = recorded ? std::string(fields.group) : std::string();
        collective.p2p =
            IsPointToPoint(kernel) || fields.collective == "send" || fields.collective == "recv";
        collective.startNs = activity.startNs;
        collective.elapseNs = std::max<TimeNs>(0, activity.endNs - activity.startNs);
        out.push_back(std::move(collective));
    }
}

void AddHcclOperators(const TraceModel& model, const TraceAnalyses& analyses, uint32_t group,
                      std::vector<TraceCollective>& out) {
    const StepFinder steps(analyses.steps);
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        if (track.kind != TrackKind::kThread || track.process >= model.processes.size() ||
            model.GroupOf(t) != group || track.role != TrackRole::kCommunicationPlane ||
            model.Name(track.name).find("Communication") == std::string_view::npos)
            continue;
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                TraceCollective collective;
                collective.name = std::string(model.Name(row.name[i]));
                collective.step = StepHolding(analyses, steps, group, row.start[i]);
                collective.p2p = collective.name.find("send") != std::string::npos ||
                                 collective.name.find("receive") != std::string::npos ||
                                 collective.name.find("recv") != std::string::npos;
                collective.startNs = row.start[i];
                collective.elapseNs = std::max<TimeNs>(0, row.end[i] - row.start[i]);
                out.push_back(std::move(collective));
            }
    }
}

}  // namespace

std::vector<TraceCollective> FindTraceCollectives(const TraceModel& model,
                                                  const TraceAnalyses& analyses, uint32_t group,
                                                  const std::vector<uint32_t>* activities) {
    std::vector<TraceCollective> collectives;
    AddGpuCollectives(model, analyses, group, activities, collectives);
    AddHcclOperators(model, analyses, group, collectives);
    return collectives;
}

}  // namespace marey
