import Aikido
import CAikido
import Foundation
import XCTest

final class ValidationTests: XCTestCase {
    let schema = #"{"properties":{"limit":{"type":"integer","minimum":1},"path":{"type":"string"}},"required":["path"],"type":"object"}"#

    func testFullValidationReportsEveryViolation() throws {
        let registry = Registry()
        try registry.setValidation(.full)
        try registry.register(ToolDefinition(name: "read", parameters: try JSONSchema(json: schema))) { arguments, _ in
            ToolResult(content: arguments.json)
        }
        assertAikidoError(AIKIDO_ERR_INVALID_ARGUMENTS, "/limit") {
            try registry.dispatch(ToolCall(name: "read", arguments: #"{"path":"a","limit":0}"#))
        }
        XCTAssertEqual(
            try registry.dispatch(ToolCall(name: "read", arguments: #"{"path":"a","limit":2}"#)).content, #"{"path":"a","limit":2}"#)
    }

    func testRepairReportsWhatItChanged() throws {
        let registry = Registry()
        try registry.setValidation(.repair)
        try registry.register(ToolDefinition(name: "read", parameters: try JSONSchema(json: schema))) { arguments, _ in
            ToolResult(content: arguments.json)
        }
        let (result, repairs) = try registry.dispatchWithRepairs(ToolCall(name: "read", arguments: #"{"path":"a","limit":"200"}"#))
        XCTAssertEqual(result.content, #"{"path":"a","limit":200}"#)
        XCTAssertEqual(repairs, [Repair(pointer: "/limit", from: "200", to: "200")])
        XCTAssertEqual(try registry.dispatchWithRepairs(ToolCall(name: "read", arguments: #"{"path":"a"}"#)).repairs, [])
    }

    func testBadSchemasAndModesAreRefused() throws {
        let registry = Registry()
        try registry.register(ToolDefinition(name: "odd", parameters: try JSONSchema(json: #"{"type":12}"#))) { _, _ in "" }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "odd") { try registry.setValidation(.full) }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "9 is not a validation mode") { try registry.setValidation(Validation(rawValue: 9)) }
        // The mode stayed REQUIRED: the odd schema enforces nothing.
        XCTAssertEqual(try registry.dispatch(ToolCall(name: "odd")).content, "")
    }
}
