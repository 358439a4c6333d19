// tracelens: the command line and the viewer's entry point.
#include <cstdio>
#include <cstring>

#include "StatsCommand.hpp"
#include "SummarizeCommand.hpp"

#ifdef TRACELENS_HAS_VIEWER
#include "ViewerMain.hpp"
#endif

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "stats") == 0) return tracelens::RunStatsCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "summarize") == 0) return tracelens::RunSummarizeCommand(argc, argv);
#ifdef TRACELENS_HAS_VIEWER
    return tracelens::RunViewer(argc, argv);
#else
    std::fprintf(stderr, "this build has no viewer; use: tracelens stats PATH [--json]\n");
    return 2;
#endif
}
