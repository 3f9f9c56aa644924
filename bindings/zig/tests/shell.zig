//! The virtual bash from Zig: the bash tool through a registry (result
//! text, sessions, restart, limits) and direct runs with `aikido.Shell`
//! (results, exit codes, write sets, limits, cancellation, reset, bad input).
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;
const gpa = testing.allocator;

fn expectBash(registry: aikido.Registry, session: [:0]const u8, arguments: []const u8, want: []const u8) !void {
    const content = try registry.dispatch(gpa, .{ .name = "bash", .arguments = arguments }, .{ .session_id = session }, null);
    defer gpa.free(content);
    try testing.expectEqualStrings(want, content);
}

test "shell: the bash tool through a registry" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    try registry.registerShellTool(storage, null, null);
    try expectBash(registry, "s1", "{\"command\":\"echo hi > f; cat f\"}", "hi\n[exit code: 0]");
    const file = try storage.read(gpa, "/f", null);
    defer gpa.free(file);
    try testing.expectEqualStrings("hi\n", file);

    // State persists per session; another session has its own shell.
    try expectBash(registry, "s1", "{\"command\":\"X=42; mkdir /d; cd /d\"}", "[exit code: 0]");
    try expectBash(registry, "s1", "{\"command\":\"echo $X; pwd\"}", "42\n/d\n[exit code: 0]");
    try expectBash(registry, "s2", "{\"command\":\"echo ${X:-unset}\"}", "unset\n[exit code: 0]");
    try expectBash(registry, "s1", "{\"command\":\"cat /nope; exit 3\"}", "[stderr]\ncat: /nope: No such file or directory\n[exit code: 3]");
    try expectBash(registry, "s1", "{\"command\":\"\",\"restart\":true}", "[shell restarted]\n[exit code: 0]");
    try expectBash(registry, "s1", "{\"command\":\"echo ${X:-unset}; pwd\"}", "unset\n/\n[exit code: 0]");

    try testing.expectError(error.InvalidArguments, registry.dispatch(gpa, .{ .name = "bash", .arguments = "{}" }, .{}, null));
    try testing.expectError(error.DuplicateTool, registry.registerShellTool(storage, null, null));

    var limited = try aikido.Registry.init();
    defer limited.deinit();
    try limited.registerShellTool(storage, .{ .max_loop_iterations = 100 }, null);
    const stopped = try limited.dispatch(gpa, .{ .name = "bash", .arguments = "{\"command\":\"while true; do :; done\"}" }, .{}, null);
    defer gpa.free(stopped);
    try testing.expect(std.mem.endsWith(u8, stopped, "[stopped: loop iteration limit reached]\n[exit code: 125]"));

    // A long result keeps its head and tail; the whole is saved as a file.
    var cut = try aikido.Registry.init();
    defer cut.deinit();
    try cut.registerShellTool(storage, .{ .max_result_bytes = 1000 }, null);
    const long = try cut.dispatch(gpa, .{ .name = "bash", .arguments = "{\"command\":\"seq 1 10000\"}" }, .{}, null);
    defer gpa.free(long);
    try testing.expect(long.len < 1300);
    try testing.expect(std.mem.startsWith(u8, long, "1\n2\n3\n"));
    try testing.expect(std.mem.endsWith(u8, long, "9999\n10000\n[exit code: 0]"));
    try testing.expect(std.mem.indexOf(u8, long, "/tmp/aikido-bash/output-") != null);
}

test "shell: pipelines stream and their stages are bounded" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.init(storage, null);
    defer shell.deinit();
    var result = try shell.run(gpa, "yes | head -n 2; echo ${PIPESTATUS[@]}", null, null);
    try testing.expectEqualStrings("y\ny\n141 0\n", result.stdout);
    result.deinit(gpa);
    const stages = comptime blk: {
        var text: []const u8 = "true";
        for (0..300) |_| text = text ++ " | true";
        break :blk text;
    };
    result = try shell.run(gpa, stages, null, null);
    try testing.expectEqual(.threads, result.limit);
    try testing.expectEqual(125, result.exit_code);
    result.deinit(gpa);
}

test "shell: direct runs" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.init(storage, null);
    defer shell.deinit();

    var result = try shell.run(gpa, "echo hi > /f; cat /f; echo err >&2; X=5; exit 3", null, null);
    try testing.expectEqualStrings("hi\n", result.stdout);
    try testing.expectEqualStrings("err\n", result.stderr);
    try testing.expectEqual(3, result.exit_code);
    try testing.expect(!result.truncated);
    try testing.expectEqual(.none, result.limit);
    result.deinit(gpa);

    result = try shell.run(gpa, "printf 'a\\0b'", null, null);
    try testing.expectEqualStrings("a\x00b", result.stdout);
    result.deinit(gpa);

    result = try shell.run(gpa, "no_such_command", null, null);
    try testing.expectEqual(127, result.exit_code);
    try testing.expect(std.mem.indexOf(u8, result.stderr, "command not found") != null);
    result.deinit(gpa);

    result = try shell.run(gpa, "echo ${X:-none}", null, null);
    try testing.expectEqualStrings("5\n", result.stdout);
    result.deinit(gpa);
    shell.reset();
    result = try shell.run(gpa, "echo ${X:-none}; cat /f", null, null);
    try testing.expectEqualStrings("none\nhi\n", result.stdout);
    result.deinit(gpa);

    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidInput, shell.run(gpa, "echo a\x00b", null, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "NUL") != null);
}

fn expectPaths(want: []const []const u8, got: []const []const u8) !void {
    try testing.expectEqual(want.len, got.len);
    for (want, got) |want_path, got_path| try testing.expectEqualStrings(want_path, got_path);
}

test "shell: the write set" {
    var lower = try aikido.Storage.memory(.{});
    defer lower.deinit();
    var dry_run = try lower.dryRun();
    defer dry_run.deinit();
    var shell = try aikido.Shell.init(dry_run, null);
    defer shell.deinit();

    // Created, changed or removed, sorted, once each: /x was written, then removed.
    var result = try shell.run(gpa, "echo a > /x; mkdir -p /d; echo b > /d/y; rm /x", null, null);
    try testing.expectEqual(0, result.exit_code);
    try expectPaths(&.{ "/d", "/d/y", "/x" }, result.write_set);
    result.deinit(gpa);
    const below = try lower.list(gpa, "/", null);
    defer below.deinit();
    try testing.expectEqual(0, below.value.len); // a dry run: the storage below is unchanged

    result = try shell.run(gpa, "echo hi; cat /d/y; ls /", null, null);
    try testing.expectEqualStrings("hi\nb\nd\n", result.stdout);
    try expectPaths(&.{}, result.write_set);
    result.deinit(gpa);

    // Names the library's JSON escapes: \\, \n, \" and \u0001.
    result = try shell.run(gpa, "echo > '/b\\s'; echo > $'/n\\nl'; echo > '/q\"b'; echo > $'/u\\x01'", null, null);
    defer result.deinit(gpa);
    try testing.expectEqual(0, result.exit_code);
    try expectPaths(&.{ "/b\\s", "/n\nl", "/q\"b", "/u\x01" }, result.write_set);
}

test "shell: limits and cancellation" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.init(storage, .{ .max_loop_iterations = 100 });
    defer shell.deinit();
    var result = try shell.run(gpa, "while true; do :; done", null, null);
    try testing.expectEqual(.loop_iterations, result.limit);
    try testing.expectEqual(125, result.exit_code);
    result.deinit(gpa);

    var small = try aikido.Shell.init(storage, .{ .max_output_bytes = 16 });
    defer small.deinit();
    result = try small.run(gpa, "for i in 1 2 3; do echo 0123456789; done", null, null);
    try testing.expectEqual(16, result.stdout.len);
    try testing.expect(result.truncated);
    try testing.expectEqual(.output, result.limit);
    result.deinit(gpa);

    var frugal = try aikido.Shell.init(storage, .{ .max_memory_bytes = 1 << 20 });
    defer frugal.deinit();
    result = try frugal.run(gpa, "x=$(printf '%*s' 100000 ''); y=${x// /$x}", null, null);
    try testing.expectEqual(.memory, result.limit);
    try testing.expectEqual(125, result.exit_code);
    result.deinit(gpa);

    const token = try aikido.CancelToken.create();
    defer token.destroy();
    token.fire();
    result = try shell.run(gpa, "while true; do :; done", token, null);
    try testing.expectEqual(130, result.exit_code);
    try testing.expectEqual(.cancelled, result.limit);
    result.deinit(gpa);
}

fn runWritingTwo(allocator: std.mem.Allocator, shell: aikido.Shell) !void {
    var result = try shell.run(allocator, "echo > /a; echo > /b", null, null);
    defer result.deinit(allocator);
    try testing.expectEqual(2, result.write_set.len);
}

test "shell: a run whose allocations fail in turn leaks nothing" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.init(storage, null);
    defer shell.deinit();
    try testing.checkAllAllocationFailures(gpa, runWritingTwo, .{shell});
}
