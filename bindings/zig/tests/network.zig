//! The shell's network from Zig: a `NetworkPolicy` handed to a shell and
//! to the bash tool; curl against a server of this test's own on 127.0.0.1;
//! refusals and bad input.
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;
const gpa = testing.allocator;
const posix = std.posix;

/// Answers `count` connections with one JSON document each.
fn serve(listener: posix.socket_t, count: usize) void {
    var served: usize = 0;
    while (served < count) : (served += 1) {
        const client = posix.accept(listener, null, null, 0) catch return;
        var request: [4096]u8 = undefined;
        _ = posix.recv(client, &request, 0) catch 0;
        const reply = "HTTP/1.1 200 OK\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{\"ok\":true}\n";
        _ = posix.send(client, reply, 0) catch 0;
        posix.close(client);
    }
}

fn listen() !struct { socket: posix.socket_t, port: u16 } {
    const socket = try posix.socket(posix.AF.INET, posix.SOCK.STREAM, 0);
    var address: posix.sockaddr.in = .{ .port = 0, .addr = std.mem.nativeToBig(u32, 0x7f000001) };
    try posix.bind(socket, @ptrCast(&address), @sizeOf(posix.sockaddr.in));
    try posix.listen(socket, 16);
    var length: posix.socklen_t = @sizeOf(posix.sockaddr.in);
    try posix.getsockname(socket, @ptrCast(&address), &length);
    return .{ .socket = socket, .port = std.mem.bigToNative(u16, address.port) };
}

test "network: a shell and the bash tool reach what the policy allows" {
    const server = try listen();
    defer posix.close(server.socket);
    const thread = try std.Thread.spawn(.{}, serve, .{ server.socket, 2 });
    defer thread.join();

    var prefix_buffer: [64]u8 = undefined;
    const prefix = try std.fmt.bufPrintZ(&prefix_buffer, "http://127.0.0.1:{d}/", .{server.port});
    var policy = try aikido.NetworkPolicy.init();
    defer policy.deinit();
    try policy.allowUrl(prefix, null);
    try policy.allowAddress("127.0.0.1/32", null);
    try policy.setLimits(.{ .max_requests = 5 });

    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.initWithNetwork(storage, null, policy);
    defer shell.deinit();
    var script_buffer: [128]u8 = undefined;
    const script = try std.fmt.bufPrint(&script_buffer, "curl -s {s}json", .{prefix});
    var result = try shell.run(gpa, script, null, null);
    defer result.deinit(gpa);
    try testing.expectEqualStrings("{\"ok\":true}\n", result.stdout);
    try testing.expectEqual(@as(i32, 0), result.exit_code);

    var refused = try shell.run(gpa, "curl -s http://10.1.2.3/", null, null);
    defer refused.deinit(gpa);
    try testing.expectEqual(@as(i32, 7), refused.exit_code);
    try testing.expect(std.mem.indexOf(u8, refused.stderr, "the network policy refused") != null);

    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.registerShellToolWithNetwork(storage, null, policy, null);
    var arguments_buffer: [160]u8 = undefined;
    const arguments = try std.fmt.bufPrint(&arguments_buffer, "{{\"command\":\"curl -s {s}json\"}}", .{prefix});
    const content = try registry.dispatch(gpa, .{ .name = "bash", .arguments = arguments }, .{ .session_id = "s" }, null);
    defer gpa.free(content);
    try testing.expectEqualStrings("{\"ok\":true}\n[exit code: 0]", content);
}

test "network: no policy, no network; bad rules are refused" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.initWithNetwork(storage, null, null);
    defer shell.deinit();
    var result = try shell.run(gpa, "curl -s http://127.0.0.1:1/", null, null);
    defer result.deinit(gpa);
    try testing.expectEqual(@as(i32, 7), result.exit_code);
    try testing.expect(std.mem.indexOf(u8, result.stderr, "the network is off") != null);

    var policy = try aikido.NetworkPolicy.init();
    defer policy.deinit();
    var diagnostics = aikido.Diagnostics.init(gpa);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidInput, policy.allowUrl("ftp://x.example/", &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "only http and https") != null);
    try testing.expectError(error.InvalidInput, policy.allowAddress("nope", null));
    try policy.attachHeader("https://a.example/", "X-Token", "t", null);
}
