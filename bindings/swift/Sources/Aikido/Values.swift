import CAikido
import Foundation

/// A tool as the model sees it: its name, what it does, and the JSON Schema
/// of its arguments.
public struct ToolDefinition: Sendable, Hashable {
    /// What the model calls the tool by. It must not be empty.
    public var name: String
    /// What the tool does, written for the model ("" for none).
    public var description: String
    /// The JSON Schema of the arguments, or nil for none.
    public var parameters: JSONSchema?

    public init(name: String, description: String = "", parameters: JSONSchema? = nil) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }
}

/// One tool call from a model reply.
public struct ToolCall: Sendable, Hashable {
    /// The model's id for the call; not interpreted ("" when none was given).
    public var id: String
    /// The name of the tool to run.
    public var name: String
    /// The model's raw JSON arguments as bytes, passed on unchanged (the
    /// library reports bytes that are not UTF-8); empty counts as `{}`.
    public var argumentsData: Data

    /// The model's raw JSON arguments as text.
    public var arguments: String {
        get { String(decoding: argumentsData, as: UTF8.self) }
        set { argumentsData = Data(newValue.utf8) }
    }

    public init(id: String = "", name: String, arguments: String = "") {
        self.init(id: id, name: name, argumentsData: Data(arguments.utf8))
    }

    public init(id: String = "", name: String, argumentsData: Data) {
        self.id = id
        self.name = name
        self.argumentsData = argumentsData
    }
}

extension ToolCall: Codable {
    private enum CodingKeys: String, CodingKey { case id, name, arguments }

    /// Reads the neutral shape `{"id","name","arguments"}` (id optional).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decodeIfPresent(String.self, forKey: .id) ?? "",
            name: try container.decode(String.self, forKey: .name),
            arguments: try container.decodeIfPresent(String.self, forKey: .arguments) ?? "")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(arguments, forKey: .arguments)
    }
}

/// What a tool returns to the model.
public struct ToolResult: Sendable, Hashable, Codable {
    /// The result text the model reads.
    public var content: String

    public init(content: String) { self.content = content }
}

extension ToolResult: ExpressibleByStringLiteral {
    public init(stringLiteral content: String) { self.content = content }
}

/// The arguments a handler receives: the call's JSON, already checked by
/// the library (a JSON object holding every required field; `{}` for
/// empty arguments), verbatim.
public struct ToolArguments: Sendable, Hashable, CustomStringConvertible {
    /// The JSON text, as the model sent it.
    public let json: String

    public init(json: String) { self.json = json }

    /// The JSON as UTF-8 bytes.
    public var data: Data { Data(json.utf8) }

    /// Decodes the arguments with Foundation's `JSONDecoder`; a thrown error
    /// becomes the tool's failure if the handler does not catch it.
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: data)
    }

    public var description: String { json }
}

/// A cancellation token of the library: fire it from any thread while calls
/// that use it run. A dispatch whose token has fired does not run its
/// handler (`AikidoError.cancelled`); a running handler sees
/// `environment.isCancelled`; a shell run stops with exit code 130.
public final class CancellationToken: @unchecked Sendable {
    let pointer: OpaquePointer
    private let owned: Bool

    /// A new token that has not fired.
    public init() {
        pointer = aikido_cancel_new()
        owned = true
    }

    /// A token of the library's, borrowed for one handler call.
    init(borrowing pointer: OpaquePointer) {
        self.pointer = pointer
        owned = false
    }

    /// Fires the token; calls that use it from now on are cancelled.
    public func cancel() { aikido_cancel_fire(pointer) }

    /// Whether the token has fired.
    public var isCancelled: Bool { aikido_cancel_is_fired(pointer) }

    deinit { if owned { aikido_cancel_free(pointer) } }
}

/// Per-call context passed to a dispatch and on to the handler.
public struct Environment: Sendable {
    /// The agent session the call belongs to ("" for none). The `bash` tool
    /// keeps one shell per session.
    public var sessionID: String
    /// The model reply that made the call; calls of the same reply share it.
    /// The nil UUID (all zero) when not given.
    public var turnID: UUID
    /// Fired when the caller no longer wants the result; nil: never. An
    /// `async` dispatch fires it when its task is cancelled (making one when
    /// nil). In a handler, a token of the library's is valid during the
    /// call only.
    public var cancellation: CancellationToken?

    public init(sessionID: String = "", turnID: UUID = Environment.nilUUID, cancellation: CancellationToken? = nil) {
        self.sessionID = sessionID
        self.turnID = turnID
        self.cancellation = cancellation
    }

    /// Whether the call's token has fired.
    public var isCancelled: Bool { cancellation?.isCancelled ?? false }

    /// The nil UUID, all zero.
    public static let nilUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The environment a handler receives from the library.
    init(_ environment: UnsafePointer<aikido_environment>?) {
        guard let environment else {
            self.init()
            return
        }
        let c = environment.pointee
        self.init(
            sessionID: c.session_id.map { String(cString: $0) } ?? "",
            turnID: UUID(uuid: c.turn_id),
            cancellation: c.cancel.map { CancellationToken(borrowing: $0) })
    }

    /// Runs `body` with this environment as C sees it.
    func withC<R>(_ body: (UnsafePointer<aikido_environment>) throws -> R) throws -> R {
        try withCText(sessionID, "the session id") { session in
            var c = aikido_environment(session_id: session, turn_id: turnID.uuid, cancel: cancellation?.pointer)
            return try withExtendedLifetime(cancellation) { try body(&c) }
        }
    }
}
