import Aikido
import CAikido
import Foundation
import XCTest

final class SnapshotTests: XCTestCase {
    /// A shell over a memory storage with a variable, a function, a file and a working directory.
    private func makeSession() throws -> Shell {
        let shell = Shell(storage: Storage.memory())
        let setup = try shell.run(#"mkdir /w && cd /w && echo data > f; x=1; g() { echo "g $x"; }"#)
        XCTAssertEqual(setup.exitCode, 0, setup.errorOutput)
        return shell
    }

    func testARestoredShellHasTheSessionAndItsFiles() throws {
        let snapshot = try makeSession().snapshot()
        XCTAssertEqual(Data(snapshot.prefix(8)), Data("AIKIDOSS".utf8))

        let restored = try Shell(restoring: snapshot)
        XCTAssertEqual(try restored.run("g; pwd; cat f; echo $x").output, "g 1\n/w\ndata\n1\n")
        XCTAssertEqual(try restored.storage.readText("/w/f"), "data\n")

        let other = Storage.memory()
        try other.write("gone\n", to: "/old")
        let into = try Shell(restoring: snapshot, into: other, limits: ShellLimits(maxCommands: 10))
        XCTAssertEqual(try into.run("ls /; g").output, "w\ng 1\n")
        XCTAssertEqual(try other.readText("/w/f"), "data\n")
        XCTAssertEqual(try other.contentsOfDirectory("/").map(\.name), ["w"])
        XCTAssertEqual(try into.run("while true; do :; done").limit, .commands)
    }

    func testAForkSharesNothingMutable() throws {
        let shell = try makeSession()
        let fork = shell.fork()
        let changed = try fork.run(#"echo more >> f; x=2; g() { echo "h $x"; }; mkdir /v; cd /v"#)
        XCTAssertEqual(changed.exitCode, 0, changed.errorOutput)
        XCTAssertEqual(try shell.run("g; pwd; cat /w/f; ls /").output, "g 1\n/w\ndata\nw\n")
        XCTAssertEqual(try fork.run("g; pwd; cat /w/f; ls /").output, "h 2\n/v\ndata\nmore\nv\nw\n")
        XCTAssertEqual(try shell.storage.readText("/w/f"), "data\n")
        XCTAssertEqual(try fork.storage.readText("/w/f"), "data\nmore\n")
        // And the other way: the original's changes do not reach the fork.
        _ = try shell.run("x=3; rm /w/f")
        XCTAssertEqual(try fork.run("echo $x; cat /w/f").output, "2\ndata\nmore\n")
    }

    func testCorruptBytesThrowTheLibrarysMessage() throws {
        let snapshot = try makeSession().snapshot()
        var flipped = snapshot
        flipped[flipped.startIndex + flipped.count / 2] ^= 0x10
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "checksum does not match") { try Shell(restoring: flipped) }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "truncated") { try Shell(restoring: snapshot.dropLast()) }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input") { try Shell(restoring: Data("not a snapshot".utf8)) }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input") { try Shell(restoring: Data()) }
        // A refused restore changes nothing in the storage it was given.
        let storage = Storage.memory()
        try storage.write("kept\n", to: "/k")
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "checksum does not match") { try Shell(restoring: flipped, into: storage) }
        XCTAssertEqual(try storage.readText("/k"), "kept\n")
    }
}
