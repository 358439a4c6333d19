#include "marey/PipelineSchedule.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "core/RobustStats.hpp"
#include "core/TextFormat.hpp"

namespace marey {

namespace {

bool HasWord(const std::string& lower, std::string_view word) {
    return lower.find(word) != std::string::npos;
}

// Start-ordered intervals' union length within [from, to]. O(intervals).
TimeNs UnionWithin(std::vector<std::pair<TimeNs, TimeNs>>& spans, TimeNs from, TimeNs to) {
    std::sort(spans.begin(), spans.end());
    TimeNs total = 0, coveredTo = from;
    for (auto [start, end] : spans) {
        start = std::max(start, coveredTo);
        end = std::min(end, to);
        if (end <= start) continue;
        total += end - start;
        coveredTo = end;
    }
    return total;
}

// The communicator an HCCL transfer names: "274" of "hcom_send__274_0_1"; "" for other names.
std::string_view GroupTag(std::string_view name) {
    for (std::string_view prefix : {"hcom_send__", "hcom_receive__"})
        if (name.substr(0, prefix.size()) == prefix) {
            const std::string_view rest = name.substr(prefix.size());
            return rest.substr(0, rest.find('_'));
        }
    return {};
}

std::string_view NameOf(const MareyStep& step, const MareyOp& op) {
    return step.names[step.keys[op.key].name];
}

// The unmatched Receive of stage 'peer' that ends nearest 'send''s end among those overlapping
// it and ending at most kReceiveReachNs (or the send's length) after it, and of the same
// communicator where both names say one; -1 when none. 'receives' are the stage's receive
// operators by end. O(log n + receives in reach).
constexpr TimeNs kReceiveReachNs = 1000000;
int64_t NearestReceive(const MareyStep& step, size_t peer, const std::vector<uint32_t>& receives,
                       const std::vector<bool>& taken, const MareyOp& send, TimeNs* distance) {
    const MareyDevice& device = step.devices[peer];
    const TimeNs sendStart = send.startNs, sendEnd = send.endNs;
    const std::string_view sendTag = GroupTag(NameOf(step, send));
    int64_t best = -1;
    *distance = std::numeric_limits<TimeNs>::max();
    const TimeNs reachEnd = sendEnd + std::max(kReceiveReachNs, sendEnd - sendStart);
    const auto first =
        std::lower_bound(receives.begin(), receives.end(), sendStart,
                         [&](uint32_t op, TimeNs at) { return device.ops[op].endNs < at; });
    for (auto it = first; it != receives.end(); ++it) {
        const MareyOp& receive = device.ops[*it];
        if (receive.endNs > reachEnd) break;  // by end: every later one ends further still
        const TimeNs gap =
            receive.endNs > sendEnd ? receive.endNs - sendEnd : sendEnd - receive.endNs;
        if (receive.endNs > sendEnd && gap >= *distance) break;
        if (taken[*it] || receive.startNs > sendEnd || gap >= *distance) continue;
        const std::string_view receiveTag = GroupTag(NameOf(step, receive));
        if (!sendTag.empty() && !receiveTag.empty() && sendTag != receiveTag) continue;
        best = *it;
        *distance = gap;
    }
    return best;
}

// Pairs every Send with a Receive on a neighbouring stage and numbers the microbatches.
void PairTransfers(const MareyStep& step, PipelineSchedule& schedule) {
    const size_t stageCount = schedule.stages.size();
    std::vector<std::vector<uint32_t>> receives(stageCount);
    std::vector<std::vector<bool>> taken(stageCount);
    for (size_t s = 0; s < stageCount; ++s) {
        const MareyDevice& device = step.devices[s];
        for (uint32_t i = 0; i < device.ops.size(); ++i)
            if (schedule.stages[s].kinds[i] == PipeOpKind::kReceive) receives[s].push_back(i);
        std::sort(receives[s].begin(), receives[s].end(), [&](uint32_t a, uint32_t b) {
            return device.ops[a].endNs < device.ops[b].endNs;
        });
        taken[s].assign(device.ops.size(), false);
    }
    for (size_t s = 0; s < stageCount; ++s) {
        const MareyDevice& device = step.devices[s];
        for (uint32_t i = 0; i < device.ops.size(); ++i) {
            if (schedule.stages[s].kinds[i] != PipeOpKind::kSend) continue;
            const MareyOp& send = device.ops[i];
            int64_t bestOp = -1;
            size_t bestStage = 0;
            TimeNs bestGap = std::numeric_limits<TimeNs>::max();
            for (const size_t peer : {s + 1, s - 1}) {
                if (peer >= stageCount) continue;  // s − 1 of stage 0 wraps past the end
                TimeNs gap = 0;
                const int64_t op =
                    NearestReceive(step, peer, receives[peer], taken[peer], send, &gap);
                if (op >= 0 && gap < bestGap) {
                    bestOp = op;
                    bestStage = peer;
                    bestGap = gap;
                }
            }
            if (bestOp < 0) continue;
            taken[bestStage][static_cast<size_t>(bestOp)] = true;
            schedule.transfers.push_back({static_cast<uint32_t>(s), i,
                                          static_cast<uint32_t>(bestStage),
                                          static_cast<uint32_t>(bestOp), bestStage > s, 0});
        }
    }
    std::sort(schedule.transfers.begin(), schedule.transfers.end(),
              [&](const PipeTransfer& a, const PipeTransfer& b) {
                  return step.devices[a.fromStage].ops[a.fromOp].startNs <
                         step.devices[b.fromStage].ops[b.fromOp].startNs;
              });
    // The k-th transfer between the same two stages in the same direction is microbatch k.
    std::vector<uint32_t> countForward(stageCount, 0), countBackward(stageCount, 0);
    for (size_t t = 0; t < schedule.transfers.size(); ++t) {
        PipeTransfer& transfer = schedule.transfers[t];
        const uint32_t lower = std::min(transfer.fromStage, transfer.toStage);
        transfer.microbatch = transfer.forward ? countForward[lower]++ : countBackward[lower]++;
        schedule.stages[transfer.fromStage].transferOf[transfer.fromOp] = static_cast<int32_t>(t);
        schedule.stages[transfer.toStage].transferOf[transfer.toOp] = static_cast<int32_t>(t);
    }
    // The most transfers between two neighbouring stages, either way: one send missing (or a
    // stage without its file) does not lose a microbatch.
    for (size_t s = 0; s < stageCount; ++s)
        schedule.microbatches =
            std::max({schedule.microbatches, countForward[s], countBackward[s]});
}

// Each stage's computing, receiving and bubble over the pipeline's span; the busiest stage.
void MeasureBubbles(const MareyStep& step, PipelineSchedule& schedule) {
    TimeNs first = std::numeric_limits<TimeNs>::max(), last = 0;
    for (size_t s = 0; s < schedule.stages.size(); ++s)
        for (size_t i = 0; i < step.devices[s].ops.size(); ++i) {
            if (schedule.stages[s].kinds[i] == PipeOpKind::kOtherCommunication) continue;
            first = std::min(first, step.devices[s].ops[i].startNs);
            last = std::max(last, step.devices[s].ops[i].endNs);
        }
    if (last <= first) return;
    schedule.spanStartNs = first;
    schedule.spanEndNs = last;
    const double span = static_cast<double>(last - first);
    std::vector<int64_t> computing;
    double bubbles = 0;
    for (size_t s = 0; s < schedule.stages.size(); ++s) {
        PipeStageFigures& stage = schedule.stages[s];
        std::vector<std::pair<TimeNs, TimeNs>> compute, receive, any;
        for (size_t i = 0; i < step.devices[s].ops.size(); ++i) {
            const MareyOp& op = step.devices[s].ops[i];
            if (stage.kinds[i] == PipeOpKind::kCompute) compute.emplace_back(op.startNs, op.endNs);
            if (stage.kinds[i] == PipeOpKind::kReceive) receive.emplace_back(op.startNs, op.endNs);
            any.emplace_back(op.startNs, op.endNs);
        }
        stage.computingNs = UnionWithin(compute, first, last);
        stage.receiveNs = UnionWithin(receive, first, last);
        // Idle: no operator of any kind runs (a stage all-reducing its gradients is not idle).
        const TimeNs busyNs = UnionWithin(any, first, last);
        // A stage without operators in the step (no file, or not this step) has no bubble to
        // measure: it is left out of the mean, the median and the busiest.
        if (step.devices[s].ops.empty()) continue;
        stage.bubble = 1.0 - static_cast<double>(stage.computingNs) / span;
        stage.idleNs = (last - first) - busyNs;
        bubbles += stage.bubble;
        computing.push_back(stage.computingNs);
        if (schedule.busiestStage < 0 ||
            stage.computingNs > schedule.stages[schedule.busiestStage].computingNs)
            schedule.busiestStage = static_cast<int>(s);
    }
    if (computing.empty()) return;
    schedule.meanBubble = bubbles / static_cast<double>(computing.size());
    schedule.medianComputingNs = Median(computing);
}

// The special operators of every stage, by the rule of the header.
void FindSpecialOperators(const MareyStep& step, PipelineSchedule& schedule) {
    for (size_t s = 0; s < schedule.stages.size(); ++s) {
        const MareyDevice& device = step.devices[s];
        PipeStageFigures& stage = schedule.stages[s];
        stage.special.assign(device.ops.size(), PipeSpecial::kNone);
        TimeNs lastComputationEnd = 0;
        for (size_t i = 0; i < device.ops.size(); ++i)
            if (stage.kinds[i] == PipeOpKind::kCompute)
                lastComputationEnd = std::max(lastComputationEnd, device.ops[i].endNs);
        for (size_t i = 0; i < device.ops.size(); ++i) {
            if (stage.kinds[i] != PipeOpKind::kOtherCommunication) continue;
            std::string lower = step.names[step.keys[device.ops[i].key].name];
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            PipeSpecial& special = stage.special[i];
            if (HasWord(lower, "allreduce") || HasWord(lower, "all_reduce"))
                special = device.ops[i].startNs >= lastComputationEnd
                              ? PipeSpecial::kGradientAggregation
                              : PipeSpecial::kRedistribution;
            for (const char* word : {"allgather", "all_gather", "reducescatter", "reduce_scatter",
                                     "alltoall", "all_to_all", "broadcast", "redistribution"})
                if (HasWord(lower, word)) special = PipeSpecial::kRedistribution;
            if (special == PipeSpecial::kNone) continue;
            PipeSpecialCount& count =
                special == PipeSpecial::kRedistribution ? stage.redistribution : stage.aggregation;
            ++count.operators;
            count.ns += device.ops[i].endNs - device.ops[i].startNs;
        }
    }
}

// The verdict of the header's rule, in words, and the stage it names (-1 for none).
std::string Verdict(const PipelineSchedule& schedule, int* named) {
    if (schedule.busiestStage < 0 || schedule.stages.size() < 2) return {};
    const PipeStageFigures& busiest = schedule.stages[static_cast<size_t>(schedule.busiestStage)];
    const double median = static_cast<double>(schedule.medianComputingNs);
    const auto name = [](size_t s, const PipeStageFigures& stage) {
        return "stage " + std::to_string(s) + " (rank " + ToString(stage.rankId) + ")";
    };
    if (median > 0 && static_cast<double>(busiest.computingNs) > 1.10 * median) {
        *named = schedule.busiestStage;
        return "Stage " + std::to_string(schedule.busiestStage) + " (rank " +
               ToString(busiest.rankId) + ") computes " + FormatDuration(busiest.computingNs) +
               ", " + FormatPercent(static_cast<double>(busiest.computingNs) / median - 1) +
               " longer than the median stage: the other stages wait for it in Receive "
               "(rebalance its layers)";
    }
    if (schedule.microbatches == 0) return {};
    const std::string bubble = FormatPercent(schedule.meanBubble) +
                               " on average against 1F1B's ideal of " +
                               FormatPercent(schedule.idealBubble);
    if (schedule.meanBubble <= schedule.idealBubble + 0.05)
        return "No stage holds the others up and the bubble, " + bubble +
               ", is the schedule's own: more microbatches (or an interleaved schedule) make it "
               "smaller";
    size_t idlest = 0;
    for (size_t s = 1; s < schedule.stages.size(); ++s)
        if (schedule.stages[s].idleNs > schedule.stages[idlest].idleNs) idlest = s;
    *named = static_cast<int>(idlest);
    return "No stage computes longer, yet the bubble is " + bubble + ": " +
           name(idlest, schedule.stages[idlest]) + " idles " +
           FormatDuration(schedule.stages[idlest].idleNs) +
           " with no operator running, so it starts its microbatches late (look at its "
           "input or its host)";
}

}  // namespace

PipeOpKind ClassifyPipeOp(std::string_view name, CoreClass coreClass) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const bool send = HasWord(lower, "send");
    const bool receive = HasWord(lower, "receive") || HasWord(lower, "recv");
    if (send && !receive) return PipeOpKind::kSend;
    if (receive && !send) return PipeOpKind::kReceive;
    if (send || coreClass == CoreClass::kCommunication || HasWord(lower, "hcom_") ||
        HasWord(lower, "nccl"))
        return PipeOpKind::kOtherCommunication;
    for (const char* collective : {"allreduce", "allgather", "reducescatter", "alltoall"})
        if (HasWord(lower, collective)) return PipeOpKind::kOtherCommunication;
    return PipeOpKind::kCompute;
}

PipelineSchedule BuildPipelineSchedule(const MareyStep& step) {
    PipelineSchedule schedule;
    schedule.stages.resize(step.devices.size());
    for (size_t s = 0; s < step.devices.size(); ++s) {
        const MareyDevice& device = step.devices[s];
        PipeStageFigures& stage = schedule.stages[s];
        stage.rankId = device.rankId;
        stage.kinds.reserve(device.ops.size());
        for (const MareyOp& op : device.ops) {
            const MareyKey& key = step.keys[op.key];
            stage.kinds.push_back(ClassifyPipeOp(step.names[key.name], key.coreClass));
            stage.sends += stage.kinds.back() == PipeOpKind::kSend;
            stage.receives += stage.kinds.back() == PipeOpKind::kReceive;
        }
        stage.transferOf.assign(device.ops.size(), -1);
    }
    uint64_t sendsAndReceives = 0;
    for (const PipeStageFigures& stage : schedule.stages)
        sendsAndReceives += stage.sends + stage.receives;
    if (step.devices.size() < 2)
        schedule.markedBy = "one stage: nothing to pair";
    else if (sendsAndReceives == 0)
        schedule.markedBy = "no Send or Receive operator in the step";
    else if (!step.sharedClock)
        schedule.markedBy = "the stages' clocks differ: sends and receives not paired";
    else
        PairTransfers(step, schedule);
    schedule.unpaired = sendsAndReceives - 2 * schedule.transfers.size();
    if (!schedule.transfers.empty())
        schedule.markedBy = "inferred from the send/receive order";
    else if (schedule.markedBy.empty())
        schedule.markedBy = "no Send met a Receive on a neighbouring stage";
    MeasureBubbles(step, schedule);
    FindSpecialOperators(step, schedule);
    const double p = static_cast<double>(schedule.stages.size());
    if (schedule.microbatches > 0) schedule.idealBubble = (p - 1) / (schedule.microbatches + p - 1);
    schedule.verdict = Verdict(schedule, &schedule.namedStage);
    return schedule;
}

std::vector<RankId> PipelineRanks(const ParallelLayout& layout, RankId rankId) {
    const int rank = rankId.value();  // the layout's groups and stages list numbers
    for (const ParallelGroup& group : layout.groups)
        if (group.kind == "pp" &&
            std::binary_search(group.ranks.begin(), group.ranks.end(), rank)) {
            // Ascending ids need not be stage order: each rank goes by its stage where the
            // layout places it, else by its place in the group (a rank whose folder is missing
            // keeps its place; it is not moved to the front).
            std::vector<std::pair<int, int>> keyed;
            for (size_t i = 0; i < group.ranks.size(); ++i) {
                const int stage = layout.StageOf(group.ranks[i]);
                keyed.emplace_back(stage >= 0 ? stage : static_cast<int>(i), group.ranks[i]);
            }
            std::stable_sort(keyed.begin(), keyed.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            std::vector<RankId> ranks;
            for (const auto& [stage, id] : keyed) ranks.push_back(RankId(id));
            return ranks;
        }
    const int stage = layout.StageOf(rank);
    if (stage < 0) return {};
    size_t place = 0;
    for (const ParallelStage& s : layout.stages)
        if (s.stage == stage)
            place = static_cast<size_t>(std::lower_bound(s.ranks.begin(), s.ranks.end(), rank) -
                                        s.ranks.begin());
    std::vector<RankId> ranks;
    for (const ParallelStage& s : layout.stages)
        if (place < s.ranks.size()) ranks.push_back(RankId(s.ranks[place]));
    return ranks;
}

std::string TransferLabel(const PipeTransfer& transfer) {
    return std::string(transfer.forward ? "F" : "B") + std::to_string(transfer.microbatch + 1);
}

}  // namespace marey
