#include "load/KernelTable.hpp"

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {

CoreClass ClassifyCore(std::string_view core) {
    if (core == "AI_CPU") return CoreClass::kAiCpu;
    if (core == "HCCL") return CoreClass::kCommunication;
    if (core == "AI_CORE" || core == "AI_VECTOR_CORE" || core.substr(0, 4) == "MIX_")
        return CoreClass::kAiCore;
    return CoreClass::kOther;
}

const char* CoreClassName(CoreClass coreClass) {
    switch (coreClass) {
        case CoreClass::kAiCore:
            return "AI Core";
        case CoreClass::kAiCpu:
            return "AI CPU";
        case CoreClass::kCommunication:
            return "Communication";
        case CoreClass::kGpu:
            return "GPU kernels";
        default:
            return "Other";
    }
}

Result<KernelColumns> FindKernelColumns(const std::vector<std::string>& header,
                                        const std::string& fileName) {
    KernelColumns columns;
    columns.name = FindColumn(header, "Name");
    columns.type = FindColumn(header, "Type");
    columns.core = FindColumn(header, "Accelerator Core");
    columns.start = FindColumn(header, "Start Time(us)");
    columns.duration = FindColumn(header, "Duration(us)");
    columns.stream = FindColumn(header, "Stream ID");
    columns.step = FindColumn(header, "Step Id");
    for (const auto& [column, label] : {std::pair{columns.name, "Name"},
                                        {columns.start, "Start Time(us)"},
                                        {columns.duration, "Duration(us)"}}) {
        if (column < 0)
            return Status::Error(fileName + ":1:1: error: not a kernel_details.csv: no \"" + label +
                                 "\" column in the header");
    }
    return columns;
}

Result<KernelTable> ParseKernelTable(std::string_view text, const std::string& name,
                                     const KernelReadOptions& options) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    const auto found = FindKernelColumns(header, name);
    if (!found.ok()) return found.status();
    const KernelColumns& columns = found.value();
    std::vector<std::string_view> fields;
    KernelTable table;
    // Rows in a run mostly share their step, core and type, and a step repeats the names of the
    // one before: the previous row's cell of a column, compared first, spares most hashing.
    struct LastCell {
        std::string_view text;  // in the pool: a cell's own view dies with the next record
        StringId id = 0;
    };
    LastCell lastName, lastType, lastCore, lastStep;
    auto intern = [&](LastCell& last, std::string_view cell) {
        if (cell != last.text)
            last.id = table.strings.Intern(cell), last.text = table.strings.Get(last.id);
        return last.id;
    };
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        // A row of another width than the header's reads its cells in their neighbours' columns
        // (a real file's row that lost a cell after its start reads its wait as its duration):
        // left out and named, as is a row the file is cut inside.
        const CsvRecordCheck check =
            CheckTableRecord(reader, fields, header.size(), offset, table.problems);
        if (check == CsvRecordCheck::kStop) break;
        if (check == CsvRecordCheck::kSkip) continue;
        KernelRow row;
        const std::string_view start = FieldAt(fields, columns.start),
                               duration = FieldAt(fields, columns.duration);
        // Tasks start after the clock's zero, last no negative time and end within int64 (the
        // overview's sums then fit); the cell at fault is the one named.
        const char* column = "Start Time(us)";
        std::string_view cell = start;
        const char* what = nullptr;
        if (const DecimalError error = ParseMicrosToNs(start, &row.startNs);
            error != DecimalError::kNone) {
            what = DescribeDecimalError(error);
        } else if (row.startNs < 0) {
            what = "a start before the clock's zero";
        } else if (const DecimalError durError = ParseMicrosToNs(duration, &row.durNs);
                   durError != DecimalError::kNone) {
            column = "Duration(us)", cell = duration, what = DescribeDecimalError(durError);
        } else if (row.durNs < 0) {
            column = "Duration(us)", cell = duration, what = "a negative duration";
        } else if (row.startNs > INT64_MAX - row.durNs) {
            column = "Duration(us)", cell = duration, what = "an end past the int64 range";
        }
        if (what) {
            table.problems.push_back(
                {offset, 0, 0, CsvCellProblem(column, what, cell, "row skipped")});
            continue;
        }
        const std::string_view taskName = FieldAt(fields, columns.name);
        const std::string_view core = FieldAt(fields, columns.core);
        if (options.names) row.name = intern(lastName, taskName);
        row.type = intern(lastType, columns.type >= 0 ? FieldAt(fields, columns.type) : taskName);
        if (options.names) row.core = intern(lastCore, core);
        // Always: a few strings, and what tells rows of steps the step file lacks.
        row.step = intern(lastStep, FieldAt(fields, columns.step));
        row.coreClass = columns.core >= 0
                            ? ClassifyCore(core)
                            : (taskName.substr(0, 5) == "hcom_" ? CoreClass::kCommunication
                                                                : CoreClass::kOther);
        table.rows.push_back(row);
    }
    FillLineColumns(text, table.problems);
    return table;
}

}  // namespace marey
