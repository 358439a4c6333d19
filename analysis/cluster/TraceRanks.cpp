#include "cluster/TraceRanks.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "rank/OperatorStats.hpp"
#include "load/EventFields.hpp"
#include "trace/TraceRankTables.hpp"

namespace marey {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

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

// The label of the host step window of 'group' that holds 'ns', or "" (AssignSteps' rule for
// device work without a launch).
std::string StepHolding(const TraceAnalyses& analyses, uint32_t group, TimeNs ns) {
    for (const StepWindow& window : analyses.steps)
        if (window.group == group && window.startNs <= ns && ns < window.endNs) return window.label;
    return {};
}

// Ascend: the communication operators on HCCL's "Group N Communication" threads, the trace's own
// record of each operator ("hcom_allReduce__586_0_1", named alike on every rank, as
// communication.json names them).
void AddHcclOperators(const TraceModel& model, const TraceAnalyses& analyses, uint32_t group,
                      ClusterRank& rank) {
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        if (track.kind != TrackKind::kThread || track.process >= model.processes.size() ||
            model.GroupOf(t) != group ||
            model.Name(model.processes[track.process].name) != "HCCL" ||
            model.Name(track.name).find("Communication") == std::string_view::npos)
            continue;
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                const std::string name(model.Name(row.name[i]));
                RankCollective collective;
                collective.step = StepHolding(analyses, group, row.start[i]);
                collective.name = rank.Intern(name);
                collective.group = rank.Intern("");
                collective.p2p = name.find("send") != std::string::npos ||
                                 name.find("receive") != std::string::npos ||
                                 name.find("recv") != std::string::npos;
                collective.startNs = row.start[i];
                collective.elapseNs = std::max<TimeNs>(0, row.end[i] - row.start[i]);
                collective.transitNs = collective.elapseNs;
                rank.collectives.push_back(std::move(collective));
            }
    }
}

}  // namespace

ClusterRank SummarizeTraceRank(const TraceModel& model, const TraceAnalyses& analyses,
                               const std::string& path) {
    ClusterRank rank;
    rank.path = path;
    if (analyses.ranks.empty()) return rank;
    const RankTraceAnalysis& own = analyses.ranks.front();
    if (own.rankFrom != RankIdSource::kOrder) {
        rank.rankId = static_cast<int>(own.rank);
        rank.rankSource = own.rankFrom == RankIdSource::kDistributedInfo
                              ? "the trace's distributedInfo.rank"
                              : "the trace's file name";
    }
    if (!own.unavailable.empty()) {
        rank.problems.push_back(path + ": no device analyses: " + own.unavailable);
        return rank;
    }
    const StepTrace steps = StepTraceFromAnalyses(analyses);
    rank.steps = steps.rows;
    rank.hasPhase = steps.hasColumn;
    rank.overview = OverviewFromSteps(rank.steps);
    const KernelTable kernels = KernelTableFromActivities(model, analyses);
    for (const OperatorStat& stat : OperatorsFromKernels(kernels).byType)
        rank.operatorTypes.push_back({stat.name, stat.count, stat.totalNs});
    if (!rank.overview.valid) rank.overview = OverviewFromKernels(kernels);

    // One collective per communication kernel of a GPU stream. Where PyTorch recorded the
    // collective on its kernel, it is named by its process group, its kind and its sequence number
    // in the group (else its place among the group's collectives of that kind in the step), and
    // its group is the process group; else by kernel name and place in the step, in no group.
    std::map<std::pair<uint32_t, std::string>, uint32_t> seen;
    for (const DeviceActivity& activity : analyses.activities.activities) {
        const DeviceStream& stream = analyses.activities.streams[activity.stream];
        if (stream.group != own.group || stream.ascend ||
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
        RankCollective collective;
        collective.step =
            activity.step == kNoStep ? std::string() : analyses.steps[activity.step].label;
        collective.name = rank.Intern(name + (recorded && fields.sequence
                                                  ? " seq " + std::to_string(*fields.sequence)
                                                  : "#" + std::to_string(place)));
        collective.group = rank.Intern(recorded ? std::string(fields.group) : std::string());
        collective.p2p =
            IsPointToPoint(kernel) || fields.collective == "send" || fields.collective == "recv";
        collective.startNs = activity.startNs;
        collective.elapseNs = std::max<TimeNs>(0, activity.endNs - activity.startNs);
        collective.transitNs = collective.elapseNs;
        rank.collectives.push_back(std::move(collective));
    }
    AddHcclOperators(model, analyses, own.group, rank);
    return rank;
}

void EstimateCollectiveWaits(std::vector<ClusterRank>& ranks, const std::vector<bool>& fromTrace) {
    std::map<std::pair<std::string, std::string>, TimeNs> shortest;
    for (size_t r = 0; r < ranks.size(); ++r) {
        if (!fromTrace[r]) continue;
        for (const RankCollective& c : ranks[r].collectives) {
            auto [it, inserted] = shortest.try_emplace({c.step, ranks[r].Name(c.name)}, c.elapseNs);
            if (!inserted) it->second = std::min(it->second, c.elapseNs);
        }
    }
    for (size_t r = 0; r < ranks.size(); ++r) {
        if (!fromTrace[r]) continue;
        for (RankCollective& c : ranks[r].collectives) {
            const TimeNs transfer = shortest[{c.step, ranks[r].Name(c.name)}];
            c.transitNs = transfer;
            c.waitNs = c.elapseNs - transfer;
        }
    }
}

bool IsRankTraceFileName(const std::string& fileName) {
    std::string name = fileName;
    if (EndsWith(name, ".gz")) name.resize(name.size() - 3);
    if (!EndsWith(name, ".json")) return false;
    if (name.find(".pt.trace.") != std::string::npos) return true;
    if (name.find("trace") != std::string::npos) return true;
    for (const char* marker : {"rank-", "rank_"}) {
        const size_t at = name.find(marker);
        if (at != std::string::npos && at + 5 < name.size() &&
            std::isdigit(static_cast<unsigned char>(name[at + 5])))
            return true;
    }
    return false;
}

}  // namespace marey
