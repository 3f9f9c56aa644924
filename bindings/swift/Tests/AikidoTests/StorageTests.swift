import Aikido
import CAikido
import Foundation
import XCTest

final class StorageTests: XCTestCase {
    func testMemoryRoundTrips() throws {
        let storage = Storage.memory()
        try storage.createDirectory("/src/deep", withParents: true)
        try storage.write("hello\n", to: "/src/a.txt")
        try storage.append(Data("world\n".utf8), to: "/src/a.txt")
        XCTAssertEqual(try storage.readText("/src/a.txt"), "hello\nworld\n")
        try storage.write(Data([0, 255, 10]), to: "/bin.dat")
        XCTAssertEqual(try storage.read("/bin.dat"), Data([0, 255, 10]), "files hold any bytes")
        try storage.move("/src/a.txt", to: "/src/b.txt")
        XCTAssertEqual(try storage.contentsOfDirectory("/src").map(\.name), ["b.txt", "deep"])
        XCTAssertEqual(try storage.contentsOfDirectory("/src").map(\.kind), [.file, .directory])
        let stat = try storage.stat("/src/b.txt")
        XCTAssertEqual(stat.kind, .file)
        XCTAssertEqual(stat.size, 12)
        XCTAssertGreaterThan(stat.modifiedUnixMilliseconds, 0)
        try storage.remove("/src", recursive: true)
        XCTAssertEqual(try storage.contentsOfDirectory("/").map(\.name), ["bin.dat"])
    }

    func testSymlinks() throws {
        let storage = Storage.memory()
        try storage.write("target text", to: "/t.txt")
        try storage.createSymlink(at: "/link", pointingTo: "t.txt")
        XCTAssertEqual(try storage.symlinkTarget("/link"), "t.txt")
        XCTAssertEqual(try storage.readText("/link"), "target text")
        XCTAssertEqual(try storage.stat("/link").kind, .file)
        XCTAssertEqual(try storage.lstat("/link").kind, .symlink)
    }

    func testErrorsCarryTheLibrarysMessage() throws {
        let storage = Storage.memory(maxTotalBytes: 0, maxFileBytes: 4)
        do {
            _ = try storage.read("/nope")
            XCTFail("read a missing file")
        } catch AikidoError.storage(let message) {
            XCTAssertEqual(message, "/nope: No such file or directory")
        }
        assertAikidoError(AIKIDO_ERR_STORAGE, "/a/b") { try storage.write("x", to: "/a/b") }
        assertAikidoError(AIKIDO_ERR_STORAGE, "/big: File too large (the limit is 4 bytes)") { try storage.write("too long", to: "/big") }
        XCTAssertThrowsError(try storage.contentsOfDirectory("/big"))
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "NUL byte") { try storage.read("/a\0b") }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "only an overlay or a dry run has a diff") { try storage.changes() }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "only an overlay can commit") { try storage.commit() }
    }

    func testOverlayCommitAndDiscard() throws {
        let lower = Storage.memory()
        try lower.write("old", to: "/b.txt")
        let overlay = lower.overlay()
        try overlay.write("new", to: "/a.txt")
        try overlay.write("changed", to: "/b.txt")
        XCTAssertEqual(try lower.readText("/b.txt"), "old", "the lower storage is untouched")
        XCTAssertEqual(try overlay.changes(), [Change(path: "/a.txt", kind: .added), Change(path: "/b.txt", kind: .modified)])
        XCTAssertEqual(
            try overlay.diffJSON(), #"[{"change":"added","path":"/a.txt"},{"change":"modified","path":"/b.txt"}]"#)
        try overlay.commit()
        XCTAssertEqual(try lower.readText("/b.txt"), "changed")
        XCTAssertEqual(try overlay.changes(), [])
        try overlay.remove("/a.txt")
        XCTAssertEqual(try overlay.changes(), [Change(path: "/a.txt", kind: .deleted)])
        try overlay.discard()
        XCTAssertEqual(try overlay.readText("/a.txt"), "new")
    }

    func testDryRunAndReadOnly() throws {
        let lower = Storage.memory()
        try lower.write("x", to: "/keep.txt")
        let dryRun = lower.dryRun()
        try dryRun.write("y", to: "/new.txt")
        try dryRun.remove("/keep.txt")
        XCTAssertEqual(try dryRun.changes().map(\.kind), [.deleted, .added])
        XCTAssertEqual(try dryRun.changes().map(\.path), ["/keep.txt", "/new.txt"])
        XCTAssertThrowsError(try lower.read("/new.txt"), "a dry run applies nothing")
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "only an overlay can commit") { try dryRun.commit() }
        let readOnly = lower.readOnly()
        XCTAssertEqual(try readOnly.readText("/keep.txt"), "x")
        assertAikidoError(AIKIDO_ERR_STORAGE, "Read-only file system") { try readOnly.write("z", to: "/keep.txt") }
    }

    func testMountsAndPolicy() throws {
        let base = Storage.memory()
        let data = Storage.memory()
        try data.write("mounted", to: "/file.txt")
        let mounted = try base.mounting(data, at: "/data")
        XCTAssertEqual(try mounted.readText("/data/file.txt"), "mounted")
        try mounted.write("via mount", to: "/data/two.txt")
        XCTAssertEqual(try data.readText("/two.txt"), "via mount")

        try base.write("KEY=1", to: "/.env")
        try base.write("ok", to: "/main.rs")
        let policy = try base.restricted(by: [.deny(.read, "*.env"), .deny(.write, "*.rs")])
        XCTAssertEqual(try policy.readText("/main.rs"), "ok")
        assertAikidoError(AIKIDO_ERR_STORAGE, "Permission denied") { try policy.read("/.env") }
        assertAikidoError(AIKIDO_ERR_STORAGE, "Permission denied") { try policy.write("x", to: "/main.rs") }
    }

    func testHostFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aikido-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "on disk".write(to: folder.appendingPathComponent("host.txt"), atomically: true, encoding: .utf8)
        let host = try Storage.host(root: folder.path)
        XCTAssertEqual(try host.readText("/host.txt"), "on disk")
        try host.write("written", to: "/out.txt")
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8), "written")
        assertAikidoError(AIKIDO_ERR_STORAGE, "/etc/passwd: No such file or directory") { try host.read("/../etc/passwd") }
        let readOnly = try Storage.host(root: folder.path, readOnly: true)
        XCTAssertThrowsError(try readOnly.write("no", to: "/out.txt"))
        XCTAssertThrowsError(try Storage.host(root: folder.appendingPathComponent("missing").path))
    }

    func testListJSON() throws {
        let storage = Storage.memory()
        try storage.createDirectory("/src")
        try storage.write("a", to: "/a.txt")
        XCTAssertEqual(try storage.listJSON("/"), #"[{"kind":"file","name":"a.txt"},{"kind":"directory","name":"src"}]"#)
    }

    func testFileToolsThroughTheRegistry() throws {
        let storage = Storage.memory()
        let registry = Registry()
        try registry.registerFileTools(storage: storage)
        XCTAssertEqual(registry.definitions.map(\.name), ["read_file", "write_file", "list_directory", "edit_file", "delete_path"])
        _ = try registry.dispatch(ToolCall(name: "write_file", arguments: #"{"path":"/notes.txt","content":"one\ntwo\n"}"#))
        XCTAssertEqual(try storage.readText("/notes.txt"), "one\ntwo\n")
        let read = try registry.dispatch(ToolCall(name: "read_file", arguments: #"{"path":"/notes.txt"}"#))
        XCTAssertTrue(read.content.contains("two"), read.content)
        XCTAssertThrowsError(try registry.dispatch(ToolCall(name: "read_file", arguments: #"{"path":"/missing"}"#)))
    }
}
