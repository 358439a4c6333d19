#include "load/FlopsFiles.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {
namespace {

namespace dom = simdjson::dom;

// 'text' without a UTF-8 byte-order mark, which simdjson does not take.
std::string_view WithoutMark(std::string_view text) {
    return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

// A JSON number (integer or real) that is finite and not negative.
bool ReadAmount(dom::element value, double* out) {
    double real = 0;
    int64_t whole = 0;
    if (!value.get(real))
        *out = real;
    else if (!value.get(whole))
        *out = static_cast<double>(whole);
    else
        return false;
    return std::isfinite(*out) && *out >= 0;
}

// A cell's finite number from 0 up; false for anything else.
bool ParseAmount(std::string_view text, double* value) {
    text = TrimField(text);
    if (text.empty()) return false;
    const std::string copy(text);
    char* end = nullptr;
    *value = std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size() && std::isfinite(*value) && *value >= 0;
}

std::string Shown(dom::element value) {
    return simdjson::minify(value).substr(0, 40);
}

}  // namespace

Result<FlopsSummary> ParseFlopsSummaryJson(std::string_view text, const std::string& name) {
    const simdjson::padded_string padded(WithoutMark(text));
    dom::parser parser;
    dom::object root;
    if (auto error = parser.parse(padded).get(root))
        return Status::Error(name +
                             ": error: not a JSON object: " + simdjson::error_message(error));
    FlopsSummary summary;
    const std::pair<const char*, double*> keys[] = {
        {"FLOPs", &summary.mflops},
        {"FLOPS", &summary.gflopsPerS},
        {"FLOPS_Utilization", &summary.utilizationPercent}};
    for (const auto& [key, out] : keys) {
        dom::element value;
        if (root[key].get(value)) continue;  // absent: unknown
        if (!ReadAmount(value, out))
            return Status::Error(name + ": error: \"" + key +
                                 "\": expected a finite number from 0 up, got " + Shown(value));
    }
    if (summary.mflops < 0 && summary.gflopsPerS < 0 && summary.utilizationPercent < 0)
        return Status::Error(name +
                             ": error: none of \"FLOPs\", \"FLOPS\" and \"FLOPS_Utilization\": "
                             "not a FLOPs summary");
    return summary;
}

Result<OperatorFlopsTable> ParseOperatorFlopsText(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    if (header.size() < 4)
        return Status::Error(name +
                             ":1:1: error: expected four columns (the operator's name, MFLOPs, "
                             "GFLOPS, utilisation %); the file is not read");
    OperatorFlopsTable table;
    std::vector<std::string_view> fields;
    uint64_t offset = 0;
    const char* columns[] = {"MFLOPs", "GFLOPS", "utilisation (%)"};
    while (reader.Next(fields, &offset)) {
        if (reader.LastRecordUnterminated()) {
            table.problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
            break;
        }
        if (fields.size() != header.size()) {
            table.problems.push_back({offset, 0, 0,
                                      "expected " + std::to_string(header.size()) + " cells, got " +
                                          std::to_string(fields.size()) + "; row left out"});
            continue;
        }
        OperatorFlops op;
        op.name = std::string(TrimField(fields[0]));
        double* values[] = {&op.mflops, &op.gflopsPerS, &op.utilizationPercent};
        bool read = !op.name.empty();
        if (!read) table.problems.push_back({offset, 0, 0, "no operator name; row left out"});
        for (int i = 0; i < 3 && read; ++i)
            if (!ParseAmount(fields[static_cast<size_t>(i) + 1], values[i])) {
                table.problems.push_back(
                    {offset, 0, 0,
                     CsvCellProblem(columns[i], "not a finite number from 0 up",
                                    fields[static_cast<size_t>(i) + 1], "row left out")});
                read = false;
            }
        if (read) table.operators.push_back(std::move(op));
    }
    FillLineColumns(text, table.problems);
    return table;
}

Result<FlopsScopeTree> ParseFlopsScopeJson(std::string_view text, const std::string& name) {
    const simdjson::padded_string padded(WithoutMark(text));
    dom::parser parser;
    dom::element root;
    if (auto error = parser.parse(padded).get(root))
        return Status::Error(name + ": error: not JSON: " + simdjson::error_message(error));
    dom::array links;
    if (root.at_pointer("/data/links").get(links))
        return Status::Error(name + ": error: no \"data.links\" array: not a FLOPs scope file");
    FlopsScopeTree tree;
    int64_t depth = 0;
    if (!root["max_scope_num"].get(depth) && depth >= 0 && depth <= 1 << 16)
        tree.maxScopeDepth = static_cast<int>(depth);
    std::map<std::string, int> index;
    const auto nodeOf = [&](const std::string& scope) {
        const auto [it, added] = index.emplace(scope, static_cast<int>(tree.nodes.size()));
        if (added) tree.nodes.push_back({scope, 0, -1, {}});
        return it->second;
    };
    nodeOf("Total");
    size_t at = 0;
    for (dom::element link : links) {
        const std::string where = name + ": error: data.links[" + std::to_string(at++) + "]: ";
        std::string_view source, target;
        dom::element value;
        double mflops = 0;
        if (link["source"].get(source) || link["target"].get(target) || source.empty() ||
            target.empty()) {
            tree.problems.push_back(where +
                                    "expected a \"source\" and a \"target\" name; left out");
            continue;
        }
        if (link["value"].get(value) || !ReadAmount(value, &mflops)) {
            tree.problems.push_back(where + "\"value\": expected MFLOPs, a finite number from 0 " +
                                    "up; left out");
            continue;
        }
        const int from = nodeOf(std::string(source)), to = nodeOf(std::string(target));
        if (to == 0 || tree.nodes[static_cast<size_t>(to)].parent >= 0) {
            tree.problems.push_back(where + "\"" + std::string(target) +
                                    "\" has a parent already; left out");
            continue;
        }
        // A link to a node above 'from' would close a loop.
        bool loop = false;
        for (int up = from; up >= 0 && !loop; up = tree.nodes[static_cast<size_t>(up)].parent)
            loop = up == to;
        if (loop) {
            tree.problems.push_back(where + "\"" + std::string(target) + "\" is above \"" +
                                    std::string(source) + "\": a loop; left out");
            continue;
        }
        tree.nodes[static_cast<size_t>(to)].parent = from;
        tree.nodes[static_cast<size_t>(to)].mflops = mflops;
        tree.nodes[static_cast<size_t>(from)].children.push_back(to);
    }
    // Scopes no link reaches from "Total" (their own source is missing) are not part of the tree;
    // a node without a parent other than the root is one.
    for (size_t i = 1; i < tree.nodes.size(); ++i)
        if (tree.nodes[i].parent < 0 && !tree.nodes[i].children.empty())
            tree.problems.push_back(name + ": error: \"" + tree.nodes[i].name +
                                    "\" is linked to no scope above it; its scopes are not under "
                                    "\"Total\"");
    for (const int child : tree.nodes[0].children)
        tree.nodes[0].mflops += tree.nodes[static_cast<size_t>(child)].mflops;
    for (FlopsScopeNode& node : tree.nodes)
        std::sort(node.children.begin(), node.children.end(), [&](int a, int b) {
            return tree.nodes[static_cast<size_t>(a)].mflops >
                   tree.nodes[static_cast<size_t>(b)].mflops;
        });
    if (tree.nodes[0].children.empty()) tree.nodes.clear();
    return tree;
}

}  // namespace marey
