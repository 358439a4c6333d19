#include "load/MindDataJson.hpp"

#include <simdjson.h>

#include <cmath>
#include <set>

namespace marey {
namespace {

namespace dom = simdjson::dom;

constexpr double kMaxPercent = 1e6;

// 'text' without a UTF-8 byte-order mark, which simdjson does not take.
std::string_view WithoutMark(std::string_view text) {
    return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

bool ReadCount(dom::element value, int* out) {
    int64_t count = 0;
    if (value.get(count) || count < 0 || count > kMaxMindDataCount) return false;
    *out = static_cast<int>(count);
    return true;
}

bool ReadCounts(dom::element value, std::vector<int>* out) {
    dom::array array;
    if (value.get(array)) return false;
    for (dom::element item : array) {
        int count = 0;
        if (!ReadCount(item, &count)) return false;
        out->push_back(count);
    }
    return true;
}

std::string Shown(dom::element value) {
    return simdjson::minify(value).substr(0, 40);
}

// One op_info entry; returns the problem that leaves it out, or "".
std::string ReadOperator(dom::object entry, PipelineOperator& op) {
    dom::element value;
    if (entry["op_id"].get(value) || !ReadCount(value, &op.id))
        return "op_id: expected an operator id (a count)";
    std::string_view type;
    if (!entry["op_type"].get(type)) op.type = std::string(type);
    if (!entry["num_workers"].get(value)) {
        int workers = 0;
        if (!ReadCount(value, &workers))
            return "num_workers: expected a count, got " + Shown(value);
        op.workers = workers;
    }
    if (!entry["children"].get(value) && !value.is_null() && !ReadCounts(value, &op.children))
        return "children: expected a list of operator ids, got " + Shown(value);
    dom::element queue;
    if (entry.at_pointer("/metrics/output_queue").get(queue) || queue.is_null()) return "";
    if (!queue["length"].get(value) && !ReadCount(value, &op.queueCapacity))
        return "metrics.output_queue.length: expected a count, got " + Shown(value);
    if (!queue["size"].get(value) && !ReadCounts(value, &op.queueSizes))
        return "metrics.output_queue.size: expected a list of counts";
    for (const int size : op.queueSizes)
        if (op.queueCapacity > 0 && size > op.queueCapacity)
            return "metrics.output_queue.size: a size above the queue's length (" +
                   std::to_string(op.queueCapacity) + ")";
    // MindInsight's usage rate: the average size over the length.
    if (op.queueCapacity > 0 && !op.queueSizes.empty()) {
        double sum = 0;
        for (const int size : op.queueSizes) sum += size;
        op.queueUsage = sum / static_cast<double>(op.queueSizes.size()) / op.queueCapacity;
        op.hasQueue = true;
    }
    return "";
}

// The mean of a list of percentages; false when it is no list of finite numbers from 0 up.
bool Mean(dom::element value, double* mean) {
    dom::array array;
    if (value.get(array)) return false;
    double sum = 0;
    size_t count = 0;
    for (dom::element item : array) {
        double number = 0;
        // A percentage of one core: past kMaxPercent (ten thousand cores) it is damage.
        if (item.get(number) || !std::isfinite(number) || number < 0 || number > kMaxPercent)
            return false;
        sum += number, ++count;
    }
    *mean = count ? sum / static_cast<double>(count) : 0;
    return count > 0;
}

// user + system utilisation of a "metrics" or "process_info" object; -1 when either is absent
// or damaged ('problem' says which).
double UserPlusSystem(dom::element object, std::string* problem) {
    double user = 0, system = 0;
    dom::element value;
    if (object["user_utilization"].get(value) || !Mean(value, &user) ||
        object["sys_utilization"].get(value) || !Mean(value, &system)) {
        *problem = "user_utilization and sys_utilization: expected lists of percentages";
        return -1;
    }
    return user + system;
}

}  // namespace

Result<PipelineJson> ParsePipelineProfilingJson(std::string_view text, const std::string& name) {
    dom::parser parser;
    dom::element document;
    text = WithoutMark(text);
    if (auto error = parser.parse(text.data(), text.size()).get(document))
        return Status::Error(name + ": error: not JSON: " + simdjson::error_message(error));
    dom::array ops;
    if (document["op_info"].get(ops))
        return Status::Error(name + ": error: no \"op_info\" array: not a pipeline_profiling file");
    int interval = 0;
    dom::element value;
    if (!document["sampling_interval"].get(value)) ReadCount(value, &interval);
    PipelineJson pipeline;
    std::set<int> seen;
    size_t i = 0;
    for (dom::element item : ops) {
        const std::string at = name + ": error: op_info[" + std::to_string(i++) + "]";
        dom::object entry;
        PipelineOperator op;
        std::string problem = item.get(entry) ? "expected an object" : ReadOperator(entry, op);
        if (problem.empty() && !seen.insert(op.id).second)
            problem = "op_id " + std::to_string(op.id) + " repeats an earlier entry's";
        if (!problem.empty()) {
            pipeline.problems.push_back(at + ": " + problem + "; operator left out");
            continue;
        }
        op.sampleIntervalMs = interval;
        pipeline.operators.push_back(std::move(op));
    }
    // The file gives children; each child's parent is the operator that lists it (the first).
    std::map<int, size_t> index;
    for (size_t k = 0; k < pipeline.operators.size(); ++k) index[pipeline.operators[k].id] = k;
    for (const PipelineOperator& op : pipeline.operators)
        for (const int child : op.children) {
            const auto found = index.find(child);
            if (found != index.end() && child != op.id &&
                pipeline.operators[found->second].parent < 0)
                pipeline.operators[found->second].parent = op.id;
        }
    for (const LinkProblem& problem : CheckPipelineLinks(pipeline.operators))
        pipeline.problems.push_back(name + ": error: " + problem.message);
    return pipeline;
}

Result<CpuUtilization> ParseCpuUtilizationJson(std::string_view text, const std::string& name) {
    dom::parser parser;
    dom::element document;
    text = WithoutMark(text);
    if (auto error = parser.parse(text.data(), text.size()).get(document))
        return Status::Error(name + ": error: not JSON: " + simdjson::error_message(error));
    CpuUtilization cpu;
    dom::element process;
    std::string problem;
    if (!document["process_info"].get(process)) {
        cpu.processPercent = UserPlusSystem(process, &problem);
        if (cpu.processPercent < 0)
            cpu.problems.push_back(name + ": error: process_info." + problem + "; not read");
    }
    dom::array ops;
    if (document["op_info"].get(ops)) return cpu;
    size_t i = 0;
    for (dom::element item : ops) {
        const std::string at = name + ": error: op_info[" + std::to_string(i++) + "]";
        dom::element value, metrics;
        int id = 0;
        if (item["op_id"].get(value) || !ReadCount(value, &id)) {
            cpu.problems.push_back(at + ": op_id: expected an operator id; left out");
            continue;
        }
        if (item["metrics"].get(metrics)) continue;
        const double percent = UserPlusSystem(metrics, &problem);
        if (percent < 0)
            cpu.problems.push_back(at + ".metrics: " + problem + "; left out");
        else if (!cpu.operatorPercent.emplace(id, percent).second)
            cpu.problems.push_back(at + ": op_id " + std::to_string(id) +
                                   " repeats an earlier entry's; left out");
    }
    return cpu;
}

}  // namespace marey
