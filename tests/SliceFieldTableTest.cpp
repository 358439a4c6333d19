// The fields the importers keep of slices (load/SliceFieldTable): a text's device and runtime
// events' are those the text gives, event for event; the table finds them from any hint; a
// database's task fields are found by reference; and a model's track roles are set by its
// importer from them.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "import/TrackRoles.hpp"
#include "load/EventFields.hpp"
#include "load/SliceFieldTable.hpp"

using namespace marey;

TEST_CASE("the categories kept are Kineto's device and runtime ones, told from their JSON token") {
    CHECK(KeptCategoryOf("\"kernel\"") == KeptCategory::kKernel);
    CHECK(KeptCategoryOf("\"gpu_memcpy\" ") == KeptCategory::kGpuMemcpy);
    CHECK(KeptCategoryOf("\"cuda_runtime\"") == KeptCategory::kCudaRuntime);
    CHECK(KeptCategoryOf("\"Runtime\"") == KeptCategory::kRuntime2021);
    CHECK(KeptCategoryOf("\"cpu_op\"") == KeptCategory::kNone);
    CHECK(KeptCategoryOf("\"kernels\"") == KeptCategory::kNone);
    CHECK(KeptCategoryOf("kernel") == KeptCategory::kNone);  // not a string
    CHECK(KeptCategoryOf("\"\"") == KeptCategory::kNone);
    CHECK(KeptCategoryOf("") == KeptCategory::kNone);
    CHECK(KeptCategoryName(KeptCategory::kCudaSync) == "cuda_sync");
}

TEST_CASE("the table finds an offset from any hint, and says when it holds none") {
    SliceFieldTable table;
    for (uint64_t offset = 10; offset < 2000; offset += 10)
        table.Append(offset, KeptCategory::kKernel, offset % 30 == 0 ? -1 : int64_t(offset) * 2);
    table.Finish();
    size_t hint = 0;
    for (uint64_t offset = 0; offset < 2010; ++offset) {
        size_t anyHint = (offset * 7919) % 250;
        const auto grown = table.Find(offset, hint);
        const auto fromAny = table.Find(offset, anyHint);
        CHECK(grown.has_value() == (offset >= 10 && offset < 2000 && offset % 10 == 0));
        CHECK(fromAny.has_value() == grown.has_value());
        if (!grown) continue;
        CHECK(grown->category == "kernel");
        CHECK(grown->hasCorrelation == (offset % 30 != 0));
        if (grown->hasCorrelation) CHECK(grown->correlation == int64_t(offset) * 2);
    }
}

TEST_CASE("a loaded Kineto trace keeps for each device and runtime event what its text says") {
    KinetoTraceOptions options;
    options.events = 30000;
    options.seed = 3;
    const std::string text =
        test::WrittenText([&](std::FILE* file) { GenerateKinetoTrace(options, file); });
    // Small chunks, so that the table is put together from many.
    const auto model = test::LoadJson(text, 2, 64 << 10, 16 << 10);
    const TraceSource& source = model->sources.front();
    REQUIRE_FALSE(source.sliceFields.empty());
    size_t kept = 0, hint = 0;
    for (const Track& track : model->tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                const ActivityFields fromText = ReadActivityFields(source.text, row.Ref(i));
                const auto fromTable = source.sliceFields.Find(row.Ref(i), hint);
                const bool keptCategory = KeptCategoryOf("\"" + std::string(fromText.category) +
                                                         "\"") != KeptCategory::kNone;
                REQUIRE(fromTable.has_value() == keptCategory);
                if (!fromTable) continue;
                ++kept;
                CHECK(fromTable->category == fromText.category);
                CHECK(fromTable->hasCorrelation == fromText.hasCorrelation);
                if (fromText.hasCorrelation) CHECK(fromTable->correlation == fromText.correlation);
            }
    CHECK(kept == source.sliceFields.size());
}

TEST_CASE("a database's task fields are found by reference whatever order the rows came in") {
    SliceFieldTable table;
    // CANN calls after the tasks, as the database reader reads them; references grow per table.
    for (uint64_t row = 1; row <= 500; ++row)
        table.AppendTask(uint64_t{3} << 34 | row,
                         table.TaskTypeCode(row % 5 == 0 ? "SDMA" : "AI_CORE"),
                         row % 7 == 0 ? -1 : static_cast<int64_t>(row) + 100);
    for (uint64_t row = 1; row <= 200; ++row)
        table.AppendTask(uint64_t{2} << 34 | row, 0, static_cast<int64_t>(row) + 100);
    table.Finish();
    CHECK(table.size() == 700);
    CHECK(table.TaskTypeCount() == 2);  // AI_CORE, SDMA
    size_t hint = 0;
    for (uint64_t row = 0; row <= 501; ++row) {
        size_t anyHint = (row * 7919) % 700;
        const auto task = table.Find(uint64_t{3} << 34 | row, hint);
        const auto fromAny = table.Find(uint64_t{3} << 34 | row, anyHint);
        REQUIRE(task.has_value() == (row >= 1 && row <= 500));
        REQUIRE(fromAny.has_value() == task.has_value());
        if (!task) continue;
        CHECK(task->category.empty());
        CHECK(task->taskType == (row % 5 == 0 ? "SDMA" : "AI_CORE"));
        CHECK(fromAny->taskType == task->taskType);
        CHECK(task->hasCorrelation == (row % 7 != 0));
        CHECK(task->correlation == (row % 7 == 0 ? 0 : static_cast<int64_t>(row) + 100));
    }
    const auto call = table.Find(uint64_t{2} << 34 | 17, hint);
    REQUIRE(call);
    CHECK(call->taskType.empty());
    CHECK(call->correlation == 117);
    CHECK_FALSE(table.Find(uint64_t{4} << 34 | 1, hint));
}

TEST_CASE("a database of more task types than a code holds reads the rest as other") {
    SliceFieldTable table;
    for (uint64_t row = 1; row <= 300; ++row)
        table.AppendTask(row, table.TaskTypeCode("TYPE_" + std::to_string(row)),
                         static_cast<int64_t>(row));
    table.Finish();
    size_t hint = 0;
    CHECK(table.Find(254, hint)->taskType == "TYPE_254");
    CHECK(table.Find(255, hint)->taskType == "other");
    CHECK(table.Find(300, hint)->taskType == "other");
    CHECK(table.Find(300, hint)->correlation == 300);
}

TEST_CASE("tables joined keep each slice's task type, coded again in the joined table") {
    SliceFieldTable first, second;
    first.AppendTask(1, first.TaskTypeCode("AI_CORE"), 5);
    second.AppendTask(3, second.TaskTypeCode("SDMA"), -1);
    second.AppendTask(2, second.TaskTypeCode("AI_CORE"), 7);
    second.Append(9, KeptCategory::kKernel, 11);
    first.Append(second);
    first.Finish();  // refs 1, 3, 2, 9: sorted here
    size_t hint = 0;
    CHECK(first.Find(1, hint)->taskType == "AI_CORE");
    CHECK(first.Find(2, hint)->taskType == "AI_CORE");
    CHECK(first.Find(2, hint)->correlation == 7);
    CHECK(first.Find(3, hint)->taskType == "SDMA");
    CHECK_FALSE(first.Find(3, hint)->hasCorrelation);
    CHECK(first.Find(9, hint)->category == "kernel");
    CHECK(first.Find(9, hint)->taskType.empty());
    CHECK(first.TaskTypeCount() == 2);
    // As the index cache keeps it: the same table again; a code past its task types, a first
    // type that is not empty, or a row with nothing to keep, is damage.
    const auto arrays = [&](PodArray<uint64_t>& refs, PodArray<int64_t>& correlations) {
        for (size_t i = 0; i < first.size(); ++i)
            refs.push_back(first.RefsAndCodes()[i]),
                correlations.push_back(first.Correlations()[i]);
    };
    {
        PodArray<uint64_t> refs;
        PodArray<int64_t> correlations;
        arrays(refs, correlations);
        const auto again = SliceFieldTable::FromArrays(std::move(refs), std::move(correlations),
                                                       first.TaskTypes());
        REQUIRE(again);
        CHECK(again->Find(3, hint)->taskType == "SDMA");
        CHECK(again->Find(2, hint)->correlation == 7);
    }
    {
        PodArray<uint64_t> refs;
        PodArray<int64_t> correlations;
        arrays(refs, correlations);
        CHECK_FALSE(SliceFieldTable::FromArrays(std::move(refs), std::move(correlations),
                                                {std::string(), "AI_CORE"}));
    }
    {
        PodArray<uint64_t> refs;
        PodArray<int64_t> correlations;
        arrays(refs, correlations);
        CHECK_FALSE(SliceFieldTable::FromArrays(std::move(refs), std::move(correlations),
                                                {"AI_CORE", "SDMA", ""}));
    }
    {
        PodArray<uint64_t> refs;
        PodArray<int64_t> correlations;
        refs.push_back(uint64_t{4} << 16);
        correlations.push_back(-1);
        CHECK_FALSE(
            SliceFieldTable::FromArrays(std::move(refs), std::move(correlations), {std::string()}));
    }
}

TEST_CASE("the importers give each thread its role: Kineto by category, Ascend by its processes") {
    KinetoTraceOptions options;
    options.events = 3000;
    options.seed = 5;
    const std::string text =
        test::WrittenText([&](std::FILE* file) { GenerateKinetoTrace(options, file); });
    const auto model = test::LoadJson(text, 1);
    size_t streams = 0, hosts = 0;
    for (const Track& track : model->tracks) {
        if (track.kind != TrackKind::kThread) {
            CHECK(track.role == TrackRole::kOther);
            continue;
        }
        const std::string process = model->ProcessLabel(track.process);
        if (track.role == TrackRole::kDeviceStream) {
            ++streams;
            CHECK(model->TrackLabel(&track - model->tracks.data()).find("stream") !=
                  std::string::npos);
        } else if (track.role == TrackRole::kHostThread) {
            ++hosts;
        }
    }
    CHECK(streams > 0);
    CHECK(hosts > 0);

    const std::string ascend = R"({"traceEvents":[
{"ph":"M","name":"process_name","pid":1,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"process_name","pid":2,"args":{"name":"CANN"}},
{"ph":"M","name":"process_name","pid":3,"args":{"name":"HCCL"}},
{"ph":"M","name":"process_name","pid":4,"args":{"name":"Overlap Analysis"}},
{"ph":"X","name":"MatMul","pid":1,"tid":7,"ts":1,"dur":2,"args":{"Task Type":"AI_CORE"}},
{"ph":"X","name":"launch","pid":2,"tid":8,"ts":0,"dur":1},
{"ph":"X","name":"hcom_allReduce_1","pid":3,"tid":9,"ts":1,"dur":1},
{"ph":"X","name":"Computing","pid":4,"tid":10,"ts":1,"dur":2},
{"ph":"X","name":"aten::mm","pid":5,"tid":11,"ts":0,"dur":3,"cat":"cpu_op"}]})";
    const auto npu = test::LoadJson(ascend, 1);
    std::vector<TrackRole> roles;
    for (const Track& track : npu->tracks)
        if (track.kind == TrackKind::kThread && track.sliceCount > 0) roles.push_back(track.role);
    CHECK(roles == std::vector<TrackRole>{TrackRole::kNpuStream, TrackRole::kNpuLaunchThread,
                                          TrackRole::kCommunicationPlane,
                                          TrackRole::kOverlapAnalysis, TrackRole::kHostThread});
    // Given again, the same: the importers call it once the model is built.
    AssignTrackRoles(*npu);
    std::vector<TrackRole> again;
    for (const Track& track : npu->tracks)
        if (track.kind == TrackKind::kThread && track.sliceCount > 0) again.push_back(track.role);
    CHECK(again == roles);
}

TEST_CASE("a correlation id that is no id is named with its event's place and links nothing") {
    const std::string text =
        "{\"traceEvents\":[\n"
        "{\"ph\":\"X\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":11,\"dur\":2,"
        "\"cat\":\"cuda_runtime\",\"args\":{\"correlation\":-5}},\n"
        "{\"ph\":\"X\",\"name\":\"k1\",\"pid\":0,\"tid\":7,\"ts\":14,\"dur\":3,\"cat\":\"kernel\","
        "\"args\":{\"correlation\":1.5,\"stream\":7}},\n"
        "{\"ph\":\"X\",\"name\":\"k2\",\"pid\":0,\"tid\":7,\"ts\":24,\"dur\":3,\"cat\":\"kernel\","
        "\"args\":{\"correlation\":18446744073709551615}},\n"
        "{\"ph\":\"X\",\"name\":\"k3\",\"pid\":0,\"tid\":7,\"ts\":34,\"dur\":3,\"cat\":\"kernel\","
        "\"args\":{\"correlation\":\"abc\",\"connection_id\":9}},\n"
        "{\"ph\":\"X\",\"name\":\"k4\",\"pid\":0,\"tid\":7,\"ts\":44,\"dur\":3,\"cat\":\"kernel\","
        "\"args\":{\"correlation\":\"77\"}}\n"
        "]}\n";
    const auto model = test::LoadJson(text);
    CHECK(model->sliceCount == 5);  // every event stays
    const std::vector<ImportProblem>& problems = model->report.problems;
    REQUIRE(problems.size() == 3);
    CHECK(problems[0].line == 2);
    CHECK(problems[0].message ==
          "args \"correlation\" is -5: expected an integer from 0 to 2^63 - 1; linked to no "
          "launch");
    CHECK(problems[1].line == 3);
    CHECK(problems[1].message.find("is 1.5:") != std::string::npos);
    CHECK(problems[2].message.find("is 18446744073709551615:") != std::string::npos);
    // A valid connection_id after a damaged correlation is the id; a quoted number is one.
    const TraceSource& source = model->sources.front();
    size_t hint = 0;
    int64_t valid = 0;
    for (const Track& track : model->tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                const auto fields = source.sliceFields.Find(row.Ref(i), hint);
                REQUIRE(fields.has_value());
                if (fields->hasCorrelation) valid += fields->correlation;
            }
    CHECK(valid == 9 + 77);
}

TEST_CASE("an Ascend event's task type and connection id are kept as it loads, -1 being none") {
    const std::string text =
        "{\"traceEvents\":[\n"
        "{\"ph\":\"X\",\"name\":\"AscendCL@Add\",\"pid\":1,\"tid\":1,\"ts\":11,\"dur\":2,"
        "\"args\":{\"Mode\":\"ACL_OP\",\"connection_id\":41}},\n"
        "{\"ph\":\"X\",\"name\":\"Add_1\",\"pid\":2,\"tid\":3,\"ts\":14,\"dur\":3,"
        "\"args\":{\"Model Id\":4294967295,\"Task Type\":\"AI_CORE\",\"connection_id\":41}},\n"
        "{\"ph\":\"X\",\"name\":\"Memcpy\",\"pid\":2,\"tid\":3,\"ts\":24,\"dur\":3,"
        "\"args\":{\"Task Type\":\"SDMA\",\"connection_id\":-1}},\n"
        "{\"ph\":\"X\",\"name\":\"Mul_2\",\"pid\":2,\"tid\":3,\"ts\":34,\"dur\":3,"
        "\"args\":{\"Task Type\":\"AI_CORE\",\"connection_id\":\"x7\"}},\n"
        "{\"ph\":\"X\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":40,\"dur\":3,"
        "\"cat\":\"cpu_op\",\"args\":{\"connection_id\":5}},\n"
        "{\"ph\":\"X\",\"name\":\"plain\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":3,"
        "\"args\":{\"level\":\"node\"}},\n"
        "{\"ph\":\"X\",\"name\":\"Twice\",\"pid\":2,\"tid\":3,\"ts\":60,\"dur\":1,"
        "\"args\":{\"Task Type\":\"AI_CORE\",\"Task Type\":\"SDMA\",\"connection_id\":8}},\n"
        "{\"ph\":\"X\",\"name\":\"Numbered\",\"pid\":2,\"tid\":3,\"ts\":70,\"dur\":1,"
        "\"args\":{\"Task Type\":5,\"connection_id\":9}}\n"
        "]}\n";
    const auto model = test::LoadJson(text);
    CHECK(model->sliceCount == 8);
    // -1 is Ascend's "none"; text where an id belongs is damage, named with its place.
    REQUIRE(model->report.problems.size() == 1);
    CHECK(model->report.problems[0].line == 5);
    CHECK(model->report.problems[0].message ==
          "args \"connection_id\" is \"x7\": expected an integer from 0 to 2^63 - 1; linked to "
          "no launch");
    const SliceFieldTable& table = model->sources.front().sliceFields;
    CHECK(table.size() == 6);  // the CANN call and the five tasks; not cpu_op, not "plain"
    std::map<std::string, ActivityFields> byName;
    for (const Track& track : model->tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                size_t hint = 0;
                if (const auto fields = table.Find(row.Ref(i), hint))
                    byName[std::string(model->Name(row.name[i]))] = *fields;
            }
    REQUIRE(byName.size() == 6);
    CHECK(byName["Twice"].taskType == "SDMA");   // the last of a key written twice, as the text
    CHECK(byName["Numbered"].taskType.empty());  // a type that is no string is none
    CHECK(byName["Numbered"].correlation == 9);
    CHECK(byName["AscendCL@Add"].taskType.empty());
    CHECK(byName["AscendCL@Add"].correlation == 41);
    CHECK(byName["Add_1"].taskType == "AI_CORE");
    CHECK(byName["Add_1"].category.empty());
    CHECK(byName["Add_1"].correlation == 41);
    CHECK(byName["Memcpy"].taskType == "SDMA");
    CHECK_FALSE(byName["Memcpy"].hasCorrelation);
    CHECK(byName["Mul_2"].taskType == "AI_CORE");
    CHECK_FALSE(byName["Mul_2"].hasCorrelation);
    // What the text says at each kept slice is what the table says.
    const TraceSource& source = model->sources.front();
    for (const Track& track : model->tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                size_t hint = 0;
                const auto kept = table.Find(row.Ref(i), hint);
                if (!kept) continue;
                const ActivityFields read = ReadActivityFields(source.text, row.Ref(i));
                CHECK(read.taskType == kept->taskType);
                CHECK(read.hasCorrelation == kept->hasCorrelation);
                CHECK(read.correlation == kept->correlation);
            }
}
