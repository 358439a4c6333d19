#pragma once
// Runs marey's own commands as child processes for the MCP server: the arguments go to execv
// as they are (no shell reads a path an agent sent), standard input is /dev/null, and what the
// child prints on each stream comes back whole.
#include <string>
#include <vector>

namespace marey {

struct ChildOutcome {
    int status = -1;  // the exit status; -1 when it could not start or was killed
    std::string out, err;
    bool timedOut = false;
};

// Runs 'program' with 'arguments' (argv[1] on), killed after 'timeoutSeconds'.
ChildOutcome RunChild(const std::string& program, const std::vector<std::string>& arguments,
                      int timeoutSeconds);

// This program's own executable (/proc/self/exe resolved).
std::string OwnExecutable();

}  // namespace marey
