//! The dispatch cases every language runs (tests/cases/dispatch.tsv; its
//! header comment defines the format), through this binding.
const std = @import("std");
const aikido = @import("aikido");
const options = @import("test_options");
const testing = std.testing;
const Allocator = std.mem.Allocator;

/// One line of the table, with its escapes decoded.
const Case = struct {
    name: []const u8,
    schema: ?[:0]const u8,
    handler: []const u8,
    call: [:0]const u8,
    arguments: []const u8,
    status: []const u8,
    fragment: []const u8,
    cancelled: bool,
    /// The registry's validation mode (flags `full`, `repair`).
    validation: aikido.Validation,
};

/// The probe tool: does what the case's handler column says.
fn probe(case: *const Case, arguments: [:0]const u8, _: aikido.Environment, reply: *aikido.Reply) !void {
    if (std.mem.eql(u8, case.handler, "echo")) return reply.content(arguments);
    if (std.mem.cutPrefix(u8, case.handler, "content:")) |text| return reply.content(text);
    if (std.mem.cutPrefix(u8, case.handler, "fail:")) |text| return reply.fail(text);
    if (std.mem.cutPrefix(u8, case.handler, "panic:")) |text| return reply.panicked(text);
    return error.UnknownHandlerColumn;
}

/// The status a result stands for, by its AIKIDO_* name.
fn statusName(err: anyerror) []const u8 {
    return switch (err) {
        error.DuplicateTool => "AIKIDO_ERR_DUPLICATE_TOOL",
        error.UnknownTool => "AIKIDO_ERR_UNKNOWN_TOOL",
        error.InvalidArguments => "AIKIDO_ERR_INVALID_ARGUMENTS",
        error.ToolPanicked => "AIKIDO_ERR_TOOL_PANICKED",
        error.ToolFailed => "AIKIDO_ERR_TOOL_FAILED",
        error.InvalidInput => "AIKIDO_ERR_INVALID_INPUT",
        error.Cancelled => "AIKIDO_ERR_CANCELLED",
        else => @errorName(err),
    };
}

test "parity: every case of the shared dispatch table" {
    var arena_state: std.heap.ArenaAllocator = .init(testing.allocator);
    defer arena_state.deinit();
    const arena = arena_state.allocator();
    const table = try std.Io.Dir.cwd().readFileAlloc(testing.io, options.dispatch_cases, arena, .limited(1 << 20));
    const cases = try parseTable(arena, table);
    if (cases.len < 40) {
        std.debug.print("the case table has lost cases: {d}\n", .{cases.len});
        return error.TooFewCases;
    }

    var failed: usize = 0;
    for (cases) |*case| {
        run(case) catch |err| {
            std.debug.print("case {s}: {t}\n", .{ case.name, err });
            failed += 1;
        };
    }
    if (failed != 0) {
        std.debug.print("parity: {d} of {d} cases failed\n", .{ failed, cases.len });
        return error.CasesFailed;
    }
}

/// Registers the probe in a fresh registry, makes the call and compares
/// status and text with the case.
fn run(case: *const Case) !void {
    const gpa = testing.allocator;
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    try registry.setValidation(case.validation, null);
    try registry.register(.{ .name = "probe", .parameters = case.schema }, case, probe, null, null);

    const token = try aikido.CancelToken.create();
    defer token.destroy();
    if (case.cancelled) token.fire();

    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    const content = registry.dispatch(gpa, .{
        .id = "call-1",
        .name = case.call,
        .arguments = case.arguments,
    }, .{ .cancel = token }, &diagnostics);
    defer if (content) |text| gpa.free(text) else |_| {};
    const status = if (content) |_| "AIKIDO_OK" else |err| statusName(err);
    const text = content catch diagnostics.message orelse "";

    if (!std.mem.eql(u8, status, case.status) or std.mem.indexOf(u8, text, case.fragment) == null) {
        std.debug.print("case {s}: got {s} \"{f}\"; want {s} containing \"{f}\"\n", .{
            case.name, status, std.zig.fmtString(shortened(text)), case.status, std.zig.fmtString(case.fragment),
        });
        return error.CaseFailed;
    }
}

/// Long texts (the deep-nesting echoes) cut for the failure report.
fn shortened(text: []const u8) []const u8 {
    return text[0..@min(text.len, 200)];
}

fn parseTable(arena: Allocator, table: []const u8) ![]Case {
    var cases: std.ArrayList(Case) = .empty;
    var lines = std.mem.splitScalar(u8, table, '\n');
    while (lines.next()) |line| {
        if (line.len == 0 or line[0] == '#') continue;
        var columns: [8][]const u8 = undefined;
        var fields = std.mem.splitScalar(u8, line, '\t');
        for (&columns) |*column| column.* = fields.next() orelse return error.TooFewColumns;
        if (fields.next() != null) return error.TooManyColumns;
        try cases.append(arena, .{
            .name = columns[0],
            .schema = if (std.mem.eql(u8, columns[1], "-")) null else try arena.dupeSentinel(u8, columns[1], 0),
            .handler = columns[2],
            .call = try arena.dupeSentinel(u8, columns[3], 0),
            .arguments = try argumentsColumn(arena, columns[4]),
            .status = columns[5],
            .fragment = try unescape(arena, columns[6]),
            .cancelled = hasFlag(columns[7], "cancelled"),
            .validation = if (hasFlag(columns[7], "repair")) .repair else if (hasFlag(columns[7], "full")) .full else .required,
        });
    }
    return cases.items;
}

fn hasFlag(flags: []const u8, wanted: []const u8) bool {
    var names = std.mem.splitScalar(u8, flags, ',');
    while (names.next()) |name| if (std.mem.eql(u8, name, wanted)) return true;
    return false;
}

/// The arguments column: `@deep:N` or escaped text.
fn argumentsColumn(arena: Allocator, column: []const u8) ![]const u8 {
    const depth_text = std.mem.cutPrefix(u8, column, "@deep:") orelse return unescape(arena, column);
    const depth = try std.fmt.parseInt(usize, depth_text, 10);
    var out: std.ArrayList(u8) = .empty;
    try out.appendSlice(arena, "{\"a\":");
    try out.appendNTimes(arena, '[', depth);
    try out.appendNTimes(arena, ']', depth);
    try out.append(arena, '}');
    return out.items;
}

/// Decodes the table's escapes: \t \n \r \\ and \xHH (one raw byte).
fn unescape(arena: Allocator, text: []const u8) ![]const u8 {
    var out: std.ArrayList(u8) = .empty;
    var index: usize = 0;
    while (index < text.len) : (index += 1) {
        if (text[index] != '\\' or index + 1 == text.len) {
            try out.append(arena, text[index]);
            continue;
        }
        index += 1;
        try out.append(arena, switch (text[index]) {
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            '\\' => '\\',
            'x' => byte: {
                if (index + 2 >= text.len) return error.ShortHexEscape;
                index += 2;
                break :byte try std.fmt.parseInt(u8, text[index - 1 .. index + 1], 16);
            },
            else => return error.UnknownEscape,
        });
    }
    return out.items;
}
