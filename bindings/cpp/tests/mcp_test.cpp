// The MCP server from C++: messages through handle() (handshake, listing,
// calls, tool errors, protocol errors, notifications) and serve_stdio()
// over two pipes, stopped by a token.

#include "aikido.hpp"
#include "check.hpp"

#include <chrono>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

const char *const initialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})";

aikido::Registry mcp_registry() {
    aikido::Registry registry;
    registry.register_tool(aikido::ToolDefinition{"greet", "Greet someone.", aikido::schema::object({{"name", aikido::schema::string("Who.")}}, {"name"})},
                           [](std::string_view arguments) { return std::string("hello ") + std::string(arguments); });
    registry.register_tool(aikido::ToolDefinition{"boom", "", ""},
                           [](std::string_view) -> std::string { throw std::runtime_error("exploded"); });
    return registry;
}

}  // namespace

TEST(mcp_handle_answers_the_protocol) {
    const aikido::Registry registry = mcp_registry();
    const aikido::McpServer server(registry, "cpp-test", "2.0");
    CHECK_CONTAINS(server.handle(R"({"jsonrpc":"2.0","id":0,"method":"tools/list"})").value(), "\"code\":-32600");
    const std::string hello = server.handle(initialize).value();
    CHECK_CONTAINS(hello, "\"protocolVersion\":\"2025-11-25\"");
    CHECK_CONTAINS(hello, "\"serverInfo\":{\"name\":\"cpp-test\",\"version\":\"2.0\"}");
    CHECK(!server.handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").has_value());
    CHECK_CONTAINS(server.handle(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})").value(), "\"name\":\"greet\"");
    CHECK_EQ(server.handle(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}})").value(),
             std::string(R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hello {\"name\":\"Ada\"}"}],"isError":false}})"));
    const std::string boom = server.handle(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"boom"}})").value();
    CHECK_CONTAINS(boom, "\"isError\":true");
    CHECK_CONTAINS(boom, "exploded");
    CHECK_CONTAINS(server.handle(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}})").value(), "-32602");
    CHECK_CONTAINS(server.handle(R"({"jsonrpc":"2.0","id":6,"method":"resources/list"})").value(), "-32601");
    CHECK_CONTAINS(server.handle(R"({"jsonrpc":"2.0","id":60,"method":"server/discover"})").value(),
                   R"("supportedVersions":["2026-07-28")");
    CHECK_CONTAINS(server.handle("{broken").value(), "-32700");
    bool threw = false;
    try {
        aikido::McpServer bad(registry, std::string_view("a\0b", 3));
    } catch (const aikido::Error &error) {
        threw = error.status() == aikido::Status::invalid_input;
    }
    CHECK(threw);
}

TEST(mcp_serve_stdio_over_pipes_until_stopped) {
    const aikido::Registry registry = mcp_registry();
    const aikido::McpServer server(registry);
    int to_server[2];
    int from_server[2];
    CHECK(pipe(to_server) == 0);
    CHECK(pipe(from_server) == 0);
    const aikido::CancelToken stop;
    std::thread serving([&] { server.serve_stdio(to_server[0], from_server[1], &stop); });
    const std::string requests = std::string(initialize) + "\n" +
                                 R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Bo"}}})" + "\n";
    CHECK(write(to_server[1], requests.data(), requests.size()) == static_cast<ssize_t>(requests.size()));
    std::string received;
    char byte = 0;
    int lines = 0;
    while (lines < 2 && read(from_server[0], &byte, 1) == 1) {
        received.push_back(byte);
        lines += byte == '\n';
    }
    CHECK_CONTAINS(received, "\"id\":1,\"result\"");
    CHECK_CONTAINS(received, "hello {\\\"name\\\":\\\"Bo\\\"}");
    // The stdin pipe stays open: only the token ends serving.
    const auto started = std::chrono::steady_clock::now();
    stop.fire();
    serving.join();
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));
    for (int fd : {to_server[0], to_server[1], from_server[0], from_server[1]}) close(fd);
}
