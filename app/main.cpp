// marey: the command line and the viewer's entry point.
#include <cstdio>
#include <cstring>

#include "CheckCommand.hpp"
#include "CriticalPathCommand.hpp"
#include "SqlCommand.hpp"
#include "mcp/McpServer.hpp"
#include "StatsCommand.hpp"
#include "SummarizeCommand.hpp"

#ifdef MAREY_HAS_VIEWER
#include "shell/ViewerMain.hpp"
#endif

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "stats") == 0) return marey::RunStatsCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "check") == 0) return marey::RunCheckCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "critical-path") == 0)
        return marey::RunCriticalPathCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "sql") == 0) return marey::RunSqlCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "mcp") == 0) return marey::RunMcpCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "summarize") == 0)
        return marey::RunSummarizeCommand(argc, argv);
#ifdef MAREY_HAS_VIEWER
    return marey::RunViewer(argc, argv);
#else
    std::fprintf(stderr, "this build has no viewer; use: marey stats PATH [--json]\n");
    return 2;
#endif
}
