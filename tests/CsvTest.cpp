#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "TestSupport.hpp"
#include "load/AnalysisFile.hpp"
#include "load/CsvReader.hpp"
#include "import/kernel_csv/KernelCsvLoader.hpp"

using namespace marey;
using namespace marey::test;

namespace {

std::vector<std::vector<std::string>> ReadAll(const std::string& text) {
    CsvReader reader(text);
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string_view> fields;
    while (reader.Next(fields)) rows.emplace_back(fields.begin(), fields.end());
    return rows;
}

std::unique_ptr<TraceModel> LoadCsv(const std::string& text) {
    auto result = LoadKernelDetailsCsv(TraceText::FromString(text), "kernel_details.csv");
    REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.message()));
    return std::move(result.value());
}

}  // namespace

TEST_CASE("CSV follows RFC 4180: quotes, doubled quotes, separators and newlines inside quotes") {
    const auto rows = ReadAll(
        "\xEF\xBB\xBFName,Input Shapes,Note\r\n"
        "Conv2D,\"\"\"32,3,224,224\"\"\",\"two\nlines\"\r\n"
        "Add,\"\"\"8192,2;;1,1\"\"\",\r\n"
        "\n"
        "Last,,no final newline");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == std::vector<std::string>{"Name", "Input Shapes", "Note"});
    CHECK(rows[1] == std::vector<std::string>{"Conv2D", "\"32,3,224,224\"", "two\nlines"});
    CHECK(rows[2] == std::vector<std::string>{"Add", "\"8192,2;;1,1\"", ""});
    CHECK(rows[3] == std::vector<std::string>{"Last", "", "no final newline"});
}

TEST_CASE(
    "fields rebuilt from doubled quotes or text after the closing quote stay whole when a record "
    "holds many") {
    // Each rebuilt field lands in the reader's one storage, which grows while the record is read:
    // every field must still read as written once the record ends.
    std::string record, expected[40];
    for (int i = 0; i < 40; ++i) {
        const std::string body(static_cast<size_t>(i * 7), static_cast<char>('a' + i % 26));
        if (i % 2 == 0) {
            record += "\"\"\"" + body + "\"\"\"";  // """body""" is "body"
            expected[i] = "\"" + body + "\"";
        } else {
            record += "\"" + body + "\"x" + std::to_string(i);  // "body"x1 keeps what follows
            expected[i] = body + "x" + std::to_string(i);
        }
        record += i + 1 < 40 ? "," : "\n";
    }
    const auto rows = ReadAll(record + record);
    REQUIRE(rows.size() == 2);
    for (const auto& row : rows) {
        REQUIRE(row.size() == 40);
        for (size_t i = 0; i < 40; ++i) CHECK(row[i] == expected[i]);
    }
}

TEST_CASE("an unterminated quoted field is reported, not read past the end") {
    CsvReader reader("a,\"never closed\nb,c");
    std::vector<std::string_view> fields;
    REQUIRE(reader.Next(fields));
    CHECK(reader.LastRecordUnterminated());
    CHECK(fields.size() == 2);
    CHECK(fields[1] == "never closed\nb,c");
    CHECK_FALSE(reader.Next(fields));
}

TEST_CASE("kernel_details.csv finds columns by name, in any order, with extra or missing ones") {
    SUBCASE("Level1 order, trailing tabs, HCCL rows without a stream") {
        auto model = LoadCsv(
            "Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start "
            "Time(us),Duration(us),Extra\n"
            "1,4294967295,7,2,MatMul_0,MatMul,AI_CORE,1736408883704643.212\t,12.5,x\n"
            "1,4294967295,N/A,N/"
            "A,hcom_allReduce__586_0_1,hcom_allReduce_,HCCL,1736408883704700.000\t,80,y\n"
            "1,4294967295,8,2,Add_1,Add,AI_VECTOR_CORE,1736408883704660.001\t,1.000\n");
        CHECK(model->report.problemCount == 0);
        CHECK(model->sliceCount == 3);
        REQUIRE(model->processes.size() == 1);
        CHECK(model->ProcessLabel(0) == "kernel_details.csv (0)");
        CHECK(model->processes[0].tracks.size() == 2);
        CHECK(model->firstNs == 1736408883704643212);
        CHECK(model->TrackLabel(model->processes[0].tracks[0]) == "Stream 2");
    }
    SUBCASE("reordered columns, no stream column (Level0)") {
        auto model = LoadCsv(
            "Duration(us),Start Time(us),Accelerator Core,Name\n"
            "5,100.5,AI_CORE,A\n"
            "7,90,HCCL,hcom_x\n");
        CHECK(model->sliceCount == 2);
        CHECK(model->processes[0].tracks.size() == 2);
        CHECK(model->firstNs == 90000);
        CHECK(model->lastNs == 105500);
    }
    SUBCASE("short rows and bad times cost only their row, with the column named") {
        auto model = LoadCsv(
            "Name,Start Time(us),Duration(us)\n"
            "ok,1,1\n"
            "short\n"
            "bad,n/a,1\n"
            "ok2,3,1\n");
        CHECK(model->sliceCount == 2);
        CHECK(ProblemText(*model) ==
              "3:1: column \"Start Time(us)\": empty number: \"\"; row skipped\n"
              "4:1: column \"Start Time(us)\": not a decimal number: \"n/a\"; row skipped");
    }
}

TEST_CASE(
    "a CSV without the needed columns is not a kernel_details.csv, and says which is missing") {
    auto result = LoadKernelDetailsCsv(TraceText::FromString("Name,Start\nx,1\n"), "k.csv");
    REQUIRE_FALSE(result.ok());
    CHECK(result.message() ==
          "k.csv:1:1: error: not a kernel_details.csv: no \"Start Time(us)\" column in the header");
    auto garbage =
        LoadKernelDetailsCsv(TraceText::FromString(std::string("\x00\x01\xff,\"\n", 6)), "g.csv");
    CHECK_FALSE(garbage.ok());
}

TEST_CASE(
    "real kernel_details.csv files of every profiler level load and match Python's csv module") {
    const std::string dir = FixturesDir();
    if (dir.empty()) return;
    struct Case {
        const char* path;
        uint64_t rows;
        size_t tracks;
        TimeNs firstNs;
    };
    const Case cases[] = {
        {"msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
         "kernel_details.csv",
         191, 3, 1736408883704643212},
        {"msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
         "kernel_details.csv",
         191, 2, 1736405443881410320},
    };
    for (const Case& c : cases) {
        CAPTURE(c.path);
        auto result = LoadTrace(dir + "/" + c.path);
        REQUIRE(result.ok());
        CHECK(result.value()->report.problemCount == 0);
        CHECK(result.value()->sliceCount == c.rows);
        CHECK(result.value()->processes[0].tracks.size() == c.tracks);
        CHECK(result.value()->firstNs == c.firstNs);
    }
    for (const char* path :
         {"msinsight/server/src/test/test_data/test_rank_0/ASCEND_PROFILER_OUTPUT/"
          "kernel_details.csv",
          "msprof-analyze/test/ut/advisor/advisor_backend/compute_advice/kernel_details.csv",
          "msprof-analyze/test/ut/advisor/compute_advice/data/kernel_details.csv"}) {
        CAPTURE(path);
        auto result = LoadTrace(dir + "/" + path);
        REQUIRE(result.ok());
        CHECK(result.value()->sliceCount > 0);
    }
}

TEST_CASE(
    "an analysis file's problems are named by file, line and column, the first 100 and then a "
    "count") {
    std::vector<ImportProblem> problems;
    for (uint32_t i = 1; i <= 102; ++i) problems.push_back({0, i, 3, "bad cell"});
    std::vector<std::string> out;
    AddFileProblems("/run/rank0/step_trace_time.csv", problems, out);
    REQUIRE(out.size() == 101);
    CHECK(out[0] == "step_trace_time.csv:1:3: error: bad cell");
    CHECK(out[99] == "step_trace_time.csv:100:3: error: bad cell");
    CHECK(out[100] == "step_trace_time.csv: 2 more problems not listed");

    const std::filesystem::path dir = TempDir("analysis_file");
    std::ofstream(dir / "a.csv") << "x,y\n";
    std::vector<std::string> read;
    std::string seen;
    ReadAnalysisFile((dir / "a.csv").string(), read,
                     [&](std::string_view text) { seen = std::string(text); });
    CHECK(seen == "x,y\n");
    CHECK(read.empty());
    // An empty path reads nothing; a missing file is one problem and no call.
    bool called = false;
    ReadAnalysisFile("", read, [&](std::string_view) { called = true; });
    CHECK(read.empty());
    ReadAnalysisFile((dir / "absent.csv").string(), read, [&](std::string_view) { called = true; });
    CHECK_FALSE(called);
    REQUIRE(read.size() == 1);
    CHECK(read[0] == (dir / "absent.csv").string() +
                         ": error: cannot open the file: No such file or directory");
    std::filesystem::remove_all(dir);
}
