//! The binding's tests: one test binary, so that Zig compiles and links
//! libaikido once.
test {
    _ = @import("examples.zig");
    _ = @import("registry.zig");
    _ = @import("parity.zig");
    _ = @import("dialects.zig");
    _ = @import("storage.zig");
    _ = @import("shell.zig");
    _ = @import("snapshot.zig");
    _ = @import("linkage.zig");
    _ = @import("mcp.zig");
    _ = @import("validation.zig");
    _ = @import("network.zig");
}
