import Aikido
import CAikido
import Foundation
import XCTest

final class LibraryTests: XCTestCase {
    func testVersionAndStatusNames() {
        XCTAssertEqual(AikidoLibrary.version, AIKIDO_VERSION)
        XCTAssertEqual(AikidoLibrary.statusName(AIKIDO_ERR_UNKNOWN_TOOL), "AIKIDO_ERR_UNKNOWN_TOOL")
        XCTAssertEqual(AikidoLibrary.statusName(999), "AIKIDO_UNKNOWN_STATUS")
        XCTAssertEqual(AikidoError(status: 999, message: "m"), .other(status: 999, message: "m"))
        XCTAssertEqual(AikidoError(status: AIKIDO_ERR_STORAGE, message: "m").status, AIKIDO_ERR_STORAGE)
        XCTAssertEqual(AikidoError.storage("/a: No such file or directory").description, "/a: No such file or directory")
        XCTAssertEqual(
            (AikidoError.unknownTool("aikido/tools: unknown tool") as any Error).localizedDescription, "aikido/tools: unknown tool")
    }

    func testUUIDs() throws {
        let v4 = AikidoLibrary.newUUIDv4()
        let v7 = AikidoLibrary.newUUIDv7()
        XCTAssertEqual(v4.uuid.6 >> 4, 4)
        XCTAssertEqual(v7.uuid.6 >> 4, 7)
        XCTAssertNotEqual(AikidoLibrary.newUUIDv4(), v4)
        let text = AikidoLibrary.format(v7)
        XCTAssertEqual(text, v7.uuidString.lowercased())
        XCTAssertEqual(try AikidoLibrary.parseUUID(text), v7)
        XCTAssertEqual(try AikidoLibrary.parseUUID("{\(text.uppercased())}"), v7)
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "not a UUID") { try AikidoLibrary.parseUUID("nope") }
    }

    func testSchemaHelpersGiveTheBytesOfTheCHelpers() throws {
        XCTAssertEqual(JSONSchema.string("Name.").json, #"{"description":"Name.","type":"string"}"#)
        XCTAssertEqual(JSONSchema.integer().json, #"{"type":"integer"}"#)
        XCTAssertEqual(JSONSchema.number("N.").json, #"{"description":"N.","type":"number"}"#)
        XCTAssertEqual(JSONSchema.boolean("B.").json, #"{"description":"B.","type":"boolean"}"#)
        XCTAssertEqual(JSONSchema.enum("Mode.", values: ["r", "w"]).json, #"{"description":"Mode.","enum":["r","w"],"type":"string"}"#)
        XCTAssertEqual(JSONSchema.array(of: .string(), "Tags.").json, #"{"description":"Tags.","items":{"type":"string"},"type":"array"}"#)
        XCTAssertEqual(try JSONSchema.object().json, #"{"type":"object"}"#)
        XCTAssertEqual(
            try JSONSchema.object(["b": .boolean(), "a": .integer()], required: ["b", "a"]).json,
            #"{"properties":{"a":{"type":"integer"},"b":{"type":"boolean"}},"required":["b","a"],"type":"object"}"#)
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "NUL byte") { try JSONSchema.object(["a\0": .string()]) }
    }
}
