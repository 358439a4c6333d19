// MindSpore's step_trace_raw_N_detail_time.csv (MindInsight's layout) as a step table: its
// iteration_interval, fp_and_bp and tail in the phases the rest of marey reads. One reader for a
// rank opened alone and the same rank inside its cluster.
#include <cstdint>
#include <set>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"
#include "load/StepTraceCsv.hpp"

namespace marey {
namespace {

constexpr int64_t kNsPerTick = 10;  // MindInsight: 100,000 ticks to the millisecond

}  // namespace

Result<StepTrace> ParseStepTraceRawCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    const int stepColumn = FindColumn(header, "step_num");
    if (stepColumn < 0)
        return Status::Error(name + ":1:1: error: no \"step_num\" column; the file is not read");
    const char* names[] = {"iteration_interval", "fp_and_bp", "tail"};
    const StepPhase phases[] = {kStepFree, kStepComputing, kStepCommNotOverlapped};
    int at[3];
    for (int i = 0; i < 3; ++i) at[i] = FindColumn(header, names[i]);
    StepTrace trace;
    std::set<std::string> seen;
    std::vector<std::string_view> fields;
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        const CsvRecordCheck check =
            CheckTableRecord(reader, fields, header.size(), offset, trace.problems);
        if (check == CsvRecordCheck::kStop) break;
        if (check == CsvRecordCheck::kSkip) continue;
        StepRow row;
        row.step = std::string(FieldAt(fields, stepColumn));
        if (row.step == "-") continue;  // MindInsight's average of the steps above
        bool damaged = false;
        for (int i = 0; i < 3 && !damaged; ++i) {
            const std::string_view cell = FieldAt(fields, at[i]);
            if (at[i] < 0 || cell.empty()) continue;
            int64_t ticks = 0;
            const DecimalError error = ParseScaledDecimal(cell, 0, &ticks);
            const char* what = error != DecimalError::kNone ? DescribeDecimalError(error)
                               : ticks < 0                  ? "a negative duration"
                               : ticks > INT64_MAX / kNsPerTick
                                   ? "out of the int64 nanosecond range"
                                   : nullptr;
            if (what) {
                trace.problems.push_back(
                    {offset, 0, 0, CsvCellProblem(names[i], what, cell, "row left out")});
                damaged = true;
                continue;
            }
            row.ns[phases[i]] = ticks * kNsPerTick;
        }
        if (damaged) continue;
        if (!seen.insert(row.step).second) {
            trace.problems.push_back(
                {offset, 0, 0, "step " + row.step + " repeats an earlier row's; row left out"});
            continue;
        }
        trace.rows.push_back(std::move(row));
    }
    for (int i = 0; i < 3; ++i) trace.hasColumn[phases[i]] = at[i] >= 0;
    FillLineColumns(text, trace.problems);
    return trace;
}

}  // namespace marey
