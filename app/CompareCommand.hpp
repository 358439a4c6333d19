#pragma once
// `marey stats --compare A B [--json]`: the diff of two ranks or traces, headless.

namespace marey {

// argv[2] is "--compare". Returns the exit code: 0 compared, 1 a side could not be loaded, 2 usage.
int RunCompareCommand(int argc, char** argv);

}  // namespace marey
