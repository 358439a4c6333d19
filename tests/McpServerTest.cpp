// `marey mcp`'s protocol through the real binary, message by message: what a malformed or
// unexpected message gets, and that nothing ends the server before its input does. (The tools
// themselves are checked by the official SDK's client, tests/mcp/client.mjs.)
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "TestSupport.hpp"

namespace fs = std::filesystem;

namespace {

// The server's answer lines to 'messages', one a line; 'status' its exit status.
std::vector<std::string> Answers(const std::vector<std::string>& messages, int& status) {
    const fs::path in = marey::test::TempDir("mcp-server") / "in.jsonl";
    {
        std::FILE* file = std::fopen(in.c_str(), "wb");
        REQUIRE(file);
        for (const std::string& message : messages) std::fprintf(file, "%s\n", message.c_str());
        std::fclose(file);
    }
    int raw = -1;
    const std::string out = marey::test::RunCommand(
        "timeout 60 " + std::string(MAREY_BINARY) + " mcp < " + in.string() + " 2>/dev/null", &raw);
    status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::vector<std::string> lines;
    std::istringstream stream(out);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST_CASE("mcp: malformed messages get JSON-RPC's errors, and the server answers on to the end") {
    int status = -1;
    const std::vector<std::string> answers = Answers(
        {"garbage", "[1, 2]", R"({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"})",
         R"({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "x"})",
         R"({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "open", "arguments": "x"}})",
         R"({"jsonrpc": "2.0", "id": 4, "method": "no/such/method"})",
         R"({"jsonrpc": "2.0", "method": "notifications/initialized"})", "",
         R"({"jsonrpc": "2.0", "id": "5", "method": "tools/call", "params": {"name": "sql", "arguments": {"id": "d1", "query": "select 1"}}})",
         R"({"jsonrpc": "2.0", "id": 6, "method": "resources/read", "params": {"uri": "marey://document/d9"}})",
         R"({"jsonrpc": "2.0", "id": 7, "method": "ping"})"},
        status);
    CHECK(status == 0);
    REQUIRE(answers.size() == 9);  // the notification and the blank line get none
    CHECK(answers[0].find("\"code\": -32700") != std::string::npos);
    CHECK(answers[1].find("\"code\": -32600") != std::string::npos);
    CHECK(answers[2].find("\"id\": null, \"error\": {\"code\": -32600") != std::string::npos);
    CHECK(answers[3].find("\"id\": 2, \"error\": {\"code\": -32602") != std::string::npos);
    // A bad argument is the tool's error, in words, not the protocol's.
    CHECK(answers[4].find("\"isError\": true") != std::string::npos);
    CHECK(answers[4].find("expected the arguments as an object") != std::string::npos);
    CHECK(answers[5].find("\"code\": -32601") != std::string::npos);
    CHECK(answers[6].find("\"id\": \"5\"") != std::string::npos);
    CHECK(answers[6].find("no document \\\"d1\\\" is open") != std::string::npos);
    CHECK(answers[7].find("\"code\": -32002") != std::string::npos);
    CHECK(answers[8] == R"({"jsonrpc": "2.0", "id": 7, "result": {}})");
}

TEST_CASE("mcp: requests without params are answered, never end the server") {
    int status = -1;
    const std::vector<std::string> answers = Answers(
        {R"({"jsonrpc": "2.0", "id": 1, "method": "initialize"})",
         R"({"jsonrpc": "2.0", "id": 2, "method": "tools/call"})",
         R"({"jsonrpc": "2.0", "id": 3, "method": "resources/read"})",
         R"({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "summary"}})",
         R"({"jsonrpc": "2.0", "id": 5, "method": "ping"})"},
        status);
    CHECK(status == 0);
    REQUIRE(answers.size() == 5);
    CHECK(answers[0].find("\"protocolVersion\": \"2025-11-25\"") != std::string::npos);
    CHECK(answers[1].find("\"code\": -32602") != std::string::npos);
    CHECK(answers[2].find("\"code\": -32602") != std::string::npos);
    CHECK(answers[3].find("expected \\\"id\\\"") != std::string::npos);
    CHECK(answers[4] == R"({"jsonrpc": "2.0", "id": 5, "result": {}})");
}

TEST_CASE("mcp: initialize agrees on a version it speaks, else offers its newest") {
    int status = -1;
    const std::vector<std::string> answers = Answers(
        {R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})",
         R"({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})"},
        status);
    REQUIRE(answers.size() == 2);
    CHECK(answers[0].find("\"protocolVersion\": \"2025-03-26\"") != std::string::npos);
    CHECK(answers[1].find("\"protocolVersion\": \"2025-11-25\"") != std::string::npos);
    CHECK(answers[0].find("\"tools\": {") != std::string::npos);
}
