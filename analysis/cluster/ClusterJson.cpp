#include "cluster/ClusterJson.hpp"

#include <algorithm>

#include "cluster/ClusterReport.hpp"
#include "cluster/ParallelCommunication.hpp"
#include "report/JsonWriter.hpp"
#include "report/ResourcesJson.hpp"
#include "report/OverviewJson.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

constexpr size_t kFirstProblems = 20;

// The groups of a group difference, slowest first, and the phases that carry it.
void WriteDifference(JsonObject& o, const GroupDifference& difference) {
    JsonArrayOfObjects(
        o.Key("rank_groups"), difference.groups, [&](JsonObject& g, const RankGroupFigures& group) {
            WriteRankIds(g.Key("ranks"), group.ranks);
            g.Int("average_step_ns", group.averageStepNs);
            g.Int("median_step_ns", group.medianStepNs);
            g.Key("reference") +=
                &group == &difference.groups[difference.reference] ? "true" : "false";
        });
    o.Int("difference_ns", difference.differenceNs);
    o.Real("steps_share", difference.stepsShare);
    JsonArrayOfObjects(o.Key("phases"), difference.phases,
                       [&](JsonObject& p, const PhaseDifference& phase) {
                           p.String("phase", StepColumnKey(phase.column, difference.layout));
                           p.Int("difference_ns", phase.differenceNs);
                       });
}

void WriteFinding(JsonObject& o, const ClusterFinding& f) {
    o.String("kind", ClusterFindingKindName(f.kind));
    o.String("group", f.group);
    WriteRankIds(o.Key("ranks"), f.ranks);
    WriteRankIds(o.Key("cause"),
                 std::vector<int>(f.ranks.begin(), f.ranks.begin() + static_cast<long>(f.causes)));
    JsonArray(o.Key("steps"), f.steps,
              [](std::string& s, const std::string& step) { AppendJsonString(s, step); });
    if (f.difference) WriteDifference(o, *f.difference);
    if (f.dominant) {
        o.Int("step_ns", f.dominant->stepNs);
        o.Int("median_step_ns", f.dominant->medianStepNs);
        o.Int("average_step_ns", f.dominant->averageStepNs);
    }
    if (!f.unitKind.empty()) {
        if (f.unitKind == "stage") o.Int("stage", f.unitIndex);
        JsonObject unit(o.Key("parallel_unit"));
        unit.String("kind", f.unitKind);
        if (f.unitIndex >= 0) unit.Int("index", f.unitIndex);
        WriteRankIds(unit.Key("ranks"), f.ranks);
    }
    o.String("text", f.text);
}

// The layout (cluster/ParallelLayout.hpp); null when nothing says it.
void WriteParallelLayout(std::string& out, const Cluster& cluster) {
    const ParallelLayout& layout = cluster.parallel;
    if (!layout.Known()) {
        out += "null";
        return;
    }
    JsonObject o(out);
    o.String("source", layout.source);
    o.String("how", layout.how);
    o.Bool("inferred", layout.inferred);
    {
        JsonObject sizes(o.Key("sizes"));
        sizes.Int("dp", layout.sizes.dp), sizes.Int("pp", layout.sizes.pp);
        sizes.Int("tp", layout.sizes.tp), sizes.Int("cp", layout.sizes.cp);
        sizes.Int("ep", layout.sizes.ep);
    }
    JsonArrayOfObjects(o.Key("groups"), layout.groups,
                       [](JsonObject& g, const ParallelGroup& group) {
                           g.String("kind", group.kind);
                           g.String("name", group.name);
                           WriteRankIds(g.Key("ranks"), group.ranks);
                       });
    JsonArrayOfObjects(o.Key("stages"), layout.stages,
                       [](JsonObject& s, const ParallelStage& stage) {
                           s.Int("stage", stage.stage);
                           WriteRankIds(s.Key("ranks"), stage.ranks);
                       });
    // Each rank's coordinates; a dimension the layout does not place it in is left out.
    JsonArrayOfObjects(o.Key("places"), layout.places, [](JsonObject& p, const RankPlace& place) {
        p.Int("rank", place.rank);
        const std::pair<const char*, int> coordinates[] = {{"dp", place.dp},
                                                           {"pp", place.pp},
                                                           {"tp", place.tp},
                                                           {"cp", place.cp},
                                                           {"ep", place.ep}};
        for (const auto& [key, value] : coordinates)
            if (value >= 0) p.Int(key, value);
    });
    JsonArrayOfObjects(o.Key("communication"), CommunicationByGroupKind(cluster),
                       [](JsonObject& c, const GroupKindCommunication& kind) {
                           c.String("kind", kind.kind);
                           c.Int("elapse_ns", kind.elapseNs);
                           c.Int("wait_ns", kind.waitNs);
                           c.Int("operators", static_cast<int64_t>(kind.operators));
                       });
    JsonArray(o.Key("notes"), layout.notes,
              [](std::string& text, const std::string& note) { AppendJsonString(text, note); });
}

}  // namespace

std::string ClusterToJson(const Cluster& cluster) {
    const ClusterReport report = BuildClusterReport(cluster);
    std::string out;
    {
        JsonObject root(out);
        root.String("source", ClusterSourceName(cluster.source));
        root.Int("ranks", static_cast<int64_t>(cluster.ranks.size()));
        JsonArray(root.Key("rank_ids"), cluster.ranks,
                  [](std::string& o, const ClusterRank& r) { o += ToString(r.Id()); });
        // As runs [first, last]: a damaged rank id of a million is one run, not a million ids.
        JsonArray(root.Key("missing_rank_ids"), RankRuns(RankNumbers(cluster.missingRanks)),
                  [](std::string& o, const std::pair<int, int>& run) {
                      o +=
                          "[" + std::to_string(run.first) + ", " + std::to_string(run.second) + "]";
                  });
        WriteRankIds(root.Key("duplicate_rank_ids"), RankNumbers(cluster.duplicateRanks));
        // Each rank's overview as the Overview by rank draws it, with the keys of the rank's own
        // "overview" (`marey stats RANK --json`): the same figures by the same rule.
        JsonArrayOfObjects(root.Key("rank_figures"), cluster.ranks,
                           [](JsonObject& o, const ClusterRank& rank) {
                               o.Int("rank", rank.Id().value());
                               o.String("data_verdict", DataVerdictKey(rank.dataVerdict.kind));
                               WriteFlopsSummary(o, rank.flops, rank.flopsSource);
                               WritePeakMemory(o, rank.peakMemory);
                               if (!rank.overview.valid) {
                                   o.Bool("available", false);
                                   return;
                               }
                               o.String("source", rank.overview.source);
                               WriteOverviewFigures(o, rank.overview);
                           });
        root.Int("steps", static_cast<int64_t>(cluster.steps.size()));
        JsonArray(root.Key("step_ids"), cluster.steps,
                  [](std::string& o, const std::string& s) { AppendJsonString(o, s); });
        JsonArrayOfObjects(root.Key("slow_ranks"), report.slowRanks,
                           [](JsonObject& o, const SlowRank& slow) {
                               o.Int("rank", slow.rankId.value());
                               o.String("phase", StepColumnKey(slow.column, slow.layout));
                               o.Int("value_ns", slow.valueNs);
                               o.Int("median_ns", slow.medianNs);
                               o.Int("mad_ns", slow.madNs);
                           });
        JsonArrayOfObjects(root.Key("slow_links"), report.slowLinks,
                           [](JsonObject& o, const SlowLink& slow) {
                               o.Int("src", slow.srcRank);
                               o.Int("dst", slow.dstRank);
                               o.String("transport", slow.transport);
                               o.Real("bandwidth_gbps", slow.bandwidthGBps);
                               o.Real("median_gbps", slow.medianGBps);
                           });
        JsonArrayOfObjects(root.Key("groups"), cluster.groups,
                           [](JsonObject& o, const ClusterGroup& group) {
                               o.String("name", group.name);
                               o.String("kind", group.kind);
                               WriteRankIds(o.Key("ranks"), group.ranks);
                           });
        WriteParallelLayout(root.Key("parallel"), cluster);
        JsonArrayOfObjects(root.Key("findings"), report.findings, WriteFinding);
        JsonObject problems(root.Key("problems"));
        problems.Int("count", static_cast<int64_t>(cluster.problems.size()));
        std::vector<std::string> first(
            cluster.problems.begin(),
            cluster.problems.begin() +
                static_cast<long>(std::min(kFirstProblems, cluster.problems.size())));
        JsonArray(problems.Key("first"), first,
                  [](std::string& o, const std::string& p) { AppendJsonString(o, p); });
    }
    return out;
}

std::string ClusterToText(const Cluster& cluster) {
    std::string out =
        "cluster " + cluster.root + " (" + ClusterSourceName(cluster.source) +
        "): " + CountText(cluster.ranks.size(), "rank", "ranks") + ", " +
        CountText(cluster.steps.size(), "step", "steps") + ", " +
        CountText(cluster.groups.size(), "communication group", "communication groups") + "\n";
    if (cluster.parallel.Known()) {
        out += "parallel layout: " + ParallelLayoutText(cluster.parallel) + "\n";
        for (const std::string& note : cluster.parallel.notes) out += "  note: " + note + "\n";
        const std::string split = DescribeCommunicationByGroupKind(
            CommunicationByGroupKind(cluster), cluster.ranks.size());
        if (!split.empty()) out += "communication by parallel group: " + split + "\n";
    }
    const ClusterReport report = BuildClusterReport(cluster);
    const std::vector<SlowRank>& slowRanks = report.slowRanks;
    // "none" only where nothing below says otherwise: ranks that differ in groups are no single
    // slow rank, yet not a cluster without one; ranks read from traces carry no link data.
    const bool groupsDiffer = std::any_of(
        report.findings.begin(), report.findings.end(),
        [](const ClusterFinding& f) { return f.kind == ClusterFindingKind::kRanksDiffer; });
    bool anyLink = false;
    for (const ClusterRank& rank : cluster.ranks) anyLink |= !rank.links.empty();
    out += "slow ranks: " + std::string(!slowRanks.empty() ? "\n"
                                        : groupsDiffer
                                            ? "no single one; the ranks differ in groups (below)\n"
                                            : "none\n");
    for (const SlowRank& slow : slowRanks) out += "  " + DescribeSlowRank(slow) + "\n";
    const std::vector<SlowLink>& slowLinks = report.slowLinks;
    out += "slow links: " + std::string(!slowLinks.empty() ? "\n"
                                        : anyLink          ? "none\n"
                                                           : "no link data\n");
    for (const SlowLink& slow : slowLinks) out += "  " + DescribeSlowLink(slow) + "\n";
    for (const ClusterFinding& finding : report.findings) out += finding.text + "\n";
    if (!cluster.problems.empty())
        out += CountText(cluster.problems.size(), "problem", "problems") + ":\n";
    for (size_t i = 0; i < cluster.problems.size() && i < kFirstProblems; ++i)
        out += "  " + cluster.problems[i] + "\n";
    return out;
}

}  // namespace marey
