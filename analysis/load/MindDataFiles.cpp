#include "load/MindDataFiles.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>
#include <set>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {
namespace {

// A whole field as a count from 0 to kMaxMindDataCount; false for anything else.
bool ParseCount(std::string_view text, int* value) {
    text = TrimField(text);
    int64_t parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || parsed < 0 ||
        parsed > kMaxMindDataCount)
        return false;
    *value = static_cast<int>(parsed);
    return true;
}

// A finite decimal number; false for anything else (NaN and infinities included).
bool ParseReal(std::string_view text, double* value) {
    text = TrimField(text);
    if (text.empty()) return false;
    const std::string copy(text);
    char* end = nullptr;
    *value = std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size() && std::isfinite(*value);
}

// "[10, 20, 30]" as counts; false when a bracket, a separator or a count is wrong.
bool ParseCountList(std::string_view text, std::vector<int>* values) {
    text = TrimField(text);
    values->clear();
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') return false;
    text = TrimField(text.substr(1, text.size() - 2));
    while (!text.empty()) {
        const size_t comma = text.find(',');
        int value = 0;
        if (!ParseCount(text.substr(0, comma), &value)) return false;
        values->push_back(value);
        if (comma == std::string_view::npos) break;
        text = text.substr(comma + 1);
        if (TrimField(text).empty()) return false;  // "[1, ]"
    }
    return true;
}

// What a row of the pipeline file says beyond its op_id, or why it cannot be read.
struct PipelineColumns {
    int id, type, workers, sizes, length, usage, interval, parent, children;
};

// Reads one row's cells into 'op'; returns the problem that leaves it out, or "".
std::string ReadPipelineRow(const std::vector<std::string_view>& fields, const PipelineColumns& at,
                            PipelineOperator& op) {
    if (!ParseCount(FieldAt(fields, at.id), &op.id))
        return CsvCellProblem("op_id", "expected an operator id (a count)", FieldAt(fields, at.id),
                              "row left out");
    op.type = std::string(FieldAt(fields, at.type));
    const struct {
        const char* column;
        int index;
        int* value;
    } counts[] = {{"output_queue_length", at.length, &op.queueCapacity},
                  {"sample_interval", at.interval, &op.sampleIntervalMs},
                  {"parent_id", at.parent, &op.parent}};
    for (const auto& count : counts) {
        const std::string_view cell = FieldAt(fields, count.index);
        if (cell.empty()) continue;  // not recorded (the root has no parent)
        if (!ParseCount(cell, count.value))
            return CsvCellProblem(count.column, "expected a count", cell, "row left out");
    }
    if (const std::string_view cell = FieldAt(fields, at.workers); !cell.empty()) {
        int workers = 0;
        if (!ParseCount(cell, &workers))
            return CsvCellProblem("num_workers", "expected a count", cell, "row left out");
        op.workers = workers;
    }
    const std::string_view sizes = FieldAt(fields, at.sizes);
    if (!sizes.empty() && !ParseCountList(sizes, &op.queueSizes))
        return CsvCellProblem("output_queue_size", "expected a list of counts such as [1, 2]",
                              sizes, "row left out");
    for (const int size : op.queueSizes)
        if (op.queueCapacity > 0 && size > op.queueCapacity)
            return CsvCellProblem(
                "output_queue_size",
                "a size above the queue's length (" + std::to_string(op.queueCapacity) + ")", sizes,
                "row left out");
    const std::string_view usage = FieldAt(fields, at.usage);
    if (!usage.empty()) {
        if (!ParseReal(usage, &op.queueUsage) || op.queueUsage < 0 || op.queueUsage > 1)
            return CsvCellProblem("output_queue_usage_rate", "expected a share from 0 to 1", usage,
                                  "row left out");
        // MindInsight writes 0 for a queue it did not record; a queue with no sizes has no usage.
        op.hasQueue = !op.queueSizes.empty() || op.queueCapacity > 0;
    }
    const std::string_view children = FieldAt(fields, at.children);
    if (!children.empty() && !ParseCountList(children, &op.children))
        return CsvCellProblem("children_id", "expected a list of operator ids such as [2, 3]",
                              children, "row left out");
    return std::string();
}

}  // namespace

std::vector<LinkProblem> CheckPipelineLinks(std::vector<PipelineOperator>& operators) {
    std::vector<LinkProblem> problems;
    std::map<int, size_t> index;
    for (size_t i = 0; i < operators.size(); ++i) index[operators[i].id] = i;
    const auto say = [&](size_t i, const std::string& what) {
        problems.push_back({i, "operator " + std::to_string(operators[i].id) + ": " + what});
    };
    for (size_t i = 0; i < operators.size(); ++i) {
        PipelineOperator& op = operators[i];
        if (op.parent == op.id) {
            say(i, "parent_id is the operator itself; drawn as a root");
            op.parent = -1;
        } else if (op.parent >= 0 && !index.count(op.parent)) {
            say(i, "parent_id " + std::to_string(op.parent) +
                       " names no operator of the file; drawn as a root");
            op.parent = -1;
        }
    }
    // A parent chain that comes back onto itself: the link that closes it is dropped. Each
    // operator is walked once (0 not yet, 1 on the chain being walked, 2 done).
    std::vector<uint8_t> state(operators.size(), 0);
    std::vector<size_t> chain;
    for (size_t i = 0; i < operators.size(); ++i) {
        chain.clear();
        for (size_t at = i; state[at] == 0;) {
            state[at] = 1;
            chain.push_back(at);
            const int parent = operators[at].parent;
            if (parent < 0) break;
            const size_t next = index.at(parent);
            if (state[next] == 1) {
                say(at, "parent_id " + std::to_string(parent) +
                            " closes a loop of parents; drawn as a root");
                operators[at].parent = -1;
                break;
            }
            at = next;
        }
        for (const size_t k : chain) state[k] = 2;
    }
    for (size_t i = 0; i < operators.size(); ++i) {
        PipelineOperator& op = operators[i];
        std::vector<int> kept;
        for (const int child : op.children) {
            const auto found = index.find(child);
            std::string why;
            if (child == op.id)
                why = " is the operator itself";
            else if (found == index.end())
                why = " names no operator";
            else if (operators[found->second].parent != op.id)
                why = operators[found->second].parent < 0
                          ? " has no parent_id of its own"
                          : " has another parent_id (" +
                                std::to_string(operators[found->second].parent) + ")";
            if (why.empty()) {
                kept.push_back(child);
                continue;
            }
            say(i, "child " + std::to_string(child) + why + "; link dropped");
            op.lostChildren = true;
        }
        op.children = std::move(kept);
    }
    // A parent_id whose operator does not list it as a child: that operator's inputs are not
    // all known, so it is judged by no queue rule (never as a source).
    for (size_t i = 0; i < operators.size(); ++i) {
        const int parent = operators[i].parent;
        if (parent < 0) continue;
        PipelineOperator& owner = operators[index.at(parent)];
        if (std::find(owner.children.begin(), owner.children.end(), operators[i].id) !=
            owner.children.end())
            continue;
        say(i, "parent_id " + std::to_string(parent) +
                   " does not list it among its children; that operator is judged by no rule");
        owner.lostChildren = true;
    }
    return problems;
}

namespace {

// Each operator's children from the parents the others name. O(operators log operators).
void LinkChildrenFromParents(std::vector<PipelineOperator>& operators) {
    std::map<int, size_t> byId;
    for (size_t i = 0; i < operators.size(); ++i) byId.emplace(operators[i].id, i);
    for (const PipelineOperator& op : operators) {
        const auto parent = byId.find(op.parent);
        if (op.parent >= 0 && parent != byId.end())
            operators[parent->second].children.push_back(op.id);
    }
}

// Each operator's parent from the children lists that name it (the first, when several do: the
// others are then named by CheckPipelineLinks). O(operators log operators + links).
void LinkParentsFromChildren(std::vector<PipelineOperator>& operators) {
    std::map<int, size_t> byId;
    for (size_t i = 0; i < operators.size(); ++i) byId.emplace(operators[i].id, i);
    for (const PipelineOperator& op : operators)
        for (const int child : op.children) {
            const auto found = byId.find(child);
            if (found != byId.end() && operators[found->second].parent < 0)
                operators[found->second].parent = op.id;
        }
}

}  // namespace

Result<PipelineTable> ParsePipelineRawCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    const PipelineColumns at{FindColumn(header, "op_id"),
                             FindColumn(header, "op_type"),
                             FindColumn(header, "num_workers"),
                             FindColumn(header, "output_queue_size"),
                             FindColumn(header, "output_queue_length"),
                             FindColumn(header, "output_queue_usage_rate"),
                             FindColumn(header, "sample_interval"),
                             FindColumn(header, "parent_id"),
                             FindColumn(header, "children_id")};
    if (at.id < 0)
        return Status::Error(name +
                             ":1:1: error: not a minddata_pipeline_raw csv: no \"op_id\" column");
    PipelineTable table;
    std::string missing;
    for (const auto& [column, index] : {std::pair<const char*, int>{"op_type", at.type},
                                        {"num_workers", at.workers},
                                        {"output_queue_usage_rate", at.usage},
                                        {"parent_id", at.parent},
                                        {"children_id", at.children}})
        if (index < 0) missing += std::string(missing.empty() ? "" : ", ") + column;
    if (!missing.empty())
        table.problems.push_back(
            {0, 0, 0, "no column " + missing + ": the pipeline is read without it"});
    std::vector<uint64_t> offsets;
    std::set<int> seen;
    std::vector<std::string_view> fields;
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        const CsvRecordCheck check =
            CheckTableRecord(reader, fields, header.size(), offset, table.problems);
        if (check == CsvRecordCheck::kStop) break;
        if (check == CsvRecordCheck::kSkip) continue;
        PipelineOperator op;
        const std::string problem = ReadPipelineRow(fields, at, op);
        if (!problem.empty()) {
            table.problems.push_back({offset, 0, 0, problem});
            continue;
        }
        if (!seen.insert(op.id).second) {
            table.problems.push_back(
                {offset, 0, 0,
                 "op_id " + std::to_string(op.id) + " repeats an earlier row's; row left out"});
            continue;
        }
        table.operators.push_back(std::move(op));
        offsets.push_back(offset);
    }
    // Parents and children say the same links from either end: without one column the other
    // gives them, so that no operator is taken for a source for want of its children.
    if (at.children < 0 && at.parent >= 0) LinkChildrenFromParents(table.operators);
    if (at.parent < 0 && at.children >= 0) LinkParentsFromChildren(table.operators);
    for (const LinkProblem& problem : CheckPipelineLinks(table.operators))
        table.problems.push_back({offsets[problem.operatorIndex], 0, 0, problem.message});
    std::stable_sort(
        table.problems.begin(), table.problems.end(),
        [](const ImportProblem& a, const ImportProblem& b) { return a.byteOffset < b.byteOffset; });
    FillLineColumns(text, table.problems);
    return table;
}

namespace {

// The white-space separated fields of one line.
std::vector<std::string_view> SplitWords(std::string_view line) {
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        size_t end = i;
        while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '\r')
            ++end;
        if (end > i) words.push_back(line.substr(i, end - i));
        i = end;
    }
    return words;
}

// What a parser says of a last line without a line end.
constexpr const char* kCutLine =
    "the last line has no line end: the file is cut inside it; line left out";

// Calls 'visit(words, offset)' for every line of 'text' that holds a word. The profiler ends
// every line with a line end: a last line without one is where a cut file stops ("1.25" cut to
// "1.2", "GetNext" to "GetNe"), so it is not visited; its offset is returned, else UINT64_MAX.
template <typename Visit>
uint64_t ForEachLine(std::string_view text, Visit visit) {
    size_t start = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte-order mark
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        const std::vector<std::string_view> words = SplitWords(
            text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
        if (end == std::string_view::npos)
            return words.empty() ? UINT64_MAX : static_cast<uint64_t>(start);
        if (!words.empty()) visit(words, static_cast<uint64_t>(start));
        start = end + 1;
    }
    return UINT64_MAX;
}

// A time in milliseconds as nanoseconds; false for a negative, non-numeric or huge one.
bool ParseMilliseconds(std::string_view text, TimeNs* ns) {
    double ms = 0;
    if (!ParseReal(text, &ms) || ms < 0 || ms > 9.2e12) return false;
    *ns = static_cast<TimeNs>(std::llround(ms * 1e6));
    return true;
}

}  // namespace

HostQueueRecord ParseHostQueueText(std::string_view text) {
    HostQueueRecord record;
    std::map<int, HostQueueStep> steps;
    std::set<std::pair<int, int>> seen;  // (step, what): a second record of either is damage
    const uint64_t cut = ForEachLine(text, [&](const std::vector<std::string_view>& words,
                                               uint64_t offset) {
        const auto problem = [&](const std::string& what) {
            record.problems.push_back({offset, 0, 0, what + "; line left out"});
        };
        int kind = 0, sub = 0, step = 0;
        if (words.size() < 4 || !ParseCount(words[0], &kind) || kind > 1 ||
            !ParseCount(words[1], &sub) || !ParseCount(words[2], &step))
            return problem(
                "expected \"0 KIND STEP MILLISECONDS\" or \"1 CAPACITY STEP SIZE\" with counts");
        const int what = kind == 1 ? 3 : sub;
        if (kind == 0 && sub > 2)
            return problem("a time of kind " + std::to_string(sub) +
                           " (expected 0 get, 1 push or 2 total)");
        if (kind == 1) {
            int size = 0;
            if (!ParseCount(words[3], &size)) return problem("the queue's size is not a count");
            if (sub > 0 && size > sub)
                return problem("a queue size of " + std::to_string(size) + " above its capacity " +
                               std::to_string(sub));
            if (!seen.insert({step, what}).second)
                return problem("step " + std::to_string(step) + "'s queue size recorded twice");
            HostQueueStep& entry = steps[step];
            entry.step = step, entry.size = size, entry.capacity = sub;
            return;
        }
        TimeNs ns = 0;
        if (!ParseMilliseconds(words[3], &ns))
            return problem("the time is not a duration in milliseconds");
        if (!seen.insert({step, what}).second)
            return problem("step " + std::to_string(step) + "'s time recorded twice");
        HostQueueStep& entry = steps[step];
        entry.step = step;
        (sub == 0 ? entry.getNs : sub == 1 ? entry.pushNs : entry.totalNs) = ns;
    });
    if (cut != UINT64_MAX) record.problems.push_back({cut, 0, 0, kCutLine});
    for (auto& [step, entry] : steps) record.steps.push_back(entry);
    if (record.steps.empty() && record.problems.empty())
        record.problems.push_back({0, 0, 0, "the file holds no line: no step of the host queue"});
    FillLineColumns(text, record.problems);
    return record;
}

DeviceQueueRecord ParseDeviceQueueText(std::string_view text, bool nanoseconds) {
    DeviceQueueRecord record;
    int ordinal = 0;
    std::set<std::pair<TimeNs, TimeNs>> taken;  // the batches read, by (start, end)
    const uint64_t cut = ForEachLine(text, [&](const std::vector<std::string_view>& words,
                                               uint64_t offset) {
        if (words[0].substr(0, 7) != "GetNext") return;  // another AI CPU operator
        ++ordinal;
        int size = -1;
        TimeNs start = 0, end = 0;
        const int shift = nanoseconds ? 0 : 3;
        if (words.size() < 3 ||
            ParseScaledDecimal(words[1], shift, &start) != DecimalError::kNone ||
            ParseScaledDecimal(words[2], shift, &end) != DecimalError::kNone || start < 0 ||
            (words.size() > 3 && !ParseCount(words[3], &size))) {
            record.problems.push_back(
                {offset, 0, 0,
                 "expected \"GetNext… START END SIZE\" with times and a count; batch " +
                     std::to_string(ordinal) + " left out"});
            return;
        }
        if (end < start) {
            record.problems.push_back({offset, 0, 0,
                                       "the batch ends before it starts; batch " +
                                           std::to_string(ordinal) + " left out"});
            return;
        }
        // A line written twice, next to its first or anywhere after, is one batch, not the
        // next step's.
        if (!taken.insert({start, end}).second) {
            record.problems.push_back(
                {offset, 0, 0, "repeats an earlier batch (the same start and end); line left out"});
            --ordinal;
            return;
        }
        if (words.size() == 3)
            record.problems.push_back({offset, 0, 0,
                                       "no SIZE: the data queue's size for batch " +
                                           std::to_string(ordinal) + " is not known"});
        record.batches.push_back({ordinal, start, end, size});
    });
    // A cut line may be a GetNext line cut anywhere ("GetNe"): its batch is lost, and said so.
    if (cut != UINT64_MAX) record.problems.push_back({cut, 0, 0, kCutLine});
    if (ordinal == 0)
        record.problems.push_back(
            {0, 0, 0, "no GetNext line: the device's data queue is not known"});
    FillLineColumns(text, record.problems);
    return record;
}

}  // namespace marey
