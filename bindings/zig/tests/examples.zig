//! The three examples of the seed (the Go package's documentation), with
//! the same outputs.
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;

test "Object: the seed's schema, byte for byte" {
    const gpa = testing.allocator;
    const path = try aikido.schema.string(gpa, "File to read.");
    defer gpa.free(path);
    const limit = try aikido.schema.integer(gpa, "Maximum lines.");
    defer gpa.free(limit);
    const object = try aikido.schema.object(gpa, &.{
        .{ .name = "path", .schema = path },
        .{ .name = "limit", .schema = limit },
    }, &.{"path"}, null);
    defer gpa.free(object);
    try testing.expectEqualStrings(
        \\{"properties":{"limit":{"description":"Maximum lines.","type":"integer"},"path":{"description":"File to read.","type":"string"}},"required":["path"],"type":"object"}
    , object);
}

fn greet(_: void, arguments: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    var buffer: [512]u8 = undefined;
    var scratch: std.heap.FixedBufferAllocator = .init(&buffer);
    const parsed = try std.json.parseFromSliceLeaky(struct { name: []const u8 }, scratch.allocator(), arguments, .{});
    try reply.content(try std.fmt.allocPrint(scratch.allocator(), "Hello, {s}!", .{parsed.name}));
}

test "Registry: greet says Hello, Ada!" {
    const gpa = testing.allocator;
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    const name = try aikido.schema.string(gpa, "Who to greet.");
    defer gpa.free(name);
    const parameters = try aikido.schema.object(gpa, &.{.{ .name = "name", .schema = name }}, &.{"name"}, null);
    defer gpa.free(parameters);
    try registry.register(.{
        .name = "greet",
        .description = "Greet a person by name.",
        .parameters = parameters,
    }, {}, greet, null, null);

    const content = try registry.dispatch(gpa, .{ .id = "call-1", .name = "greet", .arguments =
        \\{"name":"Ada"}
    }, .{ .session_id = "conversation-1" }, null);
    defer gpa.free(content);
    try testing.expectEqualStrings("Hello, Ada!", content);
}

fn divide(_: void, _: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    return reply.panicked("division by zero");
}

test "Registry.dispatch: divide refuses, panics, and multiply is unknown" {
    const gpa = testing.allocator;
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    const by = try aikido.schema.integer(gpa, "Divisor.");
    defer gpa.free(by);
    const parameters = try aikido.schema.object(gpa, &.{.{ .name = "by", .schema = by }}, &.{"by"}, null);
    defer gpa.free(parameters);
    try registry.register(.{ .name = "divide", .parameters = parameters }, {}, divide, null, null);

    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidArguments, registry.dispatch(gpa, .{ .name = "divide", .arguments = "{}" }, .{}, &diagnostics));
    try testing.expectStringStartsWith(diagnostics.message.?, "aikido/tools: invalid tool arguments");

    try testing.expectError(error.ToolPanicked, registry.dispatch(gpa, .{ .name = "divide", .arguments = "{\"by\":0}" }, .{}, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "division by zero") != null);
    try testing.expectStringStartsWith(diagnostics.message.?, "aikido/tools: tool panicked");

    try testing.expectError(error.UnknownTool, registry.dispatch(gpa, .{ .name = "multiply" }, .{}, &diagnostics));
    try testing.expectStringStartsWith(diagnostics.message.?, "aikido/tools: unknown tool \"multiply\"");
}
