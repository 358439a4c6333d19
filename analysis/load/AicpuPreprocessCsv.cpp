#include "load/AicpuPreprocessCsv.hpp"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {
namespace {

// A time column and the power of ten its unit is of a nanosecond: 3 for µs, 6 for ms.
struct TimeColumn {
    int index = -1;
    int shift = 3;
    const char* name = "";
};

// The column "<base>(us)" or "<base>(ms)" (a space before the unit allowed).
TimeColumn FindTimeColumn(const std::vector<std::string>& header, const char* base) {
    TimeColumn column;
    column.name = base;
    for (const auto& [unit, shift] : {std::pair{"(us)", 3}, std::pair{"(ms)", 6}})
        for (const char* space : {"", " "}) {
            const int at = FindColumn(header, std::string(base) + space + unit);
            if (at >= 0) return column.index = at, column.shift = shift, column;
        }
    return column;
}

struct AicpuColumns {
    int node, stream, taskId;
    TimeColumn timestamp, compute, memcpy, task, dispatch, total;
};

// No AI CPU task lasts an hour: past it, a duration is damage.
constexpr TimeNs kMaxTaskNs = int64_t{3600} * 1000000000;

// One time of a row into 'out' (left 0 when the file lacks the column); false when the cell is
// not a time from 0 up ('duration': to an hour), with 'problem' set.
bool ReadTime(const std::vector<std::string_view>& fields, const TimeColumn& column, TimeNs* out,
              std::string* problem, bool duration = true) {
    if (column.index < 0) return true;
    const std::string_view cell = FieldAt(fields, column.index);
    if (ParseScaledDecimal(cell, column.shift, out) == DecimalError::kNone && *out >= 0 &&
        (!duration || *out <= kMaxTaskNs))
        return true;
    *problem = CsvCellProblem(
        column.name,
        duration ? "expected a duration from 0 to an hour" : "expected a time from 0 up", cell,
        "row left out");
    return false;
}

// Reads one row into the node's sums; the problem that leaves it out, or "".
std::string AddRow(const std::vector<std::string_view>& fields, const AicpuColumns& at,
                   std::map<std::string, AicpuNodeTimes>& nodes, AicpuPreprocessTable& table) {
    const std::string node(FieldAt(fields, at.node));
    if (node.empty()) return "no Node; row left out";
    TimeNs stamp = 0, compute = 0, memcpy = 0, task = 0, dispatch = 0, total = 0;
    std::string problem;
    if (!ReadTime(fields, at.timestamp, &stamp, &problem, false) ||
        !ReadTime(fields, at.compute, &compute, &problem) ||
        !ReadTime(fields, at.memcpy, &memcpy, &problem) ||
        !ReadTime(fields, at.task, &task, &problem) ||
        !ReadTime(fields, at.dispatch, &dispatch, &problem) ||
        !ReadTime(fields, at.total, &total, &problem))
        return problem;
    AicpuNodeTimes& sums = nodes[node];
    sums.node = node;
    ++sums.count;
    sums.computeNs = SaturatingAdd(sums.computeNs, compute);
    sums.memcpyNs = SaturatingAdd(sums.memcpyNs, memcpy);
    sums.taskNs = SaturatingAdd(sums.taskNs, task);
    sums.dispatchNs = SaturatingAdd(sums.dispatchNs, dispatch);
    sums.totalNs = SaturatingAdd(sums.totalNs, total);
    sums.longestNs = std::max(sums.longestNs, total);
    if (at.timestamp.index >= 0) {
        table.firstNs = table.firstNs < 0 ? stamp : std::min(table.firstNs, stamp);
        table.lastNs = std::max(table.lastNs, stamp);
    }
    ++table.tasks;
    return "";
}

}  // namespace

Result<AicpuPreprocessTable> ParseAicpuPreprocessCsv(std::string_view text,
                                                     const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    const AicpuColumns at{FindColumn(header, "Node"),
                          FindColumn(header, "Stream ID"),
                          FindColumn(header, "Task ID"),
                          FindTimeColumn(header, "Timestamp"),
                          FindTimeColumn(header, "Compute_time"),
                          FindTimeColumn(header, "Memcpy_time"),
                          FindTimeColumn(header, "Task_time"),
                          FindTimeColumn(header, "Dispatch_time"),
                          FindTimeColumn(header, "Total_time")};
    if (at.node < 0 || at.total.index < 0)
        return Status::Error(name +
                             ":1:1: error: not a data_preprocess.csv: expected the columns Node "
                             "and Total_time(us)");
    AicpuPreprocessTable table;
    table.hasCompute = at.compute.index >= 0, table.hasMemcpy = at.memcpy.index >= 0;
    table.hasTask = at.task.index >= 0, table.hasDispatch = at.dispatch.index >= 0;
    std::string missing;
    for (const TimeColumn* column : {&at.compute, &at.memcpy, &at.task, &at.dispatch})
        if (column->index < 0) missing += std::string(missing.empty() ? "" : ", ") + column->name;
    if (!missing.empty())
        table.problems.push_back({0, 0, 0, "no column " + missing + ": read without it"});
    std::map<std::string, AicpuNodeTimes> nodes;
    std::unordered_set<std::string> seen;
    std::vector<std::string_view> fields;
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        const CsvRecordCheck check =
            CheckTableRecord(reader, fields, header.size(), offset, table.problems);
        if (check == CsvRecordCheck::kStop) break;
        if (check == CsvRecordCheck::kSkip) continue;
        // A task is written once: the same stream, task id, node and start again is a repeat.
        std::string key;
        for (const int column : {at.stream, at.taskId, at.node, at.timestamp.index})
            key.append(FieldAt(fields, column)).push_back('\x1f');
        if (!seen.insert(std::move(key)).second) {
            table.problems.push_back(
                {offset, 0, 0,
                 "repeats an earlier task (its stream, task id, node and start); "
                 "row left out"});
            continue;
        }
        const std::string problem = AddRow(fields, at, nodes, table);
        if (!problem.empty()) table.problems.push_back({offset, 0, 0, problem});
    }
    for (auto& [node, sums] : nodes) table.nodes.push_back(std::move(sums));
    std::stable_sort(
        table.nodes.begin(), table.nodes.end(),
        [](const AicpuNodeTimes& a, const AicpuNodeTimes& b) { return a.totalNs > b.totalNs; });
    FillLineColumns(text, table.problems);
    return table;
}

}  // namespace marey
