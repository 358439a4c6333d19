#include "load/FlopsFiles.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {
namespace {

namespace dom = simdjson::dom;

// 'text' without a UTF-8 byte-order mark, which simdjson does not take.
std::string_view WithoutMark(std::string_view text) {
    return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

// A JSON number (integer or real) from 0 to 'most'.
bool ReadAmount(dom::element value, double most, double* out) {
    double real = 0;
    int64_t whole = 0;
    uint64_t large = 0;
    if (!value.get(real))
        *out = real;
    else if (!value.get(whole))
        *out = static_cast<double>(whole);
    else if (!value.get(large))
        *out = static_cast<double>(large);
    else
        return false;
    return std::isfinite(*out) && *out >= 0 && *out <= most;
}

// A cell's decimal number from 0 to 'most' (no hexadecimal, no "inf"); false for anything else.
bool ParseAmount(std::string_view text, double most, double* value) {
    text = TrimField(text);
    if (text.empty()) return false;
    const auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), *value, std::chars_format::general);
    return error == std::errc() && end == text.data() + text.size() && std::isfinite(*value) &&
           *value >= 0 && *value <= most;
}

std::string RangeText(double most) {
    char text[48];
    std::snprintf(text, sizeof text, "a number from 0 to %g", most);
    return text;
}

std::string Shown(dom::element value) {
    return simdjson::minify(value).substr(0, 40);
}

}  // namespace

Result<FlopsSummaryFile> ParseFlopsSummaryJson(std::string_view text, const std::string& name) {
    const simdjson::padded_string padded(WithoutMark(text));
    dom::parser parser;
    dom::object root;
    if (auto error = parser.parse(padded).get(root))
        return Status::Error(name +
                             ": error: not a JSON object: " + simdjson::error_message(error));
    FlopsSummaryFile file;
    FlopsSummary& summary = file.summary;
    const struct {
        const char* key;
        double* out;
        double most;
    } keys[] = {{"FLOPs", &summary.mflops, kMaxMflops},
                {"FLOPS", &summary.gflopsPerS, kMaxGflopsPerS},
                {"FLOPS_Utilization", &summary.utilizationPercent, kMaxUtilizationPercent}};
    bool any = false;
    for (const auto& [key, out, most] : keys) {
        dom::element value;
        if (root[key].get(value)) continue;  // absent: unknown
        any = true;
        if (!ReadAmount(value, most, out)) {
            *out = -1;
            file.problems.push_back(name + ": error: \"" + key + "\": expected " + RangeText(most) +
                                    ", got " + Shown(value) + "; left unknown");
        }
    }
    if (!any)
        return Status::Error(name +
                             ": error: none of \"FLOPs\", \"FLOPS\" and \"FLOPS_Utilization\": "
                             "not a FLOPs summary");
    return file;
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
    const double ranges[] = {kMaxMflops, kMaxGflopsPerS, kMaxUtilizationPercent};
    std::set<std::string> seen;
    while (reader.Next(fields, &offset)) {
        const CsvRecordCheck check =
            CheckTableRecord(reader, fields, header.size(), offset, table.problems);
        if (check == CsvRecordCheck::kStop) break;
        if (check == CsvRecordCheck::kSkip) continue;
        OperatorFlops op;
        op.name = std::string(TrimField(fields[0]));
        double* values[] = {&op.mflops, &op.gflopsPerS, &op.utilizationPercent};
        bool read = !op.name.empty();
        if (!read) table.problems.push_back({offset, 0, 0, "no operator name; row left out"});
        for (int i = 0; i < 3 && read; ++i)
            if (!ParseAmount(fields[static_cast<size_t>(i) + 1], ranges[i], values[i])) {
                table.problems.push_back(
                    {offset, 0, 0,
                     CsvCellProblem(columns[i], "not " + RangeText(ranges[i]),
                                    fields[static_cast<size_t>(i) + 1], "row left out")});
                read = false;
            }
        if (read && !seen.insert(op.name).second) {
            table.problems.push_back(
                {offset, 0, 0, "operator " + op.name.substr(0, 80) + " again; row left out"});
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
    FlopsScopeTree read;
    std::map<std::string, int, std::less<>> index;
    // Each scope's set (union-find, with path halving): a link closes a loop exactly when its
    // target already tops the set its source lies in. Near O(1) a link, whatever the depth.
    std::vector<int> set;
    const auto top = [&](int node) {
        while (set[static_cast<size_t>(node)] != node)
            node = set[static_cast<size_t>(node)] =
                set[static_cast<size_t>(set[static_cast<size_t>(node)])];
        return node;
    };
    const auto nodeOf = [&](std::string_view scope) {
        const auto found = index.find(scope);
        if (found != index.end()) return found->second;
        const int id = static_cast<int>(read.nodes.size());
        index.emplace(std::string(scope), id);
        read.nodes.push_back({std::string(scope), 0, -1, {}});
        set.push_back(id);
        return id;
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
            read.problems.push_back(where +
                                    "expected a \"source\" and a \"target\" name; left out");
            continue;
        }
        if (link["value"].get(value) || !ReadAmount(value, kMaxMflops, &mflops)) {
            read.problems.push_back(where + "\"value\": expected MFLOPs, " + RangeText(kMaxMflops) +
                                    "; left out");
            continue;
        }
        const int from = nodeOf(source), to = nodeOf(target);
        if (to == 0 || read.nodes[static_cast<size_t>(to)].parent >= 0) {
            read.problems.push_back(where + "\"" + std::string(target) +
                                    "\" has a parent already; left out");
            continue;
        }
        if (top(from) == to) {
            read.problems.push_back(where + "\"" + std::string(target) + "\" is above \"" +
                                    std::string(source) + "\": a loop; left out");
            continue;
        }
        set[static_cast<size_t>(to)] = from;
        read.nodes[static_cast<size_t>(to)].parent = from;
        read.nodes[static_cast<size_t>(to)].mflops = mflops;
        read.nodes[static_cast<size_t>(from)].children.push_back(to);
    }
    // The tree is what "Total" reaches, depth first; other scopes are named once each, by the
    // top of their own part.
    FlopsScopeTree tree;
    tree.problems = std::move(read.problems);
    std::vector<int> renumbered(read.nodes.size(), -1);
    std::vector<int> pending = {0};
    while (!pending.empty()) {
        const int old = pending.back();
        pending.pop_back();
        renumbered[static_cast<size_t>(old)] = static_cast<int>(tree.nodes.size());
        FlopsScopeNode node = read.nodes[static_cast<size_t>(old)];
        if (node.parent >= 0) node.parent = renumbered[static_cast<size_t>(node.parent)];
        for (auto it = node.children.rbegin(); it != node.children.rend(); ++it)
            pending.push_back(*it);
        tree.nodes.push_back(std::move(node));
    }
    size_t detached = 0;
    constexpr size_t kNamed = 20;
    for (size_t i = 1; i < read.nodes.size(); ++i)
        if (renumbered[i] < 0 && read.nodes[i].parent < 0 && ++detached <= kNamed)
            tree.problems.push_back(name + ": error: \"" + read.nodes[i].name +
                                    "\" is joined to no scope above it: it and its scopes are "
                                    "not under \"Total\"; left out");
    if (detached > kNamed)
        tree.problems.push_back(name + ": error: " + std::to_string(detached - kNamed) +
                                " more scopes joined to nothing above them; left out");
    for (FlopsScopeNode& node : tree.nodes)
        for (int& child : node.children) child = renumbered[static_cast<size_t>(child)];
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
