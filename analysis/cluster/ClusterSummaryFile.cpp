#include "cluster/ClusterSummaryFile.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unordered_map>

#include "cluster/ClusterRankFile.hpp"
#include "core/ParallelFor.hpp"
#include "load/TraceText.hpp"
#include "report/JsonWriter.hpp"

namespace marey {
namespace {

namespace fs = std::filesystem;

constexpr char kHeaderKey[] = "marey_cluster_summary";

void AppendStrings(std::string& out, const std::vector<std::string>& items) {
    JsonArray(out, items,
              [](std::string& text, const std::string& item) { AppendJsonString(text, item); });
}

// [SECTION] Reading the header

class HeaderReader {
public:
    explicit HeaderReader(const std::string& name) : m_name(name) {}

    Status Read(simdjson::dom::element root, ClusterSummaryHeader& header) const {
        int64_t version = 0;
        if (root[kHeaderKey].get(version))
            return Fail("no \"" + std::string(kHeaderKey) + "\" key: not a cluster summary");
        if (version != kClusterSummaryVersion)
            return Fail("a cluster summary of version " + std::to_string(version) +
                        "; this marey reads version " + std::to_string(kClusterSummaryVersion) +
                        ": summarise the job again with this marey");
        header.version = static_cast<int>(version);
        std::string layout, source;
        if (!Text(root["job"], header.job) || !Text(root["source"], source) ||
            !ParseClusterSource(source, header.ranks.source) || !Text(root["layout"], layout) ||
            (layout != "ascend" && layout != "mindinsight"))
            return Fail(
                "\"job\", \"source\" (a kind of rank input) and \"layout\" (ascend or "
                "mindinsight) expected");
        header.ranks.layout = layout == "ascend" ? StepLayout::kAscend : StepLayout::kMindInsight;
        if (!Strings(root["hosts"], header.hosts) || !Strings(root["problems"], header.problems))
            return Fail("\"hosts\" and \"problems\" expected as arrays of strings");
        if (Status status = Inputs(root, header); !status.ok()) return status;
        return Skipped(root, header);
    }

private:
    Status Inputs(simdjson::dom::element root, ClusterSummaryHeader& header) const {
        simdjson::dom::array inputs;
        if (root["inputs"].get(inputs)) return Fail("\"inputs\" expected as an array");
        size_t index = 0;
        for (auto item : inputs) {
            simdjson::dom::array row;
            RankInput input;
            std::string kind;
            int64_t bytes = -1, process = -2;
            const bool isRow = !item.get(row) && row.size() == 5;
            auto it = row.begin();
            const bool ok = isRow && Text(*it, kind) && ParseRankInputKind(kind, input.kind) &&
                            Text(*++it, input.path) && Text(*++it, input.absolute) &&
                            !(*++it).get(bytes) && bytes >= 0 && !(*++it).get(process) &&
                            process >= -1 && process < static_cast<int64_t>(header.hosts.size());
            if (!ok)
                return Fail("\"inputs\"[" + std::to_string(index) +
                            "]: expected [kind, path, absolute path, bytes, process]");
            input.bytes = static_cast<uint64_t>(bytes);
            header.ranks.inputs.push_back(std::move(input));
            header.process.push_back(static_cast<int>(process));
            ++index;
        }
        return Status();
    }
    Status Skipped(simdjson::dom::element root, ClusterSummaryHeader& header) const {
        simdjson::dom::array skipped;
        if (root["skipped"].get(skipped)) return Fail("\"skipped\" expected as an array");
        for (auto item : skipped) {
            simdjson::dom::array row;
            SkippedFolder folder;
            int64_t rankId = -2;
            const bool isRow = !item.get(row) && row.size() == 3;
            auto it = row.begin();
            if (!isRow || !Text(*it, folder.path) || !Text(*++it, folder.reason) ||
                (*++it).get(rankId) || rankId < -1 || rankId > 1 << 24)
                return Fail("\"skipped\": expected [path, reason, rank id or -1]");
            if (rankId >= 0) folder.rankId = RankId(static_cast<int>(rankId));
            header.skipped.push_back(std::move(folder));
        }
        return Status();
    }
    using Element = simdjson::simdjson_result<simdjson::dom::element>;
    static bool Text(Element e, std::string& out) {
        std::string_view text;
        if (e.get(text)) return false;
        out = std::string(text);
        return true;
    }
    static bool Text(simdjson::dom::element e, std::string& out) {
        return Text(Element(std::move(e)), out);
    }
    static bool Strings(Element e, std::vector<std::string>& out) {
        simdjson::dom::array array;
        if (e.get(array)) return false;
        for (auto item : array) {
            std::string text;
            if (!Text(item, text)) return false;
            out.push_back(std::move(text));
        }
        return true;
    }
    Status Fail(const std::string& what) const {
        return Status::Error(m_name + ":1: error: " + what);
    }

    const std::string& m_name;
};

// [SECTION] Reading the lines

struct ParsedLine {
    enum Kind { kRank, kMissing, kEnd, kDamaged } kind = kDamaged;
    std::string input;  // the absolute path of the input it is about
    ClusterRank rank;
    std::string message;  // kDamaged: why
};

ParsedLine ParseLine(std::string_view line, const std::string& where) {
    ParsedLine parsed;
    if (line.find("\"tracelens_rank_summary\"") != std::string_view::npos) {
        auto rank = ReadRankSummary(line, where, &parsed.input);
        if (!rank.ok()) {
            parsed.message = rank.message();
            return parsed;
        }
        parsed.rank = std::move(rank.value());
        parsed.kind = parsed.input.empty() ? ParsedLine::kDamaged : ParsedLine::kRank;
        if (parsed.input.empty()) parsed.message = where + ": error: a rank line without \"input\"";
        return parsed;
    }
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto error = parser.parse(line.data(), line.size(), false).get(root)) {
        parsed.message = where + ": error: not JSON: " + simdjson::error_message(error);
        return parsed;
    }
    std::string_view input;
    simdjson::dom::array problems;
    if (!root["missing"].get(input) && !root["problems"].get(problems)) {
        parsed.kind = ParsedLine::kMissing;
        parsed.input = std::string(input);
        for (auto item : problems) {
            std::string_view text;
            if (!item.get(text)) parsed.rank.problems.emplace_back(text);
        }
        return parsed;
    }
    simdjson::dom::object end;
    if (!root["end"].get(end)) {
        parsed.kind = ParsedLine::kEnd;
        return parsed;
    }
    parsed.message = where + ": error: expected a rank line, a missing line or the end line";
    return parsed;
}

// The lines of 'text' after the first, without their '\n' (a last line without one included).
std::vector<std::string_view> BodyLines(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t at = text.find('\n');
    while (at != std::string_view::npos && at + 1 < text.size()) {
        const size_t end = std::min(text.find('\n', at + 1), text.size());
        lines.push_back(text.substr(at + 1, end - at - 1));
        at = end < text.size() ? end : std::string_view::npos;
    }
    return lines;
}

// Puts each parsed line at its input, in the header's order; an input of no line (or only a
// damaged one) gets no rank.
void PlaceLines(std::vector<ParsedLine>& parsed, const std::vector<std::string_view>& lines,
                const std::string& path, bool keepLines, ClusterSummaryContents& contents) {
    const std::vector<RankInput>& inputs = contents.header.ranks.inputs;
    std::unordered_map<std::string, size_t> indexOf;
    for (size_t i = 0; i < inputs.size(); ++i) indexOf.emplace(inputs[i].absolute, i);
    std::vector<int> lineOfInput(inputs.size(), -1);
    for (size_t l = 0; l < parsed.size(); ++l) {
        const ParsedLine& line = parsed[l];
        const std::string where = path + ":" + std::to_string(l + 2);
        if (line.kind == ParsedLine::kEnd) {
            contents.complete = true;
        } else if (line.kind == ParsedLine::kDamaged) {
            contents.problems.push_back(line.message);
        } else if (const auto found = indexOf.find(line.input); found == indexOf.end()) {
            contents.problems.push_back(where + ": error: \"" + line.input +
                                        "\" is not one of the header's inputs; line left out");
        } else if (lineOfInput[found->second] >= 0) {
            contents.problems.push_back(where + ": error: " + inputs[found->second].path +
                                        " summarised twice; the first line is kept");
        } else {
            lineOfInput[found->second] = static_cast<int>(l);
        }
    }
    contents.rankOfInput.assign(inputs.size(), -1);
    if (keepLines) contents.lines.resize(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (lineOfInput[i] < 0) continue;
        ParsedLine& line = parsed[static_cast<size_t>(lineOfInput[i])];
        if (keepLines) contents.lines[i] = std::string(lines[lineOfInput[i]]) + '\n';
        contents.rankOfInput[i] = static_cast<int>(contents.ranks.size());
        contents.ranks.push_back(std::move(line.rank));
        contents.ranks.back().unreadable = line.kind == ParsedLine::kMissing;
        if (contents.ranks.back().path.empty()) contents.ranks.back().path = inputs[i].path;
    }
}

}  // namespace

// [SECTION] Writing

std::string WriteSummaryHeader(const ClusterSummaryHeader& header) {
    std::string out;
    {
        JsonObject root(out);
        root.Int(kHeaderKey, header.version);
        root.String("job", header.job);
        root.String("source", ClusterSourceName(header.ranks.source));
        root.String("layout",
                    header.ranks.layout == StepLayout::kAscend ? "ascend" : "mindinsight");
        AppendStrings(root.Key("hosts"), header.hosts);
        std::string& inputs = root.Key("inputs");
        inputs += '[';
        for (size_t i = 0; i < header.ranks.inputs.size(); ++i) {
            const RankInput& input = header.ranks.inputs[i];
            inputs += i ? ", [" : "[";
            AppendJsonString(inputs, RankInputKindName(input.kind));
            inputs += ", ";
            AppendJsonString(inputs, input.path);
            inputs += ", ";
            AppendJsonString(inputs, input.absolute);
            inputs += ", " + std::to_string(input.bytes) + ", " +
                      std::to_string(i < header.process.size() ? header.process[i] : -1) + "]";
        }
        inputs += ']';
        AppendStrings(root.Key("problems"), header.problems);
        std::string& skipped = root.Key("skipped");
        skipped += '[';
        for (size_t i = 0; i < header.skipped.size(); ++i) {
            skipped += i ? ", [" : "[";
            AppendJsonString(skipped, header.skipped[i].path);
            skipped += ", ";
            AppendJsonString(skipped, header.skipped[i].reason);
            skipped += ", " + std::to_string(ValueOr(header.skipped[i].rankId, -1)) + "]";
        }
        skipped += ']';
    }
    return out + '\n';
}

std::string WriteSummaryRankLine(const ClusterRank& rank, const RankInput& input,
                                 const std::string& summaryFolder) {
    // The rank's folder as seen from the summary's, so that both can move together; the absolute
    // path beside it for when only the summary is copied elsewhere.
    std::error_code error;
    const fs::path absolute = fs::absolute(rank.path, error).lexically_normal();
    fs::path folder =
        fs::absolute(summaryFolder.empty() ? "." : summaryFolder, error).lexically_normal();
    if (!folder.has_filename()) folder = folder.parent_path();  // "/job/" as "/job"
    ClusterRank stored = rank;
    stored.path = absolute.lexically_relative(folder).string();
    if (stored.path.empty()) stored.path = absolute.string();
    std::string line = WriteRankSummary(stored, absolute.string(), input.absolute);
    // JSON strings hold no raw line break (they are escaped), so the only ones are the layout's.
    line.erase(std::remove(line.begin(), line.end(), '\n'), line.end());
    return line + '\n';
}

std::string WriteSummaryMissingLine(const RankInput& input,
                                    const std::vector<std::string>& problems) {
    std::string out;
    {
        JsonObject root(out);
        root.String("missing", input.absolute);
        AppendStrings(root.Key("problems"), problems);
    }
    return out + '\n';
}

std::string WriteSummaryEndLine(size_t ranks, size_t missing) {
    std::string out;
    {
        JsonObject root(out);
        JsonObject end(root.Key("end"));
        end.Int("ranks", static_cast<int64_t>(ranks));
        end.Int("missing", static_cast<int64_t>(missing));
    }
    return out + '\n';
}

// [SECTION] Reading

Result<ClusterSummaryHeader> ReadSummaryHeader(std::string_view line, const std::string& name) {
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    const simdjson::padded_string padded(line);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto error = parser.parse(padded).get(root))
        return Status::Error(name + ":1: error: not a cluster summary: the first line is not " +
                             "JSON (" + simdjson::error_message(error) + ")");
    ClusterSummaryHeader header;
    if (Status status = HeaderReader(name).Read(root, header); !status.ok()) return status;
    return header;
}

bool IsClusterSummaryFile(const std::string& path) {
    std::error_code error;
    if (!fs::is_regular_file(path, error)) return false;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return false;
    char start[64] = {};
    const size_t read = std::fread(start, 1, sizeof start - 1, file);
    std::fclose(file);
    const std::string expected = std::string("{\"") + kHeaderKey + "\"";
    return read >= expected.size() && std::memcmp(start, expected.data(), expected.size()) == 0;
}

Result<ClusterSummaryContents> ReadClusterSummary(const std::string& path, unsigned threads,
                                                  bool keepLines) {
    auto text = TraceText::Open(path);
    if (!text.ok()) return text.status();
    const std::string_view all(text.value().data(), text.value().size());
    ClusterSummaryContents contents;
    auto header = ReadSummaryHeader(all.substr(0, all.find('\n')), path);
    if (!header.ok()) return header.status();
    contents.header = std::move(header.value());
    const std::vector<std::string_view> lines = BodyLines(all);
    std::vector<ParsedLine> parsed(lines.size());
    std::vector<uint64_t> sizes(lines.size());
    for (size_t l = 0; l < lines.size(); ++l) sizes[l] = lines[l].size();
    ParallelFor(lines.size(), std::max(1u, threads), sizes, [&](size_t l) {
        parsed[l] = ParseLine(lines[l], path + ":" + std::to_string(l + 2));
    });
    PlaceLines(parsed, lines, path, keepLines, contents);
    return contents;
}

}  // namespace marey
