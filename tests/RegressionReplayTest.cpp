// Every input that ever made a fuzz target crash, hang or disagree (tests/regressions/), and the
// fuzz seeds (tests/corpus/json/), replayed through the loader on one and on two threads. Valid
// input loads identically both ways; invalid input must only load without harm (which junk bytes
// get reported can depend on where chunks were cut: simdjson's On-Demand parser does not
// validate what it skips).
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "TestSupport.hpp"
#include "fuzz/RankFolderInput.hpp"
#include "import/ascend_db/DatabaseLoader.hpp"
#include "load/CommunicationJson.hpp"
#include "load/EventDetails.hpp"
#include "load/RankDirectory.hpp"
#include "import/kernel_csv/KernelCsvLoader.hpp"
#include "rank/CommunicationStats.hpp"
#include "rank/RankAnalysis.hpp"
#include "report/RankJson.hpp"

#include <simdjson.h>

using namespace marey;
using namespace marey::test;

TEST_CASE("regression and seed inputs load the same on one and two threads, without crashing") {
    size_t replayed = 0;
    for (const char* folder : {"regressions", "corpus/json", "corpus/csv"}) {
        for (const auto& entry :
             std::filesystem::directory_iterator(std::string(MAREY_TESTS_DIR) + "/" + folder)) {
            if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::stringstream bytes;
            bytes << in.rdbuf();
            CAPTURE(entry.path().string());
            if (entry.path().extension() == ".csv") {
                auto csv = LoadKernelDetailsCsv(TraceText::FromString(bytes.str()), "replay.csv");
                if (csv.ok()) CHECK(csv.value()->sliceCount <= csv.value()->report.eventCount);
                ++replayed;
                continue;
            }
            LoadOptions single, chunked;
            single.threads = 1;
            chunked.threads = 2;
            chunked.chunkBytes = 256;
            auto a = LoadTraceText(TraceText::FromString(bytes.str()), "replay.json", single);
            auto b = LoadTraceText(TraceText::FromString(bytes.str()), "replay.json", chunked);
            REQUIRE(a.ok() == b.ok());
            if (a.ok() && a.value()->report.problemCount == 0)
                CHECK(DumpModel(*a.value()) == DumpModel(*b.value()));
            const TraceText text = TraceText::FromString(bytes.str());
            for (uint64_t offset = 0; offset < text.size(); ++offset)
                ReadEventDetails(text, offset, 32);
            ++replayed;
        }
    }
    CHECK(replayed >= 4);
}

TEST_CASE(
    "rank-folder regression and seed inputs rebuild their folder and analyse without crashing") {
    namespace fs = std::filesystem;
    const fs::path root =
        fs::temp_directory_path() / ("marey-rank-replay-" + std::to_string(::getpid()));
    size_t replayed = 0;
    for (const char* folder : {"regressions/rank", "corpus/rank"}) {
        for (const auto& entry :
             fs::directory_iterator(std::string(MAREY_TESTS_DIR) + "/" + folder)) {
            std::ifstream in(entry.path(), std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
            CAPTURE(entry.path().string());
            fuzz::WriteRankFolderInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                                       root);
            auto files = FindRankFiles(root.string());
            CHECK(files.ok() == IsRankDirectory(root.string()));
            if (files.ok())
                CHECK_FALSE(RankAnalysisToJson(AnalyzeRank(files.value(), nullptr)).empty());
            ++replayed;
        }
    }
    fs::remove_all(root);
    CHECK(replayed >= 4);
}

TEST_CASE(
    "communication JSON regression and seed inputs parse without crashing, problems placed inside "
    "the text") {
    namespace fs = std::filesystem;
    size_t replayed = 0;
    for (const char* folder : {"regressions/communication", "corpus/communication"}) {
        for (const auto& entry :
             fs::directory_iterator(std::string(MAREY_TESTS_DIR) + "/" + folder)) {
            std::ifstream in(entry.path(), std::ios::binary);
            std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
            CAPTURE(entry.path().string());
            const size_t size = bytes.size();
            bytes.resize(size + simdjson::SIMDJSON_PADDING, '\0');
            CommunicationOps ops;
            (void)ParseCommunicationJson(std::string_view(bytes.data(), size), "replay.json", ops);
            for (const ImportProblem& problem : ops.problems) CHECK(problem.byteOffset <= size);
            (void)SumCommunication(ops.ops);
            CommunicationMatrix matrix;
            (void)ParseCommunicationMatrixJson(std::string_view(bytes.data(), size), "replay.json",
                                               matrix);
            ++replayed;
        }
    }
    CHECK(replayed >= 5);
}

TEST_CASE("profiler database regression and seed inputs load without crashing, slices whole") {
    namespace fs = std::filesystem;
    size_t replayed = 0;
    for (const char* folder : {"regressions/database", "corpus/database"}) {
        for (const auto& entry :
             fs::directory_iterator(std::string(MAREY_TESTS_DIR) + "/" + folder)) {
            CAPTURE(entry.path().string());
            auto loaded = LoadProfilerDatabase(entry.path().string(), "");
            REQUIRE(loaded.ok());
            const TraceModel& model = *loaded.value().model;
            uint64_t slices = 0;
            for (const Track& track : model.tracks)
                for (const Row& row : track.rows) slices += row.size();
            CHECK(slices == model.sliceCount);
            CHECK(model.sliceCount > 0);
            ++replayed;
        }
    }
    CHECK(replayed >= 2);
}
