// A generated synchronous data-parallel job: every step, each rank runs the same compute
// operators, then an allReduce over all ranks (a ring: HCCS inside a node, RDMA between nodes),
// then an allGather inside its node (HCCS to every peer). A rank that arrives late at the
// allReduce makes every other rank wait for it.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ClusterGenerator.hpp"
#include "GeneratedText.hpp"
#include "FlopsWriter.hpp"
#include "MindDataWriter.hpp"
#include "core/Hash.hpp"

namespace marey {
namespace {

// memory_record.csv of one device: its framework's (PTA) allocated memory rising from 2 GB to a
// peak of 'scale' × 24 GB in each step, as a training step allocates its activations.
std::string MemoryRecordText(uint32_t steps, double scale) {
    std::string text =
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream "
        "Ptr,Device Type\r\n";
    for (uint32_t step = 0; step < steps; ++step)
        for (int sample = 0; sample <= 10; ++sample) {
            const double allocated = 2048 + (24576 * scale - 2048) * sample / 10.0;
            char line[160];
            std::snprintf(line, sizeof line, "PTA,%lld.000\t,%.4f,%.1f,%.4f,0,NPU:0\r\n",
                          1736408883000000LL + step * 100000LL + sample * 1000LL, allocated,
                          32768.0 * scale, allocated);
            text += line;
        }
    return text;
}

struct Operator {
    const char* type;
    int64_t baseNs;
};
// One transformer layer's device operators; a step runs kLayers of them.
constexpr Operator kLayerOperators[] = {
    {"MatMul", 6000000}, {"Add", 830000},   {"LayerNorm", 1330000}, {"Softmax", 2000000},
    {"MatMul", 5330000}, {"Gelu", 1670000}, {"MatMul", 6670000},    {"Mul", 1000000},
};
constexpr size_t kLayerSize = sizeof kLayerOperators / sizeof kLayerOperators[0];
const Operator& OperatorAt(size_t k) {
    return kLayerOperators[k % kLayerSize];
}
constexpr int64_t kStageHopNs =
    50000;  // a pipeline's activation reaches the next stage this much later

constexpr double kRingSizeMb = 32.0, kMeshSizeMb = 4.0;
constexpr double kHccsGBps = 18.0, kRdmaGBps = 24.0;
constexpr int64_t kStepGapNs = 2000000;    // free time of the last rank to finish a step
constexpr int64_t kDataStallNs = 8000000;  // the data loader's stall every tenth step
constexpr int64_t kFirstStepNs = int64_t{1736408883} * 1000000000;

uint64_t Mix(uint64_t x) {
    x += kGoldenRatio64;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// A factor in [1 - spread, 1 + spread], the same for the same inputs.
double Jitter(uint64_t seed, uint64_t a, uint64_t b, uint64_t c, double spread) {
    const double unit =
        static_cast<double>(Mix(seed ^ Mix(a ^ Mix(b ^ Mix(c)))) >> 11) / 9007199254740992.0;
    return 1.0 + spread * (2 * unit - 1);
}

std::string Real(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.4f", value);
    return text;
}

// A send or a receive of a 1F1B schedule: it starts when the stage posts it and ends, on both
// sides at once, when the data has crossed (the later of the two posts, plus the hop).
struct P2pOp {
    bool send = false;
    int peer = -1;
    int64_t startNs = 0, ns = 0;
};

// One rank's share of one step.
struct RankStep {
    int64_t computingNs = 0;               // the operators' time, gaps left out
    int64_t computeEndNs = 0;              // the end of the last operator
    std::vector<int64_t> opNs, opStartNs;  // per operator, from the step's start
    std::vector<uint32_t> opIndex;  // per operator, its place in the layer list (empty: k itself)
    std::vector<P2pOp> p2p;         // a 1F1B schedule's sends and receives
    int64_t ringStartNs = 0, ringElapseNs = 0, ringWaitNs = 0, ringTransitNs = 0;
    int64_t meshStartNs = 0, meshElapseNs = 0, meshWaitNs = 0, meshTransitNs = 0;
    int64_t freeNs = 0;
    int64_t preparingNs = 0;  // before the first operator: the step waited for its data
};

struct Link {
    int dst;
    const char* transport;
    double sizeMb;
    int64_t transitNs;
};

// [SECTION] The job's timing, step by step

class Job {
public:
    explicit Job(const ClusterOptions& options) : m_o(options) {}

    int NodeOf(int rank) const { return rank / static_cast<int>(m_o.ranksPerNode); }
    int RingNext(int rank) const { return (rank + 1) % static_cast<int>(m_o.ranks); }

    Link RingLink(int rank) const {
        const int dst = RingNext(rank);
        const bool local = NodeOf(dst) == NodeOf(rank);
        double bandwidth = local ? kHccsGBps : kRdmaGBps;
        if (rank == m_o.slowLinkSrc && dst == m_o.slowLinkDst) bandwidth /= kSlowLinkFactor;
        return {dst, local ? "HCCS" : "RDMA", kRingSizeMb,
                static_cast<int64_t>(kRingSizeMb / bandwidth * 1e6)};
    }

    std::vector<Link> MeshLinks(int rank) const {
        std::vector<Link> links;
        const int first = NodeOf(rank) * static_cast<int>(m_o.ranksPerNode);
        for (int peer = first; peer < first + static_cast<int>(m_o.ranksPerNode) &&
                               peer < static_cast<int>(m_o.ranks);
             ++peer) {
            if (peer == rank) continue;
            double bandwidth = kHccsGBps;
            if (rank == m_o.slowLinkSrc && peer == m_o.slowLinkDst) bandwidth /= kSlowLinkFactor;
            links.push_back(
                {peer, "HCCS", kMeshSizeMb, static_cast<int64_t>(kMeshSizeMb / bandwidth * 1e6)});
        }
        return links;
    }

    // Every rank's timing of step 's', and the step's length (the same on every rank).
    std::vector<RankStep> Step(uint32_t s, int64_t* periodNs) const {
        const int n = static_cast<int>(m_o.ranks);
        std::vector<RankStep> ranks(n);
        int64_t latest = 0;
        const size_t operators = kLayerSize * std::max<uint32_t>(1, m_o.layers);
        if (m_o.OneFOneB()) {
            for (int first = 0; first < static_cast<int>(m_o.tp * m_o.dp); ++first)
                ScheduleOneFOneB(s, first, ranks);
            for (const RankStep& step : ranks) latest = std::max(latest, step.computeEndNs);
        }
        for (int r = 0; r < n && !m_o.OneFOneB(); ++r) {
            RankStep& step = ranks[r];
            const double factor = m_o.SlowRank(r) ? kSlowRankFactor : 1.0;
            const int previous = m_o.PreviousInPipeline(r);
            step.preparingNs = r == m_o.slowInputRank ? kSlowInputNs : 0;
            int64_t at = step.preparingNs;
            for (size_t k = 0; k < operators; ++k) {
                const bool slowHere = static_cast<int>(k) == m_o.slowOperator &&
                                      (m_o.slowOperatorRank < 0 || m_o.slowOperatorRank == r);
                const double slowOperator = slowHere ? kSlowOperatorFactor : 1.0;
                const int64_t ns = static_cast<int64_t>(static_cast<double>(OperatorAt(k).baseNs) /
                                                        m_o.layers * 3 * factor * slowOperator *
                                                        Jitter(m_o.seed, r, s, k, 0.004));
                // A pipeline stage starts an operator once the stage before it has finished it.
                if (previous >= 0)
                    at = std::max(
                        at, ranks[previous].opStartNs[k] + ranks[previous].opNs[k] + kStageHopNs);
                step.opNs.push_back(ns);
                step.opStartNs.push_back(at);
                step.computingNs += ns;
                at += ns;
            }
            step.computeEndNs = at;
            latest = std::max(latest, step.computeEndNs);
        }
        // The ring allReduce ends together on every rank: after the last rank arrives and the
        // slowest link of the ring has carried its share.
        int64_t ringTransit = 0;
        for (int r = 0; r < n; ++r) ringTransit = std::max(ringTransit, RingLink(r).transitNs);
        const int64_t ringEnd = latest + ringTransit;
        int64_t end = 0;
        std::vector<int64_t> meshEndOfNode((n + m_o.ranksPerNode - 1) / m_o.ranksPerNode, 0);
        for (int r = 0; r < n; ++r) {
            int64_t slowest = 0;
            for (const Link& link : MeshLinks(r)) slowest = std::max(slowest, link.transitNs);
            meshEndOfNode[NodeOf(r)] = std::max(meshEndOfNode[NodeOf(r)], ringEnd + slowest);
        }
        for (int r = 0; r < n; ++r) {
            RankStep& step = ranks[r];
            step.ringStartNs = step.computeEndNs;
            step.ringWaitNs = latest - step.computeEndNs;
            step.ringTransitNs = RingLink(r).transitNs;
            step.ringElapseNs = ringEnd - step.computeEndNs;
            step.meshStartNs = ringEnd;
            step.meshElapseNs = meshEndOfNode[NodeOf(r)] - ringEnd;
            int64_t own = 0;
            for (const Link& link : MeshLinks(r)) own = std::max(own, link.transitNs);
            step.meshTransitNs = own;
            step.meshWaitNs = step.meshElapseNs - own;
            end = std::max(end, meshEndOfNode[NodeOf(r)]);
        }
        *periodNs = end + static_cast<int64_t>(kStepGapNs * Jitter(m_o.seed, 7, s, 0, 0.2));
        if ((s + 1) % 10 == 6)
            *periodNs += kDataStallNs;  // steps 6, 16, …: every rank waits for its data
        for (int r = 0; r < n; ++r) ranks[r].freeNs = *periodNs - meshEndOfNode[NodeOf(r)];
        return ranks;
    }

    const ClusterOptions& options() const { return m_o; }

private:
    // The 1F1B order of one stage: pp − stage − 1 forwards to fill the pipeline, then one
    // forward and one backward by turns, then the backwards left. Each entry: microbatch, and
    // true for a forward.
    std::vector<std::pair<uint32_t, bool>> OneFOneBOrder(uint32_t stage) const {
        const uint32_t m = m_o.microbatches;
        const uint32_t warmup = std::min(m_o.pp - stage - 1, m);
        std::vector<std::pair<uint32_t, bool>> order;
        for (uint32_t k = 0; k < warmup; ++k) order.emplace_back(k, true);
        for (uint32_t k = 0; k + warmup < m; ++k) {
            order.emplace_back(k + warmup, true);
            order.emplace_back(k, false);
        }
        for (uint32_t k = m - warmup; k < m; ++k) order.emplace_back(k, false);
        return order;
    }

    // One microbatch's forward (the first half of the step's operators) or backward (the second)
    // on rank 'r' from 'at'; returns where it ends.
    int64_t RunHalf(uint32_t s, int r, uint32_t microbatch, bool forward, int64_t at,
                    RankStep& step) const {
        const size_t operators = kLayerSize * std::max<uint32_t>(1, m_o.layers);
        const size_t half = operators / 2;
        const double factor = m_o.SlowRank(r) ? kSlowRankFactor : 1.0;
        for (size_t k = forward ? 0 : half; k < (forward ? half : operators); ++k) {
            const int64_t ns = static_cast<int64_t>(
                static_cast<double>(OperatorAt(k).baseNs) / m_o.layers * 3 / m_o.microbatches *
                factor * Jitter(m_o.seed, r, s, k + operators * microbatch, 0.004));
            step.opNs.push_back(ns);
            step.opStartNs.push_back(at);
            step.opIndex.push_back(static_cast<uint32_t>(k));
            step.computingNs += ns;
            at += ns;
        }
        return at;
    }

    // Step 's' of the pipeline whose first stage is rank 'first': every stage runs its 1F1B order;
    // a block waits in its receive for the send of the stage it needs, and a send does not hold
    // its stage up (it is posted and the stage goes on). O(stages × microbatches × operators).
    void ScheduleOneFOneB(uint32_t s, int first, std::vector<RankStep>& ranks) const {
        const uint32_t pp = m_o.pp;
        const int stride = static_cast<int>(m_o.tp * m_o.dp);
        std::vector<std::vector<std::pair<uint32_t, bool>>> orders(pp);
        std::vector<size_t> next(pp, 0);
        std::vector<int64_t> cursor(pp);
        // Per stage and microbatch: the index in p2p of its forward and backward send, or -1.
        std::vector<std::vector<int64_t>> forwardSend(pp), backwardSend(pp);
        for (uint32_t p = 0; p < pp; ++p) {
            orders[p] = OneFOneBOrder(p);
            const int r = first + static_cast<int>(p) * stride;
            cursor[p] = ranks[r].preparingNs = r == m_o.slowInputRank ? kSlowInputNs : 0;
            forwardSend[p].assign(m_o.microbatches, -1);
            backwardSend[p].assign(m_o.microbatches, -1);
        }
        for (bool progress = true; progress;) {
            progress = false;
            for (uint32_t p = 0; p < pp; ++p) {
                const int r = first + static_cast<int>(p) * stride;
                RankStep& step = ranks[r];
                while (next[p] < orders[p].size()) {
                    const auto [k, forward] = orders[p][next[p]];
                    // The stage it receives from: the one before for a forward, after for a
                    // backward; none at the pipeline's ends.
                    const int from = forward ? static_cast<int>(p) - 1 : static_cast<int>(p) + 1;
                    const bool receives = from >= 0 && from < static_cast<int>(pp);
                    const int64_t sent =
                        receives ? (forward ? forwardSend : backwardSend)[from][k] : -1;
                    if (receives && sent < 0) break;  // the data is not sent yet
                    int64_t at = cursor[p];
                    if (receives) {
                        P2pOp& send = ranks[first + from * stride].p2p[sent];
                        const int64_t arrives = std::max(at, send.startNs) + kStageHopNs;
                        send.ns = arrives - send.startNs;
                        step.p2p.push_back({false, first + from * stride, at, arrives - at});
                        at = arrives;
                    }
                    if (p == 0 && forward) at += m_o.microbatchStallNs;
                    at = RunHalf(s, r, k, forward, at, step);
                    const int to = forward ? static_cast<int>(p) + 1 : static_cast<int>(p) - 1;
                    if (to >= 0 && to < static_cast<int>(pp)) {
                        (forward ? forwardSend : backwardSend)[p][k] =
                            static_cast<int64_t>(step.p2p.size());
                        step.p2p.push_back({true, first + to * stride, at, kStageHopNs});
                    }
                    cursor[p] = at;
                    ++next[p];
                    progress = true;
                }
            }
        }
        for (uint32_t p = 0; p < pp; ++p) {
            RankStep& step = ranks[first + static_cast<int>(p) * stride];
            step.computeEndNs = cursor[p];
            for (const P2pOp& op : step.p2p)
                step.computeEndNs = std::max(step.computeEndNs, op.startNs + op.ns);
        }
    }

    const ClusterOptions& m_o;
};

class Output {
public:
    Output(const std::string& path, std::string* error, uint64_t* bytes)
        : m_path(path), m_error(error), m_bytes(bytes) {}
    std::string text;
    bool Close() {
        std::FILE* file = std::fopen(m_path.c_str(), "wb");
        if (!file || std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
            if (file) std::fclose(file);
            *m_error = m_path + ": cannot write";
            return false;
        }
        if (m_bytes) *m_bytes += text.size();
        return std::fclose(file) == 0;
    }

private:
    std::string m_path;
    std::string* m_error;
    uint64_t* m_bytes;
};

// profiler_metadata.json as torch_npu writes it: the job's rank count, and with a layout its
// sizes and this rank's groups (Megatron's rank order) under made-up group ids.
std::string ParallelMetadataText(const ClusterOptions& o, int rank) {
    std::string text = "{\"distributed_args\": {\"rank\": " + std::to_string(rank) +
                       ", \"world_size\": " + std::to_string(o.ranks);
    if (!o.HasLayout()) return text + "}}\n";
    const int tp = static_cast<int>(o.tp), dp = static_cast<int>(o.dp), pp = static_cast<int>(o.pp);
    text += ", \"tensor_model_parallel_size\": " + std::to_string(tp) +
            ", \"pipeline_model_parallel_size\": " + std::to_string(pp) +
            ", \"data_parallel_size\": " + std::to_string(dp) +
            ", \"context_parallel_size\": 1, \"expert_model_parallel_size\": 1}, "
            "\"parallel_group_info\": {";
    const int tpPlace = rank % tp, dpPlace = rank / tp % dp, ppPlace = rank / (tp * dp);
    const struct {
        const char* name;
        int first, stride, size;
    } groups[] = {
        {"default_group", 0, 1, static_cast<int>(o.ranks)},
        {"tp", rank - tpPlace, 1, tp},
        {"dp", rank - dpPlace * tp, tp, dp},
        {"pp", rank - ppPlace * tp * dp, tp * dp, pp},
    };
    for (size_t g = 0; g < std::size(groups); ++g) {
        const auto& group = groups[g];
        text += std::string(g ? ", " : "") + "\"10.0.0.1%eth0_60000_0_" + std::to_string(g) +
                "\": {\"group_name\": \"" + group.name +
                "\", \"group_rank\": " + std::to_string((rank - group.first) / group.stride) +
                ", \"global_ranks\": [";
        for (int k = 0; k < group.size; ++k)
            text += (k ? ", " : "") + std::to_string(group.first + k * group.stride);
        text += "]}";
    }
    return text + "}}\n";
}

// [SECTION] The files of a rank

std::string GroupHash(uint64_t seed, uint64_t group) {
    return std::to_string(Mix(seed * 131 + group) % 9000000000000000000ull +
                          1000000000000000000ull);
}

std::string TimeInfo(int64_t startNs, int64_t elapse, int64_t transit, int64_t wait) {
    const int64_t idle = std::max<int64_t>(0, elapse - transit - wait);
    const double ratio =
        wait + transit > 0 ? static_cast<double>(wait) / static_cast<double>(wait + transit) : 0.0;
    return "\"Communication Time Info\": {\"Start Timestamp(us)\": " + Micros(startNs) +
           ", \"Elapse Time(ms)\": " + Millis(elapse) +
           ", \"Transit Time(ms)\": " + Millis(transit) + ", \"Wait Time(ms)\": " + Millis(wait) +
           ", \"Synchronization Time(ms)\": " + Millis(wait) +
           ", \"Idle Time(ms)\": " + Millis(idle) + ", \"Wait Time Ratio\": " + Real(ratio) +
           ", \"Synchronization Time Ratio\": " + Real(ratio) + "}";
}

std::string BandwidthInfo(const std::vector<Link>& links) {
    static const char* const kTransports[] = {"RDMA", "HCCS", "PCIE", "SDMA", "SIO"};
    std::string out = "\"Communication Bandwidth Info\": {";
    for (size_t t = 0; t < 5; ++t) {
        double size = 0;
        int64_t time = 0;
        for (const Link& link : links)
            if (std::string(link.transport) == kTransports[t] ||
                (t == 3 && std::string(link.transport) == "HCCS"))
                size += link.sizeMb, time += link.transitNs;
        const double bandwidth = time > 0 ? size / (static_cast<double>(time) / 1e6) : 0;
        out +=
            std::string(t ? ", " : "") + "\"" + kTransports[t] +
            "\": {\"Transit Size(MB)\": " + Real(size) + ", \"Transit Time(ms)\": " + Millis(time) +
            ", \"Bandwidth(GB/s)\": " + Real(bandwidth) +
            ", \"Large Packet Ratio\": " + (size > 0 ? "1.0" : "0") + ", \"Size Distribution\": {" +
            (size > 0 ? "\"" + Real(links.front().sizeMb) + "\": [" + std::to_string(links.size()) +
                            ", " + Millis(time) + "]"
                      : "") +
            "}}";
    }
    return out + "}";
}

// A 1F1B send or receive as HCCL names it: its kind and the group of its two ranks.
std::string P2pName(const ClusterOptions& o, int rank, const P2pOp& op) {
    const std::string hash = GroupHash(o.seed, 2000000 + std::min(rank, op.peer));
    return std::string(op.send ? "hcom_send__" : "hcom_receive__") + hash.substr(hash.size() - 3) +
           "_0_1";
}

// A pipeline stage's activations: it receives from the stage before it when its first operator
// starts and sends to the stage after it when its last ends (hcom_receive / hcom_send, each pair
// under a group of its own two ranks), as communication.json's "p2p" operators.
std::string PipelineOperators(const ClusterOptions& o, int rank, int64_t stepStartNs,
                              const RankStep& step) {
    std::string text;
    for (size_t i = 0; i < step.p2p.size(); ++i) {
        const P2pOp& op = step.p2p[i];
        const std::string hash = GroupHash(o.seed, 2000000 + std::min(rank, op.peer));
        text += std::string(i ? ", " : "") + "\"" + P2pName(o, rank, op) + "_" + std::to_string(i) +
                "@" + hash + "\": {" +
                TimeInfo(stepStartNs + op.startNs, op.ns, kStageHopNs, op.ns - kStageHopNs) + ", " +
                BandwidthInfo({}) + "}";
    }
    if (!step.p2p.empty()) return text;
    const int previous = o.PreviousInPipeline(rank);
    int next = -1;
    for (int r = rank + 1; r < static_cast<int>(o.ranks) && next < 0; ++r)
        if (o.PreviousInPipeline(r) == rank) next = r;
    const std::pair<int, const char*> peers[] = {{previous, "hcom_receive__"},
                                                 {next, "hcom_send__"}};
    for (const auto& [peer, name] : peers) {
        if (peer < 0) continue;
        const int64_t at = peer == previous ? stepStartNs + step.opStartNs.front() - kStageHopNs
                                            : stepStartNs + step.computeEndNs;
        const std::string hash = GroupHash(o.seed, 2000000 + std::min(rank, peer));
        text += std::string(text.empty() ? "" : ", ") + "\"" + name + hash.substr(hash.size() - 3) +
                "_0_1@" + hash + "\": {" + TimeInfo(at, kStageHopNs, kStageHopNs, 0) + ", " +
                BandwidthInfo({}) + "}";
    }
    return text;
}

std::string MatrixLinks(int rank, const std::vector<Link>& links, const std::string& opName) {
    std::string out;
    for (size_t i = 0; i < links.size(); ++i) {
        const Link& link = links[i];
        out += std::string(i ? ", " : "") + "\"" + std::to_string(rank) + "-" +
               std::to_string(link.dst) + "\": {\"Transport Type\": \"" + link.transport +
               "\", \"Transit Size(MB)\": " + Real(link.sizeMb) +
               ", \"Transit Time(ms)\": " + Millis(link.transitNs) + ", \"Bandwidth(GB/s)\": " +
               Real(link.sizeMb / (static_cast<double>(link.transitNs) / 1e6)) +
               ", \"Op Name\": \"" + opName + "\"}";
    }
    return out;
}

// One step's computations and 1F1B transfers of 'rank' as kernel_details.csv rows and
// trace_view.json slices (through 'slice').
template <typename Slice>
void AppendStepOperators(const ClusterOptions& o, int rank, const std::string& number, int64_t t0,
                         const RankStep& step, std::string& kernels, const Slice& slice) {
    for (size_t k = 0; k < step.opNs.size(); ++k) {
        const int64_t at = t0 + step.opStartNs[k];
        const size_t index = step.opIndex.empty() ? k : step.opIndex[k];
        const std::string name = std::string(OperatorAt(index).type) + "_" + std::to_string(index);
        kernels += number + ",4294967295," + std::to_string(k) + ",2," + name + "," +
                   OperatorAt(index).type + ",dynamic,AI_CORE," + Micros(at) + "\t," +
                   Micros(step.opNs[k]) +
                   ",0,24,0,NO,\"\"\"32,1024;1024,1024\"\"\",FLOAT16;FLOAT16,ND;ND,"
                   "\"\"\"32,1024\"\"\",FLOAT16,ND\r\n";
        slice(2, name, at, step.opNs[k]);
    }
    for (const P2pOp& op : step.p2p) {
        const std::string name = P2pName(o, rank, op);
        kernels += number + ",4294967295,N/A,N/A," + name + "," +
                   (op.send ? "hcom_send_" : "hcom_receive_") + ",N/A,HCCL," +
                   Micros(t0 + op.startNs) + "\t," + Micros(op.ns) +
                   ",0,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n";
        slice(3, name, t0 + op.startNs, op.ns);
    }
}

// The files a planted cause needs beside the rank's own: MindSpore's data queues (a late input
// shows there too: every rank records them, the slow one input-bound), memory records, FLOPs.
bool WritePlantedFiles(const ClusterOptions& o, int rank, const std::string& out,
                       std::string* error) {
    if (o.slowInputRank >= 0 &&
        !WriteMindDataFiles(out, rank, o.steps, error, rank == o.slowInputRank))
        return false;
    if (o.memoryPeakRank >= 0 &&
        !WriteTextFile(out + "/memory_record.csv",
                       MemoryRecordText(o.steps, rank == o.memoryPeakRank ? 1.4 : 1.0), error))
        return false;
    return (!o.flopsFiles && o.heavyFlopsRank < 0 && o.heavyFlopsStage < 0) ||
           WriteFlopsFiles(out, rank, o.HeavyFlops(rank) ? kHeavyFlopsFactor : 1.0, error);
}

bool WriteRank(const Job& job, int rank, const std::vector<std::vector<RankStep>>& steps,
               const std::vector<int64_t>& starts, const std::string& dir, std::string* error,
               uint64_t* bytes) {
    const ClusterOptions& o = job.options();
    const std::string rankDir = dir + "/rank_" + std::to_string(rank) + "_ascend_pt";
    const std::string out = rankDir + "/ASCEND_PROFILER_OUTPUT";
    mkdir(rankDir.c_str(), 0755);
    mkdir(out.c_str(), 0755);
    const std::string ringHash = GroupHash(o.seed, 1000000),
                      meshHash = GroupHash(o.seed, job.NodeOf(rank));
    const std::string ringName = "hcom_allReduce__" + ringHash.substr(ringHash.size() - 3) + "_0_1";
    const std::string meshName = "hcom_allGather__" + meshHash.substr(meshHash.size() - 3) + "_1_1";
    const Link ring = job.RingLink(rank);
    const std::vector<Link> mesh = job.MeshLinks(rank);

    Output info(rankDir + "/profiler_info_" + std::to_string(rank) + ".json", error, bytes);
    info.text =
        "{\"config\": {\"common_config\": {\"record_shapes\": true}, \"experimental_config\": "
        "{\"_profiler_level\": "
        "\"Level1\", \"_export_type\": \"text\"}}, \"rank_id\": " +
        std::to_string(rank) + "}\n";
    // torch_npu writes the job's shape beside it; the rank count tells a missing rank from a stray
    // id.
    Output metadata(rankDir + "/profiler_metadata.json", error, bytes);
    metadata.text = ParallelMetadataText(o, rank);

    Output stepTrace(out + "/step_trace_time.csv", error, bytes);
    stepTrace.text =
        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
        "Communication(Not Overlapped and Exclude Receive),Preparing\n";
    Output comm(out + "/communication.json", error, bytes);
    Output matrix(out + "/communication_matrix.json", error, bytes);
    Output kernels(out + "/kernel_details.csv", error, bytes);
    // The Level1 columns as torch_npu writes them: the start time ends with a tab, shapes are
    // quoted.
    kernels.text =
        "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start "
        "Time(us),Duration(us),"
        "Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input "
        "Formats,"
        "Output Shapes,Output Data Types,Output Formats\r\n";
    Output trace(out + "/trace_view.json", error, bytes);
    trace.text =
        "[{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": "
        "\"Python\"}},\n"
        "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 2, \"tid\": 0, \"args\": {\"name\": "
        "\"Ascend Hardware\"}},\n"
        "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 3, \"tid\": 0, \"args\": {\"name\": "
        "\"HCCL\"}}";
    comm.text = "{";
    matrix.text = "{";
    auto slice = [&](int pid, const std::string& name, int64_t start, int64_t dur) {
        trace.text +=
            ",\n{\"name\": \"" + name + "\", \"ph\": \"X\", \"pid\": " + std::to_string(pid) +
            ", \"tid\": 0, \"ts\": \"" + Micros(start) + "\", \"dur\": " + Micros(dur) + "}";
    };
    for (uint32_t s = 0; s < o.steps; ++s) {
        const RankStep& step = steps[s][rank];
        const int64_t t0 = starts[s];
        const std::string number = std::to_string(s + 1);
        // The gaps between a pipeline stage's computations: its waits in Receive, which the
        // profiler counts as Bubble and inside Communication(Not Overlapped), never as Free
        // (torch_npu's step_trace_time; Exclude Receive takes them out again, and Stage is the
        // step less them); the rest of a gap (a 1F1B stage stalled on its own) is free.
        const int64_t gaps = step.computeEndNs - step.preparingNs - step.computingNs;
        int64_t bubble = gaps;
        if (!step.p2p.empty()) {
            bubble = 0;
            for (const P2pOp& op : step.p2p)
                if (!op.send) bubble += op.ns;
            bubble = std::min(bubble, gaps);
        }
        const int64_t notOverlapped = step.ringElapseNs + step.meshElapseNs + bubble;
        const int64_t free = step.freeNs + gaps - bubble;
        const int64_t wall = step.computingNs + notOverlapped + free;
        stepTrace.text += number + "," + Micros(step.computingNs) + "," + Micros(notOverlapped) +
                          ",0," + Micros(notOverlapped) + "," + Micros(free) + "," +
                          Micros(wall - bubble) + "," + Micros(bubble) + "," +
                          Micros(notOverlapped - bubble) + "," + Micros(step.preparingNs) + "\n";
        // The host's step begins before the time it waits for its data.
        slice(1, "ProfilerStep#" + number, t0, wall + step.preparingNs);
        AppendStepOperators(o, rank, number, t0, step, kernels.text, slice);
        kernels.text += number + ",4294967295,N/A,N/A," + ringName + ",hcom_allReduce_,N/A,HCCL," +
                        Micros(t0 + step.ringStartNs) + "\t," + Micros(step.ringElapseNs) +
                        ",0,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n";
        kernels.text += number + ",4294967295,N/A,N/A," + meshName + ",hcom_allGather_,N/A,HCCL," +
                        Micros(t0 + step.meshStartNs) + "\t," + Micros(step.meshElapseNs) +
                        ",0,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n";
        slice(3, ringName, t0 + step.ringStartNs, step.ringElapseNs);
        slice(3, meshName, t0 + step.meshStartNs, step.meshElapseNs);
        comm.text += std::string(s ? ",\n" : "\n") + "\"step" + number + "\": {\"p2p\": {" +
                     PipelineOperators(o, rank, t0, step) + "}, \"collective\": {\"" + ringName +
                     "@" + ringHash + "\": {" +
                     TimeInfo(t0 + step.ringStartNs, step.ringElapseNs, step.ringTransitNs,
                              step.ringWaitNs) +
                     ", " + BandwidthInfo({ring}) + "}, \"" + meshName + "@" + meshHash + "\": {" +
                     TimeInfo(t0 + step.meshStartNs, step.meshElapseNs, step.meshTransitNs,
                              step.meshWaitNs) +
                     ", " + BandwidthInfo(mesh) + "}}}";
        matrix.text += std::string(s ? ",\n" : "\n") + "\"step" + number +
                       "\": {\"p2p\": {}, \"collective\": {\"allreduce-middle@" + ringHash +
                       "\": {" + MatrixLinks(rank, {ring}, ringName) + "}, \"allgather-middle@" +
                       meshHash + "\": {" + MatrixLinks(rank, mesh, meshName) + "}}}";
    }
    comm.text += "}\n";
    matrix.text += "}\n";
    trace.text += "\n]\n";
    const bool written = info.Close() && metadata.Close() && stepTrace.Close() && comm.Close() &&
                         matrix.Close() && kernels.Close() && trace.Close();
    return written && WritePlantedFiles(o, rank, out, error);
}

}  // namespace

bool WriteCluster(const ClusterOptions& options, const std::string& dir, std::string* error,
                  uint64_t* bytes) {
    if (options.ranks == 0 || options.steps == 0 || options.ranksPerNode == 0) {
        *error = "a cluster needs at least one rank, one step and one rank per node";
        return false;
    }
    mkdir(dir.c_str(), 0755);
    const Job job(options);
    std::vector<std::vector<RankStep>> steps(options.steps);
    std::vector<int64_t> starts(options.steps);
    int64_t start = kFirstStepNs;
    for (uint32_t s = 0; s < options.steps; ++s) {
        int64_t period = 0;
        steps[s] = job.Step(s, &period);
        starts[s] = start;
        start += period;
    }
    for (uint32_t r = 0; r < options.ranks; ++r)
        if (!WriteRank(job, static_cast<int>(r), steps, starts, dir, error, bytes)) return false;
    return true;
}

}  // namespace marey
