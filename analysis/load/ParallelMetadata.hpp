#pragma once
// What one rank's own files say of the parallel job it ran in: the sizes of its parallel
// dimensions and the groups it belongs to. torch_npu writes them in profiler_metadata.json
// (distributed_args, parallel_group_info), PyTorch's Kineto in the trace's distributedInfo
// (pg_config), MindInsight in the names of its pipeline-parallel files. The cluster's layout
// (cluster/ParallelLayout.hpp) is made from every rank's.
#include <string>
#include <string_view>
#include <vector>

namespace marey {

// The size of each parallel dimension; 0 where the rank's files do not say.
struct ParallelSizes {
    int tp = 0;  // tensor
    int pp = 0;  // pipeline: the number of stages
    int dp = 0;  // data: the number of replicas
    int cp = 0;  // context
    int ep = 0;  // expert

    bool Any() const { return tp > 0 || pp > 0 || dp > 0 || cp > 0 || ep > 0; }
    bool operator==(const ParallelSizes&) const = default;
};

// One group as a rank's file names it: "tp" with ranks 0, 1, or Megatron's
// "TENSOR_MODEL_PARALLEL_GROUP"; 'kind' is what it is ("tp", "pp", "dp", "cp", "ep", "world",
// or "other" for combined and auxiliary groups such as "dp_cp" or "embd").
struct NamedRankGroup {
    std::string kind;
    std::string name;
    std::vector<int> ranks;  // ascending, each once

    bool operator==(const NamedRankGroup&) const = default;
};

struct RankParallelInfo {
    std::string source;  // the file (or key) it was read from; empty when nothing was said
    int worldSize = 0;   // 0 unknown
    ParallelSizes sizes;
    std::vector<NamedRankGroup> groups;  // the rank's own groups but the whole world's, in order

    bool Empty() const { return source.empty(); }
};

// The kind of a group from its name: torch_npu's short names ("tp", "exp"), Megatron's group
// descriptions ("TENSOR_MODEL_PARALLEL_GROUP", "DATA_PARALLEL_GROUP_WITH_CP"), "default_pg".
// "other" for any group that is not one dimension alone.
std::string ParallelGroupKind(std::string_view name);

// The most groups kept of one rank and the largest rank id a group may name: more is damage.
inline constexpr size_t kMaxParallelGroups = 4096;
inline constexpr int kMaxParallelRank = 1 << 24;

// Reads profiler_metadata.json's distributed_args and parallel_group_info. An absent file, or one
// without either key, says nothing (empty source). Each damaged value is a problem
// ("path: error: ...") and is left out: the rest is kept. O(size of the file).
RankParallelInfo ReadProfilerMetadata(const std::string& path, std::vector<std::string>& problems);

// The same from the "distributedInfo" object of a PyTorch trace ('text' is the trace; the
// object is looked for in its first MiB): world_size and each pg_config entry as a group named
// by its pg_desc (else its pg_name: vLLM's groups have no description). A ranks list shorter than
// its pg_size is damage: left out, named. 'where' names the trace in problems. O(the object).
RankParallelInfo ReadDistributedInfo(std::string_view text, const std::string& where,
                                     std::vector<std::string>& problems);

// msprof-analyze's communication_group.json ('text', which needs simdjson's padding past its end)
// "comm_group_parallel_info": each group's "rank_set" with the "pg_name" the job gave it. Absent:
// none; a damaged entry is named ('path' and its index) and left out. O(the file).
std::vector<NamedRankGroup> ReadCommGroupParallelInfo(std::string_view text,
                                                      const std::string& path,
                                                      std::vector<std::string>& problems);

// 'info' as a JSON object in profiler_metadata.json's shape ({"source", "distributed_args",
// "parallel_group_info"}), for a rank's summary file; and back, with every problem named as a
// file's are. O(the groups' ranks).
std::string ParallelInfoJson(const RankParallelInfo& info);
RankParallelInfo ReadParallelInfoJson(std::string_view json, const std::string& where,
                                      std::vector<std::string>& problems);

}  // namespace marey
