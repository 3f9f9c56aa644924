const std = @import("std");
const aikido = @import("aikido");

/// The tool's state, captured at registration.
const Greeter = struct {
    salutation: []const u8,

    /// The handler: greets the person the checked arguments name.
    fn greet(greeter: *const Greeter, arguments: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
        var buffer: [1024]u8 = undefined;
        var scratch: std.heap.FixedBufferAllocator = .init(&buffer);
        const Arguments = struct { name: []const u8 };
        const parsed = try std.json.parseFromSliceLeaky(Arguments, scratch.allocator(), arguments, .{ .ignore_unknown_fields = true });
        try reply.content(try std.fmt.allocPrint(scratch.allocator(), "{s}, {s}!", .{ greeter.salutation, parsed.name }));
    }
};

pub fn main(init: std.process.Init) !void {
    const gpa = init.gpa;
    var stdout_buffer: [4096]u8 = undefined;
    var stdout_writer = std.Io.File.stdout().writer(init.io, &stdout_buffer);
    const stdout = &stdout_writer.interface;

    var registry = try aikido.Registry.init();
    defer registry.deinit();

    const name = try aikido.schema.string(gpa, "Who to greet.");
    defer gpa.free(name);
    const parameters = try aikido.schema.object(gpa, &.{.{ .name = "name", .schema = name }}, &.{"name"}, null);
    defer gpa.free(parameters);

    const greeter: Greeter = .{ .salutation = "Hello" };
    try registry.register(.{
        .name = "greet",
        .description = "Greet a person by name.",
        .parameters = parameters,
    }, &greeter, Greeter.greet, null, null);

    // What a model API wants as the list of tools.
    const definitions = try registry.definitions(gpa, null);
    defer gpa.free(definitions);
    try stdout.print("{s}\n", .{definitions});

    // One call of the model's reply.
    const content = try registry.dispatch(gpa, .{ .id = "call-1", .name = "greet", .arguments =
        \\{"name":"Ada"}
    }, .{ .session_id = "conversation-1", .turn_id = aikido.uuid.v7() }, null);
    defer gpa.free(content);
    try stdout.print("{s}\n", .{content});

    // A call the library refuses: the message is written for the model.
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    if (registry.dispatch(gpa, .{ .name = "greet", .arguments = "{}" }, .{}, &diagnostics)) |unexpected| {
        gpa.free(unexpected);
        return error.CallShouldHaveFailed;
    } else |err| {
        try stdout.print("error.{s}: {s}\n", .{ @errorName(err), diagnostics.message.? });
    }
    try stdout.flush();
}
