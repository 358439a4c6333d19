#include "CompareCommand.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cluster/ClusterFolder.hpp"
#include "compare/Comparison.hpp"
#include "loading/RankLoader.hpp"
#include "report/TraceDiffJson.hpp"

namespace marey {
namespace {

void Usage() {
    std::fprintf(stderr,
                 "usage: marey stats --compare A B [--json] [--top N] [--align step:N | "
                 "operator:NAME[#K] | start]\n"
                 "                       [--step N[:M]] [--no-cache]\n"
                 "  A, B      traces, rank folders or kernel_details.csv files\n"
                 "  --align   align B's clock on A's at step N, at the K-th run (from 1) of "
                 "operator NAME, or at\n"
                 "            the trace starts; default: the first step both have\n"
                 "  --step    compare only step N of A with step M of B (default M = N)\n"
                 "  --no-cache  parse the traces, neither reading nor writing the index cache\n");
}

// "step:50", "operator:MatMul_0#3", "start"; false when malformed.
bool ParseAlignment(const std::string& text, AlignmentRequest& request) {
    if (text == "start") {
        request.by = AlignBy::kStart;
        return true;
    }
    if (text.rfind("step:", 0) == 0) {
        request.by = AlignBy::kStep;
        request.step = text.substr(5);
        return !request.step.empty();
    }
    if (text.rfind("operator:", 0) == 0) {
        request.by = AlignBy::kOperator;
        request.operatorName = text.substr(9);
        const size_t hash = request.operatorName.rfind('#');
        if (hash != std::string::npos) {
            const char* first = request.operatorName.c_str() + hash + 1;
            const char* last = request.operatorName.c_str() + request.operatorName.size();
            uint64_t run = 0;
            if (std::from_chars(first, last, run).ptr != last || run < 1) return false;
            request.occurrence = static_cast<uint64_t>(run - 1);
            request.operatorName.resize(hash);
        }
        return !request.operatorName.empty();
    }
    return false;
}

// Says what is wrong with the command line; the exit status of a bad command line.
int Fail(const std::string& message) {
    std::fprintf(stderr, "marey stats --compare: %s\n", message.c_str());
    return 2;
}

}  // namespace

int RunCompareCommand(int argc, char** argv) {
    std::string pathA, pathB;
    bool json = false;
    size_t top = 20;
    ComparisonOptions options;
    bool noCache = false;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--json") {
            json = true;
        } else if (arg == "--no-cache") {
            noCache = true;
        } else if (arg == "--top" && hasValue) {
            const std::string count = argv[++i];
            const char* end = count.data() + count.size();
            if (std::from_chars(count.data(), end, top).ptr != end || top < 1)
                return Fail("--top: expected a count of at least 1, got \"" + count + "\"");
        } else if (arg == "--align" && hasValue) {
            const std::string align = argv[++i];
            if (!ParseAlignment(align, options.align))
                return Fail(
                    "--align: expected step:N, operator:NAME[#K] (K from 1) or start, got \"" +
                    align + "\"");
        } else if (arg == "--step" && hasValue) {
            const std::string steps = argv[++i];
            const size_t colon = steps.find(':');
            options.stepA = steps.substr(0, colon);
            options.stepB = colon == std::string::npos ? options.stepA : steps.substr(colon + 1);
            if (options.stepA.empty() || options.stepB.empty())
                return Fail("--step: expected N or N:M, got \"" + steps + "\"");
        } else if (!arg.empty() && arg[0] != '-' && pathA.empty()) {
            pathA = arg;
        } else if (!arg.empty() && arg[0] != '-' && pathB.empty()) {
            pathB = arg;
        } else if (arg == "--top" || arg == "--align" || arg == "--step") {
            return Fail(arg + ": expected a value after it");
        } else if (!arg.empty() && arg[0] == '-') {
            return Fail("unknown option \"" + arg + "\"");
        } else {
            return Fail("unexpected argument \"" + arg + "\"");
        }
    }
    if (pathA.empty() || pathB.empty()) return Usage(), 2;
    for (const std::string& path : {pathA, pathB})
        if (IsClusterPath(path))
            return Fail(path +
                        ": a cluster folder, not one rank: stats --compare compares two traces or "
                        "rank folders "
                        "(marey stats " +
                        path + " summarises the cluster)");
    Result<IndexCacheOptions> cache = IndexCacheFromEnvironment(noCache);
    if (!cache.ok()) return Fail(cache.message());
    LoadOptions load;
    load.cache = std::move(cache.value());
    LoadedPair pair = LoadRankPair(pathA, pathB, load);
    for (const Result<LoadedRank>* side : {&pair.a, &pair.b}) {
        if (!side->ok()) {
            std::fprintf(stderr, "%s\n", side->message().c_str());
            return 1;
        }
    }
    const Comparison comparison = CompareRanks(pair.a.value(), pair.b.value(), options);
    // A step asked for and not found is not the comparison asked for: said, and no figures.
    if (!comparison.missingSteps.empty())
        return Fail("--step: " + comparison.missingSteps + " has no ProfilerStep slice");
    const std::string text =
        json ? TraceDiffToJson(comparison.a, comparison.b, comparison.diff)
             : TraceDiffToText(comparison.a, comparison.b, comparison.diff, top);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

}  // namespace marey
