// One importer per format (import/Importer.hpp): each probes the paths of its format and no
// other, loads a rank with its tables, and reads the details of a selected row; a damaged file
// is named by the importer that read it. The registry alone decides "database or text".
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "ClusterGenerator.hpp"
#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "import/Importer.hpp"
#include "import/ascend_db/AscendDbImporter.hpp"
#include "import/ascend_text/AscendTextImporter.hpp"
#include "import/chrome_json/ChromeJsonImporter.hpp"
#include "import/cluster/ClusterImporter.hpp"
#include "import/kernel_csv/KernelCsvImporter.hpp"
#include "loading/RankLoader.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

SourceKind KindOf(const std::string& path, RankSource preference = RankSource::kAuto) {
    auto importer = ChooseImporter(path, preference);
    REQUIRE_MESSAGE(importer.ok(), importer.message());
    return importer.value()->kind;
}

// Loads 'path' by its importer and reads the details of the first slice of every track: each
// names its fields and reads without an error.
void CheckLoadsWithDetails(const std::string& path, RankSource preference = RankSource::kAuto) {
    LoadOptions options;
    options.source = preference;
    auto loaded = LoadRank(path, options);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const LoadedRank& rank = loaded.value();
    REQUIRE(rank.model);
    REQUIRE(rank.analysis);
    CHECK(rank.analysis->kernels);
    CHECK(rank.analysis->overview.valid);
    size_t read = 0;
    for (uint32_t t = 0; t < rank.model->tracks.size() && read < 20; ++t) {
        const Track& track = rank.model->tracks[t];
        if (track.rows.empty() || track.rows[0].size() == 0) continue;
        const EventDetails details = ReadRowDetails(rank.model->SourceOf(t), track.rows[0].Ref(0));
        CAPTURE(rank.model->TrackLabel(t));
        CHECK(details.error.empty());
        CHECK(details.fields.size() + details.args.size() > 0);
        ++read;
    }
    CHECK(read > 0);
}

// A generated Kineto trace of two steps at 'path'.
void WriteKinetoTrace(const fs::path& path) {
    KinetoTraceOptions options;
    options.steps = 2;
    std::FILE* file = std::fopen(path.c_str(), "wb");
    REQUIRE(file);
    GenerateKinetoTrace(options, file);
    std::fclose(file);
}

}  // namespace

TEST_CASE("the registry lists one importer per kind of source, each named") {
    std::vector<SourceKind> kinds;
    for (const Importer& importer : Importers()) {
        CHECK(std::string(importer.name).size() > 3);
        CHECK(std::find(kinds.begin(), kinds.end(), importer.kind) == kinds.end());
        kinds.push_back(importer.kind);
        // A rank's importer loads and reads rows; the cluster's is read by the cluster loader.
        CHECK((importer.kind == SourceKind::kCluster) == (importer.loadRank == nullptr));
    }
    CHECK(kinds.size() == 6);
}

TEST_CASE("each importer probes its own format: a rank folder with both exports, its files") {
    const fs::path dir = test::TempDir("importer_rank");
    GeneratorOptions options;
    options.events = 20000;
    std::string error;
    REQUIRE_MESSAGE(WriteRankDirectory(options, dir.string(), &error, nullptr, RankExport::kBoth),
                    error);
    const fs::path output = dir / "ASCEND_PROFILER_OUTPUT";
    // The folder opens its database, as the profiler's own tools do, unless text is asked for.
    CHECK(KindOf(dir.string()) == SourceKind::kAscendDatabase);
    CHECK(KindOf(dir.string(), RankSource::kText) == SourceKind::kAscendText);
    CHECK(KindOf(dir.string(), RankSource::kDatabase) == SourceKind::kAscendDatabase);
    // A file named opens itself.
    CHECK(KindOf((output / "trace_view.json").string()) == SourceKind::kAscendText);
    CHECK(KindOf((output / "ascend_pytorch_profiler_0.db").string()) ==
          SourceKind::kAscendDatabase);
    CHECK(AscendDbImporter()
              .probe((output / "trace_view.json").string(), RankSource::kAuto)
              .confidence == 0);
    CHECK(AscendTextImporter().probe(dir.string(), RankSource::kAuto).confidence <
          AscendDbImporter().probe(dir.string(), RankSource::kAuto).confidence);
    CheckLoadsWithDetails(dir.string());
    CheckLoadsWithDetails(dir.string(), RankSource::kText);
    CheckLoadsWithDetails((output / "kernel_details.csv").string());

    // A kernel_details.csv away from its folder is the CSV importer's.
    const fs::path alone = test::TempDir("importer_csv") / "kernels.csv";
    fs::copy_file(output / "kernel_details.csv", alone);
    CHECK(KindOf(alone.string()) == SourceKind::kKernelCsv);
    CheckLoadsWithDetails(alone.string());

    // --source names what it cannot find, with the folder.
    fs::remove(output / "ascend_pytorch_profiler_0.db");
    auto refused = ChooseImporter(dir.string(), RankSource::kDatabase);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.message() == dir.string() +
                                   ": error: --source db: no profiler database "
                                   "(ascend_pytorch_profiler_N.db, ascend_mindspore_profiler_N.db, "
                                   "msprof_*.db) in this folder");
    CHECK(KindOf(dir.string()) == SourceKind::kAscendText);
    fs::remove_all(dir);
    fs::remove_all(alone.parent_path());
}

TEST_CASE("a Kineto trace, a cluster and a damaged file of each format go to their importers") {
    const fs::path dir = test::TempDir("importer_trace");
    const fs::path trace = dir / "rank-0.json";
    WriteKinetoTrace(trace);
    CHECK(KindOf(trace.string()) == SourceKind::kChromeJson);
    CHECK(ChromeJsonImporter().probe(trace.string(), RankSource::kAuto).confidence == 100);
    CHECK(KernelCsvImporter().probe(trace.string(), RankSource::kAuto).confidence == 0);
    CheckLoadsWithDetails(trace.string());

    const fs::path cluster = dir / "job";
    ClusterOptions clusterOptions;
    clusterOptions.ranks = 2;
    clusterOptions.steps = 2;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(clusterOptions, cluster.string(), &error), error);
    CHECK(KindOf(cluster.string()) == SourceKind::kCluster);
    CHECK(ClusterImporter().probe(cluster.string(), RankSource::kAuto).confidence == 100);
    // A rank of it is a rank.
    CHECK(KindOf((cluster / "rank_0_ascend_pt").string()) == SourceKind::kAscendText);

    // Damaged: each message names the file, from the importer that read it.
    const fs::path cut = dir / "cut.json";
    std::ofstream(cut) << "{\"traceEvents\": [";
    auto truncated = LoadRank(cut.string());
    if (truncated.ok()) {
        CHECK(truncated.value().model->report.problemCount > 0);
    } else {
        CHECK(truncated.message().find(cut.string()) != std::string::npos);
    }
    const fs::path garbage = dir / "garbage.db";
    std::ofstream(garbage) << "not a database at all, only text";
    auto database = LoadRank(garbage.string());
    REQUIRE_FALSE(database.ok());
    CHECK(database.message().find(garbage.string()) != std::string::npos);
    const fs::path empty = dir / "empty.csv";
    std::ofstream(empty) << "";
    auto csv = LoadRank(empty.string());
    REQUIRE_FALSE(csv.ok());
    CHECK(csv.message().find(empty.string()) != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a rank's load says which of its analyses runs, from its timeline on") {
    const fs::path dir = test::TempDir("importer_analysis_stage");
    const fs::path trace = dir / "rank-0.json";
    WriteKinetoTrace(trace);
    LoadProgress progress;
    const char* atTimeline = "not called";
    LoadOptions options;
    options.timelineReady = [&](const std::shared_ptr<TraceModel>&) {
        atTimeline = progress.analysis.load();
    };
    auto loaded = LoadRank(trace.string(), options, &progress);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    CHECK(atTimeline == nullptr);  // the analyses start after the timeline is given
    // The last part of the analyses is the last said.
    REQUIRE(progress.analysis.load() != nullptr);
    CHECK(std::string(progress.analysis.load()) ==
          "summarising the overview, operators and data preparation");
    fs::remove_all(dir);
}
