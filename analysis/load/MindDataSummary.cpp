#include "load/MindDataSummary.hpp"

#include <simdjson.h>

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"
#include "load/MindDataFiles.hpp"

namespace marey {
namespace {

namespace dom = simdjson::dom;

// One value of a key's list, as either format holds it.
struct SummaryCell {
    enum Kind : uint8_t { kNumber, kText, kList, kOther } kind = kOther;
    double number = 0;
    std::string text;          // kText; the value as written, for messages, in every kind
    std::vector<double> list;  // kList
};

// The keys in the file's order, each with its list of values.
using SummaryKeys = std::vector<std::pair<std::string, std::vector<SummaryCell>>>;

constexpr double kMaxPercentOfOneCore = 1e6;  // ten thousand cores: past it, damage
constexpr double kMaxMilliseconds = 1e9;      // eleven days for one batch: past it, damage

// [SECTION] From the summary's keys to its figures

class SummaryBuilder {
public:
    SummaryBuilder(const SummaryKeys& keys, const std::string& name) : m_name(name) {
        for (const auto& [key, cells] : keys) m_keys.emplace(key, &cells);
    }

    Result<MindDataSummary> Build() {
        if (!ReadIds())
            return Status::Error(m_name +
                                 ": error: no \"op_ids\" list of operator ids: "
                                 "not a minddata_pipeline_summary file");
        ReadPerOperator();
        CheckLinks();
        m_out.perPipelineMs = Time("per_pipeline_time");
        m_out.perPushQueueMs = Time("per_push_queue_time");
        m_out.perBatchMs = Time("per_batch_time");
        if (const auto* cells = Cells("bottleneck_warning"))
            for (size_t i = 0; i < cells->size(); ++i) {
                if ((*cells)[i].kind == SummaryCell::kText && !(*cells)[i].text.empty())
                    m_out.bottleneckOperators.push_back((*cells)[i].text);
                else
                    Problem("bottleneck_warning", i, "expected an operator's name", (*cells)[i]);
            }
        m_out.suggestion = Sentence("bottleneck_suggestion");
        m_out.cpuAnalysis = Sentence("cpu_analysis_details");
        m_out.queueAnalysis = Sentence("queue_analysis_details");
        return std::move(m_out);
    }

private:
    const std::vector<SummaryCell>* Cells(const std::string& key) const {
        const auto found = m_keys.find(key);
        return found == m_keys.end() ? nullptr : found->second;
    }

    void Problem(const std::string& key, size_t index, const std::string& expected,
                 const SummaryCell& cell) {
        m_out.problems.push_back(m_name + ": error: " + key + "[" + std::to_string(index) + "]: " +
                                 expected + ", got \"" + cell.text.substr(0, 40) + "\"; left out");
    }

    // A number in [low, high], or -1 (the writer's "none"); false otherwise.
    static bool Number(const SummaryCell& cell, double low, double high, double* out) {
        if (cell.kind != SummaryCell::kNumber || !std::isfinite(cell.number)) return false;
        if (cell.number == -1) return *out = -1, true;
        if (cell.number < low || cell.number > high) return false;
        *out = cell.number;
        return true;
    }

    static bool Count(double value, int* out) {
        if (value < 0 || value > kMaxMindDataCount || value != std::floor(value)) return false;
        *out = static_cast<int>(value);
        return true;
    }

    bool ReadIds() {
        const auto* ids = Cells("op_ids");
        if (!ids || ids->empty()) return false;
        std::set<int> seen;
        for (size_t i = 0; i < ids->size(); ++i) {
            int id = 0;
            const SummaryCell& cell = (*ids)[i];
            if (cell.kind != SummaryCell::kNumber || !Count(cell.number, &id)) {
                Problem("op_ids", i, "expected an operator id (a count)", cell);
            } else if (!seen.insert(id).second) {
                Problem("op_ids", i, "expected an id not given before", cell);
            } else {
                m_slot.push_back(m_out.operators.size());
                m_out.operators.emplace_back().id = id;
                continue;
            }
            m_slot.push_back(kNoSlot);  // the operator's other values are left out with it
        }
        for (const MindDataSummaryOperator& op : m_out.operators) m_ids.insert(op.id);
        return !m_out.operators.empty();
    }

    // Calls read(cell, operator) for each value of a per-operator key whose list is as long as
    // op_ids; 'read' returns what it expected when the value does not do, else "".
    template <class Read>
    void PerOperator(const std::string& key, Read read) {
        const auto* cells = Cells(key);
        if (!cells) return;
        if (cells->size() != m_slot.size()) {
            m_out.problems.push_back(
                m_name + ": error: " + key + ": " + std::to_string(cells->size()) + " values for " +
                std::to_string(m_slot.size()) + " operators: not matched to operators; left out");
            return;
        }
        for (size_t i = 0; i < cells->size(); ++i) {
            if (m_slot[i] == kNoSlot) continue;
            const std::string expected = read((*cells)[i], m_out.operators[m_slot[i]]);
            if (!expected.empty()) Problem(key, i, expected, (*cells)[i]);
        }
    }

    void ReadPerOperator() {
        const auto text = [](std::string MindDataSummaryOperator::*field) {
            return [field](const SummaryCell& cell, MindDataSummaryOperator& op) -> std::string {
                if (cell.kind != SummaryCell::kText) return "expected a name";
                op.*field = cell.text;
                return "";
            };
        };
        const auto number = [](double MindDataSummaryOperator::*field, double high,
                               const char* what) {
            return [=](const SummaryCell& cell, MindDataSummaryOperator& op) -> std::string {
                return Number(cell, 0, high, &(op.*field)) ? "" : what;
            };
        };
        PerOperator("op_names", text(&MindDataSummaryOperator::name));
        PerOperator("pipeline_ops", text(&MindDataSummaryOperator::pipelineName));
        PerOperator("num_workers", [](const SummaryCell& cell, MindDataSummaryOperator& op) {
            double value = 0;
            if (!Number(cell, 0, kMaxMindDataCount, &value) ||
                (value >= 0 && !Count(value, &op.workers)))
                return std::string("expected a count of workers");
            return std::string();
        });
        PerOperator("queue_average_size", number(&MindDataSummaryOperator::queueAverageSize,
                                                 kMaxMindDataCount, "expected a queue size"));
        PerOperator("queue_utilization_pct", number(&MindDataSummaryOperator::queueUtilizationPct,
                                                    100, "expected a percentage, 0 to 100"));
        PerOperator("queue_empty_freq_pct", number(&MindDataSummaryOperator::queueEmptyPct, 100,
                                                   "expected a percentage, 0 to 100"));
        PerOperator("avg_cpu_pct",
                    number(&MindDataSummaryOperator::cpuPercent, kMaxPercentOfOneCore,
                           "expected a CPU share (% of one core)"));
        PerOperator("avg_cpu_pct_per_worker",
                    number(&MindDataSummaryOperator::cpuPercentPerWorker, kMaxPercentOfOneCore,
                           "expected a CPU share (% of one core)"));
        PerOperator("parent_id", [&](const SummaryCell& cell, MindDataSummaryOperator& op) {
            double value = 0;
            if (!Number(cell, 0, kMaxMindDataCount, &value))
                return std::string("expected an operator id or -1");
            if (value >= 0 &&
                (!Count(value, &op.parent) || !m_ids.count(op.parent) || op.parent == op.id)) {
                op.parent = -1;
                return std::string("expected the id of another operator of the file");
            }
            return std::string();
        });
        PerOperator("children_ids", [&](const SummaryCell& cell, MindDataSummaryOperator& op) {
            if (cell.kind != SummaryCell::kList)
                return std::string("expected a list of operator ids");
            std::vector<int> children;
            for (const double value : cell.list) {
                int child = 0;
                if (!Count(value, &child) || !m_ids.count(child) || child == op.id)
                    return std::string("expected ids of other operators of the file");
                children.push_back(child);
            }
            op.children = std::move(children);
            return std::string();
        });
    }

    // Parents and children that contradict one another, or close a loop, are dropped and named,
    // as the raw pipeline file's are (CheckPipelineLinks).
    void CheckLinks() {
        std::vector<PipelineOperator> links(m_out.operators.size());
        for (size_t i = 0; i < links.size(); ++i) {
            links[i].id = m_out.operators[i].id;
            links[i].parent = m_out.operators[i].parent;
            links[i].children = m_out.operators[i].children;
        }
        for (const LinkProblem& problem : CheckPipelineLinks(links))
            m_out.problems.push_back(m_name + ": error: " + problem.message);
        for (size_t i = 0; i < links.size(); ++i) {
            m_out.operators[i].parent = links[i].parent;
            m_out.operators[i].children = std::move(links[i].children);
        }
    }

    // A one-value time in ms, or -1.
    double Time(const std::string& key) {
        const auto* cells = Cells(key);
        double value = -1;
        if (!cells || cells->empty()) return -1;
        if (!Number(cells->front(), 0, kMaxMilliseconds, &value))
            Problem(key, 0, "expected a time in ms (or -1)", cells->front());
        return value;
    }

    // The key's texts joined by spaces (one sentence, or a list of them).
    std::string Sentence(const std::string& key) {
        const auto* cells = Cells(key);
        std::string joined;
        if (!cells) return joined;
        for (size_t i = 0; i < cells->size(); ++i) {
            if ((*cells)[i].kind != SummaryCell::kText) {
                Problem(key, i, "expected a sentence", (*cells)[i]);
                continue;
            }
            joined += (joined.empty() ? "" : " ") + (*cells)[i].text;
        }
        return joined;
    }

    static constexpr size_t kNoSlot = SIZE_MAX;
    const std::string& m_name;
    std::map<std::string, const std::vector<SummaryCell>*> m_keys;
    std::vector<size_t> m_slot;  // per place in op_ids: the operator's index, or kNoSlot
    std::set<int> m_ids;
    MindDataSummary m_out;
};

// [SECTION] The two formats

SummaryCell JsonCell(dom::element value) {
    SummaryCell cell;
    cell.text = simdjson::minify(value).substr(0, 80);
    double number = 0;
    std::string_view text;
    dom::array array;
    if (!value.get(number)) {
        cell.kind = SummaryCell::kNumber, cell.number = number;
    } else if (!value.get(text)) {
        cell.kind = SummaryCell::kText, cell.text = std::string(text);
    } else if (!value.get(array)) {
        cell.kind = SummaryCell::kList;
        for (dom::element item : array) {
            if (item.get(number)) return cell.kind = SummaryCell::kOther, cell;
            cell.list.push_back(number);
        }
    }
    return cell;
}

// 'text' with every number token outside strings that JSON readers refuse written as null:
// Python's json module writes NaN, Infinity and -Infinity, and a number past a double's range
// (1e400) or an integer past 19 digits makes simdjson refuse the whole document. As null, only
// that value is left out, and named where it is read. O(text).
std::string NullForUnreadableNumbers(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                inString = false;
            ++i;
            continue;
        }
        if (c == '"') {
            inString = true, out += c, ++i;
            continue;
        }
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == 'N' || c == 'I')) {
            out += c, ++i;
            continue;
        }
        size_t end = i;
        while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                     text[end] == '-' || text[end] == '+' || text[end] == '.'))
            ++end;
        const std::string token(text.substr(i, end - i));
        bool unreadable = token == "NaN" || token == "Infinity" || token == "-Infinity";
        if (!unreadable && token != "-" && token.find_first_of("NI") == std::string::npos) {
            const bool integer = token.find_first_of(".eE") == std::string::npos;
            const size_t digits = token.size() - (token[0] == '-' ? 1 : 0);
            unreadable =
                (integer && digits > 19) || !std::isfinite(std::strtod(token.c_str(), nullptr));
        }
        out += unreadable ? std::string("null") : token;
        i = end;
    }
    return out;
}

// "[1, 2]" as Python writes a list into a CSV cell; false for anything else.
bool ParseListCell(std::string_view text, std::vector<double>* out) {
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') return false;
    std::string inner(text.substr(1, text.size() - 2));
    if (inner.find_first_not_of(" ") == std::string::npos) return true;
    size_t start = 0;
    while (start <= inner.size()) {
        const size_t comma = std::min(inner.find(',', start), inner.size());
        const std::string item(TrimField(std::string_view(inner).substr(start, comma - start)));
        char* end = nullptr;
        const double value = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0') return false;
        out->push_back(value);
        start = comma + 1;
    }
    return true;
}

SummaryCell CsvCell(std::string_view field) {
    SummaryCell cell;
    const std::string_view trimmed = TrimField(field);
    cell.text = std::string(trimmed.substr(0, 80));
    const std::string copy(trimmed);
    char* end = nullptr;
    const double number = std::strtod(copy.c_str(), &end);
    if (!copy.empty() && *end == '\0' && copy.find_first_of("xXnN") == std::string::npos) {
        cell.kind = SummaryCell::kNumber, cell.number = number;
    } else if (ParseListCell(trimmed, &cell.list)) {
        cell.kind = SummaryCell::kList;
    } else if (!trimmed.empty() && trimmed.front() != '[') {
        cell.kind = SummaryCell::kText, cell.text = copy;
    }
    return cell;
}

}  // namespace

Result<MindDataSummary> ParseMindDataSummaryJson(std::string_view text, const std::string& name) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    const std::string readable = NullForUnreadableNumbers(text);
    dom::parser parser;
    dom::object object;
    if (auto error = parser.parse(readable).get(object)) {
        const std::string_view trimmed = TrimField(text);
        const std::string cut = !trimmed.empty() && trimmed.front() == '{' && trimmed.back() != '}'
                                    ? "; the text ends at byte " + std::to_string(text.size()) +
                                          " before its object closes: the file is cut"
                                    : "";
        return Status::Error(name +
                             ": error: not a JSON object: " + simdjson::error_message(error) + cut);
    }
    SummaryKeys keys;
    std::set<std::string_view> seen;
    std::vector<std::string> repeated;
    for (dom::key_value_pair field : object) {
        if (!seen.insert(field.key).second) {
            repeated.push_back(name + ": error: the key \"" + std::string(field.key.substr(0, 40)) +
                               "\" repeats an earlier one; the repeat is left out");
            continue;
        }
        std::vector<SummaryCell> cells;
        dom::array array;
        if (!field.value.get(array)) {
            for (dom::element item : array) cells.push_back(JsonCell(item));
        } else {
            cells.push_back(JsonCell(field.value));  // a lone sentence or number
        }
        keys.emplace_back(std::string(field.key), std::move(cells));
    }
    auto summary = SummaryBuilder(keys, name).Build();
    if (summary.ok())
        summary.value().problems.insert(summary.value().problems.begin(), repeated.begin(),
                                        repeated.end());
    return summary;
}

Result<MindDataSummary> ParseMindDataSummaryCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    std::vector<std::string_view> fields;
    SummaryKeys keys;
    std::set<std::string> seen;
    std::vector<ImportProblem> problems;  // by place in the file
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        if (reader.LastRecordUnterminated() || reader.LastRecordCut()) {
            problems.push_back(
                {offset, 0, 0,
                 reader.LastRecordUnterminated() ? kCsvUnterminatedRecord : kCsvCutRecord});
            break;
        }
        const std::string key(TrimField(fields.front()));
        if (!seen.insert(key).second) {
            problems.push_back(
                {offset, 0, 0,
                 "the key \"" + key.substr(0, 40) + "\" repeats an earlier row's; row left out"});
            continue;
        }
        std::vector<SummaryCell> cells;
        for (size_t i = 1; i < fields.size(); ++i) cells.push_back(CsvCell(fields[i]));
        keys.emplace_back(key, std::move(cells));
    }
    FillLineColumns(text, problems);
    auto summary = SummaryBuilder(keys, name).Build();
    if (!summary.ok()) return summary;
    std::vector<std::string>& named = summary.value().problems;
    for (size_t i = 0; i < problems.size(); ++i)
        named.insert(named.begin() + static_cast<std::ptrdiff_t>(i),
                     FormatProblem(name, problems[i]));
    return summary;
}

}  // namespace marey
