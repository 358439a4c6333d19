// Differences between ranks that median and MAD cannot see: two ranks against two, a warm-up
// step that dominates the average, three groups; the rank the others wait for named before the
// waiting ranks; jitter alone raises nothing; and the real MindInsight cluster_propose sample,
// whose ranks 2-3 average three times ranks 0-1 because of step 1 alone.
#include <doctest/doctest.h>

#include <simdjson.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "cluster/Cluster.hpp"
#include "loading/ClusterLoader.hpp"
#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterJson.hpp"
#include "cluster/ClusterSteps.hpp"
#include "cluster/GroupDifference.hpp"

using namespace marey;

namespace {

constexpr TimeNs kMs = 1000000;

// A rank whose step s computes computingNs[s], then communicates commNs and idles freeNs (not
// overlapped): its step time is their sum.
ClusterRank MakeRank(int rankId, const std::vector<TimeNs>& computingNs, TimeNs commNs,
                     TimeNs freeNs) {
    ClusterRank rank;
    rank.rankId = RankId(rankId);
    rank.hasPhase[kStepComputing] = rank.hasPhase[kStepCommNotOverlapped] =
        rank.hasPhase[kStepFree] = true;
    for (size_t s = 0; s < computingNs.size(); ++s) {
        StepRow row;
        row.step = std::to_string(s + 1);
        row.ns[kStepComputing] = computingNs[s];
        row.ns[kStepCommNotOverlapped] = commNs;
        row.ns[kStepFree] = freeNs;
        rank.steps.push_back(row);
    }
    rank.overview = OverviewFromSteps(rank.steps);
    return rank;
}

Cluster MakeCluster(std::vector<ClusterRank> ranks) {
    Cluster cluster;
    for (const StepRow& row : ranks.front().steps) cluster.steps.push_back(row.step);
    cluster.ranks = std::move(ranks);
    return cluster;
}

std::vector<ClusterFinding> OfKind(const std::vector<ClusterFinding>& findings,
                                   ClusterFindingKind kind) {
    std::vector<ClusterFinding> out;
    for (const ClusterFinding& f : findings)
        if (f.kind == kind) out.push_back(f);
    return out;
}

}  // namespace

TEST_CASE("two ranks against two are a group difference carried by the step that differs") {
    // Ranks 2-3 take 2,200 ms in step 1 (computing), every other step takes 180 ms on all four.
    const std::vector<TimeNs> usual(5, 170 * kMs);
    std::vector<TimeNs> early = usual;
    early[0] = 2190 * kMs;
    const Cluster cluster =
        MakeCluster({MakeRank(0, usual, 8 * kMs, 2 * kMs), MakeRank(1, usual, 8 * kMs, 2 * kMs),
                     MakeRank(2, early, 8 * kMs, 2 * kMs), MakeRank(3, early, 8 * kMs, 2 * kMs)});
    const StepTable averaged = BuildStepTable(cluster, std::nullopt);
    const std::vector<SlowRank> slow = FindSlowRanks(averaged);
    CHECK(slow.empty());  // median and MAD see nothing in two against two
    const auto difference = FindGroupDifference(cluster, averaged, slow);
    REQUIRE(difference);
    REQUIRE(difference->groups.size() == 2);
    CHECK(difference->groups[0].ranks == std::vector<int>{2, 3});
    CHECK(difference->groups[1].ranks == std::vector<int>{0, 1});
    CHECK(difference->reference == 1);
    CHECK(difference->groups[0].averageStepNs == (2200 + 4 * 180) * kMs / 5);
    CHECK(difference->groups[0].medianStepNs == 180 * kMs);  // the median step beside the average
    CHECK(difference->groups[1].averageStepNs == 180 * kMs);
    CHECK(difference->differenceNs == 404 * kMs);
    CHECK(difference->steps == std::vector<std::string>{"1"});
    CHECK(difference->stepsShare == doctest::Approx(1.0));
    REQUIRE(difference->phases.size() == 1);
    CHECK(difference->phases[0].column == kStepComputing);
    CHECK(DifferingRanks(*difference) == std::vector<int>{2, 3});
    const std::string text = DescribeGroupDifference(*difference);
    CHECK(text.find("ranks 2-3") != std::string::npos);
    CHECK(text.find("Step 1 carries 100 %") != std::string::npos);
    CHECK(text.find("median step 180.000 ms") != std::string::npos);

    // The findings say it first, and the JSON carries the ranks and the step.
    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster);
    REQUIRE_FALSE(findings.empty());
    CHECK(findings[0].kind == ClusterFindingKind::kRanksDiffer);
    CHECK(findings[0].ranks == std::vector<int>{2, 3});
    CHECK(findings[0].steps == std::vector<std::string>{"1"});
    // The dominant step is the groups' step: said once.
    CHECK(OfKind(findings, ClusterFindingKind::kStepDominates).empty());
    const std::string json = ClusterToJson(cluster);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(!parser.parse(json).get(root));
    simdjson::dom::object finding = root["findings"].at(0);
    CHECK(std::string_view(finding["kind"]) == "ranks_differ");
    CHECK(simdjson::dom::array(finding["ranks"]).size() == 2);
    CHECK(int64_t(finding["ranks"].at(0)) == 2);
    CHECK(std::string_view(finding["steps"].at(0)) == "1");
    CHECK(simdjson::dom::array(finding["cause"]).size() == 0);
    CHECK(int64_t(finding["rank_groups"].at(0)["median_step_ns"]) == 180 * kMs);
    CHECK(bool(finding["rank_groups"].at(1)["reference"]));
    CHECK(std::string_view(finding["phases"].at(0)["phase"]) == "computing");
}

TEST_CASE("a warm-up step on every rank dominates the average and is no group difference") {
    std::mt19937_64 random(7);
    std::uniform_int_distribution<TimeNs> jitter(-kMs / 2, kMs / 2);
    std::vector<ClusterRank> ranks;
    for (int r = 0; r < 8; ++r) {
        std::vector<TimeNs> computing = {990 * kMs};
        for (int s = 1; s < 6; ++s) computing.push_back(90 * kMs + jitter(random));
        ranks.push_back(MakeRank(r, computing, 8 * kMs, 2 * kMs));
    }
    const Cluster cluster = MakeCluster(std::move(ranks));
    const StepTable averaged = BuildStepTable(cluster, std::nullopt);
    CHECK_FALSE(FindGroupDifference(cluster, averaged, FindSlowRanks(averaged)));
    const auto dominant = FindDominantStep(cluster);
    REQUIRE(dominant);
    CHECK(dominant->step == "1");
    CHECK(dominant->stepNs == 1000 * kMs);
    CHECK(dominant->medianStepNs > 99 * kMs);
    CHECK(dominant->medianStepNs < 101 * kMs);
    CHECK(dominant->averageStepNs > 249 * kMs);  // (1000 + 5 × 100) / 6
    CHECK(dominant->averageStepNs < 251 * kMs);
    CHECK(DescribeDominantStep(*dominant).find("Step 1 dominates the average") == 0);
    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster);
    CHECK(OfKind(findings, ClusterFindingKind::kRanksDiffer).empty());
    const std::vector<ClusterFinding> said = OfKind(findings, ClusterFindingKind::kStepDominates);
    REQUIRE(said.size() == 1);
    CHECK(said[0].steps == std::vector<std::string>{"1"});
    CHECK(said[0].ranks.empty());
    // A step only 50 % longer among ten is no dominant step: it moves the average by 5 %.
    std::vector<ClusterRank> mild;
    for (int r = 0; r < 8; ++r) {
        std::vector<TimeNs> computing(10, 90 * kMs);
        computing[0] = 140 * kMs;
        mild.push_back(MakeRank(r, computing, 8 * kMs, 2 * kMs));
    }
    CHECK_FALSE(FindDominantStep(MakeCluster(std::move(mild))));
}

TEST_CASE("three groups of ranks are named slowest first against the fastest") {
    // Ranks 0-3 take 100 ms a step, 4-7 130 ms, 8-11 160 ms: the difference is free time.
    std::vector<ClusterRank> ranks;
    for (int r = 0; r < 12; ++r)
        ranks.push_back(
            MakeRank(r, std::vector<TimeNs>(5, 80 * kMs), 10 * kMs, (10 + 30 * (r / 4)) * kMs));
    const Cluster cluster = MakeCluster(std::move(ranks));
    const StepTable averaged = BuildStepTable(cluster, std::nullopt);
    const std::vector<SlowRank> slow = FindSlowRanks(averaged);
    CHECK(slow.empty());
    const auto difference = FindGroupDifference(cluster, averaged, slow);
    REQUIRE(difference);
    REQUIRE(difference->groups.size() == 3);
    CHECK(difference->groups[0].ranks == std::vector<int>{8, 9, 10, 11});
    CHECK(difference->groups[1].ranks == std::vector<int>{4, 5, 6, 7});
    CHECK(difference->groups[2].ranks == std::vector<int>{0, 1, 2, 3});
    CHECK(difference->reference == 2);  // all of one size: the fastest is the yardstick
    CHECK(difference->compared == 0);
    CHECK(difference->differenceNs == 60 * kMs);
    REQUIRE(difference->phases.size() == 1);
    CHECK(difference->phases[0].column == kStepFree);
    CHECK(difference->phases[0].differenceNs == 60 * kMs);
    // Every step carries it alike: no step is singled out.
    CHECK(difference->steps.size() == 5);
    CHECK(DescribeGroupDifference(*difference).find("Every step carries it") != std::string::npos);
    CHECK(DifferingRanks(*difference) == std::vector<int>{8, 9, 10, 11, 4, 5, 6, 7});
    // Within one step as well.
    const StepTable third = BuildStepTable(cluster, StepIndex(2));
    const auto inStep = FindGroupDifference(cluster, third, FindSlowRanks(third));
    REQUIRE(inStep);
    CHECK(inStep->groups.size() == 3);
    CHECK(inStep->steps == std::vector<std::string>{"3"});
    // The scheduling finding names the slow groups too; the group finding comes first.
    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster, averaged);
    REQUIRE_FALSE(findings.empty());
    CHECK(findings[0].kind == ClusterFindingKind::kRanksDiffer);
}

TEST_CASE("one slow rank among 1,000 is the cause named before the ranks that wait for it") {
    // A synchronous job: rank 617 computes 25 % longer, every other rank waits for it in
    // communication not overlapped, so every step takes 102 ms on every rank.
    std::mt19937_64 random(3);
    std::uniform_real_distribution<double> jitter(0.995, 1.005);
    std::vector<ClusterRank> ranks;
    for (int r = 0; r < 1000; ++r) {
        const TimeNs computing =
            r == 617 ? 100 * kMs
                     : static_cast<TimeNs>(80.0 * static_cast<double>(kMs) * jitter(random));
        ranks.push_back(
            MakeRank(r, std::vector<TimeNs>(4, computing), 100 * kMs - computing, 2 * kMs));
    }
    const Cluster cluster = MakeCluster(std::move(ranks));
    const StepTable averaged = BuildStepTable(cluster, std::nullopt);
    const std::vector<SlowRank> slow = FindSlowRanks(averaged);
    REQUIRE(slow.size() == 1);
    CHECK(slow[0].rankId == RankId(617));
    CHECK_FALSE(FindGroupDifference(cluster, averaged, slow));  // every rank takes 102 ms
    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster, averaged);
    const std::vector<ClusterFinding> comm = OfKind(findings, ClusterFindingKind::kCommunication);
    REQUIRE(comm.size() == 1);
    CHECK(comm[0].causes == 1);
    REQUIRE(comm[0].ranks.size() == 9);
    CHECK(comm[0].ranks[0] == 617);  // the cause first
    CHECK(std::count(comm[0].ranks.begin(), comm[0].ranks.end(), 617) == 1);
    CHECK(comm[0].text.find("Cause first: rank 617 (Computing") != std::string::npos);
    CHECK(OfKind(findings, ClusterFindingKind::kRanksDiffer).empty());
    const std::string json = ClusterToJson(cluster);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(!parser.parse(json).get(root));
    for (simdjson::dom::object finding : simdjson::dom::array(root["findings"])) {
        if (std::string_view(finding["kind"]) != "communication") continue;
        CHECK(int64_t(finding["ranks"].at(0)) == 617);
        REQUIRE(simdjson::dom::array(finding["cause"]).size() == 1);
        CHECK(int64_t(finding["cause"].at(0)) == 617);
    }

    // Without the step phases that flag it, the rank that waits far least is the cause.
    Cluster noPhases = cluster;
    for (ClusterRank& rank : noPhases.ranks) rank.hasPhase = {};
    const std::vector<ClusterFinding> fromShares =
        OfKind(FindClusterProblems(noPhases), ClusterFindingKind::kCommunication);
    REQUIRE(fromShares.size() == 1);
    CHECK(fromShares[0].causes == 1);
    CHECK(fromShares[0].ranks[0] == 617);
    CHECK(fromShares[0].text.find("rank 617 waits least") != std::string::npos);
}

TEST_CASE("jitter alone on 1,000 ranks is no group difference and no dominant step") {
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> jitter(0.97, 1.03);
    std::vector<ClusterRank> ranks;
    for (int r = 0; r < 1000; ++r) {
        std::vector<TimeNs> computing;
        for (int s = 0; s < 5; ++s)
            computing.push_back(
                static_cast<TimeNs>(80.0 * static_cast<double>(kMs) * jitter(random)));
        ranks.push_back(MakeRank(r, computing, 15 * kMs, 2 * kMs));
    }
    const Cluster cluster = MakeCluster(std::move(ranks));
    for (int s = -1; s < 5; ++s) {
        const StepTable table = BuildStepTable(cluster, StepIndex(s));
        CHECK_FALSE(FindGroupDifference(cluster, table, FindSlowRanks(table)));
    }
    CHECK_FALSE(FindDominantStep(cluster));
    for (const ClusterFinding& finding : FindClusterProblems(cluster)) {
        CHECK(finding.kind != ClusterFindingKind::kRanksDiffer);
        CHECK(finding.kind != ClusterFindingKind::kStepDominates);
    }
}

TEST_CASE("the real cluster_propose: ranks 2-3 differ from ranks 0-1 in step 1 alone") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    auto loaded = LoadCluster(fixtures + "/mindinsight/tests/utils/resource/cluster_propose", 2);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const Cluster& cluster = loaded.value();
    const StepTable averaged = BuildStepTable(cluster, std::nullopt);
    const std::vector<SlowRank> slow = FindSlowRanks(averaged);
    CHECK(slow.empty());
    const auto difference = FindGroupDifference(cluster, averaged, slow);
    REQUIRE(difference);
    REQUIRE(difference->groups.size() == 2);
    CHECK(difference->groups[0].ranks == std::vector<int>{2, 3});
    CHECK(difference->groups[1].ranks == std::vector<int>{0, 1});
    // About three times on average, the same median step.
    CHECK(difference->groups[0].averageStepNs > 3 * difference->groups[1].averageStepNs);
    CHECK(difference->groups[0].medianStepNs > 170 * kMs);
    CHECK(difference->groups[0].medianStepNs < 190 * kMs);
    CHECK(difference->groups[1].medianStepNs > 170 * kMs);
    CHECK(difference->groups[1].medianStepNs < 190 * kMs);
    CHECK(difference->steps == std::vector<std::string>{"1"});
    CHECK(difference->stepsShare > 0.99);
    // Forward and backward carries it, most of it waiting on Receive (the bubble).
    REQUIRE(difference->phases.size() == 2);
    CHECK(difference->phases[0].column == kStepComputing);
    CHECK(difference->phases[1].column == kStepBubble);
    const std::string text = DescribeGroupDifference(*difference);
    CHECK(text.find("Forward and backward") != std::string::npos);
    CHECK(text.find("waiting on Receive") != std::string::npos);
    // Every later step takes about the same on all four.
    for (int s = 1; s < 5; ++s) {
        const StepTable step = BuildStepTable(cluster, StepIndex(s));
        CHECK_FALSE(FindGroupDifference(cluster, step, FindSlowRanks(step)));
    }
    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster, averaged);
    REQUIRE(findings.size() >= 2);
    // Its file names make the ranks two pipeline stages, and without the time it waits on Receive
    // the second computes a third longer (its FLOPs are 3.08 times the first's, FlopsTest.cpp):
    // named as a stage first.
    CHECK(findings[0].kind == ClusterFindingKind::kCompute);
    CHECK(findings[0].unitKind == "stage");
    CHECK(findings[0].unitIndex == 1);
    CHECK(findings[0].text.rfind("Slow pipeline stage 1 (ranks 2-3): Forward and backward (its "
                                 "bubble left out) 166.684 ms on its median rank against "
                                 "124.465 ms on the other ranks', +33.9 %",
                                 0) == 0);
    CHECK(findings[1].kind == ClusterFindingKind::kRanksDiffer);
    CHECK(findings[1].ranks == std::vector<int>{2, 3});
    CHECK(findings[1].steps == std::vector<std::string>{"1"});
    // The Overview by rank says the same: ranks 2-3 spend most of their time waiting on Receive
    // (communication not overlapped), not computing. Rank 2, step 1: fp_and_bp 215,617,644 ticks
    // of 10 ns holds 1,989.431 ms of receive_alone_time.
    for (size_t r = 2; r < 4; ++r) {
        const OverviewFigures& overview = cluster.ranks[r].overview;
        TimeNs bubble = 0, forwardBackward = 0;
        for (const StepRow& row : cluster.ranks[r].steps)
            bubble += std::min(row.ns[kStepBubble], row.ns[kStepComputing]),
                forwardBackward += row.ns[kStepComputing];
        CHECK(overview.computingNs == forwardBackward - bubble);
        CHECK(overview.commNotOverlappedNs >= bubble);
        CHECK(overview.Share(overview.commNotOverlappedNs) > 0.5);
        CHECK(overview.Share(overview.pureComputingNs) < 0.5);
    }
    // Ranks 0-1 compute a larger share of a shorter step (they wait less), in less time than
    // ranks 2-3: no computing problem names them; only the stage above is one.
    for (size_t i = 1; i < findings.size(); ++i)
        CHECK(findings[i].kind != ClusterFindingKind::kCompute);
    const StepRow* rank2Step1 = cluster.ranks[2].FindStep("1");
    REQUIRE(rank2Step1 != nullptr);
    CHECK(rank2Step1->ns[kStepComputing] == 2156176440);
    CHECK(rank2Step1->ns[kStepBubble] == 1989431000);
}
