import Aikido
import CAikido
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class MCPTests: XCTestCase {
    func makeServer() throws -> MCPServer {
        let registry = Registry()
        try registry.register(
            ToolDefinition(name: "echo", description: "Echo.", parameters: try .object(["text": .string()], required: "text"))
        ) { arguments, _ in ToolResult(content: arguments.json) }
        return try MCPServer(registry: registry, name: "swift-test", version: "1.2.3")
    }

    func object(_ text: String?) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(text).utf8)) as? [String: Any])
    }

    func testHandleInitializeListAndCall() throws {
        let server = try makeServer()
        let initialize = try object(
            server.handle(
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#
            ))
        let info = (initialize["result"] as? [String: Any])?["serverInfo"] as? [String: Any]
        XCTAssertEqual(info?["name"] as? String, "swift-test")
        XCTAssertEqual(info?["version"] as? String, "1.2.3")
        XCTAssertNil(try server.handle(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#))
        let list = try XCTUnwrap(server.handle(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#))
        XCTAssertTrue(list.contains(#""name":"echo""#), list)
        let call = try XCTUnwrap(
            server.handle(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#))
        XCTAssertTrue(call.contains(#"{\"text\":\"hi\"}"#), call)
        let unknown = try object(server.handle(#"{"jsonrpc":"2.0","id":4,"method":"nope"}"#))
        XCTAssertEqual((unknown["error"] as? [String: Any])?["code"] as? Int, -32601)
    }

    func testServeOverPipes() throws {
        let server = try makeServer()
        var toServer: [Int32] = [0, 0]
        var fromServer: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&toServer), 0)
        XCTAssertEqual(pipe(&fromServer), 0)
        let request = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n"
        XCTAssertEqual(request.withCString { write(toServer[1], $0, strlen($0)) }, request.utf8.count)
        close(toServer[1])
        try server.serve(input: toServer[0], output: fromServer[1])
        close(toServer[0])
        close(fromServer[1])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fromServer[0], &buffer, buffer.count)
        close(fromServer[0])
        XCTAssertEqual(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self), #"{"jsonrpc":"2.0","id":1,"result":{}}"# + "\n")
    }

    func testServeStopsWhenItsTaskIsCancelled() async throws {
        let server = try makeServer()
        var toServer: [Int32] = [0, 0]
        var fromServer: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&toServer), 0)
        XCTAssertEqual(pipe(&fromServer), 0)
        let (input, output) = (toServer[0], fromServer[1])
        let task = Task { try await server.serve(input: input, output: output) }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        try await task.value  // returns: the input never ended
        for fd in toServer + fromServer { close(fd) }
    }
}
