// The fields the loader keeps of device and runtime events (load/ActivityFieldTable) are those
// the text gives, event for event; and the table finds them from any hint.
#include <doctest/doctest.h>

#include <string>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "load/ActivityFieldTable.hpp"

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
