// marey-gen: writes a generated Ascend-like trace, a whole rank directory, a cluster, or a
// PyTorch profiler (Kineto) trace of one GPU rank.
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "ClusterGenerator.hpp"
#include "MindDataWriter.hpp"
#include "KinetoTraceGenerator.hpp"
#include "NsysTwinWriter.hpp"
#include "TraceGenerator.hpp"

namespace {

// The steps a rank folder's MindData files record.
constexpr uint32_t kDataPreparationSteps = 10;

void Usage() {
    std::fprintf(
        stderr,
        "usage: marey-gen [--events N] [--seed S] [--rank R] [--streams K] --out FILE.json\n"
        "       marey-gen [--events N] [--seed S] [--rank R] --rank-dir DIR [--export "
        "text|db|both]\n"
        "                 [--data-preparation]\n"
        "       marey-gen [--events N] [--seed S] --compare-pair DIR\n"
        "  --rank-dir writes DIR/profiler_info_R.json and, in DIR/ASCEND_PROFILER_OUTPUT, "
        "trace_view.json,\n"
        "  kernel_details.csv, step_trace_time.csv, op_statistic.csv, communication.json,\n"
        "  communication_matrix.json, memory_record.csv and operator_memory.csv; --export db "
        "writes the\n"
        "  same run as ascend_pytorch_profiler_R.db and analysis.db instead, both writes both "
        "kinds;\n"
        "  --data-preparation adds MindSpore's MindData files of an input-bound run (empty data "
        "queues,\n"
        "  the pipeline's MapOp the bottleneck)\n"
        "  --compare-pair writes the rank folders DIR/a (rank 0) and DIR/b (rank 1), B with "
        "planted\n"
        "  differences: MatMul twice as slow, DropOutDoMask only on B, step 3 with 3 ms more free "
        "time,\n"
        "  and a clock 5 s ahead\n"
        "       marey-gen --cluster DIR [--ranks N] [--steps S] [--seed S] [--ranks-per-node K]\n"
        "                     [--slow-rank R] [--slow-link SRC-DST] [--layers L] [--slow-operator "
        "K]\n"
        "                     [--slow-operator-rank R] [--pipeline] [--slow-input-rank R]\n"
        "                     [--heavy-flops-rank R] [--memory-peak-rank R] [--tp T --pp P --dp "
        "D]\n"
        "                     [--slow-stage S] [--slow-tp-group G] [--slow-replica D] "
        "[--microbatches M]\n"
        "                     [--microbatch-stall-us U]\n"
        "  --cluster writes DIR/rank_R_ascend_pt for R in 0..N-1 (default 16 ranks, 10 steps, 8 "
        "per node): one\n"
        "  synchronous job; --slow-rank makes R compute 25 %% longer (the others wait for it), "
        "--slow-link runs\n"
        "  the link SRC->DST (a ring neighbour or a peer in the same node) at a quarter of its "
        "bandwidth;\n"
        "  --layers gives each step 8*L operators (default 3), --slow-operator makes the K-th of "
        "them twice\n"
        "  as slow on every rank (on rank R only with --slow-operator-rank), --pipeline makes "
        "each\n"
        "  rank a stage of one pipeline in rank order, --slow-input-rank makes R wait 15 ms for "
        "its "
        "data\n"
        "  before each step (its Preparing; the others wait for it), --heavy-flops-rank writes "
        "every rank's\n"
        "  FLOPs files (flops_N.txt, flops_summary_N.json, flops_scope_N.json), R's 1.35 times "
        "the others';\n"
        "  --heavy-flops-stage does so for every rank of stage S (with --tp --pp --dp);\n"
        "  --memory-peak-rank writes every rank's memory_record.csv, R's peak 1.4 times the "
        "others';\n"
        "  --tp --pp --dp lay the T*P*D ranks out in Megatron's order (written to "
        "profiler_metadata.json),\n"
        "  the P stages a pipeline; --slow-stage makes every rank of stage S compute 25 %% "
        "longer,\n"
        "  --slow-tp-group every rank of TP group G (ranks G*T to G*T+T-1), --slow-replica every "
        "rank of replica D;\n"
        "  --microbatches runs each step as a 1F1B schedule of M microbatches over the P stages, "
        "their\n"
        "  activations and gradients as hcom_send / hcom_receive in kernel_details.csv;\n"
        "  --microbatch-stall-us makes the first stage wait U us before each forward (a larger "
        "bubble,\n"
        "  no slower stage)\n"
        "       marey-gen --gpu-trace FILE.json [--events N] [--seed S] [--rank R] [--steps K] "
        "[--nsys-twin FILE.sqlite]\n"
        "                 [--slow-loader-steps N,M,...] [--slow-kernel-steps N,M,...]\n"
        "  --gpu-trace writes a PyTorch profiler (Kineto) trace of one GPU rank with planted "
        "idle gaps, overlap,\n"
        "  launch outliers and queues; --steps K writes K steps (sized by --events when given), "
        "else steps are\n"
        "  added until N events (default 100000); --nsys-twin FILE.sqlite also writes its Nsight "
        "Systems export twin\n"
        "  (the same kernels, copies, fills and CUDA calls at the same ns, as nsys export writes "
        "them);\n"
        "  --slow-loader-steps starts every step with the data loader's next() (20 us, the device "
        "idle),\n"
        "  4 ms in the steps named; --slow-kernel-steps makes the step's long convolution run "
        "8 ms in the steps\n"
        "  named (the host waits for it at the step's end)\n");
}

// "text", "db" or "both", as torch_npu's export_type names them.
std::optional<marey::RankExport> ParseExport(const std::string& kind) {
    if (kind == "text") return marey::RankExport::kText;
    if (kind == "db") return marey::RankExport::kDatabase;
    if (kind == "both") return marey::RankExport::kBoth;
    return std::nullopt;
}

// The comparison pair: DIR/a and DIR/b. Returns main's exit status.
int WritePair(const marey::GeneratorOptions& options, const std::string& pairDir,
              marey::RankExport exportKind) {
    std::string error;
    mkdir(pairDir.c_str(), 0755);
    if (!marey::WriteRankDirectory(marey::ComparisonSideA(options), pairDir + "/a", &error, nullptr,
                                   exportKind) ||
        !marey::WriteRankDirectory(marey::ComparisonSideB(options), pairDir + "/b", &error, nullptr,
                                   exportKind)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    std::fprintf(stderr, "%s/a and %s/b written\n", pairDir.c_str(), pairDir.c_str());
    return 0;
}

// The cluster folder. Returns main's exit status.
int WriteClusterDir(const marey::ClusterOptions& cluster, const std::string& clusterDir) {
    std::string error;
    uint64_t bytes = 0;
    if (!marey::WriteCluster(cluster, clusterDir, &error, &bytes)) {
        if (error.empty())
            Usage();
        else
            std::fprintf(stderr, "%s\n", error.c_str());
        return error.empty() ? 2 : 1;
    }
    std::fprintf(stderr, "%s: %u ranks, %u steps, %llu bytes\n", clusterDir.c_str(), cluster.ranks,
                 cluster.steps, static_cast<unsigned long long>(bytes));
    return 0;
}

// A Kineto trace of one GPU rank. Returns main's exit status.
int WriteGpuTrace(const marey::KinetoTraceOptions& options, const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) {
        std::perror(path.c_str());
        return 1;
    }
    const marey::KinetoTraceResult result = marey::GenerateKinetoTrace(options, file);
    if (std::fclose(file) != 0) {
        std::perror(path.c_str());
        return 1;
    }
    std::fprintf(stderr, "%s: %llu events, %llu bytes, %zu steps\n", path.c_str(),
                 static_cast<unsigned long long>(result.report.events),
                 static_cast<unsigned long long>(result.report.bytes),
                 result.expected.steps.size());
    return 0;
}

// "3,7" as step numbers; false for anything else.
bool ParseStepList(const char* text, std::vector<uint64_t>* steps) {
    std::string rest = text;
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        const std::string item = rest.substr(0, comma);
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
            item.size() > 9)
            return false;
        steps->push_back(std::stoull(item));
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        if (comma != std::string::npos && rest.empty()) return false;
    }
    return !steps->empty();
}

// A generated trace at 'path'; false (said on standard error) when it cannot be written.
bool WriteTrace(const marey::GeneratorOptions& options, const std::string& path,
                marey::GeneratorReport* report) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) {
        std::perror(path.c_str());
        return false;
    }
    *report = marey::GenerateTrace(options, file);
    if (std::fclose(file) != 0) {
        std::perror(path.c_str());
        return false;
    }
    return true;
}

// The Nsight Systems export twin of the trace at 'tracePath'. Returns main's exit status.
int WriteTwin(const std::string& tracePath, const std::string& twinPath) {
    std::ifstream file(tracePath, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    marey::NsysTwinReport report;
    std::string error;
    if (!marey::WriteNsysTwin(text, twinPath, &report, &error)) {
        std::fprintf(stderr, "%s: %s\n", twinPath.c_str(), error.c_str());
        return 1;
    }
    std::fprintf(stderr,
                 "%s: %llu kernels, %llu copies, %llu fills, %llu synchronisations, %llu calls, "
                 "%llu NVTX ranges\n",
                 twinPath.c_str(), static_cast<unsigned long long>(report.kernels),
                 static_cast<unsigned long long>(report.copies),
                 static_cast<unsigned long long>(report.fills),
                 static_cast<unsigned long long>(report.synchronizations),
                 static_cast<unsigned long long>(report.calls),
                 static_cast<unsigned long long>(report.ranges));
    return 0;
}

// The whole number 'text' gives for 'option', at most 'most' (a sign only where 'negative' allows
// one); any other text is a usage error, said with what was given, and the program exits 2.
int64_t WholeNumber(const char* option, const char* text, bool negative = false,
                    int64_t most = std::numeric_limits<int32_t>::max()) {
    int64_t value = 0;
    const char* end = text + std::strlen(text);
    const auto [at, error] = std::from_chars(text, end, value);
    if (error != std::errc() || at != end || *text == '\0' || (value < 0 && !negative) ||
        value > most) {
        std::fprintf(stderr, "marey-gen: %s: expected a whole number %s %lld, got \"%s\"\n", option,
                     negative ? "up to" : "from 0 to", static_cast<long long>(most), text);
        std::exit(2);
    }
    return value;
}

// An option of --cluster's job into 'cluster' ('next' gives its value); false for any other
// option or a value that cannot be read.
template <typename Next>
bool ParseClusterOption(const char* arg, const Next& next, marey::ClusterOptions& cluster) {
    if (!std::strcmp(arg, "--ranks-per-node"))
        cluster.ranksPerNode = static_cast<uint32_t>(WholeNumber(arg, next()));
    else if (!std::strcmp(arg, "--slow-rank"))
        cluster.slowRank = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--layers"))
        cluster.layers = static_cast<uint32_t>(std::max<int64_t>(1, WholeNumber(arg, next())));
    else if (!std::strcmp(arg, "--slow-operator"))
        cluster.slowOperator = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--slow-operator-rank"))
        cluster.slowOperatorRank = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--slow-input-rank"))
        cluster.slowInputRank = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--heavy-flops-rank"))
        cluster.heavyFlopsRank = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--heavy-flops-stage"))
        cluster.heavyFlopsStage = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--memory-peak-rank"))
        cluster.memoryPeakRank = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--pipeline"))
        cluster.pipeline = true;
    else if (!std::strcmp(arg, "--tp"))
        cluster.tp = static_cast<uint32_t>(WholeNumber(arg, next()));
    else if (!std::strcmp(arg, "--pp"))
        cluster.pp = static_cast<uint32_t>(WholeNumber(arg, next()));
    else if (!std::strcmp(arg, "--dp"))
        cluster.dp = static_cast<uint32_t>(WholeNumber(arg, next()));
    else if (!std::strcmp(arg, "--slow-stage"))
        cluster.slowStage = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--slow-tp-group"))
        cluster.slowTpGroup = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--slow-replica"))
        cluster.slowReplica = static_cast<int>(WholeNumber(arg, next(), true));
    else if (!std::strcmp(arg, "--microbatch-stall-us"))
        cluster.microbatchStallNs = WholeNumber(arg, next()) * 1000;
    else if (!std::strcmp(arg, "--microbatches"))
        cluster.microbatches = static_cast<uint32_t>(WholeNumber(arg, next()));
    else if (!std::strcmp(arg, "--slow-link"))
        return std::sscanf(next(), "%d-%d", &cluster.slowLinkSrc, &cluster.slowLinkDst) == 2;
    else
        return false;
    return true;
}

// A layout gives all three sizes, of at most 65536 ranks, and so the rank count (which --ranks,
// when given, must equal); a slow stage needs a layout with that stage, microbatches (at most
// 4096) a pipeline. False: a usage error.
bool SettleLayout(marey::ClusterOptions& cluster, bool ranksGiven) {
    const bool anySize = cluster.tp + cluster.pp + cluster.dp > 0;
    const uint64_t layoutRanks = uint64_t{cluster.tp} * cluster.pp * cluster.dp;
    if (anySize && !(cluster.HasLayout() && layoutRanks <= 65536 &&
                     (!ranksGiven || layoutRanks == cluster.ranks)))
        return false;
    if (anySize) cluster.ranks = static_cast<uint32_t>(layoutRanks);
    if (cluster.microbatches > 0 && !(cluster.OneFOneB() && cluster.microbatches <= 4096))
        return false;
    if (cluster.microbatchStallNs != 0 &&
        !(cluster.microbatches > 0 && cluster.microbatchStallNs > 0 &&
          cluster.microbatchStallNs <= int64_t{1000000000}))
        return false;
    const bool planted =
        cluster.slowStage >= 0 || cluster.slowTpGroup >= 0 || cluster.slowReplica >= 0;
    return !planted || (cluster.HasLayout() && cluster.slowStage < static_cast<int>(cluster.pp) &&
                        cluster.slowTpGroup < static_cast<int>(cluster.pp * cluster.dp) &&
                        cluster.slowReplica < static_cast<int>(cluster.dp));
}
}  // namespace

int main(int argc, char** argv) {
    marey::GeneratorOptions options;
    std::string out, rankDir, pairDir, clusterDir, gpuTrace, nsysTwin;
    bool eventsGiven = false, stepsGiven = false, ranksGiven = false, dataPreparation = false;
    std::vector<uint64_t> slowLoaderSteps, slowKernelSteps;
    marey::ClusterOptions cluster;
    std::optional<marey::RankExport> exportArg;
    for (int i = 1; i < argc; ++i) {
        const char* option = argv[i];  // next() moves i on to its value
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) {
                Usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (!std::strcmp(argv[i], "--events")) {
            options.events = static_cast<uint64_t>(
                WholeNumber(option, next(), false, std::numeric_limits<int64_t>::max()));
            eventsGiven = true;
        } else if (!std::strcmp(argv[i], "--gpu-trace"))
            gpuTrace = next();
        else if (!std::strcmp(argv[i], "--nsys-twin"))
            nsysTwin = next();
        else if (!std::strcmp(argv[i], "--seed"))
            options.seed = std::strtoull(next(), nullptr, 10);
        else if (!std::strcmp(argv[i], "--rank"))
            options.rank = static_cast<uint32_t>(WholeNumber(option, next()));
        else if (!std::strcmp(argv[i], "--streams"))
            options.streams = static_cast<uint32_t>(WholeNumber(option, next()));
        else if (!std::strcmp(argv[i], "--out"))
            out = next();
        else if (!std::strcmp(argv[i], "--rank-dir"))
            rankDir = next();
        else if (!std::strcmp(argv[i], "--export")) {
            exportArg = ParseExport(next());
            if (!exportArg) return Usage(), 2;
        } else if (!std::strcmp(argv[i], "--compare-pair"))
            pairDir = next();
        else if (!std::strcmp(argv[i], "--cluster"))
            clusterDir = next();
        else if (!std::strcmp(argv[i], "--ranks")) {
            cluster.ranks = static_cast<uint32_t>(WholeNumber(option, next()));
            ranksGiven = true;
        } else if (!std::strcmp(argv[i], "--steps")) {
            cluster.steps = static_cast<uint32_t>(WholeNumber(option, next()));
            stepsGiven = true;
        } else if (!std::strcmp(argv[i], "--slow-loader-steps")) {
            if (!ParseStepList(next(), &slowLoaderSteps)) return Usage(), 2;
        } else if (!std::strcmp(argv[i], "--slow-kernel-steps")) {
            if (!ParseStepList(next(), &slowKernelSteps)) return Usage(), 2;
        } else if (!std::strcmp(argv[i], "--data-preparation"))
            dataPreparation = true;
        else if (!ParseClusterOption(argv[i], next, cluster))
            return Usage(), 2;
    }
    if (!gpuTrace.empty()) {
        const bool alone = out.empty() && rankDir.empty() && pairDir.empty() &&
                           clusterDir.empty() && !exportArg && (!stepsGiven || cluster.steps > 0);
        if (!alone) return Usage(), 2;
        marey::KinetoTraceOptions kineto;
        kineto.events = stepsGiven && !eventsGiven ? 0 : options.events;
        kineto.steps = stepsGiven ? cluster.steps : 0;
        kineto.seed = options.seed;
        kineto.rank = options.rank;
        kineto.slowLoaderSteps = slowLoaderSteps;
        kineto.slowKernelSteps = slowKernelSteps;
        const int status = WriteGpuTrace(kineto, gpuTrace);
        return status != 0 || nsysTwin.empty() ? status : WriteTwin(gpuTrace, nsysTwin);
    }
    if (!nsysTwin.empty() || (dataPreparation && rankDir.empty())) return Usage(), 2;
    if (!clusterDir.empty()) {
        // The cluster writer has its own, smaller run and writes it as text only.
        cluster.seed = options.seed;
        const bool alone = out.empty() && rankDir.empty() && pairDir.empty() &&
                           exportArg.value_or(marey::RankExport::kText) == marey::RankExport::kText;
        if (alone && SettleLayout(cluster, ranksGiven)) return WriteClusterDir(cluster, clusterDir);
        Usage();
        return 2;
    }
    // --export names what a rank folder holds: with --out there is only the trace.
    if ((out.empty() + rankDir.empty() + pairDir.empty()) != 2 || options.streams == 0 ||
        (exportArg && !out.empty()))
        return Usage(), 2;
    std::string error;
    marey::GeneratorReport report;
    const marey::RankExport exportKind = exportArg.value_or(marey::RankExport::kText);
    if (!pairDir.empty()) return WritePair(options, pairDir, exportKind);
    if (!rankDir.empty()) {
        if (!marey::WriteRankDirectory(options, rankDir, &error, &report, exportKind)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        out = rankDir + "/ASCEND_PROFILER_OUTPUT";
        if (dataPreparation &&
            !marey::WriteMindDataFiles(out, options.rank, kDataPreparationSteps, &error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
    } else if (!WriteTrace(options, out, &report)) {
        return 1;
    }
    std::fprintf(stderr, "%s: %llu events, %llu bytes\n", out.c_str(),
                 static_cast<unsigned long long>(report.events),
                 static_cast<unsigned long long>(report.bytes));
    return 0;
}
