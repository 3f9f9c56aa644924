import CAikido
import Foundation

/// A tool's implementation: it receives the checked arguments and the
/// call's environment and returns the result. A thrown error is the tool's
/// failure, shown to the model as its text (`AikidoError.toolFailed` for
/// the caller); throwing `AikidoError.toolPanicked(text)` reports a panic.
/// Handlers may run on many threads at once, and may use their registry.
public typealias Handler = @Sendable (_ arguments: ToolArguments, _ environment: Environment) throws -> ToolResult

/// A registry of tools: register them, send their definitions to the
/// model, dispatch the model's calls. Thread-safe, as the library's
/// registry is; freed, with every handler, when the last reference goes.
public final class Registry: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A new, empty registry.
    public init() {
        pointer = aikido_registry_new()
    }

    deinit { aikido_registry_free(pointer) }

    /// Adds a tool. Throws `AikidoError.duplicateTool` when the name is
    /// taken, `AikidoError.invalidInput` for an empty name or text holding a
    /// NUL byte. Dispatch enforces the `required` list of the parameters.
    public func register(_ definition: ToolDefinition, handler: @escaping Handler) throws {
        // The library owns the box from here on and releases it exactly
        // once (releaseHandler); on failure it is still ours.
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        do {
            try withCTexts(
                [definition.name, definition.description, definition.parameters?.json],
                ["the tool name", "the tool description", "the tool parameters"]
            ) { texts in
                try call { error in
                    aikido_registry_register(pointer, texts[0], texts[1], texts[2], runHandler, box, releaseHandler, error)
                }
            }
        } catch {
            Unmanaged<HandlerBox>.fromOpaque(box).release()
            throw error
        }
    }

    /// Adds a tool whose arguments are decoded as `Arguments` with
    /// `JSONDecoder` (a decoding error is the tool's failure).
    public func register<Arguments: Decodable>(
        _ definition: ToolDefinition, arguments: Arguments.Type,
        handler: @escaping @Sendable (Arguments, Environment) throws -> ToolResult
    ) throws {
        try register(definition) { json, environment in
            try handler(json.decode(Arguments.self), environment)
        }
    }

    /// Removes a tool; calls of it already running finish first, then its
    /// handler is released. Throws `AikidoError.unknownTool` for a name that
    /// is not registered.
    public func unregister(_ name: String) throws {
        try withCText(name, "the tool name") { name in
            try call { aikido_registry_unregister(pointer, name, $0) }
        }
    }

    /// How many tools are registered.
    public var count: Int { aikido_registry_len(pointer) }

    /// Every definition, in registration order, read back from the
    /// library's JSON (`definitionsJSON`); each schema is the same JSON
    /// value, its keys sorted.
    public var definitions: [ToolDefinition] {
        guard let json = try? definitionsJSON(),
            let list = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        else { return [] }
        return list.map { item in
            let parameters = item["parameters"].flatMap { value in
                (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]))
                    .map { JSONSchema(checked: String(decoding: $0, as: UTF8.self)) }
            }
            return ToolDefinition(
                name: item["name"] as? String ?? "", description: item["description"] as? String ?? "",
                parameters: parameters)
        }
    }

    /// The definitions as the library writes them, ready to send to a
    /// model: `[{"name":…,"description":…,"parameters":…}]`.
    public func definitionsJSON() throws -> String {
        var json: UnsafeMutablePointer<CChar>?
        try call { aikido_registry_definitions(pointer, &json, $0) }
        return takeString(json) ?? ""
    }

    /// Dispatches one call to its handler, on this thread. In order: an
    /// unknown name throws `AikidoError.unknownTool`; arguments that are not
    /// one JSON object, or lack a required field, `invalidArguments`; a
    /// fired token `cancelled`; then the handler runs, and its failure is
    /// `toolFailed` or `toolPanicked`, with the message for the model.
    public func dispatch(_ call: ToolCall, environment: Environment = Environment()) throws -> ToolResult {
        try dispatch(call, environment: environment, repairs: nil)
    }

    /// Dispatches one call, as the synchronous form does, on this task's
    /// thread. Cancelling the task fires the environment's token (made for
    /// the call if it has none): a call not yet started is refused with
    /// `AikidoError.cancelled`, a running handler sees
    /// `environment.isCancelled`.
    public func dispatch(_ call: ToolCall, environment: Environment = Environment()) async throws -> ToolResult {
        try await withCancellation(environment) { try self.dispatch(call, environment: $0) }
    }

    /// The C dispatch; with `repairs`, `aikido_registry_dispatch_ex`.
    func dispatch(_ call: ToolCall, environment: Environment, repairs: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) throws
        -> ToolResult
    {
        try withCTexts([call.id, call.name], ["the call id", "the called tool name"]) { texts in
            try environment.withC { cEnvironment in
                var content: UnsafeMutablePointer<CChar>?
                try call.argumentsData.withUnsafeBytes { bytes in
                    try bytes.withMemoryRebound(to: CChar.self) { bytes in
                        var cCall = aikido_tool_call(id: texts[0], name: texts[1], arguments: bytes.baseAddress, arguments_len: bytes.count)
                        try Aikido.call { error in
                            if let repairs {
                                return aikido_registry_dispatch_ex(pointer, &cCall, cEnvironment, &content, repairs, error)
                            }
                            return aikido_registry_dispatch(pointer, &cCall, cEnvironment, &content, error)
                        }
                    }
                }
                return ToolResult(content: takeString(content) ?? "")
            }
        }
    }
}

/// Runs a synchronous body for an `async` call: the task's cancellation
/// fires the environment's token (a new one when it has none).
func withCancellation<R>(_ environment: Environment, _ body: (Environment) throws -> R) async throws -> R {
    var environment = environment
    let token = environment.cancellation ?? CancellationToken()
    environment.cancellation = token
    return try await withTaskCancellationHandler {
        if Task.isCancelled { token.cancel() }
        return try body(environment)
    } onCancel: {
        token.cancel()
    }
}

/// What the library holds for a Swift tool: the handler, retained through
/// `Unmanaged` as the userdata, released once by `releaseHandler`.
final class HandlerBox: Sendable {
    let handler: Handler
    init(_ handler: @escaping Handler) { self.handler = handler }
}

/// The C handler of every Swift tool: runs the closure, catching what it
/// throws (no Swift error crosses into C).
private let runHandler: aikido_handler = { userdata, arguments, argumentsLength, environment, reply in
    let box = Unmanaged<HandlerBox>.fromOpaque(userdata!).takeUnretainedValue()
    let json =
        arguments.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: argumentsLength), as: UTF8.self) } ?? "{}"
    do {
        let result = try box.handler(ToolArguments(json: json), Environment(environment))
        return setReply(aikido_reply_set_content, reply, result.content, otherwise: AIKIDO_OK)
    } catch AikidoError.toolPanicked(let message) {
        return setReply(aikido_reply_set_error, reply, message, otherwise: AIKIDO_ERR_TOOL_PANICKED)
    } catch {
        return setReply(aikido_reply_set_error, reply, handlerErrorText(error), otherwise: AIKIDO_ERR_TOOL_FAILED)
    }
}

/// Releases a Swift tool's handler: the library calls it exactly once.
private let releaseHandler: aikido_userdata_free = { userdata in
    Unmanaged<HandlerBox>.fromOpaque(userdata!).release()
}

/// Writes a reply's text; a text the library refuses (a NUL byte) makes
/// the handler return that status, and the library says why.
private func setReply(
    _ set: (OpaquePointer?, UnsafePointer<CChar>?, Int) -> aikido_status, _ reply: OpaquePointer?, _ text: String,
    otherwise status: aikido_status
) -> aikido_status {
    var text = text
    let written = text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { set(reply, $0.baseAddress, $0.count) }
    }
    return written == AIKIDO_OK ? status : written
}

/// The text of an error a handler threw: the library's message for an
/// `AikidoError`, `errorDescription` for a `LocalizedError`, else its
/// description.
func handlerErrorText(_ error: any Error) -> String {
    if let error = error as? AikidoError { return error.message }
    if let error = error as? any LocalizedError, let text = error.errorDescription { return text }
    return String(describing: error)
}
