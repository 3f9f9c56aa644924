//! The binding's own promises: ownership of contexts, handler outcomes,
//! cancellation, the environment, definitions, schema helpers, threads.
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;

/// A tool context that counts its calls and releases.
const Counter = struct {
    calls: std.atomic.Value(usize) = .init(0),
    releases: usize = 0,

    fn handle(counter: *Counter, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
        _ = counter.calls.fetchAdd(1, .monotonic);
        try reply.content("counted");
    }

    fn release(counter: *Counter) void {
        counter.releases += 1;
    }
};

fn dispatchText(registry: aikido.Registry, name: [:0]const u8, arguments: []const u8, environment: aikido.Environment) ![:0]u8 {
    return registry.dispatch(testing.allocator, .{ .name = name, .arguments = arguments }, environment, null);
}

test "register: release runs exactly once, after unregister" {
    var counter: Counter = .{};
    var registry = try aikido.Registry.init();
    try registry.register(.{ .name = "count" }, &counter, Counter.handle, Counter.release, null);
    const content = try dispatchText(registry, "count", "", .{});
    defer testing.allocator.free(content);
    try testing.expectEqualStrings("counted", content);
    try testing.expectEqual(0, counter.releases);

    try registry.unregister("count", null);
    try testing.expectEqual(1, counter.releases);
    registry.deinit();
    try testing.expectEqual(1, counter.releases);
    try testing.expectEqual(1, counter.calls.load(.monotonic));
}

test "register: release runs once when the registry is freed" {
    var counter: Counter = .{};
    var registry = try aikido.Registry.init();
    try registry.register(.{ .name = "count" }, &counter, Counter.handle, Counter.release, null);
    try testing.expectEqual(0, counter.releases);
    registry.deinit();
    try testing.expectEqual(1, counter.releases);
}

/// A context on the heap, freed by its release (the leak check proves it).
const HeapTool = struct {
    gpa: std.mem.Allocator,
    greeting: []u8,

    fn create(gpa: std.mem.Allocator, greeting: []const u8) !*HeapTool {
        const tool = try gpa.create(HeapTool);
        errdefer gpa.destroy(tool);
        tool.* = .{ .gpa = gpa, .greeting = try gpa.dupe(u8, greeting) };
        return tool;
    }

    fn handle(tool: *HeapTool, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
        try reply.content(tool.greeting);
    }

    fn destroy(tool: *HeapTool) void {
        tool.gpa.free(tool.greeting);
        tool.gpa.destroy(tool);
    }
};

test "register: the registry frees a heap context through release" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    const tool = try HeapTool.create(testing.allocator, "hi");
    registry.register(.{ .name = "hello" }, tool, HeapTool.handle, HeapTool.destroy, null) catch |err| {
        tool.destroy();
        return err;
    };
    const content = try dispatchText(registry, "hello", "{}", .{});
    defer testing.allocator.free(content);
    try testing.expectEqualStrings("hi", content);
}

test "register: a failed registration leaves the context with the caller" {
    var first: Counter = .{};
    var second: Counter = .{};
    var registry = try aikido.Registry.init();
    var diagnostics: aikido.Diagnostics = .init(testing.allocator);
    defer diagnostics.deinit();

    try registry.register(.{ .name = "count" }, &first, Counter.handle, Counter.release, &diagnostics);
    try testing.expectEqual(null, diagnostics.message);

    try testing.expectError(error.DuplicateTool, registry.register(.{ .name = "count" }, &second, Counter.handle, Counter.release, &diagnostics));
    try testing.expectStringStartsWith(diagnostics.message.?, "aikido/tools: duplicate tool registration");
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "count") != null);

    try testing.expectError(error.InvalidInput, registry.register(.{ .name = "broken", .parameters = "{not json" }, &second, Counter.handle, Counter.release, &diagnostics));
    try testing.expect(diagnostics.message.?.len > 0);
    try testing.expectError(error.InvalidInput, registry.register(.{ .name = "" }, &second, Counter.handle, Counter.release, &diagnostics));

    try testing.expectEqual(1, registry.len());
    registry.deinit();
    try testing.expectEqual(1, first.releases);
    try testing.expectEqual(0, second.releases);
}

fn failsWithZigError(_: void, _: [:0]const u8, _: aikido.Environment, _: *aikido.Reply) !void {
    return error.FileNotFound;
}

fn failsWithText(_: void, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    try reply.content("not shown");
    return reply.fail("file not found: /etc/nope");
}

fn reportsPanic(_: void, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    return reply.panicked("boom");
}

test "handler outcomes: Zig error, reported failure, reported panic" {
    const gpa = testing.allocator;
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "zig-error" }, {}, failsWithZigError, null, null);
    try registry.register(.{ .name = "fail" }, {}, failsWithText, null, null);
    try registry.register(.{ .name = "panic" }, {}, reportsPanic, null, null);
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();

    try testing.expectError(error.ToolFailed, registry.dispatch(gpa, .{ .name = "zig-error" }, .{}, &diagnostics));
    try testing.expectEqualStrings("FileNotFound", diagnostics.message.?);

    try testing.expectError(error.ToolFailed, registry.dispatch(gpa, .{ .name = "fail" }, .{}, &diagnostics));
    try testing.expectEqualStrings("file not found: /etc/nope", diagnostics.message.?);

    try testing.expectError(error.ToolPanicked, registry.dispatch(gpa, .{ .name = "panic" }, .{}, &diagnostics));
    try testing.expectEqualStrings("aikido/tools: tool panicked: tool \"panic\": boom", diagnostics.message.?);
}

fn rejectsBadText(_: void, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    try testing.expectError(error.InvalidInput, reply.content("\xff"));
    try testing.expectError(error.InvalidInput, reply.content("a\x00b"));
    try testing.expectEqual(error.InvalidInput, reply.fail("\xc3"));
    try reply.content("fine");
}

test "Reply: text that is not UTF-8 or holds NUL is refused, the reply unchanged" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "picky" }, {}, rejectsBadText, null, null);
    const content = try dispatchText(registry, "picky", "", .{});
    defer testing.allocator.free(content);
    try testing.expectEqualStrings("fine", content);
}

fn repliesWithBadText(_: void, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    try reply.content("caf\xe9");
}

test "Reply: a refused text that fails the handler is explained by the library" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "latin1" }, {}, repliesWithBadText, null, null);
    var diagnostics: aikido.Diagnostics = .init(testing.allocator);
    defer diagnostics.deinit();
    try testing.expectError(error.ToolFailed, registry.dispatch(testing.allocator, .{ .name = "latin1" }, .{}, &diagnostics));
    try testing.expectStringStartsWith(diagnostics.message.?, "aikido/tools: tool failed: tool \"latin1\"");
}

test "cancellation: a fired token stops the call before the handler runs" {
    var counter: Counter = .{};
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "count" }, &counter, Counter.handle, null, null);
    const token = try aikido.CancelToken.create();
    defer token.destroy();
    try testing.expect(!token.isFired());
    token.fire();
    try testing.expect(token.isFired());

    var diagnostics: aikido.Diagnostics = .init(testing.allocator);
    defer diagnostics.deinit();
    try testing.expectError(error.Cancelled, registry.dispatch(testing.allocator, .{ .name = "count" }, .{ .cancel = token }, &diagnostics));
    try testing.expectStringStartsWith(diagnostics.message.?, "aikido/tools: call cancelled");
    try testing.expectEqual(0, counter.calls.load(.monotonic));
}

fn firesItsOwnToken(_: void, _: [:0]const u8, environment: aikido.Environment, reply: *aikido.Reply) !void {
    if (environment.cancelled()) return reply.fail("cancelled before the handler ran");
    environment.cancel.?.fire();
    if (!environment.cancelled()) return reply.fail("the handler did not see the token fire");
    try reply.content("saw the cancellation");
}

test "cancellation: a running handler sees its token fire" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "long" }, {}, firesItsOwnToken, null, null);
    const token = try aikido.CancelToken.create();
    defer token.destroy();
    const content = try dispatchText(registry, "long", "", .{ .cancel = token });
    defer testing.allocator.free(content);
    try testing.expectEqualStrings("saw the cancellation", content);
    try testing.expect(!(aikido.Environment{}).cancelled());
}

/// Records the environment its handler saw.
const EnvironmentProbe = struct {
    session_id: [64]u8 = undefined,
    session_id_len: usize = 0,
    turn_id: aikido.Uuid = undefined,
    cancel: ?*const aikido.CancelToken = undefined,

    fn handle(probe: *EnvironmentProbe, _: [:0]const u8, environment: aikido.Environment, _: *aikido.Reply) !void {
        @memcpy(probe.session_id[0..environment.session_id.len], environment.session_id);
        probe.session_id_len = environment.session_id.len;
        probe.turn_id = environment.turn_id;
        probe.cancel = environment.cancel;
    }

    fn session(probe: *const EnvironmentProbe) []const u8 {
        return probe.session_id[0..probe.session_id_len];
    }
};

test "environment: session id, turn id and token reach the handler" {
    var probe: EnvironmentProbe = .{};
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "env" }, &probe, EnvironmentProbe.handle, null, null);
    const token = try aikido.CancelToken.create();
    defer token.destroy();

    const turn_id = aikido.uuid.v7();
    try testing.expectEqual(7, turn_id[6] >> 4);
    const content = try dispatchText(registry, "env", "", .{ .session_id = "conversation-1", .turn_id = turn_id, .cancel = token });
    defer testing.allocator.free(content);
    try testing.expectEqualStrings("", content);
    try testing.expectEqualStrings("conversation-1", probe.session());
    try testing.expectEqualSlices(u8, &turn_id, &probe.turn_id);
    try testing.expectEqual(token, probe.cancel.?);

    const text = aikido.uuid.format(turn_id);
    try testing.expectEqualSlices(u8, &turn_id, &try aikido.uuid.parse(&text ++ [_:0]u8{}));
    try testing.expectError(error.InvalidInput, aikido.uuid.parse("not a uuid"));
}

test "environment: the default is an empty session, the nil turn, no token" {
    var probe: EnvironmentProbe = .{};
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "env" }, &probe, EnvironmentProbe.handle, null, null);
    const content = try dispatchText(registry, "env", "", .{});
    defer testing.allocator.free(content);
    try testing.expectEqualStrings("", probe.session());
    try testing.expectEqualSlices(u8, &aikido.uuid.nil, &probe.turn_id);
    try testing.expectEqual(null, probe.cancel);
}

test "definitions: registration order; empty description and no parameters left out" {
    const gpa = testing.allocator;
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "zeta", .description = "Last letter.", .parameters = "{\"type\":\"object\"}" }, {}, reportsPanic, null, null);
    try registry.register(.{ .name = "alpha", .description = "" }, {}, reportsPanic, null, null);
    const json = try registry.definitions(gpa, null);
    defer gpa.free(json);
    try testing.expectEqualStrings(
        \\[{"name":"zeta","description":"Last letter.","parameters":{"type":"object"}},{"name":"alpha"}]
    , json);
}

test "unregister: an unknown name, and len" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try testing.expectEqual(0, registry.len());
    try registry.register(.{ .name = "one" }, {}, reportsPanic, null, null);
    try testing.expectEqual(1, registry.len());
    var diagnostics: aikido.Diagnostics = .init(testing.allocator);
    defer diagnostics.deinit();
    try testing.expectError(error.UnknownTool, registry.unregister("two", &diagnostics));
    try testing.expectStringStartsWith(diagnostics.message.?, "aikido/tools: unknown tool");
    try registry.unregister("one", null);
    try testing.expectEqual(0, registry.len());
}

test "schema helpers: the library's JSON, and refusals" {
    const gpa = testing.allocator;
    const number = try aikido.schema.number(gpa, null);
    defer gpa.free(number);
    try testing.expectEqualStrings("{\"type\":\"number\"}", number);
    const flag = try aikido.schema.boolean(gpa, "");
    defer gpa.free(flag);
    try testing.expectEqualStrings("{\"type\":\"boolean\"}", flag);
    const mode = try aikido.schema.enumeration(gpa, "Open mode.", &.{ "read", "write" });
    defer gpa.free(mode);
    try testing.expectEqualStrings("{\"description\":\"Open mode.\",\"enum\":[\"read\",\"write\"],\"type\":\"string\"}", mode);
    const modes = try aikido.schema.array(gpa, mode, "Modes.");
    defer gpa.free(modes);
    try testing.expectEqualStrings("{\"description\":\"Modes.\",\"items\":{\"description\":\"Open mode.\",\"enum\":[\"read\",\"write\"],\"type\":\"string\"},\"type\":\"array\"}", modes);
    const empty = try aikido.schema.object(gpa, &.{}, &.{}, null);
    defer gpa.free(empty);
    try testing.expectEqualStrings("{\"type\":\"object\"}", empty);

    try testing.expectError(error.InvalidInput, aikido.schema.array(gpa, "{oops", null));
    try testing.expectError(error.InvalidInput, aikido.schema.string(gpa, "\xff"));
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidInput, aikido.schema.object(gpa, &.{.{ .name = "x", .schema = "{oops" }}, &.{}, &diagnostics));
    try testing.expect(diagnostics.message.?.len > 0);
}

/// A tool that calls another tool of the same registry.
const Forwarder = struct {
    registry: aikido.Registry,

    fn handle(forwarder: *const Forwarder, arguments: [:0]const u8, environment: aikido.Environment, reply: *aikido.Reply) !void {
        const inner = try forwarder.registry.dispatch(testing.allocator, .{ .name = "count", .arguments = arguments }, environment, null);
        defer testing.allocator.free(inner);
        try reply.content(inner);
    }
};

test "handlers may dispatch on the registry that runs them" {
    var counter: Counter = .{};
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    const forwarder: Forwarder = .{ .registry = registry };
    try registry.register(.{ .name = "count" }, &counter, Counter.handle, null, null);
    try registry.register(.{ .name = "forward" }, &forwarder, Forwarder.handle, null, null);
    const content = try dispatchText(registry, "forward", "{}", .{});
    defer testing.allocator.free(content);
    try testing.expectEqualStrings("counted", content);
    try testing.expectEqual(1, counter.calls.load(.monotonic));
}

fn dispatchMany(registry: aikido.Registry, calls: usize) !void {
    for (0..calls) |_| {
        const content = try dispatchText(registry, "count", "{}", .{});
        testing.allocator.free(content);
    }
}

test "threads: one registry, many dispatching threads" {
    var counter: Counter = .{};
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.register(.{ .name = "count" }, &counter, Counter.handle, null, null);
    const calls_per_thread = 200;
    var threads: [4]std.Thread = undefined;
    for (&threads) |*thread| thread.* = try std.Thread.spawn(.{}, dispatchMany, .{ registry, calls_per_thread });
    for (threads) |thread| thread.join();
    try testing.expectEqual(threads.len * calls_per_thread, counter.calls.load(.monotonic));
}

test "uuid and version: the library's generators and its version string" {
    const random = aikido.uuid.v4();
    try testing.expectEqual(4, random[6] >> 4);
    try testing.expect(!std.mem.eql(u8, &random, &aikido.uuid.v4()));
    const parsed = try aikido.uuid.parse("{67E55044-10B1-426F-9247-BB680E5FE0C8}");
    try testing.expectEqualStrings("67e55044-10b1-426f-9247-bb680e5fe0c8", &aikido.uuid.format(parsed));
    try testing.expectEqualStrings(aikido.c.AIKIDO_VERSION, aikido.version());
}

test "raw C: lengths no buffer can have are refused, not read" {
    // aikido.c is the raw C API the binding re-exports: a length there is
    // the caller's own, so the library must refuse impossible ones.
    const c = aikido.c;
    const registry = c.aikido_registry_new();
    defer c.aikido_registry_free(registry);
    const text = "{}";
    for ([_]usize{ std.math.maxInt(usize), @as(usize, 1) << 63, std.math.maxInt(usize) - 1 }) |len| {
        const call: c.aikido_tool_call = .{ .id = null, .name = "tool", .arguments = text, .arguments_len = len };
        var content: [*c]u8 = null;
        var message: [*c]u8 = null;
        try testing.expectEqual(c.AIKIDO_ERR_INVALID_INPUT, c.aikido_registry_dispatch(registry, &call, null, &content, &message));
        defer c.aikido_string_free(message);
        try testing.expect(content == null);
        var said: [64]u8 = undefined;
        const expected = try std.fmt.bufPrint(&said, "call->arguments_len is {d}, more than any", .{len});
        try testing.expect(std.mem.indexOf(u8, std.mem.span(message), expected) != null);
    }
}
