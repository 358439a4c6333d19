#include "cluster/ClusterJson.hpp"

#include "cluster/ClusterReport.hpp"
#include "report/JsonWriter.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

constexpr size_t kFirstProblems = 20;

}  // namespace

std::string ClusterToJson(const Cluster& cluster) {
    const ClusterReport report = BuildClusterReport(cluster);
    std::string out;
    {
        JsonObject root(out);
        root.String("source", cluster.source);
        root.Int("ranks", static_cast<int64_t>(cluster.ranks.size()));
        JsonArray(root.Key("rank_ids"), cluster.ranks,
                  [](std::string& o, const ClusterRank& r) { o += std::to_string(r.rankId); });
        JsonArray(root.Key("missing_rank_ids"), cluster.missingRanks,
                  [](std::string& o, int id) { o += std::to_string(id); });
        JsonArray(root.Key("duplicate_rank_ids"), cluster.duplicateRanks,
                  [](std::string& o, int id) { o += std::to_string(id); });
        root.Int("steps", static_cast<int64_t>(cluster.steps.size()));
        JsonArray(root.Key("step_ids"), cluster.steps,
                  [](std::string& o, const std::string& s) { AppendJsonString(o, s); });
        JsonArrayOfObjects(root.Key("slow_ranks"), report.slowRanks,
                           [](JsonObject& o, const SlowRank& slow) {
                               o.Int("rank", slow.rankId);
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
                               JsonArray(o.Key("ranks"), group.ranks,
                                         [](std::string& s, int id) { s += std::to_string(id); });
                           });
        JsonArrayOfObjects(root.Key("findings"), report.findings,
                           [](JsonObject& o, const ClusterFinding& f) {
                               o.String("kind", AdviceKindName(f.kind));
                               o.String("group", f.group);
                               JsonArray(o.Key("ranks"), f.ranks,
                                         [](std::string& s, int id) { s += std::to_string(id); });
                               o.String("text", f.text);
                           });
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
        "cluster " + cluster.root + " (" + cluster.source +
        "): " + CountText(cluster.ranks.size(), "rank", "ranks") + ", " +
        CountText(cluster.steps.size(), "step", "steps") + ", " +
        CountText(cluster.groups.size(), "communication group", "communication groups") + "\n";
    const ClusterReport report = BuildClusterReport(cluster);
    const std::vector<SlowRank>& slowRanks = report.slowRanks;
    out += "slow ranks: " + std::string(slowRanks.empty() ? "none\n" : "\n");
    for (const SlowRank& slow : slowRanks) out += "  " + DescribeSlowRank(slow) + "\n";
    const std::vector<SlowLink>& slowLinks = report.slowLinks;
    out += "slow links: " + std::string(slowLinks.empty() ? "none\n" : "\n");
    for (const SlowLink& slow : slowLinks) out += "  " + DescribeSlowLink(slow) + "\n";
    for (const ClusterFinding& finding : report.findings) out += finding.text + "\n";
    if (!cluster.problems.empty())
        out += CountText(cluster.problems.size(), "problem", "problems") + ":\n";
    for (size_t i = 0; i < cluster.problems.size() && i < kFirstProblems; ++i)
        out += "  " + cluster.problems[i] + "\n";
    return out;
}

}  // namespace marey
