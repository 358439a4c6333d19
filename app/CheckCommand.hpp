#pragma once
// `marey check BASELINE CANDIDATE`: the regression gate for CI.

namespace marey {

// Runs `marey check` on argv[2..]; returns the exit status: 0 nothing regressed, 1 something did,
// 2 an error (a bad command line, an unreadable input, nothing to compare).
int RunCheckCommand(int argc, char** argv);

}  // namespace marey
