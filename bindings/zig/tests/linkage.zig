//! The test binary is linked the way `-Dlinkage` asked.
const std = @import("std");
const options = @import("test_options");
const testing = std.testing;

test "linkage: libaikido.so is loaded exactly when linked dynamically" {
    // /proc/self/maps lists every mapped file; its size reads as 0, so stream it.
    const file = try std.Io.Dir.cwd().openFile(testing.io, "/proc/self/maps", .{});
    defer file.close(testing.io);
    var reader = file.readerStreaming(testing.io, &.{});
    const maps = try reader.interface.allocRemaining(testing.allocator, .limited(1 << 24));
    defer testing.allocator.free(maps);
    try testing.expect(std.mem.indexOf(u8, maps, "[stack]") != null);
    const loaded = std.mem.indexOf(u8, maps, "/libaikido.so") != null;
    try testing.expectEqual(options.linkage == .dynamic, loaded);
}
