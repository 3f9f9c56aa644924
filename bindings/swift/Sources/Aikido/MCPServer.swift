import CAikido
import Foundation

/// An MCP server over a registry, with one MCP session (the `bash` tool
/// keeps one shell for it). Thread-safe: `handle` may run on many threads
/// at once. It keeps its registry alive.
public final class MCPServer: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The registry the server borrows in C: kept alive here.
    public let registry: Registry

    /// A server for `registry`, introducing itself as `name` (nil: "aikido")
    /// and `version` (nil: the library's version).
    public init(registry: Registry, name: String? = nil, version: String? = nil) throws {
        let made = try withCTexts([name, version], ["the server name", "the server version"]) { texts in
            aikido_mcp_server_new(registry.pointer, texts[0], texts[1])
        }
        guard let made else { throw AikidoError.invalidInput("aikido/tools: invalid input: no MCP server was made") }
        pointer = made
        self.registry = registry
    }

    deinit { aikido_mcp_server_free(pointer) }

    /// Handles one JSON-RPC message and returns the response, or nil when
    /// there is none (a notification). Protocol failures are JSON-RPC error
    /// responses, not thrown errors.
    public func handle(_ message: String) throws -> String? {
        var response: UnsafeMutablePointer<CChar>?
        try withBytes(message) { bytes, count in
            try call { aikido_mcp_server_handle(pointer, bytes, count, &response, $0) }
        }
        return takeString(response)
    }

    /// Serves MCP over newline-delimited JSON-RPC, reading `input` and
    /// writing `output` (file descriptors, not closed) until end of input
    /// or until `stop` fires.
    public func serve(input: Int32, output: Int32, stop: CancellationToken? = nil) throws {
        try call { aikido_mcp_server_serve_stdio(pointer, input, output, stop?.pointer, $0) }
        withExtendedLifetime(stop) {}
    }

    /// `serve`, stopped when the task is cancelled.
    public func serve(input: Int32, output: Int32) async throws {
        let token = CancellationToken()
        try await withTaskCancellationHandler {
            if Task.isCancelled { token.cancel() }
            try serve(input: input, output: output, stop: token)
        } onCancel: {
            token.cancel()
        }
    }
}
