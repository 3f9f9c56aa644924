//! The shell's network from Zig: a `NetworkPolicy` handed to a shell and
//! to the bash tool; curl against a server of this test's own on 127.0.0.1;
//! refusals and bad input.
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;
const gpa = testing.allocator;

test "network: a shell and the bash tool reach what the policy allows" {
    // Port 1 on loopback: allowed by the policy, closed on the machine, so
    // curl gets as far as connecting (refused by the host, not the policy).
    const prefix = "http://127.0.0.1:1/";
    var policy = try aikido.NetworkPolicy.init();
    defer policy.deinit();
    try policy.allowUrl(prefix, null);
    try policy.allowAddress("127.0.0.1/32", null);
    try policy.setLimits(.{ .max_requests = 5 });

    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.initWithNetwork(storage, null, policy);
    defer shell.deinit();
    var result = try shell.run(gpa, "curl -s -S " ++ prefix ++ "json", null, null);
    defer result.deinit(gpa);
    try testing.expectEqual(@as(i32, 7), result.exit_code);
    try testing.expect(std.mem.indexOf(u8, result.stderr, "the network policy refused") == null);

    var refused = try shell.run(gpa, "curl -s http://10.1.2.3/", null, null);
    defer refused.deinit(gpa);
    try testing.expectEqual(@as(i32, 7), refused.exit_code);
    try testing.expect(std.mem.indexOf(u8, refused.stderr, "the network policy refused") != null);

    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.registerShellToolWithNetwork(storage, null, policy, null);
    const arguments = "{\"command\":\"curl -s http://10.1.2.3/\"}";
    const content = try registry.dispatch(gpa, .{ .name = "bash", .arguments = arguments }, .{ .session_id = "s" }, null);
    defer gpa.free(content);
    try testing.expect(std.mem.indexOf(u8, content, "the network policy refused") != null);
    try testing.expect(std.mem.endsWith(u8, content, "[exit code: 7]"));
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
