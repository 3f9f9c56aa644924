import Aikido
import CAikido
import Foundation
import XCTest

final class ShellTests: XCTestCase {
    func testRunGivesEveryFieldOfTheResult() throws {
        let storage = Storage.memory()
        let shell = Shell(storage: storage)
        let result = try shell.run("mkdir -p /w && cd /w && printf 'a\\nb\\n' > f.txt && cat f.txt | wc -l; echo oops >&2; exit 3")
        XCTAssertEqual(result.output, "2\n")
        XCTAssertEqual(result.errorOutput, "oops\n")
        XCTAssertEqual(result.exitCode, 3)
        XCTAssertFalse(result.truncated)
        XCTAssertEqual(result.limit, .none)
        XCTAssertEqual(result.writeSet, ["/w", "/w/f.txt"])
        XCTAssertEqual(result.writeSetJSON, #"["/w","/w/f.txt"]"#)
        XCTAssertEqual(try storage.readText("/w/f.txt"), "a\nb\n")
    }

    func testStateLastsUntilReset() throws {
        let shell = Shell(storage: Storage.memory())
        _ = try shell.run("mkdir /d; cd /d; x=42; f() { echo fn; }")
        XCTAssertEqual(try shell.run("pwd; echo $x; f").output, "/d\n42\nfn\n")
        shell.reset()
        let after = try shell.run("pwd; echo \"[$x]\"; f")
        XCTAssertEqual(after.output, "/\n[]\n")
        XCTAssertEqual(after.exitCode, 127)
    }

    func testBinaryOutputAndNULScript() throws {
        let shell = Shell(storage: Storage.memory())
        XCTAssertEqual(try shell.run("printf 'a\\0b'").standardOutput, Data([97, 0, 98]))
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "NUL") { try shell.run("echo a\0b") }
    }

    func testLimitsStopAScript() throws {
        let shell = Shell(storage: Storage.memory(), limits: ShellLimits(maxCommands: 10, maxOutputBytes: 8))
        let loop = try shell.run("while true; do :; done")
        XCTAssertEqual(loop.limit, .commands)
        XCTAssertEqual(loop.exitCode, 125)
        let output = try shell.run("echo 0123456789abcdef")
        XCTAssertTrue(output.truncated)
        XCTAssertEqual(output.limit, .output)
        XCTAssertEqual(output.standardOutput.count, 8)
    }

    func testTokenAndTaskCancellationStopARun() async throws {
        let shell = Shell(storage: Storage.memory())
        let token = CancellationToken()
        token.cancel()
        let stopped = try shell.run("while true; do :; done", cancellation: token)
        XCTAssertEqual(stopped.limit, .cancelled)
        XCTAssertEqual(stopped.exitCode, 130)

        let task = Task { try await Shell(storage: Storage.memory()).run("sleep 30") }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        let cancelled = try await task.value
        XCTAssertEqual(cancelled.exitCode, 130)
        XCTAssertEqual(cancelled.limit, .cancelled)
    }

    func testBashToolKeepsAShellPerSession() throws {
        let storage = Storage.memory()
        let registry = Registry()
        try registry.registerShellTool(storage: storage, limits: ShellLimits(maxResultBytes: 4096))
        func bash(_ session: String, _ script: String) throws -> String {
            let arguments = String(decoding: try JSONEncoder().encode(["command": script]), as: UTF8.self)
            return try registry.dispatch(ToolCall(name: "bash", arguments: arguments), environment: Environment(sessionID: session)).content
        }
        XCTAssertEqual(try bash("one", "mkdir -p /s && cd /s; echo hi > f; pwd"), "/s\n[exit code: 0]")
        XCTAssertEqual(try bash("one", "pwd; cat f"), "/s\nhi\n[exit code: 0]")
        XCTAssertEqual(try bash("two", "pwd"), "/\n[exit code: 0]")
        XCTAssertEqual(try bash("two", "echo err >&2; false"), "[stderr]\nerr\n[exit code: 1]")
        XCTAssertEqual(try storage.readText("/s/f"), "hi\n")
        assertAikidoError(AIKIDO_ERR_DUPLICATE_TOOL, "bash") { try registry.registerShellTool(storage: storage) }
    }

    func testShellsRunConcurrently() async throws {
        let storage = Storage.memory()
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for n in 0..<8 {
                group.addTask { try await Shell(storage: storage).run("echo \(n) > /f\(n); cat /f\(n)").output }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        XCTAssertEqual(outputs.sorted(), (0..<8).map { "\($0)\n" })
        XCTAssertEqual(try storage.contentsOfDirectory("/").count, 8)
    }
}
