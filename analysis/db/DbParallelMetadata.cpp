#include "db/DbParallelMetadata.hpp"

#include <simdjson.h>

#include "db/SqliteFile.hpp"

namespace marey {

RankParallelInfo ReadDbParallelInfo(const SqliteFile& db, const std::string& path,
                                    std::vector<std::string>& problems) {
    if (!db.HasTable("META_DATA")) return {};
    auto statement = db.Prepare(
        "SELECT name, value FROM META_DATA WHERE name IN ('distributed_args', "
        "'parallel_group_info') ORDER BY name");
    if (!statement.ok()) {
        problems.push_back(path + ": error: META_DATA: " + statement.message());
        return {};
    }
    // The rows as the object profiler_metadata.json is, each value spliced in only once it
    // reads as one JSON value: a damaged one is named and left out, never read as other keys.
    std::string json = "{\"source\": \"META_DATA\"";
    bool any = false;
    SqliteStatement& rows = statement.value();
    simdjson::dom::parser parser;
    while (rows.Step()) {
        const std::string name(rows.Text(0));
        const simdjson::padded_string value(rows.Text(1));
        simdjson::dom::element element;
        if (auto error = parser.parse(value).get(element)) {
            problems.push_back(path + ": META_DATA \"" + name + "\": error: not JSON: " +
                               simdjson::error_message(error) + "; left out");
            continue;
        }
        json += ", \"" + name + "\": " + simdjson::minify(element);
        any = true;
    }
    if (!any) return {};
    return ReadParallelInfoJson(json + "}", path + " META_DATA", problems);
}

}  // namespace marey
