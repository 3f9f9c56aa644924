import Aikido
import CAikido
import Foundation
import XCTest

/// The shared case tables (tests/cases/*.tsv; their header comments define
/// the formats), run through this binding with the outcomes every other
/// language asserts.
final class ParityTests: XCTestCase {
    /// The lines of a table that are cases, split at tabs.
    func rows(_ table: String, columns: Int) throws -> [[Substring]] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("tests/cases/\(table)"), encoding: .utf8)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: true).filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        for row in rows { XCTAssertEqual(row.count, columns, "a row of \(table): \(row.first ?? "")") }
        XCTAssertGreaterThan(rows.count, 20, "the table \(table) has lost cases")
        return rows
    }

    /// The dispatch table's escapes: \t \n \r \\ and \xHH (one raw byte).
    func unescape(_ text: Substring) -> [UInt8] {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = bytes.popFirst() else {
                out.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "x"):
                out.append(UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)!)
                bytes = bytes.dropFirst(2)
            default: out.append(next)
            }
        }
        return out
    }

    func testSharedDispatchCases() throws {
        var failures: [String] = []
        for row in try rows("dispatch.tsv", columns: 8) {
            let (name, schema, handlerColumn, callName) = (row[0], row[1], String(row[2]), String(row[3]))
            let flags = row[7].split(separator: ",")
            let registry = Registry()
            try registry.setValidation(flags.contains("repair") ? .repair : flags.contains("full") ? .full : .required)
            try registry.register(ToolDefinition(name: "probe", parameters: schema == "-" ? nil : try JSONSchema(json: String(schema)))) {
                arguments, _ in
                if handlerColumn == "echo" { return ToolResult(content: arguments.json) }
                if handlerColumn.hasPrefix("content:") { return ToolResult(content: String(handlerColumn.dropFirst(8))) }
                if handlerColumn.hasPrefix("fail:") { throw TextError(String(handlerColumn.dropFirst(5))) }
                if handlerColumn.hasPrefix("panic:") { throw AikidoError.toolPanicked(String(handlerColumn.dropFirst(6))) }
                throw TextError("unknown handler column \(handlerColumn)")
            }
            let arguments: [UInt8]
            if row[4].hasPrefix("@deep:"), let depth = Int(row[4].dropFirst(6)) {
                arguments =
                    Array("{\"a\":".utf8) + Array(repeating: UInt8(ascii: "["), count: depth)
                    + Array(repeating: UInt8(ascii: "]"), count: depth) + [UInt8(ascii: "}")]
            } else {
                arguments = unescape(row[4])
            }
            let token = CancellationToken()
            if flags.contains("cancelled") { token.cancel() }
            let status: String
            let text: String
            do {
                let result = try registry.dispatch(
                    ToolCall(id: "call-1", name: callName, argumentsData: Data(arguments)),
                    environment: Environment(cancellation: token))
                (status, text) = ("AIKIDO_OK", result.content)
            } catch let error as AikidoError {
                (status, text) = (error.statusName, error.message)
            }
            let fragment = unescape(row[6])
            let holds = fragment.isEmpty || Data(text.utf8).range(of: Data(fragment)) != nil
            if status != row[5] || !holds {
                failures.append("\(name): got \(status) \"\(text.prefix(200))\"; want \(row[5]) containing \"\(row[6])\"")
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testSharedDialectCases() throws {
        let registry = Registry()
        try registry.register(
            ToolDefinition(
                name: "read", description: "Read a file.",
                parameters: try JSONSchema(
                    json: #"{"properties":{"limit":{"type":"integer"},"path":{"type":"string"}},"required":["path"],"type":"object"}"#))
        ) { arguments, _ in ToolResult(content: arguments.json) }
        try registry.register(ToolDefinition(name: "fail")) { _, _ in throw TextError("disk full") }

        var failures: [String] = []
        for row in try rows("dialects.tsv", columns: 7) {
            let (name, op, input, expected) = (row[0], row[1], String(row[4]), String(row[6]))
            let dialect = Dialect(rawValue: UInt32(row[2])!)
            let options = DialectOptions(rawValue: UInt32(row[3])!)
            let status: String
            let output: String
            do {
                switch op {
                case "definitions": output = try registry.definitions(for: dialect, options: options)
                case "parse": output = try dialect.toolCallsJSON(in: input)
                case "calls":
                    let calls = try dialect.toolCalls(in: input)
                    output = calls.isEmpty ? "(none)" : calls.map { "[\($0.id)] \($0.name) \($0.arguments)" }.joined(separator: " | ")
                case "respond": output = try registry.respond(to: input, dialect: dialect, options: options)
                default: throw TextError("unknown op \(op)")
                }
                status = "AIKIDO_OK"
            } catch let error as AikidoError {
                (status, output) = (error.statusName, error.message)
            }
            let matches = status == "AIKIDO_OK" ? output == expected : output.contains(expected)
            if status != row[5] || !matches {
                failures.append("\(name): got \(status) \(output); want \(row[5]) \(expected)")
            }
        }
        XCTAssertEqual(failures, [])
    }
}
