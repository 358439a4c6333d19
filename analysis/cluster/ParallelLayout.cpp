#include "cluster/ParallelLayout.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "cluster/Cluster.hpp"

namespace marey {
namespace {

// The dimensions in Megatron's rank order, the fastest-varying first (expert parallel is a
// split of the data-parallel ranks, so it has no place of its own in the order).
struct Dimension {
    const char* kind;
    int ParallelSizes::*size;
    int RankPlace::*place;
};
const Dimension kDimensions[] = {
    {"tp", &ParallelSizes::tp, &RankPlace::tp}, {"cp", &ParallelSizes::cp, &RankPlace::cp},
    {"ep", &ParallelSizes::ep, &RankPlace::ep}, {"dp", &ParallelSizes::dp, &RankPlace::dp},
    {"pp", &ParallelSizes::pp, &RankPlace::pp},
};

const Dimension* DimensionOf(const std::string& kind) {
    for (const Dimension& dimension : kDimensions)
        if (kind == dimension.kind) return &dimension;
    return nullptr;
}

int KindOrder(const std::string& kind) {
    for (size_t d = 0; d < std::size(kDimensions); ++d)
        if (kind == kDimensions[d].kind) return static_cast<int>(d);
    return static_cast<int>(std::size(kDimensions));
}

bool HasGroupsOf(const ParallelLayout& layout, const char* kind) {
    return std::any_of(layout.groups.begin(), layout.groups.end(),
                       [&](const ParallelGroup& group) { return group.kind == kind; });
}

bool HasDimensionGroups(const ParallelLayout& layout) {
    return std::any_of(layout.groups.begin(), layout.groups.end(),
                       [](const ParallelGroup& group) { return DimensionOf(group.kind); });
}

// Every rank's own files joined: the first rank's sizes that say any (others that differ
// named), every distinct group once. The job's rank count the largest any rank says.
void JoinRankFiles(const Cluster& cluster, ParallelLayout& layout, int& world) {
    const ClusterRank* sizesFrom = nullptr;
    size_t disagreeing = 0;
    RankId firstDisagreeing;  // read only when 'disagreeing' counts one
    std::set<std::tuple<std::string, std::string, std::vector<int>>> seen;
    size_t foreign = 0;   // groups a rank's file lists that do not hold the rank
    RankId firstForeign;  // read only when 'foreign' counts one
    for (const ClusterRank& rank : cluster.ranks) {
        const RankParallelInfo& info = rank.parallel;
        world = std::max({world, info.worldSize, rank.worldSize});
        if (info.Empty()) continue;
        if (layout.source.empty()) layout.source = info.source;
        if (info.sizes.Any()) {
            if (!sizesFrom) {
                sizesFrom = &rank;
                layout.sizes = info.sizes;
            } else if (!(info.sizes == sizesFrom->parallel.sizes) && disagreeing++ == 0) {
                firstDisagreeing = rank.Id();
            }
        }
        for (const NamedRankGroup& group : info.groups) {
            // A rank's files speak for its own groups: one without it is another rank's to say.
            if (!std::binary_search(group.ranks.begin(), group.ranks.end(), rank.Id().value())) {
                if (foreign++ == 0) firstForeign = rank.Id();
                continue;
            }
            // A dimension's group of one rank says only that the dimension has size 1.
            if ((group.ranks.size() > 1 || !DimensionOf(group.kind)) &&
                seen.insert({group.kind, group.name, group.ranks}).second)
                layout.groups.push_back({group.kind, group.name, group.ranks});
        }
    }
    if (foreign > 0)
        layout.notes.push_back(std::to_string(foreign) +
                               " groups that do not hold the rank whose files list them (the "
                               "first in rank " +
                               ToString(firstForeign) + "'s) left out");
    if (disagreeing > 0)
        layout.notes.push_back(std::to_string(disagreeing) + " ranks (the first rank " +
                               ToString(firstDisagreeing) +
                               ") give other parallel sizes than rank " +
                               ToString(sizesFrom->Id()) + ", whose are used");
    if (!layout.sizes.Any() && layout.groups.empty()) layout.source.clear();  // a world size only
}

// A world or a size far past the ranks read (more than 16 times them and 1024) is a damaged
// value, not a job to lay out: named and not used (a capture of 8 ranks of a 1024-rank job keeps
// its sizes).
void DropImplausible(ParallelLayout& layout, int& world, size_t ranksRead, int largestId) {
    const int64_t most = 16 * static_cast<int64_t>(ranksRead) + 1024;
    if (world > most && world > largestId) {
        layout.notes.push_back("the world size " + std::to_string(world) +
                               " in the ranks' files is far more than the " +
                               std::to_string(ranksRead) + " ranks read: not used");
        world = 0;
    }
    for (const Dimension& dimension : kDimensions) {
        int& size = layout.sizes.*dimension.size;
        if (size <= most) continue;
        layout.notes.push_back("the " + std::string(dimension.kind) + " size " +
                               std::to_string(size) + " is far more ranks than the " +
                               std::to_string(ranksRead) + " read: not used");
        size = 0;
    }
}

// Sizes left unknown are taken from the groups of their kind (when all are one size), then the
// data-parallel size from the rest and the rank count, the others 1. False, named, when they do
// not multiply to the rank count.
bool CompleteSizes(ParallelLayout& layout, int world) {
    ParallelSizes& sizes = layout.sizes;
    for (const Dimension& dimension : kDimensions) {
        std::set<size_t> groupSizes;
        for (const ParallelGroup& group : layout.groups)
            if (group.kind == dimension.kind) groupSizes.insert(group.ranks.size());
        if (groupSizes.size() != 1) continue;
        const int groupSize = static_cast<int>(*groupSizes.begin());
        // The groups themselves say more than a size beside them.
        if (sizes.*dimension.size > 0 && sizes.*dimension.size != groupSize)
            layout.notes.push_back("the " + std::string(dimension.kind) + " groups read have " +
                                   std::to_string(groupSize) + " ranks, the sizes say " +
                                   std::to_string(sizes.*dimension.size) +
                                   ": the groups' size used");
        sizes.*dimension.size = groupSize;
    }
    const int64_t others =
        int64_t{std::max(1, sizes.tp)} * std::max(1, sizes.cp) * std::max(1, sizes.pp);
    if (sizes.dp == 0 && world > 0 && world % others == 0)
        sizes.dp = static_cast<int>(world / others);
    for (const Dimension& dimension : kDimensions)
        sizes.*dimension.size = std::max(1, sizes.*dimension.size);
    const int64_t product = int64_t{sizes.tp} * sizes.cp * sizes.dp * sizes.pp;
    if (world > 0 && product != world) {
        layout.notes.push_back("the parallel sizes (" + layout.SizesText() + ") make " +
                               std::to_string(product) + " ranks, the job has " +
                               std::to_string(world) + "; the ranks not laid out by rule");
        return false;
    }
    return true;
}

// The groups of each dimension in Megatron's rank order that the layout lacks: every group of a
// dimension read of none, the groups of the ranks the files did not cover otherwise. A read group
// that is no Megatron group leaves the dimension as read, named.
void AddMegatronGroups(ParallelLayout& layout, int world, const std::vector<int>& present) {
    const ParallelSizes& sizes = layout.sizes;
    const int strides[] = {1, sizes.tp, sizes.tp, sizes.tp * sizes.cp,
                           sizes.tp * sizes.cp * sizes.dp};
    bool added = false;
    for (size_t d = 0; d < std::size(kDimensions); ++d) {
        const Dimension& dimension = kDimensions[d];
        const int size = sizes.*dimension.size;
        if (size < 2) continue;
        // A group far larger than the ranks read is a damaged size, not a plan to follow.
        if (static_cast<size_t>(size) > 16 * present.size() + 1024) {
            layout.notes.push_back("the " + std::string(dimension.kind) + " size " +
                                   std::to_string(size) + " is far more ranks than the " +
                                   std::to_string(present.size()) +
                                   " read: its groups are not laid out by rule");
            continue;
        }
        // Experts split the data-parallel ranks of one context rank: Megatron folds context
        // parallel into them otherwise, which this rule does not follow.
        if (d == 2 && (sizes.cp > 1 || sizes.dp % size != 0)) {
            if (!HasGroupsOf(layout, dimension.kind))
                layout.notes.push_back("the expert-parallel groups are not laid out by rule: EP " +
                                       std::to_string(size) + " with CP " +
                                       std::to_string(sizes.cp) + " and DP " +
                                       std::to_string(sizes.dp));
            continue;
        }
        std::set<std::vector<int>> read;
        std::set<int> covered;
        for (const ParallelGroup& group : layout.groups)
            if (group.kind == dimension.kind) {
                read.insert(group.ranks);
                covered.insert(group.ranks.begin(), group.ranks.end());
            }
        std::vector<ParallelGroup> rule;
        const int stride = strides[d];
        bool follows = true;
        // Only the groups of ranks the cluster has or a file named: never every group of a
        // world size a damaged file made huge.
        std::set<int> bases;
        for (const int rank : present)
            if (rank < world) bases.insert(rank - (rank / stride) % size * stride);
        for (const int rank : covered)
            if (rank < world) bases.insert(rank - (rank / stride) % size * stride);
        for (const int base : bases) {
            if (!follows) break;
            ParallelGroup group{dimension.kind, dimension.kind, {}};
            for (int k = 0; k < size; ++k) group.ranks.push_back(base + k * stride);
            const bool any = std::any_of(group.ranks.begin(), group.ranks.end(),
                                         [&](int rank) { return covered.count(rank) > 0; });
            if (!any)
                rule.push_back(std::move(group));
            else if (!read.count(group.ranks))
                follows = false;
        }
        if (!follows) {
            layout.notes.push_back("the " + std::string(dimension.kind) +
                                   " groups read do not follow Megatron's rank order; ranks "
                                   "outside them are not placed in that dimension");
            continue;
        }
        added |= !rule.empty();
        for (ParallelGroup& group : rule) layout.groups.push_back(std::move(group));
    }
    if (added) {
        layout.inferred = true;
        layout.how += std::string(layout.how.empty() ? "groups" : "; the others") +
                      " by Megatron's rank order (tensor, context, data, pipeline from the "
                      "fastest-varying)";
    }
}

// Groups of one size, of one stride, that split every rank of the cluster: a dimension of the
// layout. 0 when 'groups' are not such.
int StrideOfPartition(const std::vector<const ClusterGroup*>& groups, size_t ranks) {
    if (groups.empty() || groups.front()->ranks.size() * groups.size() != ranks) return 0;
    const std::vector<int>& first = groups.front()->ranks;
    const int stride = first[1] - first[0];
    std::set<int> covered;
    for (const ClusterGroup* group : groups) {
        for (size_t i = 0; i < group->ranks.size(); ++i) {
            if (i > 0 && group->ranks[i] - group->ranks[i - 1] != stride) return 0;
            if (!covered.insert(group->ranks[i]).second) return 0;
        }
    }
    return stride;
}

// msprof-analyze's stage groups (the stages of its cluster_step_trace_time) as the layout's
// stages, in the order of their first rank, and the pipeline's size; false when it has none.
bool TakeAnalysisStages(const Cluster& cluster, ParallelLayout& layout) {
    std::vector<const ClusterGroup*> stages;
    for (const ClusterGroup& group : cluster.groups)
        if (group.kind == "stage" && !group.ranks.empty()) stages.push_back(&group);
    if (stages.empty()) return false;
    std::sort(stages.begin(), stages.end(), [](const ClusterGroup* a, const ClusterGroup* b) {
        return a->ranks.front() < b->ranks.front();
    });
    for (const ClusterGroup* stage : stages)
        layout.stages.push_back({static_cast<int>(layout.stages.size()), stage->ranks});
    layout.sizes.pp = static_cast<int>(stages.size());
    return true;
}

// Without the ranks' files: msprof-analyze's stage groups as the pipeline; else equal groups of
// consecutive ranks that split the job as tensor parallel, and send/receive pairs at one
// distance as the pipeline, in Megatron's order.
void InferFromCommunication(const Cluster& cluster, ParallelLayout& layout, int world) {
    std::map<size_t, std::vector<const ClusterGroup*>> collectivesBySize;
    std::set<int> pairDistances;
    for (const ClusterGroup& group : cluster.groups) {
        if (group.kind == "collective" && group.ranks.size() > 1 &&
            group.ranks.size() < cluster.ranks.size())
            collectivesBySize[group.ranks.size()].push_back(&group);
        if (group.kind == "p2p" && group.ranks.size() == 2)
            pairDistances.insert(group.ranks[1] - group.ranks[0]);
    }
    if (TakeAnalysisStages(cluster, layout)) {
        layout.source = "the stages of msprof-analyze's cluster analysis";
        return;
    }
    for (const auto& [size, groups] : collectivesBySize)
        if (StrideOfPartition(groups, cluster.ranks.size()) == 1) {
            layout.sizes.tp = static_cast<int>(size);
            break;
        }
    if (pairDistances.size() == 1 && world > 0 && world % *pairDistances.begin() == 0 &&
        world / *pairDistances.begin() > 1) {
        const int distance = *pairDistances.begin();
        layout.sizes.pp = world / distance;
        // The stages' distance holds whole TP groups in Megatron's order: a group of consecutive
        // ranks that does not divide it (one node's ranks, say) is not tensor parallel.
        if (layout.sizes.tp > 0 && distance % layout.sizes.tp != 0) {
            layout.notes.push_back("groups of " + std::to_string(layout.sizes.tp) +
                                   " consecutive ranks do not divide the pipeline's distance of " +
                                   std::to_string(distance) + ": not taken as tensor parallel");
            layout.sizes.tp = 0;
        }
    }
    if (!layout.sizes.Any()) return;
    layout.source = "the communication groups";
    layout.inferred = true;
}

// Each rank's place in each dimension from the groups of its kind; dimensions of size 1 place
// every rank at 0. A rank in two groups of one kind keeps the first, named.
void PlaceRanks(const Cluster& cluster, ParallelLayout& layout) {
    layout.places.resize(cluster.ranks.size());
    for (size_t i = 0; i < cluster.ranks.size(); ++i) {
        RankPlace& place = layout.places[i];
        place.rank = cluster.ranks[i].Id().value();
        for (const Dimension& dimension : kDimensions)
            if (layout.sizes.*dimension.size == 1) place.*dimension.place = 0;
    }
    size_t twice = 0;
    for (const ParallelGroup& group : layout.groups) {
        const Dimension* dimension = DimensionOf(group.kind);
        if (!dimension) continue;
        for (size_t k = 0; k < group.ranks.size(); ++k) {
            const std::optional<size_t> index = cluster.IndexOfRank(RankId(group.ranks[k]));
            if (!index) continue;
            int& place = layout.places[*index].*dimension->place;
            if (place >= 0 && place != static_cast<int>(k))
                ++twice;
            else
                place = static_cast<int>(k);
        }
    }
    if (twice > 0)
        layout.notes.push_back(std::to_string(twice) +
                               " times a rank is in two groups of one kind at different places; "
                               "the first kept");
}

// The stages from the ranks' pipeline places (when the layout has a pipeline and no stages yet),
// and the ranks' pipeline places from the stages (when it has them).
void SettleStages(ParallelLayout& layout) {
    if (layout.stages.empty() && layout.sizes.pp > 1) {
        std::map<int, std::vector<int>> byStage;
        for (const RankPlace& place : layout.places)
            if (place.pp >= 0) byStage[place.pp].push_back(place.rank);
        for (auto& [stage, ranks] : byStage) layout.stages.push_back({stage, std::move(ranks)});
    }
    for (const ParallelStage& stage : layout.stages)
        for (RankPlace& place : layout.places)
            if (std::binary_search(stage.ranks.begin(), stage.ranks.end(), place.rank))
                place.pp = stage.stage;
}

}  // namespace

int ParallelLayout::StageOf(int rank) const {
    auto it = std::lower_bound(places.begin(), places.end(), rank,
                               [](const RankPlace& place, int id) { return place.rank < id; });
    return it != places.end() && it->rank == rank ? it->pp : -1;
}

std::string ParallelLayout::SizesText() const {
    std::string text;
    for (const char* kind : {"tp", "cp", "ep", "pp", "dp"}) {
        const int size = sizes.*DimensionOf(kind)->size;
        if (size <= 1) continue;
        if (!text.empty()) text += " × ";
        text += ParallelKindLabel(kind) + " " + std::to_string(size);
    }
    return text;
}

std::string ParallelLayoutText(const ParallelLayout& layout) {
    const std::string sizes = layout.SizesText();
    std::string text = sizes.empty() ? "no parallel dimension" : sizes;
    text += ", " + std::to_string(layout.groups.size()) +
            (layout.groups.size() == 1 ? " group" : " groups");
    if (!layout.stages.empty())
        text += ", " + std::to_string(layout.stages.size()) +
                (layout.stages.size() == 1 ? " stage" : " stages");
    text += " (from " + layout.source + (layout.inferred ? ", inferred" : "") +
            (layout.how.empty() ? "" : "; " + layout.how) + ")";
    return text;
}

std::string ParallelKindLabel(const std::string& kind) {
    if (!DimensionOf(kind)) return kind;
    std::string label;
    for (const char c : kind) label += static_cast<char>(c - 'a' + 'A');
    return label;
}

int MegatronRank(const ParallelSizes& sizes, int tp, int cp, int dp, int pp) {
    return tp + sizes.tp * (cp + sizes.cp * (dp + sizes.dp * pp));
}

ParallelLayout BuildParallelLayout(const Cluster& cluster) {
    ParallelLayout layout;
    int world = 0;
    JoinRankFiles(cluster, layout, world);
    const int largestId = cluster.ranks.empty() ? 0 : cluster.ranks.back().Id().value() + 1;
    DropImplausible(layout, world, cluster.ranks.size(), largestId);
    world = std::max(world, largestId);
    if (layout.Known() && !layout.groups.empty())
        layout.how = "groups as the ranks' files list them";
    if (!HasDimensionGroups(layout) && !layout.Known())
        InferFromCommunication(cluster, layout, world);
    if (!layout.Known()) return layout;
    // Groups read that say no pipeline (named TP groups, say) take msprof-analyze's stages as
    // theirs: the job is not laid out as if it had none.
    const bool stagesAdded = layout.sizes.pp == 0 && !HasGroupsOf(layout, "pp") &&
                             layout.source != "the stages of msprof-analyze's cluster analysis" &&
                             TakeAnalysisStages(cluster, layout);
    if (stagesAdded)
        layout.notes.push_back("the pipeline's " + std::to_string(layout.stages.size()) +
                               " stages from msprof-analyze's cluster analysis");
    std::vector<int> present;
    for (const ClusterRank& rank : cluster.ranks) present.push_back(rank.Id().value());
    if ((layout.stages.empty() || stagesAdded) && CompleteSizes(layout, world))
        AddMegatronGroups(layout, world, present);
    for (const Dimension& dimension : kDimensions)
        layout.sizes.*dimension.size = std::max(1, layout.sizes.*dimension.size);
    std::stable_sort(layout.groups.begin(), layout.groups.end(),
                     [](const ParallelGroup& a, const ParallelGroup& b) {
                         const int ka = KindOrder(a.kind), kb = KindOrder(b.kind);
                         if (ka != kb) return ka < kb;
                         return a.ranks.front() < b.ranks.front();
                     });
    PlaceRanks(cluster, layout);
    SettleStages(layout);
    return layout;
}

}  // namespace marey
