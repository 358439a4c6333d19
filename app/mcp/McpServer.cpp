#include "mcp/McpServer.hpp"

#include <simdjson.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "load/JsonString.hpp"
#include "mcp/McpTools.hpp"

namespace marey {
namespace {

// The versions of the protocol this server speaks, newest first: a client that asks for one of
// them gets it, any other client the newest.
constexpr const char* kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                             "2024-11-05"};

constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601,
              kInvalidParams = -32602;

std::string Quoted(std::string_view text) {
    std::string out;
    AppendJsonString(out, text);
    return out;
}

void Send(const std::string& message) {
    std::fwrite(message.data(), 1, message.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

void SendResult(const std::string& id, const std::string& result) {
    Send("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"result\": " + result + "}");
}

void SendError(const std::string& id, int code, const std::string& message) {
    Send("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"error\": {\"code\": " +
         std::to_string(code) + ", \"message\": " + Quoted(message) + "}}");
}

std::string Initialize(simdjson::dom::element params) {
    std::string_view asked;
    const char* version = kProtocolVersions[0];
    if (params["protocolVersion"].get_string().get(asked) == simdjson::SUCCESS)
        for (const char* known : kProtocolVersions)
            if (asked == known) version = known;
    return std::string("{\"protocolVersion\": \"") + version +
           "\", \"capabilities\": {\"tools\": {\"listChanged\": false}, \"resources\": "
           "{\"listChanged\": false}}, \"serverInfo\": {\"name\": \"marey\", \"title\": \"marey "
           "trace viewer and analyser\", \"version\": \"1.0\"}, \"instructions\": " +
           Quoted(
               "Open a path first (tool open) and use the id it returns. Times are "
               "nanoseconds. summary holds every figure marey's views show; sql answers "
               "anything else over the timeline's slices.") +
           "}";
}

std::string CallResult(const ToolResult& result) {
    std::string content = "[{\"type\": \"text\", \"text\": " + Quoted(result.text) + "}";
    if (!result.pngBase64.empty())
        content += ", {\"type\": \"image\", \"data\": \"" + result.pngBase64 +
                   "\", \"mimeType\": \"image/png\"}";
    return "{\"content\": " + content + "], \"isError\": " + (result.isError ? "true" : "false") +
           "}";
}

// The id of the request on 'line', or null.
std::string IdOf(const std::string& line) {
    simdjson::dom::parser parser;
    simdjson::dom::element id;
    if (parser.parse(line)["id"].get(id) != simdjson::SUCCESS) return "null";
    return simdjson::minify(id);
}

// Answers one message; notifications (no id) get no answer.
void Handle(const std::string& line, McpTools& tools) {
    simdjson::dom::parser parser;
    simdjson::dom::element message;
    if (parser.parse(line).get(message) != simdjson::SUCCESS)
        return SendError("null", kParseError, "not JSON: " + line.substr(0, 80));
    if (!message.is_object())  // a batch too: the protocol has none since 2025-06-18
        return SendError("null", kInvalidRequest,
                         "expected one JSON-RPC request object, got: " + line.substr(0, 80));
    simdjson::dom::element idElement;
    const bool hasId = message["id"].get(idElement) == simdjson::SUCCESS;
    if (hasId && !idElement.is_string() && !idElement.is_int64() && !idElement.is_uint64())
        return SendError("null", kInvalidRequest, "expected \"id\" as a string or an integer");
    const std::string id = hasId ? simdjson::minify(idElement) : "null";
    std::string_view method;
    if (message["method"].get_string().get(method) != simdjson::SUCCESS) {
        if (hasId && message["result"].error() != simdjson::SUCCESS &&
            message["error"].error() != simdjson::SUCCESS)
            SendError(id, kInvalidRequest, "expected \"method\"");
        return;  // an answer to a request of ours: this server sends none
    }
    if (!hasId) return;  // notifications/initialized, notifications/cancelled, …
    // Absent params read as an empty object, parsed apart: the message's views stay valid.
    simdjson::dom::parser emptyParser;
    simdjson::dom::element params;
    if (message["params"].get(params) != simdjson::SUCCESS || !params.is_object())
        params = emptyParser.parse(std::string_view("{}")).value();
    if (method == "initialize") return SendResult(id, Initialize(params));
    if (method == "ping") return SendResult(id, "{}");
    if (method == "tools/list") return SendResult(id, "{\"tools\": " + tools.ListJson() + "}");
    if (method == "resources/list")
        return SendResult(id, "{\"resources\": " + tools.ResourcesJson() + "}");
    if (method == "resources/templates/list") return SendResult(id, "{\"resourceTemplates\": []}");
    if (method == "tools/call") {
        std::string_view name;
        if (params["name"].get_string().get(name) != simdjson::SUCCESS)
            return SendError(id, kInvalidParams, "tools/call: expected \"name\"");
        simdjson::dom::element arguments;
        simdjson::dom::parser emptyArguments;
        if (params["arguments"].get(arguments) != simdjson::SUCCESS)
            arguments = emptyArguments.parse(std::string_view("{}")).value();
        return SendResult(id, CallResult(tools.Call(name, arguments)));
    }
    if (method == "resources/read") {
        std::string_view uri;
        std::string json;
        if (params["uri"].get_string().get(uri) != simdjson::SUCCESS)
            return SendError(id, kInvalidParams, "resources/read: expected \"uri\"");
        if (!tools.ReadResource(uri, json))
            return SendError(id, -32002, "no resource " + std::string(uri));
        return SendResult(
            id, "{\"contents\": [{\"uri\": " + Quoted(uri) +
                    ", \"mimeType\": \"application/json\", \"text\": " + Quoted(json) + "}]}");
    }
    SendError(id, kMethodNotFound, "no method " + std::string(method));
}

}  // namespace

int RunMcpCommand(int argc, char** argv) {
    if (argc > 2) {
        std::fprintf(stderr,
                     "usage: marey mcp   (a Model Context Protocol server on standard input "
                     "and output)\n");
        return 2;
    }
    (void)argv;
    McpTools tools;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        // A reply that broke on an unforeseen shape of JSON is an error reply, never an end.
        try {
            Handle(line, tools);
        } catch (const std::exception& error) {
            SendError(IdOf(line), -32603, std::string("internal error: ") + error.what());
        }
    }
    return 0;
}

}  // namespace marey
