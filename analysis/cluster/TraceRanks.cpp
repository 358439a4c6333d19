#include "cluster/TraceRanks.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "load/ParallelMetadata.hpp"
#include "rank/OperatorStats.hpp"
#include "trace/TraceCollectives.hpp"
#include "trace/TraceRankTables.hpp"

namespace marey {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

ClusterRank SummarizeTraceRank(const TraceModel& model, const TraceAnalyses& analyses,
                               const std::string& path) {
    ClusterRank rank;
    rank.path = path;
    if (analyses.ranks.empty()) return rank;
    const RankTraceAnalysis& own = analyses.ranks.front();
    if (own.rankFrom != RankIdSource::kOrder) {
        rank.rankId = RankId(static_cast<int>(own.rank));
        rank.rankSource =
            own.rankFrom == RankIdSource::kDistributedInfo ? "the trace's distributedInfo.rank"
            : own.rankFrom == RankIdSource::kCudaDevice ? "the CUDA device of the export's process"
                                                        : "the trace's file name";
    }
    // PyTorch writes the job's process groups beside the events.
    if (!model.sources.empty()) {
        const TraceText& text = model.sources.front().text;
        rank.parallel =
            ReadDistributedInfo(std::string_view(text.data(), text.size()), path, rank.problems);
    }
    if (!own.unavailable.empty()) {
        rank.problems.push_back(path + ": no device analyses: " + own.unavailable);
        return rank;
    }
    const StepTrace steps = StepTraceFromAnalyses(analyses);
    rank.steps = steps.rows;
    rank.hasPhase = steps.hasColumn;
    const KernelTable kernels = KernelTableFromActivities(model, analyses);
    for (const OperatorStat& stat : OperatorsFromKernels(kernels).byType)
        rank.operatorTypes.push_back({stat.name, stat.count, stat.totalNs});
    // The steps were made from the trace, not written by a profiler: the overview comes from the
    // activities, as for the trace opened alone (RankOverviewFigures).
    RankOverviewInputs inputs;
    inputs.kernels = &kernels;
    inputs.kernelsSource = kKernelsOfTrace;
    rank.overview = RankOverviewFigures(inputs);

    for (const TraceCollective& found : FindTraceCollectives(model, analyses, own.group)) {
        RankCollective collective;
        collective.step = found.step;
        collective.name = rank.Intern(found.name);
        collective.group = rank.Intern(found.group);
        collective.p2p = found.p2p;
        collective.startNs = found.startNs;
        collective.elapseNs = found.elapseNs;
        collective.transitNs = found.elapseNs;  // until EstimateCollectiveWaits splits it
        rank.collectives.push_back(std::move(collective));
    }
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
    // An Nsight Systems export: a process of the job (one per rank) recorded on its own.
    if (EndsWith(fileName, ".sqlite") || EndsWith(fileName, ".sqlite3")) return true;
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
