// msprof-analyze's cluster_analysis.db: a cluster written both as the database and as the text
// files of cluster_analysis_output loads into the same ranks, steps, collectives and links; a
// damaged database says what is wrong with it, naming the table and the row.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "TestSupport.hpp"
#include "cluster/ClusterAnalysisDb.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterReport.hpp"
#include "loading/ClusterLoader.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// [SECTION] The cluster, written twice

constexpr int kRanks = 4;
constexpr int kSlowRank = 2;
const char* const kSteps[] = {"1", "2"};

// The tables as msprof-analyze creates them (tables_config.py).
const char* const kSchema = R"(
CREATE TABLE ClusterStepTraceTime (step TEXT, type TEXT, "index" TEXT, computing NUMERIC,
  communication_not_overlapped NUMERIC, overlapped NUMERIC, communication NUMERIC, free NUMERIC,
  stage NUMERIC, bubble NUMERIC, communication_not_overlapped_and_exclude_receive NUMERIC,
  preparing NUMERIC, dp_index INTEGER, pp_index INTEGER, tp_index INTEGER);
CREATE TABLE ClusterCommAnalyzerTime (rank_set TEXT, step TEXT, rank_id INTEGER,
  hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, elapsed_time NUMERIC,
  transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, idle_time NUMERIC,
  synchronization_time_ratio NUMERIC, wait_time_ratio NUMERIC);
CREATE TABLE ClusterCommAnalyzerMatrix (rank_set TEXT, step TEXT, hccl_op_name TEXT,
  group_name TEXT, src_rank TEXT, dst_rank TEXT, transit_size NUMERIC, transit_time NUMERIC,
  bandwidth NUMERIC, transport_type TEXT, op_name TEXT);
CREATE TABLE CommunicationGroup (type TEXT, rank_set TEXT, group_name TEXT, group_id TEXT,
  pg_name TEXT);
)";

struct Operator {
    const char* name;
    const char* group;
    const char* rankSet;  // the key of cluster_communication.json
    std::vector<int> ranks;
};

const Operator kOperators[] = {
    {"hcom_allReduce__1_0", "111", "(0, 1, 2, 3)", {0, 1, 2, 3}},
    {"Total Op Info", "111", "(0, 1, 2, 3)", {0, 1, 2, 3}},
    {"hcom_send__2_0", "222", "p2p", {0}},
    {"hcom_receive__2_0", "222", "p2p", {1}},
};

// Decimal texts both exports hold: exact in a double and in ns.
std::string Computing(int rank, int step) {
    return std::to_string(1000 + rank + step * 10 + (rank == kSlowRank ? 500 : 0)) + ".5";
}
std::string Start(int rank, int step) {
    return "17000000" + std::to_string(10000000 + step * 1000 + rank * 10) + ".5";
}
std::string Wait(int rank) {
    return std::to_string(rank) + ".25";
}
// The ring 0→1→2→3→0 of the allreduce; 2→3 is slow.
std::string LinkTime(int src) {
    return src == 2 ? "4.5" : "0.5";
}

struct Written {
    std::string sql;  // the database's rows
    std::string stepCsv, communicationJson, matrixJson, groupJson;
};

void WriteSteps(Written& out) {
    out.stepCsv =
        "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,"
        "Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\n";
    for (int s = 1; s <= 2; ++s) {
        for (int r = 0; r < kRanks; ++r) {
            const std::string values =
                Computing(r, s) + ",200.25,50,250.25,30.125,1231.375,0,200.25,12.5";
            out.stepCsv += std::to_string(s) + ",rank," + std::to_string(r) + "," + values + "\n";
            out.sql += "INSERT INTO ClusterStepTraceTime VALUES ('" + std::to_string(s) +
                       "', 'rank', " + std::to_string(r) + ", " + values + ", 0, 0, 0);\n";
        }
        out.stepCsv += std::to_string(s) + ",stage,\"(0, 1, 2, 3)\",1,2,3,4,5,6,7,8,9\n";
        out.sql += "INSERT INTO ClusterStepTraceTime VALUES ('" + std::to_string(s) +
                   "', 'stage', '(0,1,2,3)', 1, 2, 3, 4, 5, 6, 7, 8, 9, NULL, NULL, NULL);\n";
    }
}

void WriteCommunication(Written& out) {
    std::ostringstream json;
    json << "{";
    const char* rankSets[] = {"(0, 1, 2, 3)", "p2p"};
    for (int k = 0; k < 2; ++k) {
        json << (k ? ", " : "") << "\"" << rankSets[k] << "\": {";
        for (int s = 1; s <= 2; ++s) {
            json << (s > 1 ? ", " : "") << "\"step" << s << "\": {";
            bool firstOp = true;
            for (const Operator& op : kOperators) {
                if (std::string(op.rankSet) != rankSets[k]) continue;
                json << (firstOp ? "" : ", ") << "\"" << op.name << "@" << op.group << "\": {";
                firstOp = false;
                for (size_t i = 0; i < op.ranks.size(); ++i) {
                    const int r = op.ranks[i];
                    const std::string start = Start(r, s);
                    json << (i ? ", " : "") << "\"" << r << "\": {\"Communication Time Info\": {"
                         << "\"Start Timestamp(us)\": " << start << ", \"Elapse Time(ms)\": 1.5, "
                         << "\"Transit Time(ms)\": 1, \"Wait Time(ms)\": " << Wait(r)
                         << ", \"Synchronization Time(ms)\": 0.125, \"Idle Time(ms)\": 0.5, "
                         << "\"Wait Time Ratio\": 0, \"Synchronization Time Ratio\": 0}}";
                    // The database keeps the group's ranks for every operator; the group table
                    // says which groups are point to point.
                    out.sql += "INSERT INTO ClusterCommAnalyzerTime VALUES ('" +
                               std::string(k ? "(0, 1)" : op.rankSet) + "', 'step" +
                               std::to_string(s) + "', " + std::to_string(r) + ", '" + op.name +
                               "', '" + op.group + "', " + start + ", 1.5, 1, " + Wait(r) +
                               ", 0.125, 0.5, 0, 0);\n";
                }
                json << "}";
            }
            json << "}";
        }
        json << "}";
    }
    json << "}";
    out.communicationJson = json.str();
}

void WriteMatrix(Written& out) {
    std::ostringstream json;
    json << "{\"(0, 1, 2, 3)\": {";
    for (int s = 1; s <= 2; ++s) {
        json << (s > 1 ? ", " : "") << "\"step" << s << "\": {\"hcom_allReduce__1_0@111\": {";
        for (int src = 0; src < kRanks; ++src) {
            const int dst = (src + 1) % kRanks;
            json << (src ? ", " : "") << "\"" << src << "-" << dst
                 << "\": {\"Transport Type\": \"HCCS\", \"Transit Time(ms)\": " << LinkTime(src)
                 << ", \"Transit Size(MB)\": 16.5, \"Bandwidth(GB/s)\": 20}";
            out.sql += "INSERT INTO ClusterCommAnalyzerMatrix VALUES ('(0, 1, 2, 3)', 'step" +
                       std::to_string(s) + "', 'hcom_allReduce__1_0', '111', '" +
                       std::to_string(src) + "', '" + std::to_string(dst) + "', 16.5, " +
                       LinkTime(src) + ", 20, 'HCCS', 'hcom_allReduce__1_0');\n";
        }
        // The sum of the others, as msprof-analyze names it: left out of both.
        json << "}, \"Total Op Info@111\": {\"0-1\": {\"Transport Type\": \"HCCS\", "
                "\"Transit Time(ms)\": 1, \"Transit Size(MB)\": 33, \"Bandwidth(GB/s)\": 33}}}";
        out.sql += "INSERT INTO ClusterCommAnalyzerMatrix VALUES ('(0, 1, 2, 3)', 'step" +
                   std::to_string(s) +
                   "', 'Total Op Info', '111', '0', '1', 33, 1, 33, 'HCCS', '');\n";
    }
    json << "}}";
    out.matrixJson = json.str();
    out.groupJson = R"({"collective": [[0, 1, 2, 3], [0]], "p2p": [[0, 1]]})";
    out.sql +=
        "INSERT INTO CommunicationGroup VALUES ('collective', '(0,1,2,3)', '111', 'id1', 'dp');\n"
        "INSERT INTO CommunicationGroup VALUES ('collective', '(0)', '333', 'id3', '');\n"
        "INSERT INTO CommunicationGroup VALUES ('p2p', '(0,1)', '222', 'id2', '');\n";
}

Written WriteAll() {
    Written out;
    WriteSteps(out);
    WriteCommunication(out);
    WriteMatrix(out);
    return out;
}

// root/cluster_analysis_output/cluster_analysis.db, with 'extra' run after the rows.
fs::path WriteDbCluster(const std::string& name, const std::string& extra = "") {
    const fs::path root = test::TempDir(name);
    fs::create_directories(root / "cluster_analysis_output");
    test::ExecuteSql(root / "cluster_analysis_output" / "cluster_analysis.db",
                     std::string(kSchema) + WriteAll().sql + extra);
    return root;
}

void WriteTextFiles(const fs::path& folder) {
    const Written written = WriteAll();
    fs::create_directories(folder);
    std::ofstream(folder / "cluster_step_trace_time.csv") << written.stepCsv;
    std::ofstream(folder / "cluster_communication.json") << written.communicationJson;
    std::ofstream(folder / "cluster_communication_matrix.json") << written.matrixJson;
    std::ofstream(folder / "communication_group.json") << written.groupJson;
}

// [SECTION] Comparing

// Everything the cluster views read, as text: two loads of the same cluster give the same dump.
std::string Dump(const Cluster& cluster) {
    std::ostringstream out;
    out << "steps";
    for (const std::string& step : cluster.steps) out << " " << step;
    out << "\n";
    for (const ClusterRank& rank : cluster.ranks) {
        out << "rank " << ToString(rank.Id()) << " total " << rank.overview.totalNs << "\n";
        for (int p = 0; p < kStepPhaseCount; ++p) out << rank.hasPhase[p];
        out << "\n";
        for (const StepRow& row : rank.steps) {
            out << "  step " << row.step;
            for (const TimeNs ns : row.ns) out << " " << ns;
            out << "\n";
        }
        for (const RankCollective& c : rank.collectives)
            out << "  op " << c.step << " " << rank.Name(c.name) << "@" << rank.Name(c.group)
                << " p2p " << c.p2p << " " << c.startNs << " " << c.elapseNs << " " << c.transitNs
                << " " << c.waitNs << " " << c.syncNs << " " << c.idleNs << "\n";
        for (const RankLink& link : rank.links)
            out << "  link " << rank.Name(link.op) << "@" << rank.Name(link.group) << " "
                << link.srcRank << "-" << link.dstRank << " " << link.transport << " "
                << link.transitSizeMb << " " << link.transitNs << " x" << link.count << "\n";
    }
    // Group names differ (the text files have none, the database its process groups' names).
    std::vector<std::string> groups;
    for (const ClusterGroup& group : cluster.groups)
        groups.push_back(group.kind + " " + FormatRankList(group.ranks));
    std::sort(groups.begin(), groups.end());
    for (const std::string& group : groups) out << "group " << group << "\n";
    return out.str();
}

Cluster Load(const fs::path& root) {
    auto loaded = LoadCluster(root.string(), 2);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    return std::move(loaded.value());
}

std::string Db(const fs::path& root) {
    return (root / "cluster_analysis_output" / "cluster_analysis.db").string();
}

bool HasProblem(const Cluster& cluster, const std::string& problem) {
    return std::find(cluster.problems.begin(), cluster.problems.end(), problem) !=
           cluster.problems.end();
}

}  // namespace

// [SECTION] Tests

TEST_CASE(
    "a cluster_analysis.db loads into the same ranks, steps, collectives and links as the "
    "text files") {
    const fs::path dbRoot = WriteDbCluster("cluster_db");
    const fs::path textRoot = test::TempDir("cluster_db_text");
    WriteTextFiles(textRoot / "cluster_analysis_output");
    CHECK(IsClusterPath(dbRoot.string()));
    CHECK(IsClusterPath((dbRoot / "cluster_analysis_output").string()));

    const Cluster fromDb = Load(dbRoot);
    const Cluster fromText = Load(textRoot);
    CHECK(fromDb.source == ClusterSource::kClusterAnalysisDb);
    CHECK(fromText.source == ClusterSource::kAnalysisOutput);
    // CommunicationGroup's pg_name makes ranks 0-3 the job's data-parallel group.
    CHECK(fromDb.parallel.source == "cluster_analysis.db");
    CHECK(fromDb.parallel.SizesText() == "DP 4");
    CHECK(fromDb.problems.empty());
    CHECK(fromText.problems.empty());
    CHECK(Dump(fromDb) == Dump(fromText));

    REQUIRE(fromDb.ranks.size() == kRanks);
    CHECK(fromDb.steps == std::vector<std::string>{"1", "2"});
    CHECK(fromDb.ranks[1].rankSource == "cluster_analysis.db");
    // µs in the step table, ms in the operator and matrix tables.
    CHECK(fromDb.ranks[kSlowRank].steps[0].ns[kStepComputing] == 1512500);
    CHECK(fromDb.ranks[0].steps[1].ns[kStepFree] == 30125);
    REQUIRE(fromDb.ranks[3].collectives.size() == 2);  // "Total Op Info" left out
    CHECK(fromDb.ranks[3].collectives[0].waitNs == 3250000);
    CHECK(fromDb.ranks[3].collectives[0].startNs == 1700000010001030500);
    REQUIRE(fromDb.ranks[0].collectives.size() == 4);
    CHECK_FALSE(fromDb.ranks[0].collectives[1].p2p);
    CHECK(fromDb.ranks[0].collectives[2].p2p);  // its group is point to point in the group table
    REQUIRE(fromDb.ranks[2].links.size() == 1);
    CHECK(fromDb.ranks[2].links[0].transitNs == 9000000);  // two steps of 4.5 ms
    CHECK(fromDb.ranks[2].links[0].transitSizeMb == 33);
    // The process group's name from the group table; the stage from the stage rows.
    bool dp = false, stage = false;
    for (const ClusterGroup& group : fromDb.groups) {
        dp = dp || (group.name == "dp" && group.ranks.size() == kRanks);
        stage = stage || group.name == "stage (0-3)";
    }
    CHECK(dp);
    CHECK(stage);

    // The slow rank and the slow link are found in either.
    const ClusterReport dbReport = BuildClusterReport(fromDb);
    const ClusterReport textReport = BuildClusterReport(fromText);
    REQUIRE_FALSE(dbReport.slowRanks.empty());
    CHECK(dbReport.slowRanks.front().rankId == RankId(kSlowRank));
    CHECK(textReport.slowRanks.size() == dbReport.slowRanks.size());
    REQUIRE_FALSE(dbReport.slowLinks.empty());
    CHECK(dbReport.slowLinks.front().srcRank == 2);
    CHECK(dbReport.slowLinks.front().dstRank == 3);
    fs::remove_all(dbRoot);
    fs::remove_all(textRoot);
}

TEST_CASE(
    "with both the database and the text files, the database is read, and a damaged database "
    "gives way to the text files") {
    const fs::path root = WriteDbCluster("cluster_db_both");
    const fs::path output = root / "cluster_analysis_output";
    WriteTextFiles(output);
    // The text files say one step less: which source was read shows.
    std::ofstream(output / "cluster_step_trace_time.csv")
        << "Step,Type,Index,Computing\n1,rank,0,5\n1,rank,1,5\n";
    const Cluster both = Load(root);
    CHECK(both.source == ClusterSource::kClusterAnalysisDb);
    CHECK(both.ranks.size() == kRanks);
    CHECK(both.ranks[0].steps.size() == 2);

    std::ofstream(Db(root), std::ios::trunc)
        << "not a database, but long enough to hold a header" << std::string(200, 'x');
    const Cluster fallback = Load(root);
    CHECK(fallback.source == ClusterSource::kAnalysisOutput);
    REQUIRE(fallback.ranks.size() == kRanks);  // the ranks of the operators and links too
    CHECK(fallback.ranks[0].steps.size() == 1);
    REQUIRE_FALSE(fallback.problems.empty());
    CHECK(fallback.problems.front().rfind(Db(root) + ": error: ", 0) == 0);
    CHECK(fallback.problems.front().find("the text files beside it were read instead") !=
          std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("a damaged cluster_analysis.db names the file, the table and the row") {
    SUBCASE("a file that is not SQLite fails to load and says so") {
        const fs::path root = test::TempDir("cluster_db_not_sqlite");
        fs::create_directories(root / "cluster_analysis_output");
        std::ofstream(Db(root)) << "Step,Type,Index\n" << std::string(200, 'x');
        CHECK(IsClusterPath(root.string()));
        auto loaded = LoadCluster(root.string(), 1);
        REQUIRE_FALSE(loaded.ok());
        CHECK(loaded.message().rfind(Db(root) + ": error: ", 0) == 0);
        fs::remove_all(root);
    }
    SUBCASE("a missing table is a problem and the other tables load") {
        const fs::path root =
            WriteDbCluster("cluster_db_no_matrix", "DROP TABLE ClusterCommAnalyzerMatrix;");
        const Cluster cluster = Load(root);
        CHECK(HasProblem(cluster, Db(root) +
                                      ": error: no table ClusterCommAnalyzerMatrix (nor "
                                      "ClusterCommunicationMatrix): no communication matrix; the "
                                      "other tables still load"));
        REQUIRE(cluster.ranks.size() == kRanks);
        CHECK(cluster.ranks[0].steps.size() == 2);
        CHECK(cluster.ranks[0].collectives.size() == 4);
        CHECK(cluster.ranks[0].links.empty());
        fs::remove_all(root);
    }
    SUBCASE("without a table that gives ranks there is no cluster") {
        const fs::path root = WriteDbCluster(
            "cluster_db_no_ranks",
            "DROP TABLE ClusterCommAnalyzerMatrix; DROP TABLE ClusterCommAnalyzerTime; "
            "DROP TABLE ClusterStepTraceTime;");
        auto loaded = LoadCluster(root.string(), 1);
        REQUIRE_FALSE(loaded.ok());
        CHECK(loaded.message() ==
              Db(root) + ": error: cluster_analysis.db without a rank in its tables");
        fs::remove_all(root);
    }
    SUBCASE("a negative step time leaves its row out") {
        const fs::path root =
            WriteDbCluster("cluster_db_negative",
                           "UPDATE ClusterStepTraceTime SET computing = -5 WHERE rowid = 2;");
        const Cluster cluster = Load(root);
        CHECK(cluster.problems ==
              std::vector<std::string>{Db(root) +
                                       ": error: table ClusterStepTraceTime, row 2: column "
                                       "computing is negative: -5; row left out"});
        CHECK(cluster.ranks[1].steps.size() == 1);
        fs::remove_all(root);
    }
    SUBCASE("text in a number column leaves its operator out") {
        const fs::path root = WriteDbCluster(
            "cluster_db_text_number",
            "UPDATE ClusterCommAnalyzerTime SET elapsed_time = 'fast' WHERE rowid = 3;");
        const Cluster cluster = Load(root);
        CHECK(cluster.problems ==
              std::vector<std::string>{Db(root) +
                                       ": error: table ClusterCommAnalyzerTime, row 3: column "
                                       "elapsed_time is not a finite number in ms: fast; operator "
                                       "left out"});
        CHECK(cluster.ranks[2].collectives.size() == 1);
        fs::remove_all(root);
    }
    SUBCASE("an infinite size and a rank id that is not an integer leave their rows out") {
        const fs::path root = WriteDbCluster(
            "cluster_db_bad_rank",
            "UPDATE ClusterCommAnalyzerMatrix SET transit_size = 9e999 WHERE rowid = 1;"
            "UPDATE ClusterStepTraceTime SET \"index\" = '1.5' WHERE rowid = 6;"
            "UPDATE ClusterCommAnalyzerTime SET rank_id = 'r0' WHERE rowid = 1;");
        const Cluster cluster = Load(root);
        const std::string db = Db(root);
        CHECK(cluster.problems ==
              std::vector<std::string>{
                  db + ": error: table ClusterStepTraceTime, row 6: index 1.5 is not a rank id; "
                       "row left out",
                  db + ": error: table ClusterCommAnalyzerTime, row 1: rank_id r0 is not a rank "
                       "id; operator left out",
                  db + ": error: table ClusterCommAnalyzerMatrix, row 1: column transit_size is "
                       "not a finite number in MB: inf; link left out"});
        CHECK(cluster.ranks[0].links.size() == 1);  // step 2's link only
        CHECK(cluster.ranks[0].links[0].count == 1);
        CHECK(cluster.ranks[0].collectives.size() == 3);
        fs::remove_all(root);
    }
}

TEST_CASE(
    "the tables of the summing recipes (ClusterCommunication*, CommunicationGroupMapping) "
    "load as the full analysis's do") {
    const fs::path textRoot = test::TempDir("cluster_db_recipe_text");
    WriteTextFiles(textRoot / "cluster_analysis_output");
    // The recipes write no rank_set: the group table alone says which operators are p2p.
    const fs::path root =
        WriteDbCluster("cluster_db_recipe",
                       "ALTER TABLE ClusterCommAnalyzerTime DROP COLUMN rank_set;"
                       "ALTER TABLE ClusterCommAnalyzerTime RENAME TO ClusterCommunicationTime;"
                       "ALTER TABLE ClusterCommAnalyzerMatrix DROP COLUMN rank_set;"
                       "ALTER TABLE ClusterCommAnalyzerMatrix RENAME TO ClusterCommunicationMatrix;"
                       "ALTER TABLE CommunicationGroup RENAME TO CommunicationGroupMapping;");
    const Cluster fromDb = Load(root);
    CHECK(fromDb.problems.empty());
    CHECK(Dump(fromDb) == Dump(Load(textRoot)));
    fs::remove_all(root);
    fs::remove_all(textRoot);
}
