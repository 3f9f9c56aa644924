import Aikido
import CAikido
import Foundation
import XCTest

final class RegistryTests: XCTestCase {
    func testDefinitionsInRegistrationOrder() throws {
        let registry = Registry()
        for name in ["zeta", "alpha", "mid"] {
            try registry.register(ToolDefinition(name: name, description: "Tool \(name).", parameters: .string())) { _, _ in "" }
        }
        try registry.register(ToolDefinition(name: "bare")) { _, _ in "" }
        XCTAssertEqual(registry.count, 4)
        XCTAssertEqual(registry.definitions.map(\.name), ["zeta", "alpha", "mid", "bare"])
        XCTAssertEqual(registry.definitions[0].description, "Tool zeta.")
        XCTAssertEqual(registry.definitions[0].parameters?.json, #"{"type":"string"}"#)
        XCTAssertNil(registry.definitions[3].parameters)
        XCTAssertEqual(
            try registry.definitionsJSON(),
            #"[{"name":"zeta","description":"Tool zeta.","parameters":{"type":"string"}},{"name":"alpha","description":"Tool alpha.","parameters":{"type":"string"}},{"name":"mid","description":"Tool mid.","parameters":{"type":"string"}},{"name":"bare"}]"#
        )
    }

    func testDuplicateToolIsRefusedWithTheLibrarysMessage() throws {
        let registry = try makeRegistry { _, _ in "first" }
        do {
            try registry.register(ToolDefinition(name: "probe")) { _, _ in "second" }
            XCTFail("registered twice")
        } catch AikidoError.duplicateTool(let message) {
            XCTAssertTrue(message.hasPrefix("aikido/tools: duplicate tool registration"), message)
            XCTAssertTrue(message.contains("\"probe\""), message)
        }
        XCTAssertEqual(try registry.dispatch(ToolCall(name: "probe")).content, "first")
    }

    func testUnknownToolNamesTheRegisteredTools() throws {
        let registry = try makeRegistry { _, _ in "" }
        assertAikidoError(AIKIDO_ERR_UNKNOWN_TOOL, #"aikido/tools: unknown tool "multiply"; the registered tools are "probe""#) {
            try registry.dispatch(ToolCall(name: "multiply"))
        }
    }

    func testMisuseIsInvalidInput() throws {
        let registry = Registry()
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "name") { try registry.register(ToolDefinition(name: "")) { _, _ in "" } }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "NUL byte") { try registry.register(ToolDefinition(name: "a\0b")) { _, _ in "" } }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "not valid JSON") { try JSONSchema(json: "{nope") }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "NUL byte") { try registry.dispatch(ToolCall(name: "a\0b")) }
        XCTAssertEqual(registry.count, 0)
    }

    func testUnregister() throws {
        let registry = try makeRegistry { _, _ in "" }
        try registry.unregister("probe")
        XCTAssertEqual(registry.count, 0)
        assertAikidoError(AIKIDO_ERR_UNKNOWN_TOOL, "unknown tool \"probe\"") { try registry.unregister("probe") }
        assertAikidoError(AIKIDO_ERR_UNKNOWN_TOOL, "unknown tool") { try registry.dispatch(ToolCall(name: "probe")) }
    }

    func testHandlerErrorTextComesBackAsToolFailed() throws {
        struct Described: LocalizedError { var errorDescription: String? { "described failure" } }
        let registry = Registry()
        try registry.register(ToolDefinition(name: "plain")) { _, _ in throw TextError("file not found: /etc/nope") }
        try registry.register(ToolDefinition(name: "localized")) { _, _ in throw Described() }
        try registry.register(ToolDefinition(name: "inner")) { _, _ in throw AikidoError.unknownTool("inner message") }
        do {
            _ = try registry.dispatch(ToolCall(name: "plain"))
            XCTFail("no error")
        } catch AikidoError.toolFailed(let message) {
            XCTAssertEqual(message, "file not found: /etc/nope")
        }
        assertAikidoError(AIKIDO_ERR_TOOL_FAILED, "described failure") { try registry.dispatch(ToolCall(name: "localized")) }
        assertAikidoError(AIKIDO_ERR_TOOL_FAILED, "inner message") { try registry.dispatch(ToolCall(name: "inner")) }
    }

    func testPanicNamesTheToolAndTheValue() throws {
        let registry = try makeRegistry(parameters: try divisorSchema()) { _, _ in throw AikidoError.toolPanicked("division by zero") }
        assertAikidoError(AIKIDO_ERR_TOOL_PANICKED, "aikido/tools: tool panicked") {
            try registry.dispatch(ToolCall(name: "probe", arguments: #"{"by":0}"#))
        }
        assertAikidoError(AIKIDO_ERR_TOOL_PANICKED, "division by zero") {
            try registry.dispatch(ToolCall(name: "probe", arguments: #"{"by":0}"#))
        }
    }

    func testMissingRequiredFieldMessage() throws {
        let registry = try makeRegistry(with: "divide", parameters: try divisorSchema()) { _, _ in "ran" }
        assertAikidoError(
            AIKIDO_ERR_INVALID_ARGUMENTS, #"aikido/tools: invalid tool arguments for tool "divide": missing required field "by""#
        ) { try registry.dispatch(ToolCall(name: "divide", arguments: "{}")) }
    }

    func testReplyTextHoldingNULIsRefusedWithAMessage() throws {
        let registry = try makeRegistry { _, _ in ToolResult(content: "a\0b") }
        do {
            _ = try registry.dispatch(ToolCall(name: "probe"))
            XCTFail("no error")
        } catch let error as AikidoError {
            XCTAssertNotEqual(error.status, AIKIDO_OK)
            XCTAssertTrue(error.message.contains("holds a NUL byte"), error.message)
        }
    }

    func testHandlerReceivesArgumentsVerbatimAndTheEnvironment() throws {
        let seen = Counter()
        let turn = AikidoLibrary.newUUIDv7()
        let registry = try makeRegistry { arguments, environment in
            seen.increment()
            return ToolResult(
                content: "\(environment.sessionID) \(AikidoLibrary.format(environment.turnID)) \(environment.isCancelled) \(arguments.json)"
            )
        }
        let result = try registry.dispatch(
            ToolCall(id: "c", name: "probe", arguments: #" { "a" : 1 } "#), environment: Environment(sessionID: "session-7", turnID: turn))
        XCTAssertEqual(result.content, "session-7 \(AikidoLibrary.format(turn)) false " + #" { "a" : 1 } "#)
        XCTAssertEqual(
            try registry.dispatch(ToolCall(name: "probe")).content, " 00000000-0000-0000-0000-000000000000 false {}",
            "no session, the nil turn, and empty arguments count as {}")
        XCTAssertEqual(seen.value, 2)
    }

    func testTypedArguments() throws {
        struct Read: Decodable {
            let path: String
            let limit: Int?
        }
        let registry = Registry()
        try registry.register(ToolDefinition(name: "read"), arguments: Read.self) { read, _ in
            ToolResult(content: "\(read.path):\(read.limit ?? -1)")
        }
        XCTAssertEqual(try registry.dispatch(ToolCall(name: "read", arguments: #"{"path":"/a","limit":3}"#)).content, "/a:3")
        assertAikidoError(AIKIDO_ERR_TOOL_FAILED, "path") { try registry.dispatch(ToolCall(name: "read", arguments: #"{"limit":3}"#)) }
    }

    func testHandlersMayUseTheirRegistry() throws {
        let registry = Registry()
        try registry.register(ToolDefinition(name: "inner")) { _, _ in "inner result" }
        try registry.register(ToolDefinition(name: "outer")) { [unowned registry] _, environment in
            let inner = try registry.dispatch(ToolCall(name: "inner"), environment: environment)
            return ToolResult(content: "outer saw \(inner.content)")
        }
        XCTAssertEqual(try registry.dispatch(ToolCall(name: "outer")).content, "outer saw inner result")
    }

    func testHandlersAreReleasedExactlyOnce() throws {
        let released = Counter()
        do {
            let registry = Registry()
            for name in ["a", "b", "c"] {
                let probe = ReleaseProbe(released)
                try registry.register(ToolDefinition(name: name)) { _, _ in ToolResult(content: "\(probe.counter.value)") }
            }
            XCTAssertEqual(released.value, 0)
            _ = try registry.dispatch(ToolCall(name: "a"))
            try registry.unregister("a")
            XCTAssertEqual(released.value, 1, "unregister releases the handler")
            // A refused registration hands the handler back: released at once.
            let refused = ReleaseProbe(released)
            XCTAssertThrowsError(
                try registry.register(ToolDefinition(name: "b")) { _, _ in ToolResult(content: "\(refused.counter.value)") })
        }
        XCTAssertEqual(released.value, 4, "the registry's end releases the rest, once each")
    }

    func testUnregisterWhileACallRunsReleasesAfterIt() async throws {
        let released = Counter()
        let started = Counter()
        let finish = CancellationToken()
        let registry = Registry()
        do {
            let probe = ReleaseProbe(released)
            try registry.register(ToolDefinition(name: "slow")) { _, _ in
                started.increment()
                _ = eventually(10) { finish.isCancelled }
                return ToolResult(content: "finished \(probe.counter.value)")
            }
        }
        let call = Task { try await registry.dispatch(ToolCall(name: "slow")).content }
        XCTAssertTrue(eventually { started.value == 1 })
        try registry.unregister("slow")
        XCTAssertEqual(registry.count, 0)
        XCTAssertEqual(released.value, 0, "the running call keeps its handler")
        finish.cancel()
        let content = try await call.value
        XCTAssertEqual(content, "finished 0")
        XCTAssertTrue(eventually { released.value == 1 }, "released once the call returned")
    }

    func testRespondRunsSwiftHandlersOnTheLibrarysThreads() throws {
        let calls = Counter()
        let turn = AikidoLibrary.newUUIDv4()
        let registry = try makeRegistry { arguments, environment in
            calls.increment()
            return ToolResult(content: "\(environment.sessionID)/\(AikidoLibrary.format(environment.turnID))/\(arguments.json)")
        }
        let reply = "[" + (0..<32).map { #"{"id":"\#($0)","name":"probe","arguments":"{}"}"# }.joined(separator: ",") + "]"
        let messages = try registry.respond(to: reply, dialect: .neutral, environment: Environment(sessionID: "s", turnID: turn))
        XCTAssertEqual(calls.value, 32)
        let expected =
            "[" + (0..<32).map { #"{"id":"\#($0)","name":"probe","content":"s/\#(AikidoLibrary.format(turn))/{}"}"# }.joined(separator: ",")
            + "]"
        XCTAssertEqual(messages, expected)
    }

    func testManyTasksDispatchAtOnce() async throws {
        let registry = try makeRegistry(parameters: try .object(["n": .integer()], required: "n")) { arguments, _ in
            struct N: Decodable { let n: Int }
            return ToolResult(content: "\(try arguments.decode(N.self).n * 2)")
        }
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for n in 0..<200 {
                group.addTask { (n, try await registry.dispatch(ToolCall(name: "probe", arguments: #"{"n":\#(n)}"#)).content) }
            }
            var results: [Int: String] = [:]
            for try await (n, content) in group { results[n] = content }
            return results
        }
        XCTAssertEqual(results.count, 200)
        for (n, content) in results { XCTAssertEqual(content, "\(n * 2)") }
    }

    func testCancelledTaskIsRefusedBeforeTheHandlerRuns() async throws {
        let ran = Counter()
        let registry = try makeRegistry { _, _ in
            ran.increment()
            return "ran"
        }
        let task = Task<String, any Error> {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await registry.dispatch(ToolCall(name: "probe")).content
        }
        do {
            _ = try await task.value
            XCTFail("the cancelled dispatch ran")
        } catch AikidoError.cancelled(let message) {
            XCTAssertTrue(message.hasPrefix(#"aikido/tools: call cancelled: tool "probe" was not run"#), message)
        }
        XCTAssertEqual(ran.value, 0)
    }

    func testHandlerSeesTaskCancellationWhileItRuns() async throws {
        let started = Counter()
        let registry = try makeRegistry { _, environment in
            started.increment()
            guard eventually(10, { environment.isCancelled }) else { return "never cancelled" }
            return "saw cancellation"
        }
        let task = Task { try await registry.dispatch(ToolCall(name: "probe")).content }
        XCTAssertTrue(eventually { started.value == 1 })
        task.cancel()
        let content = try await task.value
        XCTAssertEqual(content, "saw cancellation")
    }

    func testAFiredTokenCancelsASynchronousDispatch() throws {
        let registry = try makeRegistry { _, _ in "ran" }
        let token = CancellationToken()
        XCTAssertEqual(try registry.dispatch(ToolCall(name: "probe"), environment: Environment(cancellation: token)).content, "ran")
        token.cancel()
        XCTAssertTrue(token.isCancelled)
        assertAikidoError(AIKIDO_ERR_CANCELLED, "was not run") {
            try registry.dispatch(ToolCall(name: "probe"), environment: Environment(cancellation: token))
        }
    }

    func testToolCallAndResultAreCodable() throws {
        let calls = try JSONDecoder().decode(
            [ToolCall].self, from: Data(#"[{"id":"1","name":"read","arguments":"{}"},{"name":"fail"}]"#.utf8))
        XCTAssertEqual(calls, [ToolCall(id: "1", name: "read", arguments: "{}"), ToolCall(name: "fail")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: try encoder.encode(ToolResult(content: "x")), as: UTF8.self), #"{"content":"x"}"#)
    }
}
