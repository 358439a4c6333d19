#include "marey/Marey.hpp"

#include <filesystem>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "core/ParallelFor.hpp"
#include "core/RobustStats.hpp"
#include "db/DbTimeline.hpp"
#include "db/SqliteFile.hpp"
#include "load/AnalysisFile.hpp"
#include "load/RankDirectory.hpp"

namespace marey {
namespace {

struct KeyHash {
    size_t operator()(const std::pair<uint32_t, uint32_t>& key) const {
        return (static_cast<size_t>(key.first) << 32) ^ key.second;
    }
};

}  // namespace

std::string MareyStep::KeyLabel(uint32_t key) const {
    const MareyKey& k = keys[key];
    return names[k.name] +
           (k.occurrence ? " #" + std::to_string(k.occurrence + 1) : std::string()) +
           (steps.size() > 1 ? " · step " + steps[k.step] : std::string());
}

std::vector<RankId> MareyDeviceOrder(const Cluster& cluster) {
    std::vector<const ClusterGroup*> stages;
    for (const ClusterGroup& group : cluster.groups)
        if (group.kind == "stage") stages.push_back(&group);
    if (stages.empty())
        for (const ClusterGroup& group : cluster.groups)
            if (group.kind == "p2p" && group.ranks.size() > 1) stages.push_back(&group);
    std::sort(stages.begin(), stages.end(), [](const ClusterGroup* a, const ClusterGroup* b) {
        return a->ranks.front() < b->ranks.front();
    });
    std::vector<RankId> order;
    std::set<RankId> placed;
    for (const ClusterGroup* stage : stages)
        for (const int number : stage->ranks)
            if (const RankId rank(number); cluster.IndexOfRank(rank) && placed.insert(rank).second)
                order.push_back(rank);
    for (const ClusterRank& rank : cluster.ranks)
        if (placed.insert(rank.Id()).second) order.push_back(rank.Id());
    return order;
}

MareyStep BuildMareyStep(const std::vector<const KernelTable*>& tables,
                         const std::vector<RankId>& rankIds, const std::string& step) {
    return BuildMareyStep(tables, rankIds, std::vector<std::string>{step});
}

namespace {

// A device's rows of the steps shown, by start (file order among equal starts), each with the
// index of its step in the steps shown.
using StepRows = std::vector<std::pair<const KernelRow*, uint32_t>>;

// The steps' rows by a pass over every row; a table without a Step Id column is one step.
StepRows ScanStepRows(const KernelTable& table, const std::vector<std::string>& steps) {
    std::unordered_map<StringId, uint32_t> stepOf;  // the table's step string → index in 'steps'
    for (uint32_t i = 0; i < steps.size(); ++i)
        if (const StringId id = table.strings.Find(steps[i]); id != 0) stepOf.emplace(id, i);
    StepRows rows;
    const bool anyStep = std::all_of(table.rows.begin(), table.rows.end(),
                                     [](const KernelRow& row) { return row.step == 0; });
    for (const KernelRow& row : table.rows) {
        if (anyStep) {
            rows.push_back({&row, 0});
        } else if (const auto it = stepOf.find(row.step); it != stepOf.end()) {
            rows.push_back({&row, it->second});
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.first->startNs < b.first->startNs;
    });
    return rows;
}

// The same rows from the table's step index, touching only them.
StepRows IndexedStepRows(const KernelTable& table, const KernelStepIndex& index,
                         const std::vector<std::string>& steps) {
    StepRows rows;
    auto addGroup = [&](size_t group, uint32_t stepIndex) {
        const uint32_t end = group + 1 < index.groups.size()
                                 ? index.groups[group + 1].second
                                 : static_cast<uint32_t>(index.rows.size());
        for (uint32_t i = index.groups[group].second; i < end; ++i)
            rows.push_back({&table.rows[index.rows[i]], stepIndex});
    };
    if (index.noSteps) {
        if (!index.groups.empty()) addGroup(0, 0);
        return rows;
    }
    std::vector<StringId> taken;  // a step asked for twice keeps its first place, as in a scan
    for (uint32_t i = 0; i < steps.size(); ++i) {
        const StringId id = table.strings.Find(steps[i]);
        if (id == 0 || std::find(taken.begin(), taken.end(), id) != taken.end()) continue;
        taken.push_back(id);
        const auto it = std::lower_bound(index.groups.begin(), index.groups.end(),
                                         std::make_pair(id, uint32_t{0}));
        if (it != index.groups.end() && it->first == id)
            addGroup(static_cast<size_t>(it - index.groups.begin()), i);
    }
    // Each group is in order already; several steps merge by start, then by place in the file.
    if (taken.size() > 1)
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return a.first->startNs != b.first->startNs ? a.first->startNs < b.first->startNs
                                                        : a.first < b.first;
        });
    return rows;
}

// BuildMareyStep over tables with their step indexes ('indexes' empty: scan each table).
MareyStep BuildSteps(const std::vector<const KernelTable*>& tables,
                     const std::vector<const KernelStepIndex*>& indexes,
                     const std::vector<RankId>& rankIds, const std::vector<std::string>& steps) {
    MareyStep result;
    result.steps = steps;
    result.step = steps.empty()       ? std::string()
                  : steps.size() == 1 ? steps.front()
                                      : steps.front() + "-" + steps.back();
    // Names are views into the tables' pools, which outlive this call, hashed by the hash the
    // pool kept when the table was read.
    struct Name {
        std::string_view text;
        uint64_t hash;
        bool operator==(const Name& other) const { return text == other.text; }
    };
    struct NameHash {
        size_t operator()(const Name& name) const { return name.hash; }
    };
    std::unordered_map<Name, uint32_t, NameHash> nameIndex;
    std::unordered_map<std::pair<uint32_t, uint32_t>, uint32_t, KeyHash> keyIndex;
    // Per (name, step shown): runs seen so far on the device being read; reset through 'touched'.
    const size_t stepSlots = std::max<size_t>(steps.size(), 1);
    std::vector<uint32_t> runs;
    std::vector<size_t> touched;
    result.devices.resize(rankIds.size());
    for (size_t d = 0; d < rankIds.size(); ++d) {
        MareyDevice& device = result.devices[d];
        device.rankId = rankIds[d];
        const KernelTable* table = tables[d];
        if (!table) {
            if (device.problem.empty()) device.problem = "no kernel_details.csv";
            continue;
        }
        const StepRows rows = indexes.empty() || !indexes[d]
                                  ? ScanStepRows(*table, steps)
                                  : IndexedStepRows(*table, *indexes[d], steps);
        if (rows.empty()) {
            device.problem = "no operator of step " + result.step + " in kernel_details.csv";
            continue;
        }
        device.stepStartNs = rows.front().first->startNs;
        device.ops.reserve(rows.size());
        for (const size_t slot : touched) runs[slot] = 0;
        touched.clear();
        for (const auto& [row, stepIndex] : rows) {
            const Name name{table->strings.Get(row->name), table->strings.Hash(row->name)};
            auto [nameIt, newName] =
                nameIndex.emplace(name, static_cast<uint32_t>(result.names.size()));
            if (newName) result.names.emplace_back(name.text);
            const size_t slot = size_t{nameIt->second} * stepSlots + stepIndex;
            if (slot >= runs.size()) runs.resize(std::max(slot + 1, runs.size() * 2), 0);
            if (runs[slot] == 0) touched.push_back(slot);
            const uint32_t occurrence = runs[slot]++;
            auto [keyIt, newKey] = keyIndex.emplace(
                std::make_pair(nameIt->second, stepIndex << 24 | (occurrence & 0xFFFFFF)),
                static_cast<uint32_t>(result.keys.size()));
            if (newKey)
                result.keys.push_back({nameIt->second, occurrence, row->coreClass, stepIndex});
            device.ops.push_back({keyIt->second, row->startNs - device.stepStartNs,
                                  row->startNs - device.stepStartNs + row->durNs});
            result.spanNs = std::max(result.spanNs, device.ops.back().endNs);
        }
    }
    // One clock when the devices' starts lie within a step of each other (one job's hosts agree
    // to far better than that; a clock off by seconds does not).
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (const MareyDevice& device : result.devices)
        if (!device.ops.empty())
            first = std::min(first, device.stepStartNs), last = std::max(last, device.stepStartNs);
    result.sharedClock = first <= last && last - first < result.spanNs;
    if (result.sharedClock) {
        result.spanNs = 0;
        for (MareyDevice& device : result.devices) {
            if (device.ops.empty()) continue;
            const TimeNs shift = device.stepStartNs - first;
            for (MareyOp& op : device.ops) op.startNs += shift, op.endNs += shift;
            device.stepStartNs = first;
            result.spanNs = std::max(result.spanNs, device.ops.back().endNs);
            for (const MareyOp& op : device.ops) result.spanNs = std::max(result.spanNs, op.endNs);
        }
    }
    for (MareyDevice& device : result.devices) {
        device.opOfKey.assign(result.keys.size(), -1);
        for (size_t i = 0; i < device.ops.size(); ++i)
            device.opOfKey[device.ops[i].key] = static_cast<int32_t>(i);
    }
    return result;
}

// The problem of a rank whose folder is not there: a summary made on the job's nodes records
// their paths, which this machine may not reach.
constexpr char kUnreachable[] = "not reachable from this machine: ";

}  // namespace

MareyStep BuildMareyStep(const std::vector<const KernelTable*>& tables,
                         const std::vector<RankId>& rankIds,
                         const std::vector<std::string>& steps) {
    return BuildSteps(tables, {}, rankIds, steps);
}

KernelStepIndex IndexKernelSteps(const KernelTable& table) {
    KernelStepIndex index;
    index.noSteps = std::all_of(table.rows.begin(), table.rows.end(),
                                [](const KernelRow& row) { return row.step == 0; });
    index.rows.reserve(table.rows.size());
    for (uint32_t i = 0; i < table.rows.size(); ++i)
        if (index.noSteps || table.rows[i].step != 0) index.rows.push_back(i);
    const auto stepOf = [&](uint32_t i) { return index.noSteps ? 0 : table.rows[i].step; };
    std::sort(index.rows.begin(), index.rows.end(), [&](uint32_t a, uint32_t b) {
        if (stepOf(a) != stepOf(b)) return stepOf(a) < stepOf(b);
        if (table.rows[a].startNs != table.rows[b].startNs)
            return table.rows[a].startNs < table.rows[b].startNs;
        return a < b;
    });
    for (uint32_t i = 0; i < index.rows.size(); ++i)
        if (i == 0 || stepOf(index.rows[i]) != stepOf(index.rows[i - 1]))
            index.groups.push_back({stepOf(index.rows[i]), i});
    return index;
}

std::vector<std::shared_ptr<const KernelTable>> LoadKernelTables(
    const Cluster& cluster, const std::vector<RankId>& rankIds, unsigned threads,
    std::vector<std::string>& problems) {
    std::vector<std::shared_ptr<const KernelTable>> tables(rankIds.size());
    problems.assign(rankIds.size(), std::string());
    ParallelFor(
        rankIds.size(), std::max(1u, threads), std::vector<uint64_t>(rankIds.size(), 1),
        [&](size_t i) {
            const std::optional<size_t> found = cluster.IndexOfRank(rankIds[i]);
            if (!found) return;
            const size_t index = *found;
            if (cluster.ranks[index].kernels) {
                tables[i] = cluster.ranks[index].kernels;
                return;
            }
            std::error_code error;
            if (cluster.readTraceKernels &&
                std::filesystem::is_regular_file(cluster.ranks[index].path, error)) {
                auto table = cluster.readTraceKernels(cluster.ranks[index].path);
                if (table.ok())
                    tables[i] = std::make_shared<const KernelTable>(std::move(table.value()));
                else
                    problems[i] = table.message();
                return;
            }
            if (!std::filesystem::exists(cluster.ranks[index].path, error)) {
                problems[i] = std::string(kUnreachable) + cluster.ranks[index].path;
                return;
            }
            auto files = FindRankFiles(cluster.ranks[index].path);
            const bool textAsked = cluster.rankSource == RankSource::kText && files.ok() &&
                                   !files.value().kernelDetails.empty();
            if (files.ok() && !files.value().profilerDb.empty() && !textAsked) {
                // A database rank: its compute tasks and communication operators.
                auto db = SqliteFile::OpenReadOnly(files.value().profilerDb);
                if (!db.ok()) {
                    problems[i] = db.message();
                    return;
                }
                tables[i] = std::make_shared<const KernelTable>(
                    std::move(ReadDbOperators(*db.value()).kernels));
                return;
            }
            if (!files.ok() || files.value().kernelDetails.empty()) {
                problems[i] = "no kernel_details.csv in " + cluster.ranks[index].path + " (" +
                              MissingFileMessage(kKernelDetailsFile) + ")";
                return;
            }
            std::vector<std::string> readProblems;
            ReadAnalysisFile(files.value().kernelDetails, readProblems, [&](std::string_view text) {
                auto table = ParseKernelTable(text, files.value().kernelDetails);
                if (table.ok())
                    tables[i] = std::make_shared<const KernelTable>(std::move(table.value()));
                else
                    readProblems.push_back(table.message());
            });
            if (!readProblems.empty()) problems[i] = readProblems.front();
        });
    return tables;
}

std::vector<std::string> SummarizeDeviceProblems(const MareyStep& step, size_t most, bool* noFile) {
    std::map<std::string, std::vector<RankId>>
        byReason;  // a reason shared by devices → their ranks
    std::vector<std::string> single;
    size_t withoutFile = 0;
    std::string unreachableExample;
    for (const MareyDevice& device : step.devices) {
        if (device.problem.empty()) continue;
        if (device.problem.rfind(kUnreachable, 0) == 0) {
            if (unreachableExample.empty())
                unreachableExample = device.problem.substr(std::strlen(kUnreachable));
            byReason[""].push_back(device.rankId);
        } else if (device.problem.rfind("no kernel_details.csv", 0) == 0) {
            ++withoutFile;
            byReason["no kernel_details.csv (" + MissingFileMessage(kKernelDetailsFile) + ")"]
                .push_back(device.rankId);
        } else if (device.problem.rfind("no operator of step", 0) == 0) {
            byReason[device.problem].push_back(device.rankId);
        } else if (single.size() < most) {
            single.push_back("rank " + ToString(device.rankId) + ": " + device.problem);
        }
    }
    if (noFile) *noFile = !step.devices.empty() && withoutFile == step.devices.size();
    std::vector<std::string> lines;
    for (auto& [reason, ranks] : byReason) {
        std::sort(ranks.begin(), ranks.end());
        lines.push_back((ranks.size() == 1 ? "rank " : "ranks ") + FormatRankList(ranks) + ": " +
                        (reason.empty() ? "their files, where the cluster says they are (" +
                                              unreachableExample +
                                              " the first), cannot be reached from this machine"
                                        : reason));
    }
    lines.insert(lines.end(), single.begin(), single.end());
    return lines;
}

MareyStep LoadMareyStep(const Cluster& cluster, const std::vector<RankId>& rankIds,
                        const std::string& step, unsigned threads) {
    return LoadMareyStep(cluster, rankIds, std::vector<std::string>{step}, threads);
}

MareyTables LoadMareyTables(const Cluster& cluster, const std::vector<RankId>& rankIds,
                            unsigned threads) {
    MareyTables result;
    result.rankIds = rankIds;
    result.tables = LoadKernelTables(cluster, rankIds, threads, result.problems);
    result.stepIndexes.resize(result.tables.size());
    ParallelFor(result.tables.size(), std::max(1u, threads),
                std::vector<uint64_t>(result.tables.size(), 1), [&](size_t i) {
                    if (result.tables[i])
                        result.stepIndexes[i] = IndexKernelSteps(*result.tables[i]);
                });
    for (const auto& table : result.tables)
        if (table) result.rows += table->rows.size();
    return result;
}

MareyStep BuildMareyStep(const MareyTables& tables, const std::vector<std::string>& steps) {
    std::vector<const KernelTable*> pointers;
    std::vector<const KernelStepIndex*> indexes;
    for (size_t i = 0; i < tables.tables.size(); ++i) {
        pointers.push_back(tables.tables[i].get());
        indexes.push_back(i < tables.stepIndexes.size() ? &tables.stepIndexes[i] : nullptr);
    }
    MareyStep result = BuildSteps(pointers, indexes, tables.rankIds, steps);
    for (size_t i = 0; i < tables.rankIds.size(); ++i)
        if (!tables.problems[i].empty() && result.devices[i].ops.empty())
            result.devices[i].problem = tables.problems[i];
    return result;
}

MareyStep LoadMareyStep(const Cluster& cluster, const std::vector<RankId>& rankIds,
                        const std::vector<std::string>& steps, unsigned threads) {
    return BuildMareyStep(LoadMareyTables(cluster, rankIds, threads), steps);
}

MareyMatchCount CountMatches(const MareyStep& step) {
    MareyMatchCount count;
    for (size_t d = 0; d + 1 < step.devices.size(); ++d)
        for (const MareyOp& op : step.devices[d].ops)
            ++(step.devices[d + 1].opOfKey[op.key] >= 0 ? count.matched : count.unmatched);
    return count;
}

std::vector<DeviceSlant> DeviceSlants(const MareyStep& step) {
    std::vector<DeviceSlant> slants;
    for (size_t d = 0; d < step.devices.size(); ++d) {
        DeviceSlant slant{step.devices[d].rankId, 0, 0};
        if (d > 0) {
            std::vector<TimeNs> later;
            const MareyDevice& above = step.devices[d - 1];
            for (const MareyOp& op : step.devices[d].ops)
                if (above.opOfKey[op.key] >= 0)
                    later.push_back(op.endNs - above.ops[above.opOfKey[op.key]].endNs);
            slant.operators = later.size();
            slant.slantNs = Median(later);
        }
        slants.push_back(slant);
    }
    return slants;
}

std::vector<TimeNs> MareyRunningEnds(const MareyDevice& device) {
    std::vector<TimeNs> ends;
    ends.reserve(device.ops.size());
    TimeNs latest = std::numeric_limits<TimeNs>::min();
    for (const MareyOp& op : device.ops) ends.push_back(latest = std::max(latest, op.endNs));
    return ends;
}

int64_t MareyOpAt(const MareyDevice& device, const std::vector<TimeNs>& runningEnds, double ns,
                  double slackNs) {
    const std::vector<MareyOp>& ops = device.ops;
    auto it = std::upper_bound(
        ops.begin(), ops.end(), ns + slackNs,
        [](double t, const MareyOp& o) { return t < static_cast<double>(o.startNs); });
    // Back from the last operator started by then, while one before may still be running: a
    // long collective has many short operators of other streams started after it.
    for (size_t i = static_cast<size_t>(it - ops.begin()); i > 0; --i) {
        if (static_cast<double>(runningEnds[i - 1]) + slackNs < ns) break;
        if (static_cast<double>(ops[i - 1].endNs) + slackNs >= ns)
            return static_cast<int64_t>(i - 1);
    }
    return -1;
}

std::optional<RankId> SlowestDevice(const std::vector<DeviceSlant>& slants, TimeNs* excessNs) {
    // Only a device that shares operators with the one above has a slant: one without any (no
    // kernel_details.csv, no operator of the step) is not "slowest" with a slant of 0.
    std::vector<const DeviceSlant*> measured;
    for (size_t d = 1; d < slants.size(); ++d)
        if (slants[d].operators > 0) measured.push_back(&slants[d]);
    if (measured.size() < 2) return std::nullopt;
    std::vector<TimeNs> values;
    for (const DeviceSlant* slant : measured) values.push_back(slant->slantNs);
    const TimeNs median = Median(values);
    const DeviceSlant* worst = measured.front();
    for (const DeviceSlant* slant : measured)
        if (slant->slantNs > worst->slantNs) worst = slant;
    if (worst->slantNs <= median) return std::nullopt;  // none bends the bands more than the others
    if (excessNs) *excessNs = worst->slantNs - median;
    return worst->rankId;
}

std::vector<MareyRow> MareyRows(const MareyStep& step,
                                const std::vector<std::vector<size_t>>& collapsed) {
    std::vector<int> stageOf(step.devices.size(), -1);
    for (size_t s = 0; s < collapsed.size(); ++s)
        for (const size_t d : collapsed[s])
            if (d < stageOf.size()) stageOf[d] = static_cast<int>(s);
    std::vector<MareyRow> rows;
    std::vector<bool> stageDone(collapsed.size(), false);
    for (size_t d = 0; d < step.devices.size(); ++d) {
        if (stageOf[d] < 0) {
            rows.push_back({"rank " + ToString(step.devices[d].rankId), {d}});
            continue;
        }
        if (stageDone[stageOf[d]]) continue;
        stageDone[stageOf[d]] = true;
        MareyRow row;
        std::vector<RankId> ranks;
        for (const size_t member : collapsed[stageOf[d]])
            row.devices.push_back(member), ranks.push_back(step.devices[member].rankId);
        std::sort(ranks.begin(), ranks.end());
        row.label = "ranks " + FormatRankList(ranks);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<MareyShape> MareyShapes(const MareyStep& step, const std::vector<MareyRow>& rows) {
    // Each row's span of each operator: the union over its devices.
    const size_t keys = step.keys.size();
    std::vector<std::vector<std::pair<TimeNs, TimeNs>>> spans(
        rows.size(), std::vector<std::pair<TimeNs, TimeNs>>(keys, {-1, -1}));
    for (size_t r = 0; r < rows.size(); ++r) {
        for (const size_t d : rows[r].devices) {
            for (const MareyOp& op : step.devices[d].ops) {
                auto& span = spans[r][op.key];
                if (span.first < 0)
                    span = {op.startNs, op.endNs};
                else
                    span = {std::min(span.first, op.startNs), std::max(span.second, op.endNs)};
            }
        }
    }
    std::vector<MareyShape> shapes;
    for (size_t r = 0; r < rows.size(); ++r) {
        for (size_t k = 0; k < keys; ++k) {
            const auto& top = spans[r][k];
            if (top.first < 0) continue;
            const uint32_t row = static_cast<uint32_t>(r), key = static_cast<uint32_t>(k);
            shapes.push_back({row, key, false, top.first, top.second, top.first, top.second});
            if (r + 1 >= rows.size()) continue;
            const auto& bottom = spans[r + 1][k];
            if (bottom.first >= 0)
                shapes.push_back(
                    {row, key, true, top.first, top.second, bottom.first, bottom.second});
        }
    }
    return shapes;
}

}  // namespace marey
