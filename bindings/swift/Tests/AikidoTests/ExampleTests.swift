import Aikido
import CAikido
import Foundation
import XCTest

/// The seed's three examples, in Swift, with the seed's exact output.
final class ExampleTests: XCTestCase {
    func testObjectExample() throws {
        let schema = try JSONSchema.object(
            ["path": .string("File to read."), "limit": .integer("Maximum lines.")], required: "path")
        XCTAssertEqual(
            schema.json,
            #"{"properties":{"limit":{"description":"Maximum lines.","type":"integer"},"path":{"description":"File to read.","type":"string"}},"required":["path"],"type":"object"}"#
        )
    }

    func testRegistryExample() throws {
        struct Parsed: Decodable { let name: String }
        let registry = Registry()
        try registry.register(
            ToolDefinition(
                name: "greet", description: "Greet a person by name.",
                parameters: try .object(["name": .string("Who to greet.")], required: "name"))
        ) { arguments, _ in
            ToolResult(content: "Hello, \(try arguments.decode(Parsed.self).name)!")
        }
        let result = try registry.dispatch(
            ToolCall(id: "call-1", name: "greet", arguments: #"{"name":"Ada"}"#),
            environment: Environment(sessionID: "conversation-1"))
        XCTAssertEqual(result.content, "Hello, Ada!")
    }

    func testDispatchExample() throws {
        let registry = Registry()
        try registry.register(ToolDefinition(name: "divide", parameters: try divisorSchema())) { _, _ in
            throw AikidoError.toolPanicked("division by zero")
        }
        var printed: [String] = []
        do { _ = try registry.dispatch(ToolCall(name: "divide", arguments: "{}")) } catch AikidoError.invalidArguments {
            printed.append("true")
        }
        do { _ = try registry.dispatch(ToolCall(name: "divide", arguments: #"{"by":0}"#)) } catch AikidoError.toolPanicked {
            printed.append("true")
        }
        do { _ = try registry.dispatch(ToolCall(name: "multiply")) } catch AikidoError.unknownTool { printed.append("true") }
        XCTAssertEqual(printed.joined(separator: " "), "true true true")
    }
}
