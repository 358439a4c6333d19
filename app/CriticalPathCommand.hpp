#pragma once
// `marey critical-path PATH [--step S | --range A,B | --annotation NAME [--instance K]]`: what
// made a step (or a range) of a rank as long as it was (docs/critical-path.md).

namespace marey {

// Returns the process exit code: 0 a path was found or said why none, 1 nothing could be
// loaded or the window names nothing, 2 usage.
int RunCriticalPathCommand(int argc, char** argv);

}  // namespace marey
