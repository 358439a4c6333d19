#include "StatsCommand.hpp"

#include <cstdio>
#include <cstring>
#include <string>

#include "load/TraceLoader.hpp"
#include "stats/TraceSummary.hpp"

namespace tracelens {

int RunStatsCommand(int argc, char** argv) {
    std::string path;
    bool json = false;
    int top = 20;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (std::strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            top = std::atoi(argv[++i]);
        } else if (path.empty() && argv[i][0] != '-') {
            path = argv[i];
        } else {
            std::fprintf(stderr, "usage: tracelens stats PATH [--json] [--top N]\n");
            return 2;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "usage: tracelens stats PATH [--json] [--top N]\n");
        return 2;
    }
    auto loaded = LoadTrace(path);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        return 1;
    }
    const TraceModel& model = *loaded.value();
    const TraceSummary summary = Summarize(model, top > 0 ? static_cast<size_t>(top) : 20);
    const std::string text = json ? SummaryToJson(model, summary) : SummaryToText(model, summary);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

}  // namespace tracelens
