//! Full argument validation through the binding: setValidation, the
//! messages of `.full`, the repairs of `.repair` (dispatchWithRepairs).
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;

const read_schema =
    \\{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"},"mode":{"enum":["r","w"]}},"required":["path"]}
;

fn echo(_: void, arguments: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    try reply.content(arguments);
}

test "validation: full reports every violation at its pointer" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.setValidation(.full, null);
    try registry.register(.{ .name = "read", .parameters = read_schema }, {}, echo, null, null);
    var diagnostics: aikido.Diagnostics = .init(testing.allocator);
    defer diagnostics.deinit();
    const call: aikido.ToolCall = .{ .name = "read", .arguments = "{\"path\":\"a\",\"limit\":\"200\",\"mode\":\"x\"}" };
    try testing.expectError(error.InvalidArguments, registry.dispatch(testing.allocator, call, .{}, &diagnostics));
    try testing.expectEqualStrings(
        "aikido/tools: invalid tool arguments for tool \"read\": /limit: expected integer, got string \"200\"; /mode: must be one of \"r\", \"w\"",
        diagnostics.message.?,
    );
}

test "validation: an invalid schema blocks the switch and is refused in full mode" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    var diagnostics: aikido.Diagnostics = .init(testing.allocator);
    defer diagnostics.deinit();
    try registry.register(.{ .name = "lenient", .parameters = "{\"type\":\"objekt\"}" }, {}, echo, null, null);
    try testing.expectError(error.InvalidInput, registry.setValidation(.full, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "tool \"lenient\"") != null);
    try registry.unregister("lenient", null);
    try registry.setValidation(.full, null);
    try testing.expectError(error.InvalidInput, registry.register(.{ .name = "strict", .parameters = "{\"type\":\"objekt\"}" }, {}, echo, null, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "not valid JSON Schema") != null);
}

test "validation: repair hands over the repaired text and reports each repair" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.setValidation(.repair, null);
    try registry.register(.{ .name = "read", .parameters = read_schema }, {}, echo, null, null);
    const repaired = try registry.dispatchWithRepairs(testing.allocator, .{ .name = "read", .arguments = "{\"path\":\"a\",\"limit\":\"200\"}" }, .{}, null);
    defer repaired.deinit(testing.allocator);
    try testing.expectEqualStrings("{\"path\":\"a\",\"limit\":200}", repaired.content);
    try testing.expectEqualStrings("[{\"pointer\":\"/limit\",\"from\":\"200\",\"to\":200}]", repaired.repairs);
    var diagnostics: aikido.Diagnostics = .init(testing.allocator);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidArguments, registry.dispatchWithRepairs(testing.allocator, .{ .name = "read", .arguments = "{\"path\":\"a\",\"limit\":\"2.5\"}" }, .{}, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "/limit: expected integer, got string \"2.5\"") != null);
}
