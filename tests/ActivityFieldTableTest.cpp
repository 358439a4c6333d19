// The fields the loader keeps of device and runtime events (load/ActivityFieldTable) are those
// the text gives, event for event; the table finds them from any hint; and a database's task
// fields (load/TaskFieldTable) are found by reference.
#include <doctest/doctest.h>

#include <string>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "load/ActivityFieldTable.hpp"
#include "load/TaskFieldTable.hpp"

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
    ActivityFieldTable table;
    for (uint64_t offset = 10; offset < 2000; offset += 10)
        table.Append(offset, KeptCategory::kKernel, offset % 30 == 0 ? -1 : int64_t(offset) * 2);
    REQUIRE(table.IsSorted());
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
    REQUIRE_FALSE(source.activityFields.empty());
    size_t kept = 0, hint = 0;
    for (const Track& track : model->tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                const ActivityFields fromText = ReadActivityFields(source.text, row.Ref(i));
                const auto fromTable = source.activityFields.Find(row.Ref(i), hint);
                const bool keptCategory = KeptCategoryOf("\"" + std::string(fromText.category) +
                                                         "\"") != KeptCategory::kNone;
                REQUIRE(fromTable.has_value() == keptCategory);
                if (!fromTable) continue;
                ++kept;
                CHECK(fromTable->category == fromText.category);
                CHECK(fromTable->hasCorrelation == fromText.hasCorrelation);
                if (fromText.hasCorrelation) CHECK(fromTable->correlation == fromText.correlation);
            }
    CHECK(kept == source.activityFields.size());
}

TEST_CASE("a database's task fields are found by reference whatever order the rows came in") {
    TaskFieldTable table;
    // CANN calls after the tasks, as the database reader reads them; references grow per table.
    for (uint64_t row = 1; row <= 500; ++row)
        table.Append(uint64_t{3} << 34 | row, row % 5 == 0 ? "SDMA" : "AI_CORE",
                     row % 7 == 0 ? -1 : static_cast<int64_t>(row) + 100);
    for (uint64_t row = 1; row <= 200; ++row)
        table.Append(uint64_t{2} << 34 | row, {}, static_cast<int64_t>(row) + 100);
    table.Finish();
    CHECK(table.size() == 700);
    CHECK(table.TaskTypeCount() == 3);  // none, AI_CORE, SDMA
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
    TaskFieldTable table;
    for (uint64_t row = 1; row <= 300; ++row)
        table.Append(row, "TYPE_" + std::to_string(row), static_cast<int64_t>(row));
    table.Finish();
    size_t hint = 0;
    CHECK(table.Find(254, hint)->taskType == "TYPE_254");
    CHECK(table.Find(255, hint)->taskType == "other");
    CHECK(table.Find(300, hint)->taskType == "other");
    CHECK(table.Find(300, hint)->correlation == 300);
}
