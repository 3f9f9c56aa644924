//! The virtual file storage from Zig: round trips, errors and their
//! messages, composition, the overlay's diff/commit/discard, the dry run,
//! mounts, policy, host folders, and the file tools through a registry.
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;
const gpa = testing.allocator;

fn expectFile(storage: aikido.Storage, path: [:0]const u8, want: []const u8) !void {
    const data = try storage.read(gpa, path, null);
    defer gpa.free(data);
    try testing.expectEqualStrings(want, data);
}

/// Expects `result` to fail with `want`, the library's message `message`.
fn expectFailure(want: anyerror, message: []const u8, result: anytype, diagnostics: *aikido.Diagnostics) !void {
    if (result) |_| return error.TestExpectedError else |err| try testing.expectEqual(want, err);
    try testing.expectEqualStrings(message, diagnostics.message.?);
}

/// "name:kind" of each entry, space-separated, owned by `gpa`.
fn names(storage: aikido.Storage, path: [:0]const u8) ![]u8 {
    const listing = try storage.list(gpa, path, null);
    defer listing.deinit();
    var text: std.ArrayList(u8) = .empty;
    errdefer text.deinit(gpa);
    for (listing.value, 0..) |entry, i| {
        if (i > 0) try text.append(gpa, ' ');
        try text.appendSlice(gpa, entry.name);
        try text.append(gpa, ':');
        try text.appendSlice(gpa, @tagName(entry.kind));
    }
    return text.toOwnedSlice(gpa);
}

fn expectNames(storage: aikido.Storage, path: [:0]const u8, want: []const u8) !void {
    const got = try names(storage, path);
    defer gpa.free(got);
    try testing.expectEqualStrings(want, got);
}

test "storage: round trips" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    try storage.mkdir("/a/b", .{ .parents = true }, null);
    try storage.write("/a/b/one.txt", "one", null);
    try storage.append("a/b/one.txt", " two", null);
    try expectFile(storage, "/a/./b/../b/one.txt", "one two");
    try storage.write("/bin", &.{ 0, 1, 2, 0, 255 }, null);
    try expectFile(storage, "/bin", &.{ 0, 1, 2, 0, 255 });
    try storage.write("/empty", "", null);
    try expectFile(storage, "/empty", "");

    const stat = try storage.stat("/a/b/one.txt", null);
    try testing.expectEqual(aikido.FileKind.file, stat.kind);
    try testing.expectEqual(7, stat.size);
    try testing.expectEqual(0o644, stat.mode);
    try testing.expect(stat.modified_unix_ms > 0);

    try storage.symlink("a/b", "/link", null);
    const target = try storage.readlink(gpa, "/link", null);
    defer gpa.free(target);
    try testing.expectEqualStrings("a/b", target);
    try testing.expectEqual(aikido.FileKind.directory, (try storage.stat("/link", null)).kind);
    try storage.write("/odd \"name\"\\\t", "x", null);
    try expectNames(storage, "/", "a:directory bin:file empty:file link:symlink odd \"name\"\\\t:file");

    try storage.rename("/a", "/z", null);
    try storage.remove("/z", .{ .recursive = true }, null);
    try storage.remove("/empty", .{}, null);
    try expectNames(storage, "/", "bin:file link:symlink odd \"name\"\\\t:file");
}

test "storage: errors and their messages" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try storage.mkdir("/a", .{}, null);
    try storage.write("/a/f", "x", null);
    try expectFailure(error.Storage, "/missing: No such file or directory", storage.read(gpa, "/missing", &diagnostics), &diagnostics);
    try expectFailure(error.Storage, "/a: Directory not empty", storage.remove("/a", .{}, &diagnostics), &diagnostics);
    try expectFailure(error.Storage, "/a: File exists", storage.mkdir("/a", .{}, &diagnostics), &diagnostics);
    try expectFailure(error.Storage, "/a/inside: Invalid argument", storage.rename("/a", "/a/inside", &diagnostics), &diagnostics);
    try expectFailure(error.Storage, "/a/f: Not a directory", storage.list(gpa, "/a/f", &diagnostics), &diagnostics);
    try expectFailure(error.Storage, "/nope: No such file or directory", storage.stat("/nope", &diagnostics), &diagnostics);
    try expectFailure(error.InvalidInput, "aikido/tools: invalid input: path is not valid UTF-8", storage.mkdir("\xff", .{}, &diagnostics), &diagnostics);
    try expectFailure(error.InvalidInput, "aikido/tools: invalid input: only an overlay or a dry run has a diff", storage.diff(gpa, &diagnostics), &diagnostics);
    // Without diagnostics the error alone comes back.
    try testing.expectError(error.Storage, storage.read(gpa, "/missing", null));

    var limited = try aikido.Storage.memory(.{ .max_total_bytes = 10, .max_file_bytes = 6 });
    defer limited.deinit();
    try limited.write("/a", "123456", null);
    try expectFailure(error.Storage, "/b: File too large (the limit is 6 bytes)", limited.write("/b", "1234567", &diagnostics), &diagnostics);
    try limited.write("/b", "1234", null);
    try expectFailure(error.Storage, "/b: File too large (the limit is 10 bytes)", limited.append("/b", "5", &diagnostics), &diagnostics);
    try expectFile(limited, "/b", "1234");
}

test "storage: overlay, dry run and read-only view" {
    var lower = try aikido.Storage.memory(.{});
    try lower.write("/keep.txt", "keep", null);
    try lower.write("/gone.txt", "gone", null);
    var overlay = try lower.overlay();
    defer overlay.deinit();
    try overlay.write("/keep.txt", "changed", null);
    try overlay.write("/new.txt", "new", null);
    try overlay.remove("/gone.txt", .{}, null);
    try expectFile(lower, "/keep.txt", "keep");
    {
        const changes = try overlay.diff(gpa, null);
        defer changes.deinit();
        try testing.expectEqual(3, changes.value.len);
        try testing.expectEqualStrings("/gone.txt", changes.value[0].path);
        try testing.expectEqual(.deleted, changes.value[0].change);
        try testing.expectEqual(.modified, changes.value[1].change);
        try testing.expectEqualStrings("/new.txt", changes.value[2].path);
        try testing.expectEqual(.added, changes.value[2].change);
    }
    try overlay.commit(null);
    try expectFile(lower, "/keep.txt", "changed");
    try expectFile(lower, "/new.txt", "new");
    {
        const changes = try overlay.diff(gpa, null);
        defer changes.deinit();
        try testing.expectEqual(0, changes.value.len);
    }
    try overlay.write("/keep.txt", "again", null);
    try overlay.discard(null);
    try expectFile(overlay, "/keep.txt", "changed");

    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    var dry_run = try lower.dryRun();
    defer dry_run.deinit();
    try dry_run.write("/planned.txt", "plan", null);
    {
        const changes = try dry_run.diff(gpa, null);
        defer changes.deinit();
        try testing.expectEqual(1, changes.value.len);
        try testing.expectEqualStrings("/planned.txt", changes.value[0].path);
    }
    try expectFailure(error.InvalidInput, "aikido/tools: invalid input: only an overlay can commit", dry_run.commit(&diagnostics), &diagnostics);

    var read_only = try lower.readOnly();
    defer read_only.deinit();
    try expectFailure(error.Storage, "/keep.txt: Read-only file system", read_only.write("/keep.txt", "x", &diagnostics), &diagnostics);
    lower.deinit(); // the composed storages keep their share
    try expectFile(read_only, "/new.txt", "new");
    try expectFile(dry_run, "/planned.txt", "plan");
}

test "storage: mounts and policy" {
    var root = try aikido.Storage.memory(.{});
    defer root.deinit();
    var data = try aikido.Storage.memory(.{});
    defer data.deinit();
    try root.write("/top.txt", "top", null);
    try data.write("/inside.txt", "inside", null);
    var mounted = try root.mount("/mnt/data", data);
    defer mounted.deinit();
    try expectFile(mounted, "/mnt/data/inside.txt", "inside");
    try expectNames(mounted, "/", "mnt:directory top.txt:file");
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try expectFailure(error.Storage, "/mnt/data/top.txt: Invalid cross-device link", mounted.rename("/top.txt", "/mnt/data/top.txt", &diagnostics), &diagnostics);
    try testing.expectError(error.InvalidInput, root.mount("\xff", data));

    var guarded = try mounted.policy(gpa, &.{
        .{ .access = .read, .allow = true, .pattern = "/mnt/**" },
        .{ .access = .write, .allow = false, .pattern = "/**" },
    }, null);
    defer guarded.deinit();
    try expectFile(guarded, "/mnt/data/inside.txt", "inside");
    try expectFailure(error.Storage, "/top.txt: Permission denied", guarded.read(gpa, "/top.txt", &diagnostics), &diagnostics);
    try expectFailure(error.Storage, "/mnt/data/x: Permission denied", guarded.write("/mnt/data/x", "x", &diagnostics), &diagnostics);
}

test "storage: a host folder" {
    var tmp = testing.tmpDir(.{});
    defer tmp.cleanup();
    var root_buffer: [std.fs.max_path_bytes]u8 = undefined;
    const root_len = try tmp.dir.realPath(testing.io, &root_buffer);
    root_buffer[root_len] = 0;
    const root = root_buffer[0..root_len :0];

    var host = try aikido.Storage.host(root, .{}, null);
    defer host.deinit();
    try host.write("/inside.txt", "fine", null);
    try expectFile(host, "/../inside.txt", "fine");
    const on_disk = try tmp.dir.readFileAlloc(testing.io, "inside.txt", gpa, .unlimited);
    defer gpa.free(on_disk);
    try testing.expectEqualStrings("fine", on_disk);

    var read_only = try aikido.Storage.host(root, .{ .read_only = true }, null);
    defer read_only.deinit();
    try testing.expectError(error.Storage, read_only.write("/inside.txt", "x", null));
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try expectFailure(error.InvalidInput, "aikido/tools: invalid input: the folder \"/no/such/folder\" cannot be used: No such file or directory (os error 2)", aikido.Storage.host("/no/such/folder", .{}, &diagnostics), &diagnostics);
}

fn expectDispatch(registry: aikido.Registry, name: [:0]const u8, arguments: []const u8, want: []const u8) !void {
    const content = try registry.dispatch(gpa, .{ .name = name, .arguments = arguments }, .{}, null);
    defer gpa.free(content);
    try testing.expectEqualStrings(want, content);
}

test "storage: the file tools through a registry" {
    var registry = try aikido.Registry.init();
    defer registry.deinit();
    {
        var storage = try aikido.Storage.memory(.{});
        defer storage.deinit(); // the tools keep their share
        try registry.registerFileTools(storage, null);
        try storage.write("/seed.txt", "seeded\n", null);
        try testing.expectError(error.DuplicateTool, registry.registerFileTools(storage, null));
    }
    try testing.expectEqual(5, registry.len());
    try expectDispatch(registry, "write_file", "{\"path\":\"/notes/todo.md\",\"content\":\"- ship it\\n\"}", "wrote 10 bytes to /notes/todo.md");
    try expectDispatch(registry, "edit_file", "{\"path\":\"/notes/todo.md\",\"old_text\":\"ship\",\"new_text\":\"test\"}", "replaced 1 occurrence in /notes/todo.md");
    try expectDispatch(registry, "read_file", "{\"path\":\"/notes/todo.md\"}", "- test it\n");
    try expectDispatch(registry, "read_file", "{\"path\":\"/seed.txt\"}", "seeded\n");
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try expectFailure(error.ToolFailed, "read_file: /nope: No such file or directory; list_directory shows what exists", registry.dispatch(gpa, .{ .name = "read_file", .arguments = "{\"path\":\"/nope\"}" }, .{}, &diagnostics), &diagnostics);
}

test "storage: entries and changes as the library's arrays" {
    var lower = try aikido.Storage.memory(.{});
    defer lower.deinit();
    try lower.write("/gone.txt", "gone", null);
    var overlay = try lower.overlay();
    defer overlay.deinit();
    try overlay.mkdir("/src", .{}, null);
    try overlay.write("/a.txt", "a", null);
    try overlay.remove("/gone.txt", .{}, null);
    {
        var entries = try overlay.entries("/", null);
        defer entries.deinit();
        try testing.expectEqual(2, entries.len());
        var iterator = entries.iterator();
        const first = iterator.next().?;
        try testing.expectEqualStrings("a.txt", std.mem.span(first.name));
        try testing.expectEqual(aikido.c.AIKIDO_FILE_KIND_FILE, first.kind);
        const second = iterator.next().?;
        try testing.expectEqualStrings("src", std.mem.span(second.name));
        try testing.expectEqual(aikido.c.AIKIDO_FILE_KIND_DIRECTORY, second.kind);
        try testing.expect(iterator.next() == null);
        var diagnostics: aikido.Diagnostics = .init(gpa);
        defer diagnostics.deinit();
        try expectFailure(error.InvalidInput, "aikido/tools: invalid input: index 2 is out of range: the array holds 2 items", entries.get(2, &diagnostics), &diagnostics);
    }
    {
        var changes = try overlay.changes(null);
        defer changes.deinit();
        try testing.expectEqual(3, changes.len());
        const deleted = try changes.get(1, null);
        try testing.expectEqualStrings("/gone.txt", std.mem.span(deleted.path));
        try testing.expectEqual(aikido.c.AIKIDO_CHANGE_DELETED, deleted.change);
    }
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try expectFailure(error.InvalidInput, "aikido/tools: invalid input: only an overlay or a dry run has a diff", lower.changes(&diagnostics), &diagnostics);
}
