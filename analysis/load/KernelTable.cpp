#include "load/KernelTable.hpp"

#include "load/CsvReader.hpp"
#include "load/TraceLoader.hpp"

namespace tracelens {

CoreClass ClassifyCore(std::string_view core) {
    if (core == "AI_CPU") return CoreClass::kAiCpu;
    if (core == "HCCL") return CoreClass::kCommunication;
    if (core == "AI_CORE" || core == "AI_VECTOR_CORE" || core.substr(0, 4) == "MIX_") return CoreClass::kAiCore;
    return CoreClass::kOther;
}

const char* CoreClassName(CoreClass coreClass) {
    switch (coreClass) {
        case CoreClass::kAiCore: return "AI Core";
        case CoreClass::kAiCpu: return "AI CPU";
        case CoreClass::kCommunication: return "Communication";
        default: return "Other";
    }
}

Result<KernelTable> ParseKernelTable(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    std::vector<std::string_view> fields;
    const int nameColumn = FindColumn(header, "Name");
    const int typeColumn = FindColumn(header, "Type");
    const int coreColumn = FindColumn(header, "Accelerator Core");
    const int startColumn = FindColumn(header, "Start Time(us)");
    const int durationColumn = FindColumn(header, "Duration(us)");
    for (const auto& [column, label] : {std::pair{nameColumn, "Name"}, {startColumn, "Start Time(us)"},
                                        {durationColumn, "Duration(us)"}}) {
        if (column < 0)
            return Status::Error(name + ":1:1: error: not a kernel_details.csv: no \"" + label + "\" column in the header");
    }
    KernelTable table;
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        KernelRow row;
        const std::string_view start = FieldAt(fields, startColumn), duration = FieldAt(fields, durationColumn);
        DecimalError error = ParseMicrosToNs(start, &row.startNs);
        const char* column = "Start Time(us)";
        std::string_view cell = start;
        if (error == DecimalError::kNone) {
            error = ParseMicrosToNs(duration, &row.durNs);
            column = "Duration(us)";
            cell = duration;
        }
        // Tasks start after the clock's zero and end within int64: the overview's sums then fit.
        if (error == DecimalError::kNone && (row.durNs < 0 || row.startNs < 0 || row.startNs > INT64_MAX - row.durNs))
            error = DecimalError::kOutOfRange;
        if (error != DecimalError::kNone) {
            table.problems.push_back({offset, 0, 0, CsvCellProblem(column, DescribeDecimalError(error), cell, "row skipped")});
            continue;
        }
        const std::string_view taskName = FieldAt(fields, nameColumn);
        const std::string_view core = FieldAt(fields, coreColumn);
        row.name = table.strings.Intern(taskName);
        row.type = table.strings.Intern(typeColumn >= 0 ? FieldAt(fields, typeColumn) : taskName);
        row.core = table.strings.Intern(core);
        row.coreClass = coreColumn >= 0 ? ClassifyCore(core)
                                        : (taskName.substr(0, 5) == "hcom_" ? CoreClass::kCommunication : CoreClass::kOther);
        table.rows.push_back(row);
    }
    if (reader.LastRecordUnterminated())
        table.problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
    FillLineColumns(text, table.problems);
    return table;
}

}  // namespace tracelens
