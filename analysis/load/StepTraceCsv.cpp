#include "load/StepTraceCsv.hpp"

#include <set>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {

const std::array<const char*, kStepPhaseCount> kStepPhaseColumns = {
    "Computing",  "Communication(Not Overlapped)",
    "Overlapped", "Communication",
    "Free",       "Stage",
    "Bubble",     "Communication(Not Overlapped and Exclude Receive)",
    "Preparing"};

const std::array<const char*, kStepPhaseCount> kStepPhaseJsonKeys = {
    "computing_ns",  "communication_not_overlapped_ns",
    "overlapped_ns", "communication_ns",
    "free_ns",       "stage_ns",
    "bubble_ns",     "communication_not_overlapped_exclude_receive_ns",
    "preparing_ns"};

TimeNs StepWallNs(const StepRow& row) {
    return SaturatingAdd(SaturatingAdd(row.ns[kStepComputing], row.ns[kStepCommNotOverlapped]),
                         row.ns[kStepFree]);
}

TimeNs StepTrace::Total(StepPhase phase) const {
    TimeNs total = 0;
    for (const StepRow& row : rows) total = SaturatingAdd(total, row.ns[phase]);
    return total;
}

Result<StepTrace> ParseStepTraceCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    std::vector<std::string_view> fields;
    const int stepColumn = FindColumn(header, "Step");
    const int typeColumn = FindColumn(header, "Type"), indexColumn = FindColumn(header, "Index");
    std::array<int, kStepPhaseCount> columns{};
    StepTrace trace;
    for (int phase = 0; phase < kStepPhaseCount; ++phase) {
        columns[phase] = FindColumn(header, kStepPhaseColumns[phase]);
        trace.hasColumn[phase] = columns[phase] >= 0;
    }
    if (stepColumn < 0 && columns[kStepComputing] < 0)
        return Status::Error(
            name + ":1:1: error: not a step_trace_time.csv: no \"Step\" or \"Computing\" column");
    uint64_t offset = 0;
    std::set<std::array<std::string, 3>> seen;  // (type, index, step) of the rows kept
    auto leaveOut = [&](std::string message) {
        trace.problems.push_back({offset, 0, 0, std::move(message)});
    };
    while (reader.Next(fields, &offset)) {
        if (reader.LastRecordUnterminated()) break;  // a row cut inside a quote: named below
        // A short row (a truncated last line, a lost separator) would read its missing phases as
        // zeros and look like a step: it is left out, as is a row with a cell that is no duration.
        if (fields.size() < header.size()) {
            leaveOut("a row of " + std::to_string(fields.size()) + " of the header's " +
                     std::to_string(header.size()) + " columns; row left out");
            continue;
        }
        // More cells than the header (a decimal comma, a stray separator): every cell after the
        // extra one would be read in its neighbour's column. Empty trailing cells are harmless.
        size_t filled = fields.size();
        while (filled > header.size() && TrimField(fields[filled - 1]).empty()) --filled;
        if (filled > header.size()) {
            leaveOut("a row of " + std::to_string(filled) + " cells against the header's " +
                     std::to_string(header.size()) +
                     " columns: its cells cannot be told apart; row left out");
            continue;
        }
        StepRow row;
        row.step = std::string(FieldAt(fields, stepColumn));
        if (typeColumn >= 0) row.type = std::string(FieldAt(fields, typeColumn));
        if (indexColumn >= 0) row.index = std::string(FieldAt(fields, indexColumn));
        bool readable = true;
        for (int phase = 0; phase < kStepPhaseCount && readable; ++phase) {
            const std::string_view cell = FieldAt(fields, columns[phase]);
            if (columns[phase] < 0 || cell.empty()) continue;
            if (const DecimalError error = ParseMicrosToNs(cell, &row.ns[phase]);
                error != DecimalError::kNone) {
                leaveOut(CsvCellProblem(kStepPhaseColumns[phase], DescribeDecimalError(error), cell,
                                        "row left out"));
                readable = false;
            } else if (row.ns[phase] < 0) {
                leaveOut(CsvCellProblem(kStepPhaseColumns[phase], "a negative duration", cell,
                                        "row left out"));
                readable = false;
            }
        }
        if (!readable) continue;
        if (!row.step.empty() && !seen.insert({row.type, row.index, row.step}).second) {
            leaveOut("step \"" + row.step + "\"" +
                     (row.index.empty() ? "" : " of " + row.type + " " + row.index) +
                     " again; the first row kept, this one left out");
            continue;
        }
        trace.rows.push_back(std::move(row));
    }
    if (reader.LastRecordUnterminated())
        trace.problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
    if (trace.rows.empty() && trace.problems.empty())
        trace.problems.push_back({0, 0, 0, "the file holds its header and no step"});
    FillLineColumns(text, trace.problems);
    return trace;
}

}  // namespace marey
