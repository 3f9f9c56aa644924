//! Session snapshots from Zig: `Shell.snapshot`, `Shell.restore` (into a
//! new memory storage and into a storage given), `Shell.fork`, bad bytes.
const std = @import("std");
const aikido = @import("aikido");
const testing = std.testing;
const gpa = testing.allocator;

fn expectOut(shell: aikido.Shell, script: []const u8, want: []const u8) !void {
    var result = try shell.run(gpa, script, null, null);
    defer result.deinit(gpa);
    try testing.expectEqualStrings(want, result.stdout);
}

test "snapshot: a session restored and forked goes on as before" {
    var storage = try aikido.Storage.memory(.{});
    defer storage.deinit();
    var shell = try aikido.Shell.init(storage, null);
    defer shell.deinit();
    try expectOut(shell, "mkdir /w && cd /w && echo data > f; x=1; g() { echo \"g $x\"; }", "");
    const bytes = try shell.snapshot(gpa, null);
    defer gpa.free(bytes);
    try testing.expectEqualStrings("AIKIDOSS", bytes[0..8]);

    var restored = try aikido.Shell.restore(bytes, null, null, null);
    defer restored.deinit();
    try expectOut(restored, "g; pwd; cat f", "g 1\n/w\ndata\n");
    var files = try restored.storage();
    defer files.deinit();
    const file = try files.read(gpa, "/w/f", null);
    defer gpa.free(file);
    try testing.expectEqualStrings("data\n", file);

    var other = try aikido.Storage.memory(.{});
    defer other.deinit();
    var into = try aikido.Shell.restore(bytes, other, null, null);
    defer into.deinit();
    try expectOut(into, "ls /", "w\n");

    var fork = try shell.fork();
    defer fork.deinit();
    try expectOut(fork, "echo more >> f; x=2", "");
    try expectOut(shell, "cat f; echo $x", "data\n1\n");
    try expectOut(fork, "cat f; echo $x", "data\nmore\n2\n");

    const flipped = try gpa.dupe(u8, bytes);
    defer gpa.free(flipped);
    flipped[flipped.len / 2] ^= 0x10;
    var diagnostics: aikido.Diagnostics = .init(gpa);
    defer diagnostics.deinit();
    try testing.expectError(error.InvalidInput, aikido.Shell.restore(flipped, null, null, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "checksum does not match") != null);
    try testing.expectError(error.InvalidInput, aikido.Shell.restore(bytes[0 .. bytes.len - 1], null, null, &diagnostics));
    try testing.expect(std.mem.indexOf(u8, diagnostics.message.?, "truncated") != null);
}
