#include "report/ClusterCheckReport.hpp"

#include "core/TextFormat.hpp"
#include "report/CheckReport.hpp"
#include "report/JsonWriter.hpp"
#include "report/MarkupEscape.hpp"

namespace marey {
namespace {

std::string RankList(const std::vector<int>& ranks) {
    std::string out = ranks.size() == 1 ? "rank " : "ranks ";
    for (size_t i = 0; i < ranks.size(); ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
    return out;
}

std::string RankTitle(const RankCheck& rank) {
    return "rank " + std::to_string(rank.rank);
}

// "operator MatMul_0 +100.0 % (+6.000 ms)": the largest regression of the rank's own work, or
// what else there is.
std::string OwnWorkText(const CheckResult& result) {
    if (const CheckFinding* f = LargestOwnWorkRegression(result))
        return DescribeFinding(*f) + " " + CheckChangeText(*f) + " (" +
               SignedDurationText(f->changeNs) + ")";
    return result.Failed() ? "none: step time and communication only" : "none";
}

}  // namespace

std::string ClusterVerdictText(const ClusterCheckResult& cluster) {
    const RankCheck* worst = cluster.Worst();
    if (cluster.Failed() && worst)
        return "FAIL: " + std::to_string(cluster.RanksRegressed()) + " of " +
               CountText(cluster.ranks.size(), "rank", "ranks") + " regressed; worst rank " +
               std::to_string(worst->rank) + ": " +
               CheckVerdictText(worst->result).substr(std::string("FAIL: ").size());
    return "PASS: no regression in " + CountText(cluster.ranks.size(), "rank", "ranks") + ", " +
           CountText(cluster.Improvements(), "improvement", "improvements");
}

std::string UnpairedRanksText(const ClusterCheckResult& cluster) {
    std::string out;
    if (!cluster.onlyInBaseline.empty())
        out += RankList(cluster.onlyInBaseline) + " only in the baseline";
    if (!cluster.onlyInCandidate.empty())
        out += (out.empty() ? "" : "; ") + RankList(cluster.onlyInCandidate) +
               " only in the candidate";
    return out;
}

std::string ClusterCheckToText(const ClusterCheckResult& cluster) {
    std::string out;
    for (const RankCheck& rank : cluster.ranks) {
        for (const CheckFinding& finding : rank.result.regressions)
            out += "regression: " + RankTitle(rank) + ": " + CheckFindingText(finding) + "\n";
        for (const CheckFinding& finding : rank.result.improvements)
            out += "improvement: " + RankTitle(rank) + ": " + CheckFindingText(finding) + "\n";
    }
    const std::string unpaired = UnpairedRanksText(cluster);
    if (!unpaired.empty()) out += "not compared: " + unpaired + "\n";
    out += ClusterVerdictText(cluster);
    if (const RankCheck* worst = cluster.Worst())
        out += " (" + RankTitle(*worst) + ": " + CheckStepsText(worst->result) + ")";
    return out + "\n";
}

std::string ClusterCheckToMarkdown(const ClusterCheckResult& cluster) {
    std::string out = "## marey check: **" + ClusterVerdictText(cluster) + "**\n\n";
    out += "Baseline `" + cluster.baselinePath + "`, candidate `" + cluster.candidatePath +
           "`: " + CountText(cluster.ranks.size(), "rank", "ranks") +
           " compared rank by rank, worst first: the rank whose own work regressed most (step time "
           "and "
           "communication left out: there ranks wait for each other). Changes are per step.";
    const std::string unpaired = UnpairedRanksText(cluster);
    if (!unpaired.empty()) out += " Not compared: " + unpaired + ".";
    out +=
        "\n\n| rank | verdict | regressions | improvements | median step | largest regression of "
        "its own work |\n";
    out += "|---:|---|---:|---:|---|---|\n";
    for (const RankCheck& rank : cluster.ranks) {
        const CheckResult& r = rank.result;
        out += "| " + std::to_string(rank.rank) + " | " + (r.Failed() ? "FAIL" : "PASS") + " | " +
               std::to_string(r.regressions.size()) + " | " +
               std::to_string(r.improvements.size()) + " | " + FormatDuration(r.baselineStepNs) +
               " -> " + FormatDuration(r.candidateStepNs) + " | " + OwnWorkText(r) + " |\n";
    }
    for (const RankCheck& rank : cluster.ranks) {
        const CheckResult& r = rank.result;
        if (r.regressions.empty() && r.improvements.empty()) continue;
        out += "\n### Rank " + std::to_string(rank.rank) + ": " + CheckVerdictText(r) + "\n\n";
        out += "Baseline `" + r.baselinePath + "`, candidate `" + r.candidatePath +
               "`: " + CheckStepsText(r) + ".\n";
        AppendCheckMarkdownTables(out, r, 4);
    }
    return out;
}

std::string ClusterCheckToJson(const ClusterCheckResult& cluster) {
    std::string out;
    {
        JsonObject root(out);
        root.String("verdict", cluster.Failed() ? "fail" : "pass");
        root.String("baseline", cluster.baselinePath);
        root.String("candidate", cluster.candidatePath);
        root.Int("ranks_compared", static_cast<int64_t>(cluster.ranks.size()));
        root.Int("ranks_regressed", static_cast<int64_t>(cluster.RanksRegressed()));
        if (cluster.Failed())
            root.Int("worst_rank", cluster.Worst()->rank);
        else
            root.Null("worst_rank");
        auto ints = [](std::string& text, int value) { text += std::to_string(value); };
        JsonArray(root.Key("only_in_baseline"), cluster.onlyInBaseline, ints);
        JsonArray(root.Key("only_in_candidate"), cluster.onlyInCandidate, ints);
        JsonArrayOfObjects(root.Key("ranks"), cluster.ranks,
                           [](JsonObject& item, const RankCheck& rank) {
                               item.Int("rank", rank.rank);
                               WriteCheckJson(item, rank.result);
                           });
    }
    out += '\n';
    return out;
}

std::string ClusterCheckToJunit(const ClusterCheckResult& cluster) {
    std::string suites;
    for (const RankCheck& rank : cluster.ranks)
        suites += CheckJunitSuite(rank.result, "marey check " + RankTitle(rank), 2);
    const size_t unpaired = cluster.onlyInBaseline.size() + cluster.onlyInCandidate.size();
    if (unpaired) {
        suites += "  <testsuite name=\"marey check: ranks not compared\" tests=\"" +
                  std::to_string(unpaired) + "\" failures=\"0\" errors=\"0\" skipped=\"" +
                  std::to_string(unpaired) + "\">\n";
        auto skipped = [&](const std::vector<int>& ranks, const char* why) {
            for (int rank : ranks)
                suites += "    <testcase classname=\"marey.check\" name=\"rank " +
                          std::to_string(rank) + "\">\n      <skipped message=\"" + why +
                          "\"/>\n    </testcase>\n";
        };
        skipped(cluster.onlyInBaseline, "only in the baseline");
        skipped(cluster.onlyInCandidate, "only in the candidate");
        suites += "  </testsuite>\n";
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" +
           EscapeMarkup("marey check " + cluster.baselinePath + " " + cluster.candidatePath) +
           "\">\n" + suites + "</testsuites>\n";
}

}  // namespace marey
