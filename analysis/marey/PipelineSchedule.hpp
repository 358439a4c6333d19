#pragma once
// The pipeline view's figures: one step of one pipeline (one device per stage, in stage order),
// its point-to-point transfers paired from each Send to the Receive that took it, the
// microbatches those transfers carry, and each stage's bubble measured against the ideal of a
// 1F1B schedule.
//
// The rules, where the operators themselves do not say:
// - A Send or a Receive is told by its name ("hcom_send", "Send-op12", "ncclSend"; "hcom_receive",
//   "Receive", "ncclRecv"); a kernel that does both ("SendRecv") is left unpaired.
// - A Send on stage s is paired with the Receive on stage s + 1 or s − 1 that ends nearest to its
//   own end among those it overlaps, and no later than 1 ms (or the send's own length) past it: a
//   receive finishes when the data it waits for has arrived, as the send does. Where both names
//   say their communicator (HCCL's "hcom_send__274_0_1"), it must be the same.
//   Without a shared clock nothing is paired (a time on one device means nothing on another).
// - Towards the last stage a transfer carries a forward activation, towards the first a
//   backward gradient; the k-th forward transfer between two stages is microbatch k, and so is
//   the k-th backward one. The microbatches are then inferred from the send/receive order, and
//   counted as the most transfers between two neighbouring stages either way.
// - A stage's bubble is the share of the pipeline's span (the first start to the last end of a
//   computation or transfer on any stage) in which it computes nothing; the ideal of 1F1B with
//   m microbatches and p stages is (p − 1) / (m + p − 1).
// - Where the files do not say why a collective runs, its name and place do: an AllGather,
//   ReduceScatter, AllToAll, Broadcast or a "Redistribution" operator changes how a tensor is
//   split between ranks (redistribution); an AllReduce that starts after the stage's last
//   computation of the step aggregates the gradients, one between computations reduces a split
//   result (redistribution).
#include <cstdint>
#include <string>
#include <vector>

#include "core/Ids.hpp"
#include "cluster/ParallelLayout.hpp"
#include "marey/Marey.hpp"

namespace marey {

enum class PipeOpKind : uint8_t { kCompute, kSend, kReceive, kOtherCommunication };

// Why a communication operator other than a transfer runs, by the rule above.
enum class PipeSpecial : uint8_t { kNone, kRedistribution, kGradientAggregation };

struct PipeSpecialCount {
    uint32_t operators = 0;
    TimeNs ns = 0;  // their lengths summed
};

// What an operator is from its name and core: a Send, a Receive, another communication (on a
// communication core, named hcom_ or nccl, or a collective's name: AllReduce, AllGather,
// ReduceScatter, AllToAll), or a computation.
PipeOpKind ClassifyPipeOp(std::string_view name, CoreClass coreClass);

// A Send paired with its Receive: operator indexes into MareyDevice::ops of the two stages.
struct PipeTransfer {
    uint32_t fromStage = 0, fromOp = 0;
    uint32_t toStage = 0, toOp = 0;
    bool forward = true;      // towards the last stage
    uint32_t microbatch = 0;  // from 0, within the transfers between the same two stages
};

struct PipeStageFigures {
    RankId rankId;
    std::vector<PipeOpKind> kinds;    // per operator of the device
    std::vector<int32_t> transferOf;  // per operator: index into PipelineSchedule::transfers
    TimeNs computingNs = 0;           // the union of its computations within the span
    TimeNs receiveNs = 0;             // the union of its receives within the span
    TimeNs idleNs = 0;   // the span in which none of its operators runs: it waits on itself
    double bubble = -1;  // the share of the span it computes nothing, 0 to 1; -1 without operators
    uint32_t sends = 0, receives = 0;  // of the step, paired or not
    std::vector<PipeSpecial> special;  // per operator
    PipeSpecialCount redistribution, aggregation;
};

struct PipelineSchedule {
    std::vector<PipeStageFigures> stages;  // in the step's device order
    std::vector<PipeTransfer> transfers;   // by the Send's start
    uint32_t microbatches = 0;  // the most transfers between neighbouring stages, one way
    TimeNs spanStartNs = 0, spanEndNs = 0;  // from the devices' step start (MareyDevice)
    double idealBubble = 0;                 // (p − 1) / (m + p − 1); 0 without microbatches
    double meanBubble = 0;                  // over the stages with operators
    int busiestStage = -1;                  // the stage computing longest, -1 with none
    TimeNs medianComputingNs = 0;           // over the stages with operators (core/RobustStats)
    uint64_t unpaired = 0;                  // Sends and Receives no pair was found for
    std::string markedBy;  // "inferred from the send/receive order", or why there are none
    // Why the bubble is what it is, by the rule of BuildPipelineSchedule; empty without stages.
    std::string verdict;
    int namedStage = -1;  // the stage the verdict names, -1 when it names none
};

// The ranks of the pipeline that holds 'rank', one per stage in stage order: its "pp" group of
// the layout; else, where the layout has stages but no such group, each stage's rank at the place
// 'rank' holds in its own stage; empty when the layout has no stages or no stage holds 'rank'.
// O(groups + ranks).
std::vector<RankId> PipelineRanks(const ParallelLayout& layout, RankId rankId);

// The schedule of 'step', whose devices are the stages in order. Its verdict: a stage computing
// 10 % longer than the median stage holds the others up; else a bubble 5 points over 1F1B's
// ideal comes from the stage idling longest with no operator running (it starts its
// microbatches late); else the bubble is the schedule's own. O(operators log operators).
PipelineSchedule BuildPipelineSchedule(const MareyStep& step);

// "F3" or "B3" (microbatches counted from 1, as people count them).
std::string TransferLabel(const PipeTransfer& transfer);

}  // namespace marey
