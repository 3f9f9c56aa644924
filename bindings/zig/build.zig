//! Builds the `aikido` Zig module over libaikido, its tests and the quick
//! start example.
//!
//!   zig build test                       tests, linked with libaikido.a
//!   zig build test -Dlinkage=dynamic     the same against libaikido.so
//!   zig build quick-start                runs the README's example
//!
//! The library comes from `make build` in the repository root
//! (target/release); `-Dlib-dir=PATH` points elsewhere.
const std = @import("std");

pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});
    const linkage = b.option(std.builtin.LinkMode, "linkage", "Link libaikido statically (default) or dynamically") orelse .static;
    const lib_dir = libraryDirectory(b);

    // The C surface, translated from the committed header.
    const header = b.addTranslateC(.{
        .root_source_file = b.path("../../include/aikido.h"),
        .target = target,
        .optimize = optimize,
    });

    const aikido = b.addModule("aikido", .{
        .root_source_file = b.path("src/aikido.zig"),
        .target = target,
        .optimize = optimize,
        .link_libc = true,
        .imports = &.{.{ .name = "aikido_c", .module = header.createModule() }},
    });
    switch (linkage) {
        .static => {
            aikido.addObjectFile(lib_dir.path(b, "libaikido.a"));
            // What the Rust standard library inside libaikido.a needs.
            for ([_][]const u8{ "unwind", "pthread", "dl", "m" }) |name| aikido.linkSystemLibrary(name, .{});
        },
        .dynamic => {
            aikido.addLibraryPath(lib_dir);
            aikido.addRPath(lib_dir);
            aikido.linkSystemLibrary("aikido", .{ .use_pkg_config = .no, .preferred_link_mode = .dynamic, .search_strategy = .no_fallback });
        },
    }

    const test_step = b.step("test", "Run the binding's tests");
    const tests = b.addTest(.{ .root_module = b.createModule(.{
        .root_source_file = b.path("tests/all.zig"),
        .target = target,
        .optimize = optimize,
        .imports = &.{.{ .name = "aikido", .module = aikido }},
    }) });
    // The shared case table of every language, read by tests/parity.zig.
    const cases = absolutePath(b, repositoryPath(b, "tests/cases/dispatch.tsv"));
    const options = b.addOptions();
    options.addOptionPathUntracked("dispatch_cases", cases);
    options.addOptionPathUntracked("dialect_cases", absolutePath(b, repositoryPath(b, "tests/cases/dialects.tsv")));
    options.addOption(std.builtin.LinkMode, "linkage", linkage);
    tests.root_module.addOptions("test_options", options);
    const run_tests = b.addRunArtifact(tests);
    // Run every time: the tests read the case table and (dynamic) load
    // libaikido.so at run time, which the step cache does not see.
    run_tests.has_side_effects = true;
    test_step.dependOn(&run_tests.step);

    // The README's quick start, built and run as part of the tests.
    const quick_start = b.addExecutable(.{ .name = "quick-start", .root_module = b.createModule(.{
        .root_source_file = b.path("examples/quick_start.zig"),
        .target = target,
        .optimize = optimize,
        .imports = &.{.{ .name = "aikido", .module = aikido }},
    }) });
    const run_quick_start = b.addRunArtifact(quick_start);
    run_quick_start.has_side_effects = true;
    b.step("quick-start", "Run the README's quick start").dependOn(&run_quick_start.step);
    // In the tests it must succeed; test.sh compares its output with the README.
    const check_quick_start = b.addRunArtifact(quick_start);
    check_quick_start.has_side_effects = true;
    check_quick_start.expectExitCode(0);
    test_step.dependOn(&check_quick_start.step);
}

/// The directory holding libaikido (`-Dlib-dir`, else the repository's
/// target/release). Absolute, because it becomes the rpath of the
/// dynamically linked binaries, which must run from any directory.
fn libraryDirectory(b: *std.Build) std.Build.LazyPath {
    const given = b.option([]const u8, "lib-dir", "Directory holding libaikido.a and libaikido.so (default: ../../target/release)");
    return absolutePath(b, given orelse repositoryPath(b, "target/release"));
}

/// A path in the libaikido repository, two levels above this build.zig.
fn repositoryPath(b: *std.Build, sub_path: []const u8) []const u8 {
    return b.root.joinString(b.graph.arena, b.pathJoin(&.{ "../..", sub_path })) catch @panic("OOM");
}

/// `path` (relative to the current directory) made absolute; fails the
/// build with a hint when it does not exist.
fn absolutePath(b: *std.Build, path: []const u8) std.Build.LazyPath {
    // Reading the file system here is a configure-time side effect.
    b.graph.poisonCache();
    const absolute = std.Io.Dir.cwd().realPathFileAlloc(b.graph.io, path, b.graph.arena) catch |err|
        std.process.fatal("{s}: {t}; run `make build` in the repository root first", .{ path, err });
    return b.graph.cwdRelativePath(absolute);
}
