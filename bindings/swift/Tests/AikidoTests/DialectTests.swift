import Aikido
import CAikido
import Foundation
import XCTest

final class DialectTests: XCTestCase {
    func makeReadRegistry() throws -> Registry {
        let registry = Registry()
        try registry.register(
            ToolDefinition(name: "read", description: "Read a file.", parameters: try .object(["path": .string()], required: "path"))
        ) { arguments, environment in ToolResult(content: "\(environment.sessionID) \(arguments.json)") }
        return registry
    }

    func testDefinitionsForEachDialect() throws {
        let registry = try makeReadRegistry()
        XCTAssertEqual(
            try registry.definitions(for: .anthropic),
            #"[{"name":"read","description":"Read a file.","input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}}]"#
        )
        XCTAssertTrue(try registry.definitions(for: .openAIChat, options: .strict).contains(#""strict":true"#))
        XCTAssertEqual(try registry.definitions(for: .neutral), try registry.definitionsJSON())
        XCTAssertTrue(try registry.definitions(for: .mcp).hasPrefix(#"{"tools":"#))
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "unknown dialect 9") { try registry.definitions(for: Dialect(rawValue: 9)) }
    }

    func testToolCallsOfAReply() throws {
        let reply = #"{"content":[{"type":"text","text":"hm"},{"type":"tool_use","id":"t1","name":"read","input":{"path":"/a"}}]}"#
        XCTAssertEqual(try Dialect.anthropic.toolCalls(in: reply), [ToolCall(id: "t1", name: "read", arguments: #"{"path":"/a"}"#)])
        XCTAssertEqual(try Dialect.anthropic.toolCallsJSON(in: reply), #"[{"id":"t1","name":"read","arguments":"{\"path\":\"/a\"}"}]"#)
        XCTAssertEqual(try Dialect.gemini.toolCalls(in: #"{"role":"model","parts":[{"text":"none"}]}"#), [])
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "not a JSON object or array") { try Dialect.anthropic.toolCalls(in: "tool_use please") }
    }

    func testRespondRunsTheCallsWithTheEnvironment() async throws {
        let registry = try makeReadRegistry()
        let reply =
            #"{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\":\"/x\"}"}},{"id":"c2","type":"function","function":{"name":"nope","arguments":"{}"}}]}}]}"#
        let messages = try await registry.respond(to: reply, dialect: .openAIChat, environment: Environment(sessionID: "s1"))
        XCTAssertTrue(messages.hasPrefix(#"[{"role":"tool","tool_call_id":"c1","content":"s1 {\"path\":\"/x\"}"}"#), messages)
        XCTAssertTrue(messages.contains(#"unknown tool \"nope\""#), messages)
        let sequential = try await registry.respond(
            to: reply, dialect: .openAIChat, environment: Environment(sessionID: "s1"), options: .sequential)
        XCTAssertEqual(sequential, messages)
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "\"choices\" is empty") {
            try registry.respond(to: #"{"choices":[]}"#, dialect: .openAIChat)
        }
    }
}
