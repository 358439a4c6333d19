#pragma once
// `marey mcp`: a Model Context Protocol server over standard input and output (JSON-RPC 2.0, one
// message a line). It answers initialize, ping, tools/list, tools/call, resources/list and
// resources/read, and ends cleanly at the end of its input. Its tools are McpTools'.

namespace marey {

// Returns the process exit code: 0 at the end of input, 2 for a wrong command line.
int RunMcpCommand(int argc, char** argv);

}  // namespace marey
