// tracelens-gen: writes a generated Ascend-like trace, or a whole rank directory.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "TraceGenerator.hpp"

namespace {

void Usage() {
    std::fprintf(stderr,
                 "usage: tracelens-gen [--events N] [--seed S] [--rank R] [--streams K] --out FILE.json\n"
                 "       tracelens-gen [--events N] [--seed S] [--rank R] --rank-dir DIR\n"
                 "  --rank-dir writes DIR/profiler_info_R.json and, in DIR/ASCEND_PROFILER_OUTPUT, trace_view.json,\n"
                 "  kernel_details.csv, step_trace_time.csv, op_statistic.csv, communication.json,\n"
                 "  communication_matrix.json, memory_record.csv and operator_memory.csv\n");
}

}  // namespace

int main(int argc, char** argv) {
    tracelens::GeneratorOptions options;
    std::string out, rankDir;
    for (int i = 1; i < argc; ++i) {
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) {
                Usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (!std::strcmp(argv[i], "--events")) options.events = std::strtoull(next(), nullptr, 10);
        else if (!std::strcmp(argv[i], "--seed")) options.seed = std::strtoull(next(), nullptr, 10);
        else if (!std::strcmp(argv[i], "--rank")) options.rank = static_cast<uint32_t>(std::strtoul(next(), nullptr, 10));
        else if (!std::strcmp(argv[i], "--streams")) options.streams = static_cast<uint32_t>(std::strtoul(next(), nullptr, 10));
        else if (!std::strcmp(argv[i], "--out")) out = next();
        else if (!std::strcmp(argv[i], "--rank-dir")) rankDir = next();
        else {
            Usage();
            return 2;
        }
    }
    if (out.empty() == rankDir.empty() || options.streams == 0) {
        Usage();
        return 2;
    }
    if (!rankDir.empty()) {
        mkdir(rankDir.c_str(), 0755);
        const std::string outputDir = rankDir + "/ASCEND_PROFILER_OUTPUT";
        mkdir(outputDir.c_str(), 0755);
        const std::string info = rankDir + "/profiler_info_" + std::to_string(options.rank) + ".json";
        if (std::FILE* file = std::fopen(info.c_str(), "w")) {
            std::fprintf(file, "{\"config\": {\"common_config\": {\"record_shapes\": true}, \"experimental_config\": {\"_profiler_level\": \"Level1\", \"_export_type\": \"text\"}}, \"rank_id\": %u}\n",
                         options.rank);
            std::fclose(file);
        }
        out = outputDir + "/trace_view.json";
    }
    std::FILE* file = std::fopen(out.c_str(), "wb");
    if (!file) {
        std::perror(out.c_str());
        return 1;
    }
    tracelens::GeneratorRecord record;
    const tracelens::GeneratorReport report = tracelens::GenerateTrace(options, file, rankDir.empty() ? nullptr : &record);
    if (std::fclose(file) != 0) {
        std::perror(out.c_str());
        return 1;
    }
    std::string error;
    if (!rankDir.empty() && !tracelens::WriteRankSideFiles(record, options, rankDir + "/ASCEND_PROFILER_OUTPUT", &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    std::fprintf(stderr, "%s: %llu events, %llu bytes\n", out.c_str(), static_cast<unsigned long long>(report.events),
                 static_cast<unsigned long long>(report.bytes));
    return 0;
}
