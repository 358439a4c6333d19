#pragma once
// Writes a whole generated multi-rank job: one rank folder per rank, each with
// profiler_info_R.json and, in ASCEND_PROFILER_OUTPUT, step_trace_time.csv, communication.json,
// communication_matrix.json, kernel_details.csv and a small trace_view.json, all consistent with
// one synchronous training run. Optionally with a planted slow rank (it computes longer; the
// others wait for it in every collective), a planted slow link (a quarter of its bandwidth) and a
// rank whose input is late (it waits for its data before each step; the others wait for it).
// Steps 6, 16, 26, … are 8 ms longer on every rank (the data loader stalls): free time, not a
// slow rank.
// Deterministic for a seed.
#include <cstdint>
#include <string>

namespace marey {

struct ClusterOptions {
    uint32_t ranks = 16;
    uint32_t steps = 10;
    uint32_t ranksPerNode = 8;  // HCCS inside a node, RDMA between nodes
    uint64_t seed = 1;
    int slowRank = -1;  // computes 25 % longer in every step
    int slowLinkSrc = -1,
        slowLinkDst = -1;   // this link (of the ring) runs at a quarter of its bandwidth
    uint32_t layers = 3;    // 8 device operators a layer: 24 a step by default
    int slowOperator = -1;  // the step's operator of this index takes twice as long on every rank
    int slowOperatorRank = -1;  // with slowOperator: on this rank only (-1: every rank)
    // Each rank a stage of one pipeline, in rank order: a stage starts an operator once the stage
    // before it has finished it, so a slow stage delays every stage after it.
    bool pipeline = false;
    // This rank's next batch is late in every step: it starts its operators kSlowInputNs after
    // the step begins (its step_trace_time.csv's Preparing), and the others wait for it. Every
    // rank then writes MindSpore's data queue files, this one input-bound (MindDataWriter.hpp).
    int slowInputRank = -1;
    // Every rank writes MindSpore's FLOPs files (FlopsWriter.hpp), all with the same FLOPs but
    // for heavyFlopsRank, whose operators carry kHeavyFlopsFactor times the others' FLOPs, as an
    // unbalanced pipeline stage does. A heavy rank implies the files.
    bool flopsFiles = false;
    int heavyFlopsRank = -1;
    int heavyFlopsStage = -1;  // with a layout: every rank of this stage heavy, as heavyFlopsRank
    // Every rank writes memory_record.csv, its framework's allocated memory rising to a peak in
    // each step; memoryPeakRank's peak is kMemoryPeakFactorPlanted times the others' (a device
    // that holds more than its peers). -1: no memory files.
    int memoryPeakRank = -1;
    // A parallel layout (all three, or none): ranks = tp × pp × dp in Megatron's rank order
    // (tensor parallel fastest, pipeline slowest), written to every rank's profiler_metadata.json
    // (distributed_args and parallel_group_info). With pp > 1 the stages form a pipeline: a rank
    // starts an operator once the rank at its place in the stage before has finished it.
    uint32_t tp = 0, pp = 0, dp = 0;
    int slowStage = -1;    // every rank of this stage computes kSlowRankFactor longer
    int slowTpGroup = -1;  // so does every rank of this TP group (ranks g·tp … g·tp + tp − 1)
    int slowReplica = -1;  // and of this data-parallel replica (every stage's ranks of it)
    // With pp > 1: each step runs a 1F1B schedule of this many microbatches (0: the operators
    // flow through the stages one by one). A microbatch's forward runs the first half of the
    // step's operators and its backward the second, each 1/m as long; its activation and its
    // gradient cross between stages as hcom_send / hcom_receive operators in kernel_details.csv.
    uint32_t microbatches = 0;
    // With microbatches: the first stage waits this long before each forward (its input is late
    // for every microbatch), which widens every stage's bubble while no stage computes longer.
    int64_t microbatchStallNs = 0;

    bool HasLayout() const { return tp > 0 && pp > 0 && dp > 0; }
    bool OneFOneB() const { return HasLayout() && pp > 1 && microbatches > 0; }
    // The stage of 'rank' (0 without a layout), and the rank before it in its pipeline, or -1.
    int StageOf(int rank) const { return HasLayout() ? rank / static_cast<int>(tp * dp) : 0; }
    int ReplicaOf(int rank) const {
        return HasLayout() ? rank / static_cast<int>(tp) % static_cast<int>(dp) : 0;
    }
    // True when 'rank' is one the options make compute kSlowRankFactor longer.
    bool SlowRank(int rank) const {
        if (rank == slowRank) return true;
        if (!HasLayout()) return false;
        return StageOf(rank) == slowStage || rank / static_cast<int>(tp) == slowTpGroup ||
               ReplicaOf(rank) == slowReplica;
    }
    // True when 'rank' carries kHeavyFlopsFactor times the others' FLOPs.
    bool HeavyFlops(int rank) const {
        return rank == heavyFlopsRank || (HasLayout() && StageOf(rank) == heavyFlopsStage);
    }
    int PreviousInPipeline(int rank) const {
        if (HasLayout())
            return rank >= static_cast<int>(tp * dp) ? rank - static_cast<int>(tp * dp) : -1;
        return pipeline && rank > 0 ? rank - 1 : -1;
    }
};

// How much longer the slow rank computes, and how much slower the slow link is.
inline constexpr double kSlowRankFactor = 1.25;
inline constexpr double kSlowLinkFactor = 4.0;
inline constexpr double kSlowOperatorFactor = 2.0;
inline constexpr int64_t kSlowInputNs = 15000000;
inline constexpr double kHeavyFlopsFactor = 1.35;

// Writes DIR/rank_R_ascend_pt for every rank. Returns false with 'error' set when a file cannot
// be written; 'bytes' (when given) gets how much was written.
bool WriteCluster(const ClusterOptions& options, const std::string& dir, std::string* error,
                  uint64_t* bytes = nullptr);

}  // namespace marey
