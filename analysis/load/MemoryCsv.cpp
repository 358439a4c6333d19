#include "load/MemoryCsv.hpp"

#include <cmath>

#include <algorithm>
#include <cstdlib>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {
namespace {

// A memory amount's largest value in its unit (MiB or KiB): a pebibyte in MiB, past which an
// amount is damage, not memory.
constexpr double kMaxAmount = 1024.0 * 1024.0 * 1024.0;

// A number of megabytes or kilobytes from 0 to kMaxAmount; false for anything else (text,
// NaN, infinities, negative or huge numbers).
bool ParseAmount(std::string_view cell, double* value) {
    if (cell.empty()) return false;
    const std::string text(cell);
    char* end = nullptr;
    *value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(*value) && *value >= 0 &&
           *value <= kMaxAmount;
}

}  // namespace

Result<MemoryRecord> ParseMemoryRecordCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    std::vector<std::string_view> fields;
    const int timeColumn = FindColumn(header, "Timestamp(us)");
    if (timeColumn < 0)
        return Status::Error(name +
                             ":1:1: error: not a memory_record.csv: no \"Timestamp(us)\" column");
    const int componentColumn = FindColumn(header, "Component");
    struct Metric {
        const char* column;
        const char* label;
        int index;
    };
    Metric metrics[] = {{"Total Allocated(MB)", "Allocated", -1},
                        {"Total Reserved(MB)", "Reserved", -1},
                        {"Total Active(MB)", "Active", -1}};
    for (Metric& metric : metrics) metric.index = FindColumn(header, metric.column);

    MemoryRecord record;
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        if (reader.LastRecordUnterminated()) break;  // a row cut inside a quote: named below
        TimeNs time = 0;
        const std::string_view timeCell = FieldAt(fields, timeColumn);
        if (const DecimalError error = ParseMicrosToNs(timeCell, &time);
            error != DecimalError::kNone) {
            record.problems.push_back({offset, 0, 0,
                                       CsvCellProblem("Timestamp(us)", DescribeDecimalError(error),
                                                      timeCell, "row skipped")});
            continue;
        }
        const std::string_view component = FieldAt(fields, componentColumn);
        for (const Metric& metric : metrics) {
            const std::string_view cell = FieldAt(fields, metric.index);
            if (metric.index < 0 || cell.empty()) continue;
            double megabytes = 0;
            if (!ParseAmount(cell, &megabytes)) {
                record.problems.push_back(
                    {offset, 0, 0,
                     CsvCellProblem(metric.column, "not an amount from 0 to 2^30", cell,
                                    "no sample")});
                continue;
            }
            auto it = std::find_if(record.series.begin(), record.series.end(),
                                   [&](const MemorySeries& s) {
                                       return s.component == component && s.metric == metric.label;
                                   });
            if (it == record.series.end()) {
                record.series.push_back({std::string(component), metric.label, {}, {}, 0, 0});
                it = record.series.end() - 1;
            }
            it->timeNs.push_back(time);
            it->megabytes.push_back(megabytes);
        }
    }
    if (reader.LastRecordUnterminated())
        record.problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
    for (MemorySeries& series : record.series) {
        // Rows are written in time order per component; sort anyway so curves never step back.
        std::vector<size_t> order(series.timeNs.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return series.timeNs[a] < series.timeNs[b]; });
        std::vector<TimeNs> times;
        std::vector<double> values;
        for (size_t i : order)
            times.push_back(series.timeNs[i]), values.push_back(series.megabytes[i]);
        series.timeNs = std::move(times);
        series.megabytes = std::move(values);
        for (size_t i = 0; i < series.megabytes.size(); ++i)
            if (i == 0 || series.megabytes[i] > series.peakMb)
                series.peakMb = series.megabytes[i], series.peakNs = series.timeNs[i];
    }
    FillLineColumns(text, record.problems);
    return record;
}

Result<OperatorMemory> ParseOperatorMemoryCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    std::vector<std::string_view> fields;
    const int nameColumn = FindColumn(header, "Name");
    const int allocationColumn = FindColumn(header, "Allocation Time(us)");
    if (nameColumn < 0 || allocationColumn < 0)
        return Status::Error(name +
                             ":1:1: error: not an operator_memory.csv: no \"Name\" and "
                             "\"Allocation Time(us)\" columns");
    const int sizeColumn = FindColumn(header, "Size(KB)");
    const int releaseColumn = FindColumn(header, "Release Time(us)");
    OperatorMemory memory;
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        if (reader.LastRecordUnterminated()) break;  // a row cut inside a quote: named below
        OperatorAllocation allocation;
        allocation.name = std::string(FieldAt(fields, nameColumn));
        const std::string_view allocationCell = FieldAt(fields, allocationColumn);
        if (const DecimalError error = ParseMicrosToNs(allocationCell, &allocation.allocationNs);
            error != DecimalError::kNone) {
            memory.problems.push_back(
                {offset, 0, 0,
                 CsvCellProblem("Allocation Time(us)", DescribeDecimalError(error), allocationCell,
                                "row skipped")});
            continue;
        }
        const std::string_view sizeCell = FieldAt(fields, sizeColumn);
        if (!sizeCell.empty() && !ParseAmount(sizeCell, &allocation.sizeKb)) {
            memory.problems.push_back({offset, 0, 0,
                                       CsvCellProblem("Size(KB)", "not an amount from 0 to 2^30",
                                                      sizeCell, "read as 0")});
            allocation.sizeKb = 0;
        }
        const std::string_view releaseCell = FieldAt(fields, releaseColumn);
        if (!releaseCell.empty()) {
            allocation.released =
                ParseMicrosToNs(releaseCell, &allocation.releaseNs) == DecimalError::kNone &&
                allocation.releaseNs >= allocation.allocationNs;
            if (!allocation.released)
                memory.problems.push_back(
                    {offset, 0, 0,
                     CsvCellProblem("Release Time(us)", "not a time after the allocation",
                                    releaseCell, "read as never released")});
        }
        memory.allocations.push_back(std::move(allocation));
    }
    if (reader.LastRecordUnterminated())
        memory.problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
    FillLineColumns(text, memory.problems);
    return memory;
}

const MemorySeries* ChooseAllocatedSeries(const MemoryRecord& record) {
    const MemorySeries* chosen = nullptr;
    for (const MemorySeries& series : record.series) {
        if (series.metric != "Allocated") continue;
        if (!chosen || (series.component == "PTA" && chosen->component != "PTA") ||
            (chosen->component != "PTA" && series.peakMb > chosen->peakMb))
            chosen = &series;
    }
    return chosen;
}

PeakMemory PeakAllocatedMemory(const MemoryRecord& record) {
    PeakMemory peak;
    const MemorySeries* allocated = ChooseAllocatedSeries(record);
    if (!allocated) return peak;
    peak.bytes = static_cast<int64_t>(std::llround(allocated->peakMb * kBytesPerMemoryMb));
    peak.source = "memory_record.csv (" + allocated->component + " " + allocated->metric + ")";
    return peak;
}

}  // namespace marey
