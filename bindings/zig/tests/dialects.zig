//! Provider dialects through the Zig binding, and the shared table
//! tests/cases/dialects.tsv (its header comment defines the columns).
const std = @import("std");
const aikido = @import("aikido");
const options = @import("test_options");
const testing = std.testing;

const read_schema = "{\"properties\":{\"limit\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"}},\"required\":[\"path\"],\"type\":\"object\"}";

fn echo(_: void, arguments: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    return reply.content(arguments);
}

fn diskFull(_: void, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    return reply.fail("disk full");
}

/// The two tools the shared table assumes: "read" echoes, "fail" fails.
fn dialectRegistry() !aikido.Registry {
    var registry = try aikido.Registry.init();
    errdefer registry.deinit();
    try registry.register(.{ .name = "read", .description = "Read a file.", .parameters = read_schema }, {}, echo, null, null);
    try registry.register(.{ .name = "fail" }, {}, diskFull, null, null);
    return registry;
}

test "dialects: definitions, respond and parse" {
    const gpa = testing.allocator;
    var registry = try dialectRegistry();
    defer registry.deinit();

    const anthropic = try registry.definitionsFor(gpa, .anthropic, .{}, null);
    defer gpa.free(anthropic);
    try testing.expectEqualStrings("[{\"name\":\"read\",\"description\":\"Read a file.\",\"input_schema\":" ++ read_schema ++
        "},{\"name\":\"fail\",\"input_schema\":{\"type\":\"object\",\"properties\":{}}}]", anthropic);
    const strict = try registry.definitionsFor(gpa, .openai_chat, .{ .strict = true }, null);
    defer gpa.free(strict);
    try testing.expect(std.mem.indexOf(u8, strict, "\"strict\":true") != null);

    const reply = "{\"type\":\"message\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"read\",\"input\":{\"path\": \"/z\"}},{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"fail\",\"input\":{}}]}";
    const messages = try registry.respond(gpa, .anthropic, reply, .{ .session_id = "s" }, .{}, null);
    defer gpa.free(messages);
    try testing.expectEqualStrings("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"{\\\"path\\\":\\\"/z\\\"}\"},{\"type\":\"tool_result\",\"tool_use_id\":\"t2\",\"content\":\"disk full\",\"is_error\":true}]}]", messages);

    const calls = try aikido.parseToolCalls(gpa, .anthropic, reply, null);
    defer gpa.free(calls);
    try testing.expectEqualStrings("[{\"id\":\"t1\",\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\\\"/z\\\"}\"},{\"id\":\"t2\",\"name\":\"fail\",\"arguments\":\"{}\"}]", calls);
    {
        var array = try aikido.readToolCalls(.anthropic, reply, null);
        defer array.deinit();
        try testing.expectEqual(2, array.len());
        var iterator = array.iterator();
        const first = iterator.next().?;
        try testing.expectEqualStrings("t1", std.mem.span(first.id));
        try testing.expectEqualStrings("read", std.mem.span(first.name));
        try testing.expectEqualStrings("{\"path\":\"/z\"}", first.arguments[0..first.arguments_len]);
        try testing.expectEqualStrings("fail", std.mem.span(iterator.next().?.name));
        try testing.expect(iterator.next() == null);
        var out_of_range: aikido.Diagnostics = .init(gpa);
        defer out_of_range.deinit();
        try testing.expectError(error.InvalidInput, array.get(2, &out_of_range));
        try testing.expectEqualStrings("aikido/tools: invalid input: index 2 is out of range: the array holds 2 items", out_of_range.message.?);
    }

    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidInput, registry.respond(gpa, .openai_chat, reply, .{}, .{}, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "looks like an Anthropic Messages reply") != null);

    const token = try aikido.CancelToken.create();
    defer token.destroy();
    token.fire();
    const cancelled = try registry.respond(gpa, .anthropic, reply, .{ .cancel = token }, .{ .sequential = true }, null);
    defer gpa.free(cancelled);
    try testing.expect(std.mem.indexOf(u8, cancelled, "call cancelled") != null);
}

test "parity: every case of the shared dialect table" {
    const gpa = testing.allocator;
    var arena_state: std.heap.ArenaAllocator = .init(gpa);
    defer arena_state.deinit();
    const arena = arena_state.allocator();
    const table = try std.Io.Dir.cwd().readFileAlloc(testing.io, options.dialect_cases, arena, .limited(1 << 20));
    var registry = try dialectRegistry();
    defer registry.deinit();

    var cases: usize = 0;
    var failed: usize = 0;
    var lines = std.mem.splitScalar(u8, table, '\n');
    while (lines.next()) |line| {
        if (line.len == 0 or line[0] == '#') continue;
        var column: [7][]const u8 = undefined;
        var fields = std.mem.splitScalar(u8, line, '\t');
        for (&column) |*field| field.* = fields.next() orelse return error.TooFewColumns;
        if (fields.next() != null) return error.TooManyColumns;
        cases += 1;
        const dialect: aikido.Dialect = @fromBackingInt(@intCast(try std.fmt.parseInt(u32, column[2], 10)));
        const flags: aikido.Flags = @bitCast(try std.fmt.parseInt(u32, column[3], 10));
        var diagnostics: aikido.Diagnostics = .init(gpa);
        defer diagnostics.deinit();
        const out = if (std.mem.eql(u8, column[1], "definitions"))
            registry.definitionsFor(gpa, dialect, flags, &diagnostics)
        else if (std.mem.eql(u8, column[1], "calls"))
            callsText(gpa, dialect, column[4], &diagnostics)
        else if (std.mem.eql(u8, column[1], "parse"))
            aikido.parseToolCalls(gpa, dialect, column[4], &diagnostics)
        else
            registry.respond(gpa, dialect, column[4], .{}, flags, &diagnostics);
        defer if (out) |text| gpa.free(text) else |_| {};
        const status = if (out) |_| "AIKIDO_OK" else |err| switch (err) {
            error.InvalidInput => "AIKIDO_ERR_INVALID_INPUT",
            else => @errorName(err),
        };
        const text = out catch diagnostics.message orelse "";
        const ok = std.mem.eql(u8, status, column[5]) and if (out) |_|
            std.mem.eql(u8, text, column[6])
        else |_|
            std.mem.indexOf(u8, text, column[6]) != null;
        if (!ok) {
            std.debug.print("case {s}: got {s} {s}\n  want {s} {s}\n", .{ column[0], status, text, column[5], column[6] });
            failed += 1;
        }
    }
    if (cases < 25) return error.TooFewCases;
    if (failed != 0) return error.CasesFailed;
}

/// The calls of a reply as tests/cases/dialects.tsv writes them:
/// `[id] name arguments`, joined by ` | `, or `(none)`; owned by `gpa`.
fn callsText(gpa: std.mem.Allocator, dialect: aikido.Dialect, reply: []const u8, diagnostics: *aikido.Diagnostics) ![:0]u8 {
    var calls = try aikido.readToolCalls(dialect, reply, diagnostics);
    defer calls.deinit();
    var text: std.ArrayList(u8) = .empty;
    defer text.deinit(gpa);
    var iterator = calls.iterator();
    while (iterator.next()) |call| {
        if (text.items.len > 0) try text.appendSlice(gpa, " | ");
        try text.print(gpa, "[{s}] {s} {s}", .{ std.mem.span(call.id), std.mem.span(call.name), call.arguments[0..call.arguments_len] });
    }
    if (text.items.len == 0) try text.appendSlice(gpa, "(none)");
    return gpa.dupeSentinel(u8, text.items, 0);
}
