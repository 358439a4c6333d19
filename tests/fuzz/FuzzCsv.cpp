// libFuzzer target: any bytes as each of the profiler's CSV files (kernel_details.csv as a
// timeline and as a table, step_trace_time.csv, op_statistic.csv, MindSpore's pipeline summary
// in both its CSV and its JSON form), and every record through the CSV reader.
#include <cstddef>
#include <cstdint>
#include <string>

#include "load/CsvReader.hpp"
#include "load/KernelTable.hpp"
#include "load/MindDataSummary.hpp"
#include "load/OpStatisticCsv.hpp"
#include "load/StepTraceCsv.hpp"
#include "import/kernel_csv/KernelCsvLoader.hpp"
#include "rank/OperatorStats.hpp"
#include "rank/RankOverview.hpp"

using namespace marey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    CsvReader reader(text);
    std::vector<std::string_view> fields;
    uint64_t offset = 0, last = 0;
    while (reader.Next(fields, &offset)) {
        if (offset < last || offset >= size) __builtin_trap();  // always moves forward
        last = offset;
    }
    auto model = LoadKernelDetailsCsv(TraceText::FromString(text), "fuzz.csv");
    (void)model;
    if (auto table = ParseKernelTable(text, "fuzz.csv"); table.ok()) {
        const OverviewFigures figures = OverviewFromKernels(table.value());
        if (figures.valid && (figures.freeNs < 0 || figures.commOverlappedNs > figures.computingNs))
            __builtin_trap();
        (void)OperatorsFromKernels(table.value());
    }
    // A step row kept has every phase a duration: short, negative or repeated rows are left out.
    if (auto steps = ParseStepTraceCsv(text, "fuzz.csv"); steps.ok())
        for (const StepRow& row : steps.value().rows)
            for (const TimeNs ns : row.ns)
                if (ns < 0) __builtin_trap();
    if (auto statistic = ParseOpStatisticCsv(text, "fuzz.csv"); statistic.ok())
        (void)OperatorsFromOpStatistic(statistic.value());
    // A summary's figures keep their ranges whatever the bytes: -1 (none) or a value in range.
    for (auto summary :
         {ParseMindDataSummaryCsv(text, "fuzz.csv"), ParseMindDataSummaryJson(text, "fuzz.json")}) {
        if (!summary.ok()) continue;
        for (const MindDataSummaryOperator& op : summary.value().operators)
            if (op.queueUtilizationPct > 100 || op.queueEmptyPct > 100 || op.workers < -1 ||
                (op.queueUtilizationPct < 0 && op.queueUtilizationPct != -1))
                __builtin_trap();
    }
    return 0;
}
