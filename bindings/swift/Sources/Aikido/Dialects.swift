import CAikido
import Foundation

/// A provider's wire format (an `AIKIDO_DIALECT_*` value). Any value may be
/// passed: the library refuses one it does not know with
/// `AikidoError.invalidInput`.
public struct Dialect: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The library's own shapes (`definitionsJSON`, `[{"id","name","arguments"}]`).
    public static let neutral = Dialect(rawValue: UInt32(AIKIDO_DIALECT_NEUTRAL))
    /// OpenAI Chat Completions.
    public static let openAIChat = Dialect(rawValue: UInt32(AIKIDO_DIALECT_OPENAI_CHAT))
    /// OpenAI Responses.
    public static let openAIResponses = Dialect(rawValue: UInt32(AIKIDO_DIALECT_OPENAI_RESPONSES))
    /// Anthropic Messages.
    public static let anthropic = Dialect(rawValue: UInt32(AIKIDO_DIALECT_ANTHROPIC))
    /// Google Gemini.
    public static let gemini = Dialect(rawValue: UInt32(AIKIDO_DIALECT_GEMINI))
    /// MCP: definitions only (a `ListToolsResult`).
    public static let mcp = Dialect(rawValue: UInt32(AIKIDO_DIALECT_MCP))

    /// The tool calls of a model reply (the provider's whole response body
    /// or its relevant part), in reply order; none gives `[]`. Throws
    /// `AikidoError.invalidInput`, saying where, for a reply it cannot read.
    public func toolCalls(in reply: String) throws -> [ToolCall] {
        var calls: OpaquePointer?
        try withBytes(reply) { bytes, count in
            try call { aikido_tool_calls_read(rawValue, bytes, count, &calls, $0) }
        }
        defer { aikido_tool_calls_free(calls) }
        return try (0..<aikido_tool_calls_len(calls)).map { index in
            var item = aikido_tool_call()
            try call { aikido_tool_calls_get(calls, index, &item, $0) }
            let arguments = item.arguments.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: item.arguments_len), as: UTF8.self)
            }
            return ToolCall(id: item.id.map { String(cString: $0) } ?? "", name: String(cString: item.name), arguments: arguments ?? "")
        }
    }

    /// The tool calls of a reply as the neutral JSON list
    /// `[{"id","name","arguments"}]` (`aikido_tool_calls_parse`).
    /// Deprecated in the library: use `toolCalls(in:)`.
    public func toolCallsJSON(in reply: String) throws -> String {
        var json: UnsafeMutablePointer<CChar>?
        try withBytes(reply) { bytes, count in
            try call { aikido_tool_calls_parse(rawValue, bytes, count, &json, $0) }
        }
        return takeString(json) ?? ""
    }
}

/// Flags of the dialect functions.
public struct DialectOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// OpenAI/Anthropic strict mode, both directions.
    public static let strict = DialectOptions(rawValue: UInt32(AIKIDO_STRICT))
    /// `respond`: run the calls one after the other, in order, on this thread.
    public static let sequential = DialectOptions(rawValue: UInt32(AIKIDO_RESPOND_SEQUENTIAL))
}

extension Registry {
    /// Every definition, in registration order, in `dialect`'s format.
    /// Throws `AikidoError.invalidInput` for an unknown dialect or flag, or
    /// a tool the dialect cannot express (the message names it).
    public func definitions(for dialect: Dialect, options: DialectOptions = []) throws -> String {
        var json: UnsafeMutablePointer<CChar>?
        try call { aikido_registry_definitions_for(pointer, dialect.rawValue, options.rawValue, &json, $0) }
        return takeString(json) ?? ""
    }

    /// Runs the tool calls of a model reply and returns the JSON array to
    /// append to the next request, in `dialect`'s format, results in call
    /// order. Every per-call failure is an error result in it; this throws
    /// only for a reply that cannot be read (or an unknown dialect or flag).
    public func respond(
        to reply: String, dialect: Dialect, environment: Environment = Environment(), options: DialectOptions = []
    ) throws -> String {
        var messages: UnsafeMutablePointer<CChar>?
        try environment.withC { cEnvironment in
            try withBytes(reply) { bytes, count in
                try call {
                    aikido_registry_respond(pointer, dialect.rawValue, bytes, count, cEnvironment, options.rawValue, &messages, $0)
                }
            }
        }
        return takeString(messages) ?? ""
    }

    /// `respond`, with the task's cancellation firing the environment's token.
    public func respond(
        to reply: String, dialect: Dialect, environment: Environment = Environment(), options: DialectOptions = []
    ) async throws -> String {
        try await withCancellation(environment) {
            try self.respond(to: reply, dialect: dialect, environment: $0, options: options)
        }
    }
}

/// Runs `body` with the UTF-8 bytes of `text` (not NUL-terminated).
func withBytes<R>(_ text: String, _ body: (UnsafePointer<CChar>?, Int) throws -> R) rethrows -> R {
    var text = text
    return try text.withUTF8 { bytes in
        try bytes.withMemoryRebound(to: CChar.self) { try body($0.baseAddress, $0.count) }
    }
}
