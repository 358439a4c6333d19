#pragma once
// The tools `marey mcp` offers an agent, and the documents it has opened. Every figure comes from
// marey's own commands (`stats --json`, `stats --compare`, `check --json`, a screenshot), run as
// child processes, so an answer is what the command line prints; `sql` reads the opened model in
// this process. Results too long for one answer are paged, never cut.
#include <simdjson.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/Cluster.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "rank/LoadedRank.hpp"
#include "sql/SqlSession.hpp"

namespace marey {

struct ToolResult {
    std::string text;       // the text content (JSON for most tools)
    std::string pngBase64;  // an image content as well, when not empty
    bool isError = false;
};

class McpTools {
public:
    McpTools();
    ~McpTools();
    // The "tools" array of tools/list: names, descriptions and input schemas.
    std::string ListJson() const;
    // Runs tool 'name'; an unknown tool or a bad argument is an error result that says so.
    ToolResult Call(std::string_view name, simdjson::dom::element arguments);
    // The "resources" array of resources/list: one per opened document.
    std::string ResourcesJson() const;
    // The summary of the document of 'uri' (marey://document/ID), or false when there is none.
    bool ReadResource(std::string_view uri, std::string& json) const;

private:
    struct Document {
        std::string id;  // "d1", "d2", …
        std::string path;
        std::string statsJson;  // `marey stats PATH --json`
        bool cluster = false;
        RankSource source = RankSource::kAuto;  // what open was asked to read
        // What sql reads, loaded at its first call: the timeline (and a rank folder's tables), or
        // the cluster.
        LoadedRank rank;
        std::unique_ptr<Cluster> clusterTables;
        std::unique_ptr<SqlSession> sql;
    };
    ToolResult Open(simdjson::dom::element arguments);
    ToolResult Key(simdjson::dom::element arguments, const char* key, const char* what);
    ToolResult Summary(simdjson::dom::element arguments);
    ToolResult Sql(simdjson::dom::element arguments);
    ToolResult Compare(simdjson::dom::element arguments);
    ToolResult Check(simdjson::dom::element arguments);
    ToolResult CriticalPath(simdjson::dom::element arguments);
    ToolResult Screenshot(simdjson::dom::element arguments);
    Document* Find(simdjson::dom::element arguments, ToolResult& error);

    std::string m_self;  // marey's own executable
    std::vector<std::unique_ptr<Document>> m_documents;
};

}  // namespace marey
