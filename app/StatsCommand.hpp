#pragma once
// `marey stats PATH [--json]`: a headless summary of what a trace holds.

namespace marey {

// Returns the process exit code: 0 loaded (problems or not), 1 nothing could be loaded, 2 usage.
int RunStatsCommand(int argc, char** argv);

}  // namespace marey
