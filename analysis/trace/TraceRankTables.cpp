#include "trace/TraceRankTables.hpp"

#include <algorithm>
#include <string>

#include "trace/TraceCollectives.hpp"

namespace marey {
namespace {

std::string TypeOf(const DeviceActivity& activity, bool ascend) {
    switch (activity.kind.activityClass) {
        case ActivityClass::kCommunication:
            return "Communication";
        case ActivityClass::kMemory:
            return activity.kind.memory == MemoryKind::kSet
                       ? "Memset"
                       : std::string("Memcpy ") + MemoryKindName(activity.kind.memory);
        case ActivityClass::kComputation:
            return ascend ? "AI Core task" : "Kernel";
    }
    return "Kernel";
}

CoreClass CoreOf(const DeviceActivity& activity, bool ascend) {
    switch (activity.kind.activityClass) {
        case ActivityClass::kCommunication:
            return CoreClass::kCommunication;
        case ActivityClass::kMemory:
            return CoreClass::kOther;
        case ActivityClass::kComputation:
            return ascend ? CoreClass::kAiCore : CoreClass::kGpu;
    }
    return CoreClass::kOther;
}

}  // namespace

KernelTable KernelTableFromActivities(const TraceModel& model, const TraceAnalyses& analyses) {
    KernelTable table;
    if (analyses.ranks.empty()) return table;
    const uint32_t group = analyses.ranks.front().group;
    const DeviceActivities& found = analyses.activities;
    std::vector<StringId> nameOf(model.strings.size(), 0);
    for (const DeviceActivity& activity : found.activities) {
        const DeviceStream& stream = found.streams[activity.stream];
        if (stream.group != group) continue;
        StringId& name = nameOf[activity.name];
        if (name == 0) name = table.strings.Intern(model.Name(activity.name));
        KernelRow row;
        row.name = name;
        row.type = table.strings.Intern(TypeOf(activity, stream.ascend));
        row.coreClass = CoreOf(activity, stream.ascend);
        row.core = table.strings.Intern(CoreClassName(row.coreClass));
        row.step = activity.step == kNoStep
                       ? table.strings.Intern("")
                       : table.strings.Intern(analyses.steps[activity.step].label);
        row.startNs = activity.startNs;
        row.durNs = std::max<TimeNs>(0, activity.endNs - activity.startNs);
        table.rows.push_back(row);
    }
    return table;
}

StepTrace StepTraceFromAnalyses(const TraceAnalyses& analyses) {
    StepTrace trace;
    for (int phase : {kStepComputing, kStepCommNotOverlapped, kStepOverlapped, kStepCommunication,
                      kStepFree, kStepStage, kStepPreparing})
        trace.hasColumn[phase] = true;
    if (analyses.ranks.empty()) return trace;
    const RankTraceAnalysis& rank = analyses.ranks.front();
    for (const StepFigures& step : rank.steps) {
        const DeviceTime& time = step.figures.time;
        StepRow row;
        row.step = step.step;
        auto& ns = row.ns;
        ns[kStepCommunication] = time.communicationNs;
        ns[kStepOverlapped] = time.overlappedNs;
        ns[kStepCommNotOverlapped] = time.communicationNs - time.overlappedNs;
        ns[kStepCommNotOverlappedExcludeReceive] = ns[kStepCommNotOverlapped];
        ns[kStepComputing] = time.busyNs - ns[kStepCommNotOverlapped];
        ns[kStepFree] = time.temporal.idleNs;
        ns[kStepStage] = time.temporal.spanNs;
        // The host's step start, to the first activity (none: the whole step).
        const StepWindow& window = analyses.steps[step.window];
        TimeNs first = window.endNs;
        for (const auto& range : time.unions)
            if (!range.empty()) first = std::min(first, range.front().startNs);
        ns[kStepPreparing] = std::max<TimeNs>(0, first - window.startNs);
        trace.rows.push_back(std::move(row));
    }
    return trace;
}

CommunicationOps CommunicationFromTrace(const TraceModel& model, const TraceAnalyses& analyses) {
    CommunicationOps out;
    out.elapseOnly = true;
    if (analyses.ranks.empty()) return out;
    for (TraceCollective& collective :
         FindTraceCollectives(model, analyses, analyses.ranks.front().group)) {
        CommunicationOp op;
        op.step = collective.step.empty() ? std::string() : "step" + collective.step;
        op.kind = collective.p2p ? "p2p" : "collective";
        op.name = std::move(collective.name);
        op.group = std::move(collective.group);
        op.hasStart = true;
        op.startNs = collective.startNs;
        op.elapseNs = collective.elapseNs;
        out.ops.push_back(std::move(op));
    }
    return out;
}

}  // namespace marey
