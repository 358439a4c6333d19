#include "KinetoTraceGenerator.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include "GeneratorRandom.hpp"
#include "KinetoWriter.hpp"

namespace marey {

// [SECTION] Figures

double KinetoStreamFigures::QueueMean() const {
    return queueWindowNs > 0 ? static_cast<double>(queueAreaNs) / queueWindowNs : 0.0;
}

std::optional<double> KinetoFigures::OverlapPct() const {
    if (communicationNs == 0) return std::nullopt;
    return 100.0 * static_cast<double>(overlappedCommunicationNs) / communicationNs;
}

namespace {

constexpr int64_t kComputeStream = 7;
constexpr int64_t kCommStream = 20;
constexpr int64_t kBaseNs = 1712195495500000000ll;  // the first step's start, rank 0
constexpr uint64_t kFirstStep = 1;                  // "ProfilerStep#1"
constexpr uint64_t kDefaultShortKernels = 16;       // per step, when nothing sizes them
constexpr uint64_t kEventsPerShortKernel = 5;       // cpu_op, launch, kernel and the two flows
constexpr uint64_t kFixedEventsPerStep = 90;        // the rest of a step
constexpr uint64_t kMetadataEvents = 12;            // names and sort indices, after the steps

// The queue depths the plan reaches (see WriteComputeBurst and WriteCommunication): on the
// compute stream the first GEMM runs while five more kernels are launched behind it; on the
// communication stream the first all-reduce runs while a copy and the second all-reduce are
// launched behind it.
constexpr uint64_t kComputeQueueMax = 6;
constexpr uint64_t kCommQueueMax = 3;

// cbid of the CUDA runtime calls, as CUPTI numbers them.
constexpr int kCbidMemcpyAsync = 41;
constexpr int kCbidMemsetAsync = 51;
constexpr int kCbidStreamSynchronize = 131;
constexpr int kCbidStreamWaitEvent = 147;
constexpr int kCbidLaunchKernel = 211;
constexpr int kCbidGraphLaunch = 311;

constexpr std::string_view kNcclKernel =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

// A device activity's names: the cpu_op that launches it, its own, and for a kernel its launch
// configuration.
struct KernelKind {
    std::string_view op;
    std::string_view name;
    std::string_view config;  // the args after "correlation"
};

constexpr std::string_view kGemmConfig =
    "\"registers per thread\": 168, \"shared memory\": 213248, \"blocks per SM\": 0.969697, "
    "\"warps per SM\": 11.636364, \"grid\": [128, 1, 1], \"block\": [384, 1, 1], \"est. achieved "
    "occupancy %\": 19";
constexpr std::string_view kElementwiseConfig =
    "\"registers per thread\": 20, \"shared memory\": 0, \"blocks per SM\": 7.757576, "
    "\"warps per SM\": 31.030303, \"grid\": [1024, 1, 1], \"block\": [128, 1, 1], \"est. "
    "achieved occupancy %\": 48";

constexpr KernelKind kFirstGemm = {
    "aten::mm",
    "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
    "segment_k_off_kernel__5x_cublas",
    kGemmConfig};
constexpr std::array<KernelKind, 4> kQueuedKernels = {{
    {"aten::add",
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)",
     kElementwiseConfig},
    {"aten::native_layer_norm",
     "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, "
     "float, float const*, float const*, float const*, float*, float*, float*)",
     kElementwiseConfig},
    {"aten::_softmax",
     "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
     "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
     kElementwiseConfig},
    {"aten::addmm",
     "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_"
     "k_off_kernel__5x_cublas",
     kGemmConfig},
}};
constexpr KernelKind kConvolution = {
    "aten::cudnn_convolution",
    "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
    "warpgroupsize1x1x1_g1_execute_kernel__5x_cudnn",
    kGemmConfig};
constexpr KernelKind kWaitingGemm = {
    "aten::mm",
    "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
    "segment_k_off_kernel__5x_cublas",
    kGemmConfig};
constexpr std::array<std::string_view, 3> kGraphKernels = {"triton_poi_fused_add_mul_0",
                                                           "triton_red_fused_native_layer_norm_1",
                                                           "triton_poi_fused_gelu_2"};
constexpr std::array<KernelKind, 4> kShortKernels = {{
    {"aten::add_",
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)",
     kElementwiseConfig},
    {"aten::mul_",
     "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, "
     "float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, "
     "at::native::AUnaryFunctor<float, float, float, "
     "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)",
     kElementwiseConfig},
    {"aten::fill_",
     "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, "
     "1>)",
     kElementwiseConfig},
    {"aten::copy_",
     "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda("
     "at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda(float)#1}, "
     "at::detail::Array<char*, 2> >(int, at::detail::Array<char*, 2>)",
     kElementwiseConfig},
}};

// [SECTION] The plan's pieces

enum class DeviceKind { kKernel, kNcclKernel, kMemcpy, kMemset };

// A host call that launches device work, and the slices around it on the host thread.
struct Launch {
    int64_t startNs = 0, endNs = 0;  // the runtime call: its duration is the launch's CPU time
    int64_t hostBeginNs = 0, hostEndNs = 0;  // the outermost host slice written for it
    uint64_t correlation = 0;
    uint64_t waitCorrelation = 0;  // of the cudaStreamWaitEvent before it, 0 without
    uint64_t externalId = 0;       // of the cpu_op, its call and the activities
    uint64_t annotationId = 0;     // of the user_annotation around the cpu_op, 0 without
};

// What a host call is: a cpu_op (inside a user_annotation when one is named) holding the call,
// after a cudaStreamWaitEvent when asked. With 'callAtNs' the call starts there (the host idles
// until then); else the host goes on from where it is.
struct HostCall {
    std::string_view op;
    std::string_view call;
    int cbid = 0;
    int64_t cpuNs = 0;
    std::string_view annotation = {};
    bool waitEvent = false;
    int64_t callAtNs = 0;
};

// A device stream as the plan fills it, in start order.
struct StreamState {
    int64_t tid = 0;
    size_t index = 0;  // in KinetoFigures::streams
    bool anyActivity = false, stepActivity = false;
    int64_t lastEndNs = 0;
    int64_t rankFirstLaunchNs = 0, stepFirstLaunchNs = 0;
};

void AddGap(KinetoGaps& gaps, int64_t ns) {
    gaps.minNs = gaps.count == 0 ? ns : std::min(gaps.minNs, ns);
    gaps.maxNs = std::max(gaps.maxNs, ns);
    gaps.ns += ns;
    ++gaps.count;
}

// [SECTION] The generator

class KinetoGenerator {
public:
    KinetoGenerator(const KinetoTraceOptions& options, std::FILE* out)
        : m_options(options), m_random(options.seed ^ 0xC0DA5ull), m_writer(out, m_result.report) {
        m_worldSize = std::max(options.worldSize, options.rank + 1);
        m_device = options.rank % 8;
        m_hostPid = 2910249 + 13 * static_cast<int64_t>(options.rank);
        m_hostNs = kBaseNs + 1373 * static_cast<int64_t>(options.rank);
        m_compute.tid = kComputeStream;
        m_compute.index = 0;
        m_comm.tid = kCommStream;
        m_comm.index = 1;
        m_result.report.firstNs = INT64_MAX;
        m_result.report.lastNs = INT64_MIN;
        m_result.expected.rank = options.rank;
        m_result.expected.device = m_device;
        m_result.expected.total = EmptyFigures();
        std::string ranks;
        for (uint32_t r = 0; r < m_worldSize; ++r) ranks += (r ? ", " : "") + std::to_string(r);
        m_ranksList = ranks;
        m_ncclConfig =
            "\"registers per thread\": 96, \"shared memory\": 87568, \"blocks per SM\": "
            "0.121212, \"warps per SM\": 2.060606, \"grid\": [16, 1, 1], \"block\": [544, 1, 1], "
            "\"est. achieved occupancy %\": 0, \"Collective name\": \"allreduce\", \"In msg "
            "nelems\": 6637568, \"Out msg nelems\": 6637568, \"Group size\": " +
            std::to_string(m_worldSize) +
            ", \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": \"[]\", "
            "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
            "\"Process Group Ranks\": \"[" +
            ranks + "]\"";
    }

    KinetoTraceResult Run() {
        uint64_t shortKernels = kDefaultShortKernels;
        if (m_options.steps && m_options.events) {
            const uint64_t perStep =
                (std::max(m_options.events, kMetadataEvents) - kMetadataEvents) / m_options.steps;
            shortKernels = perStep > kFixedEventsPerStep + kEventsPerShortKernel
                               ? (perStep - kFixedEventsPerStep) / kEventsPerShortKernel
                               : 1;
        }
        WriteHeader();
        const int64_t profilerStartNs = m_hostNs;
        for (uint64_t n = 0; m_options.steps ? n < m_options.steps
                                             : n == 0 || m_result.report.events < m_options.events;
             ++n)
            WriteStep(kFirstStep + n, shortKernels);
        WriteMetadata(profilerStartNs);
        WriteTrailer();
        FinishFigures(m_result.expected.total, m_compute.rankFirstLaunchNs,
                      m_comm.rankFirstLaunchNs);
        m_writer.Finish();
        return std::move(m_result);
    }

private:
    int64_t Draw(int64_t low, int64_t high) { return m_random.Between(low, high); }

    // [SECTION] Events

    void BeginComplete(std::string_view category, std::string_view name, int64_t pid, int64_t tid,
                       int64_t startNs, int64_t durNs) {
        m_writer.BeginEvent('X');
        ++m_result.report.slices;
        m_writer.Text("\"ph\": \"X\", \"cat\": \"");
        m_writer.Text(category);
        m_writer.Text("\", \"name\": \"");
        m_writer.Text(name);
        m_writer.Text("\", \"pid\": ");
        m_writer.Int(pid);
        m_writer.Text(", \"tid\": ");
        m_writer.Int(tid);
        m_writer.Text(", \"ts\": ");
        m_writer.Micros(startNs);
        m_writer.Text(", \"dur\": ");
        m_writer.Micros(durNs);
        m_writer.Text(", \"args\": {\"External id\": ");
    }

    // A host slice (cpu_op, user_annotation) with the profiler's record ids.
    void HostSlice(std::string_view category, std::string_view name, int64_t startNs, int64_t endNs,
                   uint64_t externalId) {
        BeginComplete(category, name, m_hostPid, m_hostPid, startNs, endNs - startNs);
        m_writer.Int(externalId);
        m_writer.Text(", \"Record function id\": ");
        m_writer.Int(externalId);
        m_writer.Text(", \"Ev Idx\": ");
        m_writer.Int(m_eventIndex++);
        m_writer.Text("}");
        m_writer.EndEvent(startNs, endNs);
    }

    void RuntimeCall(std::string_view name, int cbid, int64_t startNs, int64_t endNs,
                     uint64_t externalId, uint64_t correlation) {
        BeginComplete("cuda_runtime", name, m_hostPid, m_hostPid, startNs, endNs - startNs);
        m_writer.Int(externalId);
        m_writer.Text(", \"cbid\": ");
        m_writer.Int(cbid);
        m_writer.Text(", \"correlation\": ");
        m_writer.Int(correlation);
        m_writer.Text("}");
        m_writer.EndEvent(startNs, endNs);
    }

    // The ac2g arrow's ends: 's' on the launch, 'f' bound to the device activity.
    void FlowEnd(char phase, uint64_t correlation, int64_t pid, int64_t tid, int64_t tsNs) {
        m_writer.BeginEvent(phase);
        m_writer.Text(phase == 's' ? "\"ph\": \"s\", \"id\": " : "\"ph\": \"f\", \"id\": ");
        m_writer.Int(correlation);
        m_writer.Text(", \"pid\": ");
        m_writer.Int(pid);
        m_writer.Text(", \"tid\": ");
        m_writer.Int(tid);
        m_writer.Text(", \"ts\": ");
        m_writer.Micros(tsNs);
        m_writer.Text(phase == 's' ? ", \"cat\": \"ac2g\", \"name\": \"ac2g\""
                                   : ", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"");
        m_writer.EndEvent(tsNs, tsNs);
        if (phase == 'f') ++m_result.report.flowArrows;
    }

    // A device event that is no activity: a GPU user annotation or a cuda_sync record.
    void DeviceMarker(std::string_view category, std::string_view name, int64_t tid,
                      int64_t startNs, int64_t endNs, uint64_t externalId, std::string_view args) {
        BeginComplete(category, name, m_device, tid, startNs, endNs - startNs);
        m_writer.Int(externalId);
        m_writer.Text(args);
        m_writer.Text("}");
        m_writer.EndEvent(startNs, endNs);
    }

    void DeviceEvent(DeviceKind kind, std::string_view name, std::string_view config, int64_t tid,
                     int64_t startNs, int64_t durNs, const Launch& launch) {
        const bool memory = kind == DeviceKind::kMemcpy || kind == DeviceKind::kMemset;
        BeginComplete(kind == DeviceKind::kMemcpy   ? "gpu_memcpy"
                      : kind == DeviceKind::kMemset ? "gpu_memset"
                                                    : "kernel",
                      name, m_device, tid, startNs, durNs);
        m_writer.Int(launch.externalId);
        m_writer.Text(memory ? ", \"device\": " : ", \"queued\": 0, \"device\": ");
        m_writer.Int(m_device);
        m_writer.Text(", \"context\": 1, \"stream\": ");
        m_writer.Int(tid);
        m_writer.Text(", \"correlation\": ");
        m_writer.Int(launch.correlation);
        if (memory) {
            const int64_t bytes = kind == DeviceKind::kMemcpy ? 4194304 : 6291456;
            char text[96];
            std::snprintf(text, sizeof text, ", \"bytes\": %lld, \"memory bandwidth (GB/s)\": %.6f",
                          static_cast<long long>(bytes), static_cast<double>(bytes) / durNs);
            m_writer.Text(text);
        } else {
            m_writer.Text(", ");
            m_writer.Text(config);
        }
        m_writer.Text("}");
        m_writer.EndEvent(startNs, startNs + durNs);
        FlowEnd('f', launch.correlation, m_device, tid, startNs);
    }

    // The host side of a launch: writes the slices and the flow's start, moves the host on.
    Launch HostLaunch(const HostCall& call) {
        const int64_t annotationPre = call.annotation.empty() ? 0 : Draw(1000, 2000);
        const int64_t opPre = Draw(2000, 4000);
        const int64_t waitNs = call.waitEvent ? Draw(1500, 3000) : 0;
        const int64_t waitGap = call.waitEvent ? Draw(300, 800) : 0;
        const int64_t before = annotationPre + opPre + waitNs + waitGap;
        Launch launch;
        launch.hostBeginNs = std::max(m_hostNs, call.callAtNs - before);
        const int64_t opStart = launch.hostBeginNs + annotationPre;
        launch.annotationId = call.annotation.empty() ? 0 : m_nextExternalId++;
        launch.externalId = m_nextExternalId++;
        if (call.waitEvent) {
            launch.waitCorrelation = m_nextCorrelation++;
            RuntimeCall("cudaStreamWaitEvent", kCbidStreamWaitEvent, opStart + opPre,
                        opStart + opPre + waitNs, launch.externalId, launch.waitCorrelation);
        }
        launch.correlation = m_nextCorrelation++;
        launch.startNs = opStart + opPre + waitNs + waitGap;
        launch.endNs = launch.startNs + call.cpuNs;
        RuntimeCall(call.call, call.cbid, launch.startNs, launch.endNs, launch.externalId,
                    launch.correlation);
        FlowEnd('s', launch.correlation, m_hostPid, m_hostPid, launch.startNs);
        const int64_t opEnd = launch.endNs + Draw(1000, 3000);
        HostSlice("cpu_op", call.op, opStart, opEnd, launch.externalId);
        launch.hostEndNs = opEnd;
        if (!call.annotation.empty()) {
            launch.hostEndNs = opEnd + Draw(500, 1500);
            HostSlice("user_annotation", call.annotation, launch.hostBeginNs, launch.hostEndNs,
                      launch.annotationId);
        }
        m_hostNs = launch.hostEndNs + Draw(1000, 3000);
        return launch;
    }

    // [SECTION] Expected figures, summed as the plan is placed

    KinetoFigures EmptyFigures() const {
        KinetoFigures figures;
        for (const StreamState* stream : {&m_compute, &m_comm}) {
            KinetoStreamFigures s;
            s.device = m_device;
            s.stream = stream->tid;
            s.name = "stream " + std::to_string(stream->tid);
            s.queueMax = stream->tid == kComputeStream ? kComputeQueueMax : kCommQueueMax;
            figures.streams.push_back(s);
        }
        return figures;
    }

    // Applies 'change' to the step's figures and the rank's.
    template <typename Change>
    void Both(Change&& change) {
        change(m_step);
        change(m_result.expected.total);
    }
    void AddSet(unsigned set, int64_t ns) {
        Both([&](KinetoFigures& f) { f.classSetNs[set] += ns; });
    }
    void AddCompute(int64_t ns) {
        Both([&](KinetoFigures& f) { f.computeNs += ns; });
    }
    void AddCommunication(int64_t ns, int64_t overlappedNs) {
        Both([&](KinetoFigures& f) {
            f.communicationNs += ns;
            f.overlappedCommunicationNs += overlappedNs;
        });
    }
    // Time in the step when no stream runs.
    void AddIdle(int64_t ns) {
        Both([&](KinetoFigures& f) { f.idleNs += ns; });
    }

    // The stream's gap before the activity, its launch and its share of the queue.
    void Account(StreamState& stream, int64_t startNs, int64_t endNs, const Launch& launch) {
        const int64_t gapNs = startNs - stream.lastEndNs;
        if (stream.anyActivity && gapNs > 0) {
            KinetoGaps KinetoStreamFigures::*kind = &KinetoStreamFigures::other;
            if (launch.startNs > stream.lastEndNs)
                kind = &KinetoStreamFigures::hostWait;
            else if (gapNs < kKinetoIdleThresholdNs)
                kind = &KinetoStreamFigures::kernelWait;
            AddGap(m_result.expected.total.streams[stream.index].*kind, gapNs);
            if (stream.stepActivity) AddGap(m_step.streams[stream.index].*kind, gapNs);
        }
        if (!stream.anyActivity) stream.rankFirstLaunchNs = launch.startNs;
        if (!stream.stepActivity) stream.stepFirstLaunchNs = launch.startNs;
        stream.rankFirstLaunchNs = std::min(stream.rankFirstLaunchNs, launch.startNs);
        stream.stepFirstLaunchNs = std::min(stream.stepFirstLaunchNs, launch.startNs);
        stream.anyActivity = stream.stepActivity = true;
        stream.lastEndNs = std::max(stream.lastEndNs, endNs);
        const int64_t cpuNs = launch.endNs - launch.startNs;
        const int64_t gpuNs = endNs - startNs;
        const int64_t delayNs = std::max<int64_t>(0, startNs - launch.endNs);
        Both([&](KinetoFigures& f) {
            ++f.launches;
            f.shortKernels += gpuNs < cpuNs && cpuNs <= kKinetoRuntimeCutoffNs;
            f.runtimeOutliers += cpuNs > kKinetoRuntimeCutoffNs;
            f.launchDelayOutliers += delayNs > kKinetoDelayCutoffNs;
            f.streams[stream.index].queueAreaNs += endNs - launch.startNs;
            if (f.firstStartNs == 0 || startNs < f.firstStartNs) f.firstStartNs = startNs;
            f.lastEndNs = std::max(f.lastEndNs, endNs);
        });
    }

    // A device activity: its event, its flow's end and its figures. Activities of a stream are
    // placed in start order.
    void Place(StreamState& stream, DeviceKind kind, const KernelKind& kernel, int64_t startNs,
               int64_t durNs, const Launch& launch) {
        const std::string_view config =
            kind == DeviceKind::kNcclKernel ? m_ncclConfig : kernel.config;
        DeviceEvent(kind, kernel.name, config, stream.tid, startNs, durNs, launch);
        Account(stream, startNs, startNs + durNs, launch);
    }

    // Span, busy and the queue windows, once every activity is placed.
    void FinishFigures(KinetoFigures& f, int64_t computeFirstLaunchNs,
                       int64_t commFirstLaunchNs) const {
        f.spanNs = f.lastEndNs - f.firstStartNs;
        f.busyNs = 0;
        for (int64_t ns : f.classSetNs) f.busyNs += ns;
        f.nonComputeNs = f.busyNs - f.computeNs;
        f.streams[0].queueWindowNs = m_compute.lastEndNs - computeFirstLaunchNs;
        f.streams[1].queueWindowNs = m_comm.lastEndNs - commFirstLaunchNs;
    }

    // [SECTION] A step

    // Memory alone: a host-to-device copy, then a set launched while the copy runs (a kernel
    // wait), shorter than its call (a short kernel). Returns the set's end.
    int64_t WriteCopies() {
        const Launch copy =
            HostLaunch({"aten::copy_", "cudaMemcpyAsync", kCbidMemcpyAsync, Draw(12000, 16000)});
        const int64_t copyStart = copy.endNs + Draw(4000, 8000);
        const int64_t copyNs = Draw(40000, 60000);
        Place(m_compute, DeviceKind::kMemcpy, {"", "Memcpy HtoD (Pinned -> Device)", ""}, copyStart,
              copyNs, copy);
        // The host is at most 10 µs past the copy's call: the set is queued behind the copy.
        const Launch set =
            HostLaunch({"aten::zero_", "cudaMemsetAsync", kCbidMemsetAsync, Draw(8000, 10000)});
        const int64_t setStart = copyStart + copyNs + Draw(1000, 4000);
        const int64_t setNs = Draw(2000, 5000);
        Place(m_compute, DeviceKind::kMemset, {"", "Memset (Device)", ""}, setStart, setNs, set);
        AddIdle(setStart - (copyStart + copyNs));
        AddSet(kKinetoMemory, copyNs + setNs);
        return setStart + setNs;
    }

    struct Burst {
        int64_t convolutionStartNs, convolutionEndNs;
    };

    // Computation alone, with a queue: the host works on its own past the set's end (the first
    // GEMM waits for the host), launches the GEMM, then while it runs (≥ 400 µs) five more
    // kernels (≤ 180 µs of host time): the queue reaches 6, the five start late (delays over
    // 100 µs), one call takes over 50 µs, and each starts 1 to 3 µs after the last (kernel
    // waits). The last is a long convolution that the communication overlaps.
    Burst WriteComputeBurst(int64_t setEndNs) {
        const int64_t callAt = setEndNs + Draw(15000, 25000);
        if (callAt - 8000 > m_hostNs + 1000)
            HostSlice("user_annotation", "Optimizer.zero_grad#SGD.zero_grad", m_hostNs,
                      callAt - 8000, m_nextExternalId++);
        const uint64_t forwardId = m_nextExternalId++;
        const Launch first = HostLaunch({kFirstGemm.op,
                                         "cudaLaunchKernel",
                                         kCbidLaunchKernel,
                                         Draw(6000, 9000),
                                         {},
                                         false,
                                         callAt});
        std::array<Launch, 5> queued;
        for (size_t i = 0; i < queued.size(); ++i) {
            const int64_t cpuNs = i == 1 ? Draw(60000, 80000) : Draw(6000, 9000);
            queued[i] = HostLaunch({i < 4 ? kQueuedKernels[i].op : kConvolution.op,
                                    "cudaLaunchKernel", kCbidLaunchKernel, cpuNs});
        }
        const int64_t firstStart = first.endNs + Draw(4000, 6000);
        const int64_t firstNs = Draw(400000, 450000);
        Place(m_compute, DeviceKind::kKernel, kFirstGemm, firstStart, firstNs, first);
        AddIdle(firstStart - setEndNs);
        AddSet(kKinetoComputation, firstNs);
        AddCompute(firstNs);
        int64_t end = firstStart + firstNs;
        for (size_t i = 0; i < 4; ++i) {
            const int64_t start = end + Draw(1000, 3000);
            const int64_t durNs = Draw(30000, 60000);
            Place(m_compute, DeviceKind::kKernel, kQueuedKernels[i], start, durNs, queued[i]);
            AddIdle(start - end);
            AddSet(kKinetoComputation, durNs);
            AddCompute(durNs);
            end = start + durNs;
        }
        Burst burst;
        burst.convolutionStartNs = end + Draw(1000, 3000);
        const int64_t convolutionNs = Draw(600000, 700000);  // drawn either way: same seeds
        const std::vector<uint64_t>& slow = m_options.slowKernelSteps;
        burst.convolutionEndNs =
            burst.convolutionStartNs +
            (std::find(slow.begin(), slow.end(), m_stepNumber) != slow.end() ? kSlowKernelNs
                                                                             : convolutionNs);
        Place(m_compute, DeviceKind::kKernel, kConvolution, burst.convolutionStartNs,
              burst.convolutionEndNs - burst.convolutionStartNs, queued[4]);
        AddIdle(burst.convolutionStartNs - end);
        AddCompute(burst.convolutionEndNs - burst.convolutionStartNs);
        // The forward pass, on the host and as Kineto mirrors it on the stream.
        HostSlice("user_annotation", "DistributedDataParallel.forward", first.hostBeginNs - 1000,
                  queued[4].hostEndNs + 500, forwardId);
        DeviceMarker("gpu_user_annotation", "DistributedDataParallel.forward", kComputeStream,
                     firstStart, burst.convolutionEndNs, forwardId, "");
        return burst;
    }

    struct Waiting {
        int64_t gemmStartNs, gemmEndNs, allReduceEndNs;
    };

    // Communication with the convolution: the first all-reduce (150 to 200 µs) and a copy on the
    // communication stream run inside the convolution (≥ 600 µs). While the all-reduce runs, the
    // host launches the copy (a kernel wait), a GEMM that waits for the second all-reduce, and
    // that all-reduce, which waits for the convolution: the queue on the stream reaches 3. The
    // second all-reduce starts 35 to 45 µs after the convolution (an 'other' gap on its stream)
    // and runs alone; the GEMM starts 40 to 60 µs after it (an 'other' gap on the compute
    // stream, where a Stream Wait Event record lies).
    Waiting WriteCommunication(const Burst& burst) {
        const int64_t delayNs = Draw(4000, 7000), cpuNs = Draw(8000, 12000);
        const int64_t plannedStart = burst.convolutionStartNs + Draw(40000, 60000);
        const Launch first =
            HostLaunch({"record_param_comms", "cudaLaunchKernel", kCbidLaunchKernel, cpuNs,
                        "nccl:all_reduce", false, plannedStart - delayNs - cpuNs});
        const int64_t firstStart = first.endNs + delayNs;
        const int64_t firstNs = Draw(150000, 200000);
        const KernelKind nccl = {"", kNcclKernel, ""};
        Place(m_comm, DeviceKind::kNcclKernel, nccl, firstStart, firstNs, first);
        DeviceMarker("gpu_user_annotation", "nccl:all_reduce", kCommStream, firstStart,
                     firstStart + firstNs, first.annotationId, "");
        const Launch copy =
            HostLaunch({"aten::copy_", "cudaMemcpyAsync", kCbidMemcpyAsync, Draw(10000, 14000)});
        const Launch gemm = HostLaunch(
            {kWaitingGemm.op, "cudaLaunchKernel", kCbidLaunchKernel, Draw(6000, 9000), {}, true});
        const Launch second =
            HostLaunch({"record_param_comms", "cudaLaunchKernel", kCbidLaunchKernel,
                        Draw(8000, 12000), "nccl:all_reduce", true});
        const int64_t copyStart = firstStart + firstNs + Draw(1000, 3000);
        const int64_t copyNs = Draw(20000, 30000);
        Place(m_comm, DeviceKind::kMemcpy, {"", "Memcpy DtoD (Device -> Device)", ""}, copyStart,
              copyNs, copy);
        const int64_t convolutionNs = burst.convolutionEndNs - burst.convolutionStartNs;
        AddSet(kKinetoComputation | kKinetoCommunication, firstNs);
        AddSet(kKinetoComputation | kKinetoMemory, copyNs);
        AddSet(kKinetoComputation, convolutionNs - firstNs - copyNs);
        AddCommunication(firstNs, firstNs);

        const int64_t secondStart = burst.convolutionEndNs + Draw(35000, 45000);
        const int64_t secondNs = Draw(250000, 350000);
        Place(m_comm, DeviceKind::kNcclKernel, nccl, secondStart, secondNs, second);
        DeviceMarker("gpu_user_annotation", "nccl:all_reduce", kCommStream, secondStart,
                     secondStart + secondNs, second.annotationId, "");
        AddSet(kKinetoCommunication, secondNs);
        AddCommunication(secondNs, 0);
        Waiting waiting;
        const int64_t waitNs = Draw(40000, 60000);
        waiting.allReduceEndNs = secondStart + secondNs;
        waiting.gemmStartNs = waiting.allReduceEndNs + waitNs;
        waiting.gemmEndNs = waiting.gemmStartNs + Draw(80000, 90000);
        const int64_t syncStart = burst.convolutionEndNs + Draw(5000, 10000);
        DeviceMarker("cuda_sync", "Stream Wait Event", kComputeStream, syncStart,
                     syncStart + Draw(2000, 4000), gemm.externalId,
                     ", \"cuda_sync_kind\": \"Stream Wait Event\", \"wait_on_stream\": 20, "
                     "\"device\": " +
                         std::to_string(m_device) +
                         ", \"context\": 1, \"stream\": 7, \"correlation\": " +
                         std::to_string(gemm.waitCorrelation));
        Place(m_compute, DeviceKind::kKernel, kWaitingGemm, waiting.gemmStartNs,
              waiting.gemmEndNs - waiting.gemmStartNs, gemm);
        AddIdle(secondStart - burst.convolutionEndNs + waitNs);
        AddSet(kKinetoComputation, waiting.gemmEndNs - waiting.gemmStartNs);
        AddCompute(waiting.gemmEndNs - waiting.gemmStartNs);
        return waiting;
    }

    // A CUDA graph of three kernels, launched by one cudaGraphLaunch while the waiting GEMM runs
    // (kernel waits; the second and third start over 100 µs after the call), and a third
    // all-reduce launched after the second ended (a host wait on its stream) that runs inside
    // the graph's long middle kernel. Returns the graph's end.
    int64_t WriteGraph(const Waiting& waiting) {
        const Launch graph = HostLaunch({"CUDAGraph::replay",
                                         "cudaGraphLaunch",
                                         kCbidGraphLaunch,
                                         Draw(18000, 22000),
                                         {},
                                         false,
                                         waiting.gemmStartNs + Draw(8000, 12000)});
        const std::array<int64_t, 3> durations = {Draw(65000, 75000), Draw(200000, 250000),
                                                  Draw(30000, 40000)};
        int64_t end = waiting.gemmEndNs;
        int64_t middleStart = 0;
        for (size_t i = 0; i < durations.size(); ++i) {
            const int64_t start = end + Draw(1000, 3000);
            if (i == 1) middleStart = start;
            Place(m_compute, DeviceKind::kKernel, {"", kGraphKernels[i], kElementwiseConfig}, start,
                  durations[i], graph);
            AddIdle(start - end);
            AddCompute(durations[i]);
            end = start + durations[i];
        }
        const int64_t delayNs = Draw(4000, 7000), cpuNs = Draw(8000, 12000);
        const int64_t plannedStart = middleStart + Draw(20000, 40000);
        const Launch third =
            HostLaunch({"record_param_comms", "cudaLaunchKernel", kCbidLaunchKernel, cpuNs,
                        "nccl:all_reduce", false, plannedStart - delayNs - cpuNs});
        const int64_t thirdStart = third.endNs + delayNs;
        const int64_t thirdNs = Draw(60000, 80000);
        Place(m_comm, DeviceKind::kNcclKernel, {"", kNcclKernel, ""}, thirdStart, thirdNs, third);
        DeviceMarker("gpu_user_annotation", "nccl:all_reduce", kCommStream, thirdStart,
                     thirdStart + thirdNs, third.annotationId, "");
        AddSet(kKinetoComputation, durations[0] + durations[1] + durations[2] - thirdNs);
        AddSet(kKinetoComputation | kKinetoCommunication, thirdNs);
        AddCommunication(thirdNs, thirdNs);
        return end;
    }

    // Short kernels, each launched after the last ended (host waits): 2 to 5 µs on the device
    // for calls of 10 to 14 µs. Returns the last one's end.
    int64_t WriteShortKernels(int64_t endNs, uint64_t count) {
        for (uint64_t i = 0; i < count; ++i) {
            const KernelKind& kernel = kShortKernels[i % kShortKernels.size()];
            const Launch launch = HostLaunch({kernel.op,
                                              "cudaLaunchKernel",
                                              kCbidLaunchKernel,
                                              Draw(10000, 14000),
                                              {},
                                              false,
                                              endNs + Draw(5000, 15000)});
            const int64_t start = launch.endNs + Draw(3000, 5000);
            const int64_t durNs = Draw(2000, 5000);
            Place(m_compute, DeviceKind::kKernel, kernel, start, durNs, launch);
            AddIdle(start - endNs);
            AddSet(kKinetoComputation, durNs);
            AddCompute(durNs);
            endNs = start + durNs;
        }
        return endNs;
    }

    // The data loader's next() at the step's start: nothing runs on the device before the
    // step's first launch, so the device is idle through the whole call.
    void WriteLoaderCall(uint64_t number) {
        const std::vector<uint64_t>& slow = m_options.slowLoaderSteps;
        if (slow.empty()) return;
        const bool isSlow = std::find(slow.begin(), slow.end(), number) != slow.end();
        const int64_t durNs = isSlow ? kSlowLoaderNs : kLoaderNs;
        HostSlice("cpu_op", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
                  m_hostNs, m_hostNs + durNs, m_nextExternalId++);
        m_hostNs += durNs;
        m_result.expected.loader.push_back({number, durNs, isSlow});
    }

    void WriteStep(uint64_t number, uint64_t shortKernels) {
        m_stepNumber = number;
        const int64_t stepStart = m_hostNs;
        const int64_t previousEndNs = m_result.expected.total.lastEndNs;
        m_step = EmptyFigures();
        m_compute.stepActivity = m_comm.stepActivity = false;
        WriteLoaderCall(number);
        m_hostNs += Draw(8000, 12000);
        const int64_t setEnd = WriteCopies();
        const Burst burst = WriteComputeBurst(setEnd);
        const Waiting waiting = WriteCommunication(burst);
        const int64_t graphEnd = WriteGraph(waiting);
        const int64_t lastEnd = WriteShortKernels(graphEnd, shortKernels);
        // The step ends on a synchronisation with the compute stream: the next step's launches
        // all come after every activity of this one.
        const uint64_t syncId = m_nextExternalId++;
        const uint64_t syncCorrelation = m_nextCorrelation++;
        const int64_t callStart = m_hostNs + Draw(2000, 4000);
        const int64_t callEnd = std::max(lastEnd, callStart) + Draw(3000, 6000);
        RuntimeCall("cudaStreamSynchronize", kCbidStreamSynchronize, callStart, callEnd, syncId,
                    syncCorrelation);
        const int64_t opEnd = callEnd + Draw(1000, 3000);
        HostSlice("cpu_op", "aten::item", m_hostNs, opEnd, syncId);
        DeviceMarker(
            "cuda_sync", "Stream Sync", kComputeStream, lastEnd + Draw(500, 1500), callEnd, syncId,
            ", \"cuda_sync_kind\": \"Stream Sync\", \"device\": " + std::to_string(m_device) +
                ", \"context\": 1, \"stream\": 7, \"correlation\": " +
                std::to_string(syncCorrelation));
        const int64_t stepEnd = opEnd + Draw(3000, 6000);
        HostSlice("user_annotation", "ProfilerStep#" + std::to_string(number), stepStart, stepEnd,
                  m_nextExternalId++);
        m_hostNs = stepEnd + Draw(1000, 2000);

        FinishFigures(m_step, m_compute.stepFirstLaunchNs, m_comm.stepFirstLaunchNs);
        // Between steps nothing runs: the rank's idle time, and a host wait on each stream.
        if (number != kFirstStep)
            m_result.expected.total.idleNs += m_step.firstStartNs - previousEndNs;
        m_result.expected.steps.push_back({number, std::move(m_step)});
    }

    // [SECTION] Header, metadata and trailer

    void WriteHeader() {
        m_writer.Text("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
        for (int id = 0; id < 8; ++id) {
            m_writer.Text(id ? ",\n    {\"id\": " : "\n    {\"id\": ");
            m_writer.Int(id);
            m_writer.Text(
                ", \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85029158912, "
                "\"computeMajor\": 9, \"computeMinor\": 0, \"maxThreadsPerBlock\": 1024, "
                "\"maxThreadsPerMultiprocessor\": 2048, \"regsPerBlock\": 65536, \"warpSize\": "
                "32, \"sharedMemPerBlock\": 49152, \"numSms\": 132, \"regsPerMultiprocessor\": "
                "65536, \"sharedMemPerBlockOptin\": 232448, \"sharedMemPerMultiprocessor\": "
                "233472}");
        }
        m_writer.Text("\n  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
        m_writer.Int(m_options.rank);
        m_writer.Text(", \"world_size\": ");
        m_writer.Int(m_worldSize);
        m_writer.Text(
            ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": "
            "\"default_pg\", \"backend_config\": \"cuda:nccl\", \"pg_size\": ");
        m_writer.Int(m_worldSize);
        m_writer.Text(", \"ranks\": [");
        m_writer.Text(m_ranksList);
        m_writer.Text("]}], \"nccl_version\": \"2.21.5\"},\n  \"traceEvents\": [");
    }

    void Metadata(std::string_view name, int64_t pid, int64_t tid, int64_t tsNs,
                  std::string_view key, std::string_view value) {
        m_writer.BeginEvent('M');
        m_writer.Text("\"name\": \"");
        m_writer.Text(name);
        m_writer.Text("\", \"ph\": \"M\", \"ts\": ");
        m_writer.Micros(tsNs);
        m_writer.Text(", \"pid\": ");
        m_writer.Int(pid);
        m_writer.Text(", \"tid\": ");
        m_writer.Int(tid);
        m_writer.Text(", \"args\": {\"");
        m_writer.Text(key);
        m_writer.Text("\": ");
        m_writer.Text(value);
        m_writer.Text("}");
        m_writer.EndMetadata();
    }

    // Kineto writes the names of processes and threads after the events.
    void WriteMetadata(int64_t tsNs) {
        const std::string quotedHost = "\"python3.10\"";
        Metadata("process_name", m_hostPid, 0, tsNs, "name", quotedHost);
        Metadata("process_labels", m_hostPid, 0, tsNs, "labels", "\"CPU\"");
        Metadata("process_sort_index", m_hostPid, 0, tsNs, "sort_index", std::to_string(m_hostPid));
        Metadata("process_name", m_device, 0, tsNs, "name", quotedHost);
        Metadata("process_labels", m_device, 0, tsNs, "labels",
                 "\"GPU " + std::to_string(m_device) + "\"");
        Metadata("process_sort_index", m_device, 0, tsNs, "sort_index",
                 std::to_string(16777216 + m_device));
        for (int64_t stream : {kComputeStream, kCommStream}) {
            Metadata("thread_name", m_device, stream, tsNs, "name",
                     "\"stream " + std::to_string(stream) + " \"");
            Metadata("thread_sort_index", m_device, stream, tsNs, "sort_index",
                     std::to_string(stream));
        }
        Metadata("thread_name", m_hostPid, m_hostPid, tsNs, "name",
                 "\"thread " + std::to_string(m_hostPid) + " (pt_main_thread)\"");
        Metadata("thread_sort_index", m_hostPid, m_hostPid, tsNs, "sort_index",
                 std::to_string(m_hostPid));
    }

    void WriteTrailer() {
        m_writer.Text("\n  ],\n  \"traceName\": \"/tmp/libkineto_activities_");
        m_writer.Int(m_hostPid);
        m_writer.Text(".json\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
        m_writer.Int(kBaseNs / 1000000000 * 1000000000);
        m_writer.Text("\n}\n");
    }

    KinetoTraceOptions m_options;
    GeneratorRandom m_random;
    KinetoTraceResult m_result;
    KinetoWriter m_writer;
    uint32_t m_worldSize = 1;
    int64_t m_device = 0;
    int64_t m_hostPid = 0;
    int64_t m_hostNs = 0;  // where the host thread is free from
    uint64_t m_nextExternalId = 1;
    uint64_t m_stepNumber = 0;  // N of the ProfilerStep#N being written
    uint64_t m_nextCorrelation = 1;
    uint64_t m_eventIndex = 0;
    std::string m_ranksList;
    std::string m_ncclConfig;
    StreamState m_compute, m_comm;
    KinetoFigures m_step;  // the step being written
};

}  // namespace

// [SECTION] Public functions

KinetoTraceResult GenerateKinetoTrace(const KinetoTraceOptions& options, std::FILE* out) {
    return KinetoGenerator(options, out).Run();
}

bool WriteKinetoRankTraces(const std::string& folder, uint32_t ranks,
                           const KinetoTraceOptions& options, std::string* error) {
    std::error_code made;
    std::filesystem::create_directories(folder, made);
    for (uint32_t rank = 0; rank < ranks; ++rank) {
        const std::string path = folder + "/rank-" + std::to_string(rank) + ".pt.trace.json";
        std::FILE* file = std::fopen(path.c_str(), "wb");
        if (!file) {
            if (error) *error = path + ": cannot write";
            return false;
        }
        KinetoTraceOptions rankOptions = options;
        rankOptions.rank = rank;
        rankOptions.worldSize = ranks;
        rankOptions.seed = options.seed + rank;
        GenerateKinetoTrace(rankOptions, file);
        if (std::fclose(file) != 0) {
            if (error) *error = path + ": cannot write";
            return false;
        }
    }
    return true;
}

}  // namespace marey
