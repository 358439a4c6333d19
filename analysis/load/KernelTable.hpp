#pragma once
// kernel_details.csv as a table for statistics: one row per device task with its name, type,
// accelerator core, start and duration. (KernelCsvLoader turns the same file into a timeline.)
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/StringPool.hpp"
#include "core/Time.hpp"

namespace marey {

// What kind of unit ran a task, from the "Accelerator Core" column.
// kGpu: a GPU's computation kernels, read from a trace (analysis/trace/TraceRankTables).
enum class CoreClass : uint8_t { kAiCore, kAiCpu, kCommunication, kOther, kGpu };

// AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV → AI Core; AI_CPU → AI CPU; HCCL → communication.
CoreClass ClassifyCore(std::string_view acceleratorCore);
const char* CoreClassName(CoreClass coreClass);

// Where kernel_details.csv keeps what marey reads; -1 for an optional column that is absent.
struct KernelColumns {
    int name = -1, type = -1, core = -1, start = -1, duration = -1, stream = -1, step = -1;
};

// The columns of a kernel_details.csv header, by name (layouts differ between profiler levels and
// versions). Fails, naming the column, when Name, Start Time(us) or Duration(us) is missing.
Result<KernelColumns> FindKernelColumns(const std::vector<std::string>& header,
                                        const std::string& fileName);

struct KernelRow {
    StringId name = 0, type = 0, core = 0;  // in KernelTable::strings
    StringId step =
        0;  // the "Step Id" cell ("50"), in KernelTable::strings; empty without the column
    CoreClass coreClass = CoreClass::kOther;
    TimeNs startNs = 0, durNs = 0;
};

struct KernelTable {
    StringPool strings;
    std::vector<KernelRow> rows;  // in file order
    std::vector<ImportProblem> problems;
};

// What ParseKernelTable keeps of each row besides its type, times and core class.
struct KernelReadOptions {
    // Its name and core strings; without them (0 in every row) a table serves operator totals by
    // type and the overview, and those strings are not interned. The step is always kept.
    bool names = true;
};

// Reads the text of a kernel_details.csv; columns by header name. A row whose start or duration
// is not a number is skipped and reported with its column. Fails only without Name, Start Time(us)
// and Duration(us) columns. Communication rows are recognised by their core (HCCL) or, in files
// without that column, by an "hcom_" name.
Result<KernelTable> ParseKernelTable(std::string_view text, const std::string& name,
                                     const KernelReadOptions& options = {});

}  // namespace marey
