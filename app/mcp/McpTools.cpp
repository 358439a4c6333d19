#include "mcp/McpTools.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <thread>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "import/chrome_json/TraceLoader.hpp"
#include "load/JsonString.hpp"
#include "loading/ClusterLoader.hpp"
#include "loading/RankLoader.hpp"
#include "SqlCommand.hpp"
#include "SqlOutput.hpp"
#include "mcp/ChildProcess.hpp"

namespace marey {
namespace {

constexpr size_t kPageChars = 40000;  // of a long text answer
constexpr int64_t kDefaultRows = 200, kMostRows = 5000;
constexpr int kLoadSeconds = 600;  // a child's limit: a trace of gigabytes takes seconds
// A query's limit: the server answers one request at a time, and a runaway join would hold
// every later one.
constexpr int kQuerySeconds = 120;

// [SECTION] the catalogue

// Each tool's name, what an agent reads to choose it, and its arguments' JSON schema.
constexpr std::string_view kTools = R"tools([
{"name": "open", "title": "Open a trace, rank folder, database, export or cluster",
 "description": "Opens PATH as marey does: a trace (.json, .json.gz), an Ascend rank folder (text or database), a profiler database, an Nsight Systems SQLite export, or a cluster folder of many ranks. Returns an id for the other tools and what the path holds (events, slices, span, problems met). Nothing is written to the path.",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "a file or folder on this machine"}, "source": {"type": "string", "enum": ["text", "db"], "description": "a rank folder with both exports: which to read (default: the database)"}}, "required": ["path"]}},
{"name": "summary", "title": "Every figure marey shows for an opened path",
 "description": "The whole of `marey stats PATH --json` for a document: counts, top names, device analyses, and for a rank folder its overview, operators, steps, communication and memory; for a cluster its ranks, steps, slow ranks and links and findings. Long answers come in pages of 40000 characters: call again with the offset the answer names.",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "offset": {"type": "integer", "minimum": 0}}, "required": ["id"]}},
{"name": "top_operators", "title": "The names that took the most time",
 "description": "The names with the most total time in a document's timeline (count, total, self, min and max in ns), as `marey stats --json` lists them under \"top\".",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "limit": {"type": "integer", "minimum": 1, "maximum": 200}}, "required": ["id"]}},
{"name": "steps", "title": "A rank's steps and where their time went",
 "description": "A rank folder's step table (each step's computing, communication, free time and more), as `marey stats --json` gives it under rank.steps. Only for rank folders; for a bare trace, query ProfilerStep# slices with sql. Paged as summary is.",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "offset": {"type": "integer", "minimum": 0}}, "required": ["id"]}},
{"name": "device_analyses", "title": "Device time, idle time, launches and queues",
 "description": "The analyses of a trace's device activity: time by kind (computation, communication, memory), overlap, idle time by cause, launch delays and outliers, queue length, as `marey stats --json` gives them under \"analyses\". Paged as summary is.",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "offset": {"type": "integer", "minimum": 0}}, "required": ["id"]}},
{"name": "cluster_findings", "title": "What is slow in a cluster",
 "description": "An opened cluster's findings (slow ranks, slow links, groups that differ, with their evidence), its slow ranks and slow links, as `marey stats CLUSTER --json` gives them. Paged as summary is.",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "offset": {"type": "integer", "minimum": 0}}, "required": ["id"]}},
{"name": "sql", "title": "Run SQL over an opened trace",
 "description": "Runs read-only SQL (SQLite) over a document's timeline. Tables with Perfetto's names: slice(id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id, task_type, correlation_id), args(arg_set_id, key, display_value, int_value, string_value, real_value, value_type) and extract_arg(arg_set_id, 'args.name') (read from the file when asked: filter on arg_set_id); the trace analyses: device_activity(id, ts, dur, name, track_id, class, memory_kind, step, slice_id, launch_id, cpu_ns, launch_delay_ns), launch(id, ts, dur, name, slice_id), idle_gap(id, ts, dur, track_id, cause), queue_sample(id, ts, track_id, depth), track(id, name, type, role, upid, slice_count), thread(utid, tid, name, upid), process(upid, pid, name), thread_track, process_track, counter_track, counter(id, ts, track_id, value), flow(id, slice_out, slice_in, ts_out, ts_in, track_out, track_in, category); for a rank folder also kernel(id, ts, dur, name, type, core, core_class, step), step(id, step, computing_ns, communication_not_overlapped_ns, free_ns, wall_ns, start_ns, end_ns, ...) and communication_op(id, step, name, ts, elapse_ns, transit_ns, wait_ns, sync_ns, idle_ns, ...). On a cluster: rank(id, rank_id, computing_ns, pure_computing_ns, communication_overlapped_ns, communication_not_overlapped_ns, free_ns, total_ns, ...), rank_step(rank_id, step, computing_ns, ..., wall_ns), collective(rank_id, step, name, group_id, kind, ts, elapse_ns, transit_ns, wait_ns, sync_ns, idle_ns), link(rank_id, op, src_rank, dst_rank, transport, transit_size_mb, transit_ns, bandwidth_gbps), cluster_group(group_index, name, kind, rank_id). Times are integer ns. Returns at most `limit` rows (200 by default) from `offset`, with the total count, per statement.",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "query": {"type": "string"}, "limit": {"type": "integer", "minimum": 1, "maximum": 5000}, "offset": {"type": "integer", "minimum": 0}}, "required": ["id", "query"]}},
{"name": "compare", "title": "Compare two runs or two ranks",
 "description": "`marey stats --compare A B --json`: two traces or rank folders aligned on their first common step, and the difference of their operators, steps and communication.",
 "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a", "b"]}},
{"name": "check", "title": "The regression gate between a baseline and a candidate",
 "description": "`marey check BASELINE CANDIDATE --json`: whether the candidate regressed (steps, phases, operators, communication against thresholds), with each judged figure. A regression is a result, not an error; a damaged input is an error.",
 "inputSchema": {"type": "object", "properties": {"baseline": {"type": "string"}, "candidate": {"type": "string"}, "rules": {"type": "array", "items": {"type": "string"}, "description": "thresholds as --max takes them: step=3%, phase:free=8%, op:aclnnMatMul*=8%, cp:communication=10% (the critical path of each step, by what bounds it)"}, "min_time": {"type": "string", "description": "operators smaller per step are not judged, e.g. 50us"}}, "required": ["baseline", "candidate"]}},
{"name": "critical_path", "title": "What made a step as long as it was",
 "description": "`marey critical-path PATHS --json`: the longest path through a step's host calls, launches, device work and synchronisations (HTA's critical path), its time by what bounds it (cpu, compute, communication, launch, kernel_kernel), the names with the most time on it and its stretches. One path: one rank, its longest step unless a step, a range or an annotation is given. Several paths (traces or rank folders of one job): one step across the ranks, which jumps at each collective to the rank that arrived last and names it. Paged as summary is.",
 "inputSchema": {"type": "object", "properties": {"paths": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "a trace or rank folder, or several ranks of one job"}, "step": {"type": "string", "description": "N of ProfilerStep#N"}, "range": {"type": "string", "description": "one rank: FROM,TO since the trace's start, e.g. 1.2s,1.5s"}, "annotation": {"type": "string", "description": "one rank: the window is the slice of this name"}, "instance": {"type": "integer", "minimum": 0, "description": "which slice of that name, from 0 by start"}, "offset": {"type": "integer", "minimum": 0}}, "required": ["paths"]}},
{"name": "screenshot", "title": "A picture of a view",
 "description": "Draws PATH in marey's window (off screen) and returns the PNG: the timeline, or a view of a rank folder (overview, operators, steps, device, communication, memory) or of a cluster (steps, overview, matrix, communication, time, marey, parallel).",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "view": {"type": "string"}, "width": {"type": "integer", "minimum": 320, "maximum": 3840}, "height": {"type": "integer", "minimum": 240, "maximum": 2160}}, "required": ["path"]}}
])tools";

ToolResult Failure(std::string text) {
    return {std::move(text), "", true};
}

// A path an agent sent, as an argument marey reads as a path only: "stats" or "--help" would be
// a subcommand or an option.
std::string AsPath(const std::string& path) {
    return !path.empty() && path[0] != '/' ? "./" + path : path;
}

std::string Quoted(std::string_view text) {
    std::string out;
    AppendJsonString(out, text);
    return out;
}

bool StringArgument(simdjson::dom::element arguments, const char* key, std::string& value) {
    std::string_view text;
    if (arguments[key].get_string().get(text) != simdjson::SUCCESS) return false;
    value = std::string(text);
    return true;
}

// An integer argument, 'fallback' when absent; false when present and not an integer in range.
bool IntegerArgument(simdjson::dom::element arguments, const char* key, int64_t low, int64_t high,
                     int64_t fallback, int64_t& value) {
    value = fallback;
    simdjson::dom::element element;
    if (arguments[key].get(element) != simdjson::SUCCESS) return true;
    int64_t number = 0;
    if (element.get_int64().get(number) != simdjson::SUCCESS || number < low || number > high)
        return false;
    value = number;
    return true;
}

// What a child printed, as the result: its JSON, or its error words when it failed.
ToolResult FromChild(const ChildOutcome& child, bool exitOneIsResult = false) {
    if (child.timedOut) return Failure("marey took longer than its limit and was stopped");
    if (child.status == 0 || (exitOneIsResult && child.status == 1)) return {child.out, "", false};
    std::string words = child.err.empty() ? child.out : child.err;
    while (!words.empty() && words.back() == '\n') words.pop_back();
    return Failure(words.empty() ? "marey exited with status " + std::to_string(child.status)
                                 : words);
}

// 'text' from 'offset', at most a page, with where the rest is.
std::string Page(const std::string& text, size_t offset) {
    if (offset == 0 && text.size() <= kPageChars) return text;
    offset = std::min(offset, text.size());
    size_t end = std::min(text.size(), offset + kPageChars);
    // Never inside a character: a page ends before a UTF-8 continuation byte.
    while (end > offset && end < text.size() &&
           (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    std::string page = "characters " + std::to_string(offset) + " to " + std::to_string(end) +
                       " of " + std::to_string(text.size());
    page += end < text.size() ? "; the rest: call again with offset " + std::to_string(end) + "\n"
                              : " (the end)\n";
    return page + text.substr(offset, end - offset);
}

std::string Base64(const std::string& bytes) {
    static constexpr char kDigits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const auto byte = [&](size_t k) {
            return k < bytes.size() ? static_cast<uint32_t>(static_cast<unsigned char>(bytes[k]))
                                    : 0u;
        };
        const uint32_t triple = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        out += kDigits[triple >> 18 & 63];
        out += kDigits[triple >> 12 & 63];
        out += i + 1 < bytes.size() ? kDigits[triple >> 6 & 63] : '=';
        out += i + 2 < bytes.size() ? kDigits[triple & 63] : '=';
    }
    return out;
}

// A statement's rows as JSON arrays, those from 'offset' up to 'limit' of them, and the count.
class PagedRows final : public SqlResultSink {
public:
    PagedRows(int64_t offset, int64_t limit) : m_offset(offset), m_limit(limit) {}
    std::string json = "[";
    void Begin(const std::vector<std::string>& columns) override {
        if (m_statements++) json += ", ";
        json += "{\"columns\": [";
        for (size_t c = 0; c < columns.size(); ++c) json += (c ? ", " : "") + Quoted(columns[c]);
        json += "], \"rows\": [";
        m_count = 0;
        m_shown = 0;
    }
    void Row(sqlite3_stmt* statement) override {
        const int64_t index = m_count++;
        if (index < m_offset || m_shown >= m_limit) return;
        json += m_shown++ ? ", [" : "[";
        for (int c = 0; c < sqlite3_column_count(statement); ++c) {
            if (c) json += ", ";
            AppendSqlCellJson(json, statement, c);
        }
        json += "]";
    }
    void End() override {
        json += "], \"row_count\": " + std::to_string(m_count) +
                ", \"offset\": " + std::to_string(m_offset) +
                ", \"shown\": " + std::to_string(m_shown);
        if (m_offset + m_shown < m_count)
            json += ", \"more\": " +
                    Quoted("rows " + std::to_string(m_offset + m_shown) + " to " +
                           std::to_string(m_count) + " are not shown: call again with offset " +
                           std::to_string(m_offset + m_shown) + " or a larger limit");
        json += "}";
    }

private:
    int64_t m_offset, m_limit, m_count = 0, m_shown = 0;
    int m_statements = 0;
};

}  // namespace

// [SECTION] documents

McpTools::McpTools() : m_self(OwnExecutable()) {}
McpTools::~McpTools() = default;

// One line: a message of the stdio transport holds no line break.
std::string McpTools::ListJson() const {
    simdjson::dom::parser parser;
    return simdjson::minify(parser.parse(kTools.data(), kTools.size()).value());
}

McpTools::Document* McpTools::Find(simdjson::dom::element arguments, ToolResult& error) {
    std::string id;
    if (!StringArgument(arguments, "id", id)) {
        error = Failure("expected \"id\": the id that open returned (\"d1\")");
        return nullptr;
    }
    for (const auto& document : m_documents)
        if (document->id == id) return document.get();
    error = Failure("no document \"" + id + "\" is open: open a path first");
    return nullptr;
}

std::string McpTools::ResourcesJson() const {
    std::string json = "[";
    for (const auto& document : m_documents) {
        if (json.size() > 1) json += ", ";
        json += "{\"uri\": " + Quoted("marey://document/" + document->id) +
                ", \"name\": " + Quoted(document->id) + ", \"title\": " + Quoted(document->path) +
                ", \"description\": " +
                Quoted(std::string(document->cluster ? "a cluster" : "a timeline") +
                       ": `marey stats --json` of " + document->path) +
                ", \"mimeType\": \"application/json\"}";
    }
    return json + "]";
}

bool McpTools::ReadResource(std::string_view uri, std::string& json) const {
    for (const auto& document : m_documents)
        if (uri == "marey://document/" + document->id) {
            json = document->statsJson;
            return true;
        }
    return false;
}

ToolResult McpTools::Open(simdjson::dom::element arguments) {
    auto document = std::make_unique<Document>();
    if (!StringArgument(arguments, "path", document->path))
        return Failure("expected \"path\": a trace, rank folder, database, export or cluster");
    std::vector<std::string> command = {"stats", AsPath(document->path), "--json"};
    std::string source;
    if (StringArgument(arguments, "source", source)) {
        if (source != "text" && source != "db")
            return Failure("\"source\": expected text or db, got " + Quoted(source));
        command.insert(command.end(), {"--source", source});
        document->source = source == "text" ? RankSource::kText : RankSource::kDatabase;
    }
    const ToolResult stats = FromChild(RunChild(m_self, command, kLoadSeconds));
    if (stats.isError) return stats;
    simdjson::dom::parser parser;
    simdjson::dom::element summary;
    if (parser.parse(stats.text).get(summary) != simdjson::SUCCESS)
        return Failure("marey stats printed no JSON for " + document->path);
    document->statsJson = stats.text;
    document->cluster = summary["cluster"].error() == simdjson::SUCCESS;
    document->id = "d" + std::to_string(m_documents.size() + 1);
    std::string json = "{\"id\": " + Quoted(document->id) +
                       ", \"path\": " + Quoted(document->path) + ", \"kind\": ";
    if (document->cluster) {
        simdjson::dom::element ranks;
        json += "\"cluster\"";
        if (summary["cluster"]["ranks"].get(ranks) == simdjson::SUCCESS)
            json += ", \"ranks\": " + simdjson::minify(ranks);
    } else {
        // stats --json has a "rank" object for every timeline; a rank folder names its folder.
        std::string_view folder;
        const bool rank = summary["rank"]["folder"].get_string().get(folder) == simdjson::SUCCESS &&
                          !folder.empty();
        json += std::string(rank ? "\"rank\"" : "\"trace\"");
        for (const char* key : {"slices", "tracks", "span_ns", "problems"}) {
            simdjson::dom::element value;
            if (summary[key].get(value) == simdjson::SUCCESS)
                json += std::string(", \"") + key + "\": " + simdjson::minify(value);
        }
    }
    json += ", \"resource\": " + Quoted("marey://document/" + document->id) + "}";
    m_documents.push_back(std::move(document));
    return {json, "", false};
}

// One key of the document's `stats --json` ("top", "analyses", "rank.steps").
ToolResult McpTools::Key(simdjson::dom::element arguments, const char* key, const char* what) {
    ToolResult error;
    Document* document = Find(arguments, error);
    if (!document) return error;
    simdjson::dom::parser parser;
    simdjson::dom::element value = parser.parse(document->statsJson);
    for (std::string_view rest = key; !rest.empty();) {
        const size_t dot = rest.find('.');
        if (value[rest.substr(0, dot)].get(value) != simdjson::SUCCESS || value.is_null())
            return Failure(document->path + " has no " + what);
        rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    if (std::string_view(key) == "top") {
        int64_t limit = 20;
        if (!IntegerArgument(arguments, "limit", 1, 200, 20, limit))
            return Failure("\"limit\": expected an integer from 1 to 200");
        std::string json = "[";
        int64_t count = 0;
        for (simdjson::dom::element item : value.get_array()) {
            if (count++ == limit) break;
            json += (count > 1 ? ", " : "") + simdjson::minify(item);
        }
        return {json + "]", "", false};
    }
    int64_t offset = 0;
    if (!IntegerArgument(arguments, "offset", 0, INT64_MAX, 0, offset))
        return Failure("\"offset\": expected an integer of at least 0");
    return {Page(simdjson::minify(value), static_cast<size_t>(offset)), "", false};
}

ToolResult McpTools::Summary(simdjson::dom::element arguments) {
    ToolResult error;
    Document* document = Find(arguments, error);
    if (!document) return error;
    int64_t offset = 0;
    if (!IntegerArgument(arguments, "offset", 0, INT64_MAX, 0, offset))
        return Failure("\"offset\": expected an integer of at least 0");
    return {Page(document->statsJson, static_cast<size_t>(offset)), "", false};
}

ToolResult McpTools::Sql(simdjson::dom::element arguments) {
    ToolResult error;
    Document* document = Find(arguments, error);
    if (!document) return error;
    std::string query;
    if (!StringArgument(arguments, "query", query)) return Failure("expected \"query\": SQL text");
    int64_t limit = kDefaultRows, offset = 0;
    if (!IntegerArgument(arguments, "limit", 1, kMostRows, kDefaultRows, limit))
        return Failure("\"limit\": expected an integer from 1 to 5000");
    if (!IntegerArgument(arguments, "offset", 0, INT64_MAX, 0, offset))
        return Failure("\"offset\": expected an integer of at least 0");
    if (!document->sql && document->cluster) {
        auto cluster =
            LoadCluster(document->path, std::max(1u, std::thread::hardware_concurrency()));
        if (!cluster.ok()) return Failure(cluster.message());
        document->clusterTables = std::make_unique<Cluster>(std::move(cluster.value()));
        auto session = SqlSession::OpenCluster(*document->clusterTables);
        if (!session.ok()) return Failure(session.message());
        document->sql = std::move(session.value());
        document->sql->SetReadOnly(true);
        document->sql->SetTimeLimit(kQuerySeconds);
    }
    if (!document->sql) {
        LoadOptions options;
        options.source = document->source;  // what open read, so that sql reads the same
        auto loaded = LoadSqlSource(document->path, options);
        if (!loaded.ok()) return Failure(loaded.message());
        document->rank = std::move(loaded.value());
        auto session = SqlSession::Open(document->rank.model.get(), document->rank.analysis.get());
        if (!session.ok()) return Failure(session.message());
        document->sql = std::move(session.value());
        document->sql->SetReadOnly(true);
        document->sql->SetTimeLimit(kQuerySeconds);
    }
    PagedRows rows(offset, limit);
    const Status ran = document->sql->Run(query, rows);
    if (!ran.ok()) return Failure("query:" + ran.message());
    return {rows.json + "]", "", false};
}

ToolResult McpTools::Compare(simdjson::dom::element arguments) {
    std::string a, b;
    if (!StringArgument(arguments, "a", a) || !StringArgument(arguments, "b", b))
        return Failure("expected \"a\" and \"b\": two traces or rank folders");
    return FromChild(
        RunChild(m_self, {"stats", "--compare", AsPath(a), AsPath(b), "--json"}, kLoadSeconds));
}

ToolResult McpTools::Check(simdjson::dom::element arguments) {
    std::string baseline, candidate, minTime;
    if (!StringArgument(arguments, "baseline", baseline) ||
        !StringArgument(arguments, "candidate", candidate))
        return Failure("expected \"baseline\" and \"candidate\": two runs to compare");
    std::vector<std::string> command = {"check", AsPath(baseline), AsPath(candidate), "--json"};
    simdjson::dom::array rules;
    if (arguments["rules"].get_array().get(rules) == simdjson::SUCCESS) {
        for (simdjson::dom::element rule : rules) {
            std::string_view text;
            if (rule.get_string().get(text) != simdjson::SUCCESS)
                return Failure("\"rules\": expected strings such as \"step=3%\"");
            command.insert(command.end(), {"--max", std::string(text)});
        }
    }
    if (StringArgument(arguments, "min_time", minTime))
        command.insert(command.end(), {"--min-time", minTime});
    // Exit 1 is the verdict "regressed", which the JSON says; 2 is an error.
    return FromChild(RunChild(m_self, command, kLoadSeconds), true);
}

ToolResult McpTools::CriticalPath(simdjson::dom::element arguments) {
    std::vector<std::string> command = {"critical-path"};
    simdjson::dom::array paths;
    if (arguments["paths"].get_array().get(paths) != simdjson::SUCCESS || paths.size() == 0)
        return Failure("expected \"paths\": a trace or rank folder, or several ranks of one job");
    for (simdjson::dom::element path : paths) {
        std::string_view text;
        if (path.get_string().get(text) != simdjson::SUCCESS)
            return Failure("\"paths\": expected strings, each a trace or rank folder");
        command.push_back(AsPath(std::string(text)));
    }
    command.push_back("--json");
    for (const char* key : {"step", "range", "annotation"}) {
        std::string value;
        if (StringArgument(arguments, key, value))
            command.insert(command.end(), {std::string("--") + key, value});
    }
    int64_t instance = 0, offset = 0;
    if (!IntegerArgument(arguments, "instance", 0, INT64_MAX, -1, instance))
        return Failure("\"instance\": expected an integer of at least 0");
    if (instance >= 0) command.insert(command.end(), {"--instance", std::to_string(instance)});
    if (!IntegerArgument(arguments, "offset", 0, INT64_MAX, 0, offset))
        return Failure("\"offset\": expected an integer of at least 0");
    ToolResult result = FromChild(RunChild(m_self, command, kLoadSeconds));
    if (!result.isError) result.text = Page(result.text, static_cast<size_t>(offset));
    return result;
}

ToolResult McpTools::Screenshot(simdjson::dom::element arguments) {
    std::string path, view;
    if (!StringArgument(arguments, "path", path)) return Failure("expected \"path\"");
    int64_t width = 1280, height = 800;
    if (!IntegerArgument(arguments, "width", 320, 3840, 1280, width) ||
        !IntegerArgument(arguments, "height", 240, 2160, 800, height))
        return Failure("\"width\" and \"height\": expected 320-3840 and 240-2160 pixels");
    char folder[] = "/tmp/marey-mcp-XXXXXX";
    if (!mkdtemp(folder)) return Failure("cannot make a temporary folder for the picture");
    const std::string png = std::string(folder) + "/view.png";
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    std::vector<std::string> command = {AsPath(path), "--screenshot", png, "--size", size};
    if (StringArgument(arguments, "view", view)) command.insert(command.end(), {"--view", view});
    // Without a display, the window is drawn on a virtual one.
    const char* display = std::getenv("DISPLAY");
    ChildOutcome child;
    if (display && *display) {
        child = RunChild(m_self, command, kLoadSeconds);
    } else {
        command.insert(command.begin(), {"-a", "-s", "-screen 0 " + size + "x24", m_self});
        child = RunChild("xvfb-run", command, kLoadSeconds);
    }
    ToolResult result = FromChild(child);
    std::ifstream file(png, std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
    if (result.isError) return result;
    if (bytes.str().empty()) return Failure("marey wrote no picture for " + path);
    return {"a " + size + " picture of " + path + (view.empty() ? "" : " (" + view + ")"),
            Base64(bytes.str()), false};
}

ToolResult McpTools::Call(std::string_view name, simdjson::dom::element arguments) {
    if (!arguments.is_object()) return Failure("expected the arguments as an object");
    if (name == "open") return Open(arguments);
    if (name == "summary") return Summary(arguments);
    if (name == "top_operators") return Key(arguments, "top", "top names");
    if (name == "steps") return Key(arguments, "rank.steps", "step table (not a rank folder)");
    if (name == "device_analyses") return Key(arguments, "analyses", "device analyses");
    if (name == "cluster_findings") {
        ToolResult error;
        Document* document = Find(arguments, error);
        if (!document) return error;
        if (!document->cluster) return Failure(document->path + " is not a cluster");
        simdjson::dom::parser parser;
        const simdjson::dom::element cluster = parser.parse(document->statsJson)["cluster"];
        std::string json = "{";
        for (const char* key : {"findings", "slow_ranks", "slow_links", "problems"}) {
            simdjson::dom::element value;
            if (cluster[key].get(value) != simdjson::SUCCESS) continue;
            json += (json.size() > 1 ? ", \"" : "\"") + std::string(key) +
                    "\": " + simdjson::minify(value);
        }
        int64_t offset = 0;
        if (!IntegerArgument(arguments, "offset", 0, INT64_MAX, 0, offset))
            return Failure("\"offset\": expected an integer of at least 0");
        return {Page(json + "}", static_cast<size_t>(offset)), "", false};
    }
    if (name == "sql") return Sql(arguments);
    if (name == "compare") return Compare(arguments);
    if (name == "check") return Check(arguments);
    if (name == "critical_path") return CriticalPath(arguments);
    if (name == "screenshot") return Screenshot(arguments);
    return Failure("no tool named " + Quoted(name) + "; tools/list names them");
}

}  // namespace marey
