// One reader of a text export's tables: the rank opened alone reads all of them, its cluster's
// summary a leaner selection of the same files by the same parsers, and both make the rank's
// figures from those tables by the same rule.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/ClusterRank.hpp"
#include "load/RankDirectory.hpp"
#include "load/RankTableFiles.hpp"
#include "rank/RankAnalysis.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

RankFiles GeneratedRank(const fs::path& dir) {
    ClusterOptions options;
    options.ranks = 2;
    options.steps = 5;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto files = FindRankFiles((dir / "rank_1_ascend_pt").string());
    REQUIRE_MESSAGE(files.ok(), files.message());
    return files.value();
}

}  // namespace

TEST_CASE("a cluster's summary reads a rank's tables with the reader of the rank opened alone") {
    const fs::path dir = test::TempDir("rank_table_files");
    RankFiles files = GeneratedRank(dir);
    files.opStatistic = (fs::path(files.outputDir) / "op_statistic.csv").string();
    std::ofstream(files.opStatistic)
        << "OP Type,Core Type,Count,Total Time(us)\nMatMul,AI_CORE,4,40\n";
    const RankTables full = ReadRankTableFiles(files);
    RankTableSelection lean;
    lean.kernelNames = lean.opStatistic = lean.communicationBandwidth = lean.operatorMemory = false;
    const RankTables summary = ReadRankTableFiles(files, lean);
    CHECK(full.problems.empty());
    CHECK(summary.problems.empty());
    REQUIRE(full.kernels.has_value());
    REQUIRE(summary.kernels.has_value());
    REQUIRE(full.kernels->rows.size() == summary.kernels->rows.size());
    CHECK(full.kernels->rows.front().name != 0);
    CHECK(summary.kernels->rows.front().name == 0);  // types, times and cores only
    CHECK(full.kernels->rows.back().durNs == summary.kernels->rows.back().durNs);
    REQUIRE(full.opStatistic.has_value());
    CHECK(full.opStatistic->rows.size() == 1);
    CHECK_FALSE(summary.opStatistic.has_value());
    REQUIRE(full.steps.has_value());
    REQUIRE(summary.steps.has_value());
    CHECK(full.steps->rows.size() == 5);
    REQUIRE(summary.communication.has_value());
    CHECK(summary.communication->ops.size() == full.communication->ops.size());
    // The summary's matrix is summed over the steps as it is read: fewer links, every entry.
    REQUIRE(summary.matrix.has_value());
    REQUIRE(full.matrix.has_value());
    size_t entries = 0;
    for (const CommunicationLink& link : summary.matrix->links) entries += link.entries;
    CHECK(entries == full.matrix->links.size());
    CHECK(summary.matrix->links.size() <= full.matrix->links.size());
    CHECK_FALSE(full.kernelsCut);

    // The same rank analysed alone and summarised for its cluster: the same figures.
    const RankAnalysis alone = AnalyzeRank(files, nullptr);
    const ClusterRank inCluster = SummarizeRankFolder(files);
    CHECK(inCluster.rankId == RankId(1));
    CHECK(inCluster.overview.rule == alone.overview.rule);
    CHECK(inCluster.overview.totalNs == alone.overview.totalNs);
    CHECK(inCluster.overview.computingNs == alone.overview.computingNs);
    CHECK(inCluster.overview.commNotOverlappedNs == alone.overview.commNotOverlappedNs);
    CHECK(inCluster.overview.freeNs == alone.overview.freeNs);
    CHECK(inCluster.steps.size() == alone.steps->rows.size());
    fs::remove_all(dir);
}

TEST_CASE("a damaged table costs only that table, named with its file, and the others are read") {
    const fs::path dir = test::TempDir("rank_table_files_damaged");
    RankFiles files = GeneratedRank(dir);
    std::ofstream(files.stepTrace, std::ios::trunc) << "not,a,step,file\n1,2\n";
    std::ofstream(files.communication, std::ios::trunc) << "{\"step1\": ";
    const RankTables tables = ReadRankTableFiles(files);
    CHECK_FALSE(tables.steps.has_value());
    REQUIRE(tables.problems.size() >= 2);
    bool stepNamed = false, communicationNamed = false;
    for (const std::string& problem : tables.problems) {
        stepNamed = stepNamed || problem.rfind(files.stepTrace, 0) == 0;
        communicationNamed = communicationNamed || problem.rfind(files.communication, 0) == 0;
    }
    CHECK(stepNamed);
    CHECK(communicationNamed);
    CHECK(tables.kernels.has_value());
    CHECK(tables.matrix.has_value());
    // A file that is not there is no problem of the tables: the view says which file is missing.
    files.opStatistic.clear();
    CHECK_FALSE(ReadRankTableFiles(files).opStatistic.has_value());
    fs::remove_all(dir);
}
