#include "cluster/TraceRanks.hpp"

#include <algorithm>
#include <map>
#include <memory>
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
    // The tables the trace opened alone makes from its device activities (RankAnalysis's
    // AnalyzeDeviceActivities): its steps were made from the trace, not written by a profiler, so
    // the overview comes from the activities, by the same rule.
    RankTables tables;
    tables.steps = StepTraceFromAnalyses(analyses);
    CommunicationOps collectives = CommunicationFromTrace(model, analyses);
    if (!collectives.ops.empty()) tables.communication = std::move(collectives);
    if (!analyses.activities.activities.empty())
        tables.kernels = KernelTableFromActivities(model, analyses);
    RankTableOrigin origin;
    origin.kernelsFromTrace = origin.stepsFromTrace = true;
    SummarizeRankTables(tables, origin, rank);
    // Kept whatever the options: a trace costs seconds to read again, its kernel table tens of
    // bytes a kernel, so each trace is read once (the Marey view's table). A trace without device
    // activities keeps none, and the Marey view asks its reader, which says why.
    if (tables.kernels)
        rank.kernels = std::make_shared<const KernelTable>(std::move(*tables.kernels));
    // The collectives' time is all transfer until EstimateCollectiveWaits splits it.
    for (RankCollective& collective : rank.collectives) collective.transitNs = collective.elapseNs;
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
