//! The MCP server from Zig: messages through `handle` (handshake, listing,
//! calls, tool errors, protocol errors, notifications) and `serveStdio`
//! over two pipes until EOF.
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;
const gpa = testing.allocator;

const Greeter = struct {
    fn handle(_: void, arguments: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
        if (std.mem.indexOf(u8, arguments, "fail") != null) return reply.fail("asked to fail");
        try reply.content(arguments);
    }
};

const initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{}}}";

fn expectReply(server: aikido.McpServer, message: []const u8, fragment: []const u8) !void {
    const response = (try server.handle(gpa, message, null)) orelse return error.NoResponse;
    defer gpa.free(response);
    if (std.mem.indexOf(u8, response, fragment) == null) {
        std.debug.print("response {s}\nwant it to contain {s}\n", .{ response, fragment });
        return error.TestUnexpectedResult;
    }
}

test "mcp: handle answers the protocol" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "echo", .description = "Echo the arguments." }, {}, Greeter.handle, null, null);
    var server = try aikido.McpServer.init(registry, "zig-test", "0.9");
    defer server.deinit();
    try expectReply(server, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}", "\"code\":-32600");
    try expectReply(server, initialize, "\"serverInfo\":{\"name\":\"zig-test\",\"version\":\"0.9\"}");
    try testing.expectEqual(null, try server.handle(gpa, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", null));
    try expectReply(server, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", "\"name\":\"echo\"");
    try expectReply(server, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"x\":1}}}", "{\"type\":\"text\",\"text\":\"{\\\"x\\\":1}\"}],\"isError\":false");
    try expectReply(server, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"fail\":1}}}", "\"text\":\"asked to fail\"}],\"isError\":true");
    try expectReply(server, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}", "-32602");
    try expectReply(server, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/list\"}", "-32601");
    try expectReply(server, "{\"jsonrpc\":\"2.0\",\"id\":60,\"method\":\"server/discover\"}", "\"supportedVersions\":[\"2026-07-28\"");
    try expectReply(server, "[{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}]", "[{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}]");
    try expectReply(server, "{oops", "-32700");
    var diagnostics = aikido.Diagnostics.init(gpa);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidInput, server.serveStdio(-1, 1, null, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "negative") != null);
}

test "mcp: serveStdio answers every line until EOF" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "echo" }, {}, Greeter.handle, null, null);
    var server = try aikido.McpServer.init(registry, null, null);
    defer server.deinit();
    var to_server: [2]std.c.fd_t = undefined;
    var from_server: [2]std.c.fd_t = undefined;
    try testing.expectEqual(0, std.c.pipe(&to_server));
    try testing.expectEqual(0, std.c.pipe(&from_server));
    defer _ = std.c.close(to_server[0]);
    defer _ = std.c.close(from_server[0]);
    const requests = initialize ++ "\n" ++
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{}}}\n" ++
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n";
    try testing.expectEqual(@as(isize, requests.len), std.c.write(to_server[1], requests.ptr, requests.len));
    _ = std.c.close(to_server[1]);
    try server.serveStdio(to_server[0], from_server[1], null, null);
    _ = std.c.close(from_server[1]);
    var buffer: [4096]u8 = undefined;
    var used: usize = 0;
    while (used < buffer.len) {
        const count = std.c.read(from_server[0], buffer[used..].ptr, buffer.len - used);
        if (count <= 0) break;
        used += @intCast(count);
    }
    const output = buffer[0..used];
    try testing.expectEqual(3, std.mem.count(u8, output, "\n"));
    try testing.expect(std.mem.indexOf(u8, output, "\"serverInfo\":{\"name\":\"aikido\"") != null);
    try testing.expect(std.mem.indexOf(u8, output, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{}\"}],\"isError\":false}}") != null);
    try testing.expect(std.mem.indexOf(u8, output, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}") != null);
}
