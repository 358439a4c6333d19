#include "load/ParallelMetadata.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <iterator>

#include "core/TextFormat.hpp"
#include "load/JsonScan.hpp"
#include "load/JsonString.hpp"

namespace marey {
namespace {

constexpr size_t kDistributedInfoSearchBytes = 1 << 20;

struct SizeKey {
    const char* key;
    int ParallelSizes::*size;
};
const SizeKey kSizeKeys[] = {
    {"tensor_model_parallel_size", &ParallelSizes::tp},
    {"pipeline_model_parallel_size", &ParallelSizes::pp},
    {"data_parallel_size", &ParallelSizes::dp},
    {"context_parallel_size", &ParallelSizes::cp},
    {"expert_model_parallel_size", &ParallelSizes::ep},
};

// A JSON value as a message shows it: minified, at most 40 bytes then "…", control bytes escaped.
std::string Quoted(simdjson::dom::element value) {
    const std::string quoted = QuoteForMessage(simdjson::minify(value), 40);
    return quoted.substr(1, quoted.size() - 2);
}

// The sources a rank's layout can come from: what a summary file may say it came from.
const char* const kSources[] = {
    "profiler_metadata.json",   "META_DATA",
    "distributedInfo",          "MindInsight's pipeline-parallel file names",
    "communication_group.json", "cluster_analysis.db"};

// A count from 1 to kMaxParallelRank in 'value', else 0 with the problem named.
int ReadCount(simdjson::dom::element value, const std::string& where, const char* key,
              std::vector<std::string>& problems) {
    int64_t count = 0;
    if (!value.get(count) && count >= 1 && count <= kMaxParallelRank)
        return static_cast<int>(count);
    problems.push_back(where + ": error: \"" + key + "\" is " + Quoted(value) +
                       ": expected a count from 1 to " + std::to_string(kMaxParallelRank) +
                       "; ignored");
    return 0;
}

// The rank ids of 'array', ascending, or an empty list with the problem named: a group whose
// ranks are damaged (not ids, past the world, repeated) is not half kept.
std::vector<int> ReadRanks(simdjson::dom::element array, int worldSize, const std::string& where,
                           std::vector<std::string>& problems) {
    simdjson::dom::array items;
    std::vector<int> ranks;
    const int limit = worldSize > 0 ? worldSize : kMaxParallelRank;
    bool ok = !array.get(items);
    if (ok)
        for (simdjson::dom::element item : items) {
            int64_t id = -1;
            if (item.get(id) || id < 0 || id >= limit) {
                ok = false;
                break;
            }
            ranks.push_back(static_cast<int>(id));
        }
    std::sort(ranks.begin(), ranks.end());
    if (ok && std::adjacent_find(ranks.begin(), ranks.end()) != ranks.end()) ok = false;
    if (ok && !ranks.empty()) return ranks;
    problems.push_back(where + ": error: the group's ranks " + Quoted(array) +
                       ": expected distinct rank ids from 0 to " + std::to_string(limit - 1) +
                       "; the group left out");
    return {};
}

// A group's name as kept: at most kMaxGroupName bytes (a longer one is damage, cut and named).
constexpr size_t kMaxGroupName = 256;
std::string GroupName(std::string_view name, const std::string& where,
                      std::vector<std::string>& problems) {
    if (name.size() <= kMaxGroupName) return std::string(name);
    problems.push_back(where + ": error: a group name of " + std::to_string(name.size()) +
                       " bytes; cut to " + std::to_string(kMaxGroupName));
    return std::string(name.substr(0, kMaxGroupName));
}

// Adds 'group' unless the world (every rank says so) or one already kept.
void AddGroup(NamedRankGroup group, RankParallelInfo& info) {
    if (group.kind == "world") return;
    if (std::find(info.groups.begin(), info.groups.end(), group) != info.groups.end()) return;
    info.groups.push_back(std::move(group));
}

void ReadDistributedArgs(simdjson::dom::element args, const std::string& where,
                         RankParallelInfo& info, std::vector<std::string>& problems) {
    simdjson::dom::element value;
    if (!args["world_size"].get(value)) {
        int64_t size = 0;
        if (!value.get(size) && size >= 1 && size <= kMaxParallelRank)
            info.worldSize = static_cast<int>(size);
        else
            problems.push_back(where + ": error: \"world_size\" is " + Quoted(value) +
                               ": expected a rank count from 1 to " +
                               std::to_string(kMaxParallelRank) + "; ignored");
    }
    for (const SizeKey& size : kSizeKeys)
        if (!args[size.key].get(value))
            info.sizes.*size.size = ReadCount(value, where, size.key, problems);
}

void ReadGroupInfo(simdjson::dom::object groups, const std::string& where, RankParallelInfo& info,
                   std::vector<std::string>& problems) {
    for (auto [id, entry] : groups) {
        if (info.groups.size() >= kMaxParallelGroups) {
            problems.push_back(where + ": error: more than " + std::to_string(kMaxParallelGroups) +
                               " groups in parallel_group_info; the rest left out");
            return;
        }
        const std::string at = where + ": parallel_group_info " + QuoteForMessage(id, 80);
        std::string_view name;
        simdjson::dom::element ranks;
        if (entry["group_name"].get(name) || entry["global_ranks"].get(ranks)) {
            problems.push_back(at +
                               ": error: expected \"group_name\" and \"global_ranks\"; the "
                               "group left out");
            continue;
        }
        NamedRankGroup group{ParallelGroupKind(name), GroupName(name, at, problems), {}};
        group.ranks = ReadRanks(ranks, info.worldSize, at, problems);
        if (!group.ranks.empty()) AddGroup(std::move(group), info);
    }
}

}  // namespace

std::string ParallelGroupKind(std::string_view name) {
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    struct Kind {
        const char* name;
        const char* kind;
    };
    static const Kind kKinds[] = {
        {"tp", "tp"},
        {"tensor_model_parallel_group", "tp"},
        {"pp", "pp"},
        {"pipeline_model_parallel_group", "pp"},
        {"dp", "dp"},
        {"data_parallel_group", "dp"},
        {"cp", "cp"},
        {"context_parallel_group", "cp"},
        {"ep", "ep"},
        {"exp", "ep"},
        {"expert_model_parallel_group", "ep"},
        {"default_group", "world"},
        {"default_pg", "world"},
        {"world", "world"},
    };
    for (const Kind& kind : kKinds)
        if (lower == kind.name) return kind.kind;
    return "other";
}

namespace {

// distributed_args and parallel_group_info of the JSON 'text'; 'source' when either is there.
RankParallelInfo ReadMetadataText(const simdjson::padded_string& text, const std::string& path,
                                  std::string source, std::vector<std::string>& problems) {
    RankParallelInfo info;
    simdjson::dom::parser parser;
    simdjson::dom::element document, args;
    simdjson::dom::object groups;
    if (auto error = parser.parse(text).get(document)) {
        problems.push_back(path + ": error: not JSON: " + simdjson::error_message(error));
        return info;
    }
    if (!document.is_object()) {
        problems.push_back(path + ": error: expected a JSON object, got " + Quoted(document));
        return info;
    }
    // A key that is there but not an object is damage, named; an absent one says nothing.
    simdjson::dom::element value;
    for (const char* key : {"distributed_args", "parallel_group_info"})
        if (!document[key].get(value) && !value.is_object())
            problems.push_back(path + ": error: \"" + key + "\" is " + Quoted(value) +
                               ": expected an object; ignored");
    const bool hasArgs = !document["distributed_args"].get(args) && args.is_object();
    const bool hasGroups = !document["parallel_group_info"].get(groups);
    if (!hasArgs && !hasGroups) return info;
    info.source = std::move(source);
    if (hasArgs) ReadDistributedArgs(args, path, info, problems);
    if (hasGroups) ReadGroupInfo(groups, path, info, problems);
    return info;
}

}  // namespace

RankParallelInfo ReadProfilerMetadata(const std::string& path, std::vector<std::string>& problems) {
    simdjson::padded_string text;
    if (simdjson::padded_string::load(path).get(text)) {
        // Absent says nothing; a folder, a dangling link or an unreadable file in its place is
        // named.
        std::error_code error;
        if (std::filesystem::symlink_status(path, error).type() !=
            std::filesystem::file_type::not_found)
            problems.push_back(path + ": error: not a readable file; the layout not read from it");
        return {};
    }
    return ReadMetadataText(text, path, "profiler_metadata.json", problems);
}

std::vector<NamedRankGroup> ReadCommGroupParallelInfo(std::string_view text,
                                                      const std::string& path,
                                                      std::vector<std::string>& problems) {
    std::vector<NamedRankGroup> groups;
    simdjson::dom::parser parser;
    simdjson::dom::element value;
    simdjson::dom::array entries;
    if (parser.parse(text.data(), text.size(), false)["comm_group_parallel_info"].get(value))
        return groups;
    if (value.get(entries)) {
        problems.push_back(path + ": error: \"comm_group_parallel_info\" is " + Quoted(value) +
                           ": expected an array of groups; the groups' names not read");
        return groups;
    }
    size_t index = 0;
    for (simdjson::dom::element entry : entries) {
        const std::string where =
            path + ": comm_group_parallel_info[" + std::to_string(index++) + "]";
        std::string_view name;
        simdjson::dom::element rankSet;
        if (entry["pg_name"].get(name) || entry["rank_set"].get(rankSet)) {
            problems.push_back(where +
                               ": error: expected a \"pg_name\" string and a \"rank_set\"; the "
                               "group left out");
            continue;
        }
        NamedRankGroup group{ParallelGroupKind(name), GroupName(name, where, problems), {}};
        group.ranks = ReadRanks(rankSet, 0, where, problems);
        if (!group.ranks.empty()) groups.push_back(std::move(group));
    }
    return groups;
}

std::string ParallelInfoJson(const RankParallelInfo& info) {
    std::string out = "{\"source\": ";
    AppendJsonString(out, info.source);
    out += ", \"distributed_args\": {";
    std::string args;
    if (info.worldSize > 0) args += "\"world_size\": " + std::to_string(info.worldSize);
    for (const SizeKey& size : kSizeKeys)
        if (info.sizes.*size.size > 0)
            args += (args.empty() ? "\"" : ", \"") + std::string(size.key) +
                    "\": " + std::to_string(info.sizes.*size.size);
    out += args + "}, \"parallel_group_info\": {";
    for (size_t g = 0; g < info.groups.size(); ++g) {
        out += g ? ", \"" : "\"";
        out += std::to_string(g) + "\": {\"group_name\": ";
        AppendJsonString(out, info.groups[g].name);
        out += ", \"global_ranks\": [";
        for (size_t r = 0; r < info.groups[g].ranks.size(); ++r)
            out += (r ? ", " : "") + std::to_string(info.groups[g].ranks[r]);
        out += "]}";
    }
    return out + "}}";
}

RankParallelInfo ReadParallelInfoJson(std::string_view json, const std::string& where,
                                      std::vector<std::string>& problems) {
    simdjson::dom::parser parser;
    simdjson::dom::element document;
    std::string_view source;
    const simdjson::padded_string text(json);
    const bool known =
        !parser.parse(text).get(document) && !document["source"].get(source) &&
        std::find(std::begin(kSources), std::end(kSources), source) != std::end(kSources);
    if (!known) {
        problems.push_back(where +
                           ": error: expected an object with a \"source\" of those the "
                           "layout is read from (ParallelMetadata.cpp)");
        return {};
    }
    return ReadMetadataText(text, where, std::string(source), problems);
}

RankParallelInfo ReadDistributedInfo(std::string_view text, const std::string& where,
                                     std::vector<std::string>& problems) {
    RankParallelInfo info;
    const std::string_view head = text.substr(0, kDistributedInfoSearchBytes);
    const size_t key = head.find("\"distributedInfo\"");
    if (key == std::string_view::npos) return info;
    // The value after the key's colon, whatever it is: a null or an array is named below, never
    // taken for the next object of the file.
    const char* colon = SkipWhitespace(head.data() + key + 17, head.data() + head.size());
    size_t open = std::string_view::npos, end = std::string_view::npos;
    if (colon < head.data() + head.size() && *colon == ':') {
        const char* value = SkipWhitespace(colon + 1, head.data() + head.size());
        const ScanResult scanned = SkipValue(value, head.data() + head.size());
        if (scanned.status == ScanStatus::kOk) {
            open = static_cast<size_t>(value - head.data());
            end = static_cast<size_t>(scanned.end - head.data());
        }
    }
    if (end == std::string_view::npos) {
        problems.push_back(where + ": error: the \"distributedInfo\" object at byte " +
                           std::to_string(key) + " does not end in the first MiB; not read");
        return info;
    }
    simdjson::dom::parser parser;
    simdjson::dom::element object;
    const simdjson::padded_string json(head.substr(open, end - open));
    if (auto error = parser.parse(json).get(object)) {
        problems.push_back(where + ": error: the \"distributedInfo\" object at byte " +
                           std::to_string(open) +
                           " is not JSON: " + simdjson::error_message(error));
        return info;
    }
    if (!object.is_object()) {
        problems.push_back(where + ": error: \"distributedInfo\" is " + Quoted(object) +
                           ": expected an object; not read");
        return info;
    }
    info.source = "distributedInfo";
    ReadDistributedArgs(object, where, info, problems);
    simdjson::dom::element configValue;
    if (object["pg_config"].get(configValue)) return info;
    simdjson::dom::array configs;
    if (configValue.get(configs)) {
        problems.push_back(where + ": error: \"pg_config\" is " + Quoted(configValue) +
                           ": expected an array of process groups; not read");
        return info;
    }
    for (simdjson::dom::element config : configs) {
        if (info.groups.size() >= kMaxParallelGroups) break;
        std::string_view name, desc;
        simdjson::dom::element ranks;
        const bool named = !config["pg_name"].get(name);
        if (config["pg_desc"].get(desc) || desc.empty() || desc == "undefined") desc = name;
        const std::string at = where + ": distributedInfo.pg_config " + QuoteForMessage(desc, 80);
        if (!named || config["ranks"].get(ranks)) {
            problems.push_back(at + ": error: expected \"pg_name\" and \"ranks\"; left out");
            continue;
        }
        NamedRankGroup group{ParallelGroupKind(desc), GroupName(desc, at, problems), {}};
        if (group.kind == "world") continue;
        group.ranks = ReadRanks(ranks, info.worldSize, at, problems);
        int64_t size = 0;
        if (!group.ranks.empty() && !config["pg_size"].get(size) &&
            size > static_cast<int64_t>(group.ranks.size())) {
            // PyTorch lists every rank of a group: fewer than its size is damage.
            problems.push_back(at + ": error: \"ranks\" lists " +
                               std::to_string(group.ranks.size()) + " of its pg_size " +
                               std::to_string(size) + " ranks; the group left out");
            continue;
        }
        if (!group.ranks.empty()) AddGroup(std::move(group), info);
    }
    return info;
}

}  // namespace marey
