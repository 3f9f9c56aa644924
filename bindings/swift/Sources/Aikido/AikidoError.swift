import CAikido
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one error type of the binding: a case for each status of the
/// library, each carrying the library's message unchanged.
///
/// The first four cases are the seed's errors. A case matches whatever its
/// message, so `catch AikidoError.unknownTool` works as `errors.Is` does in
/// Go, and `catch AikidoError.unknownTool(let message)` reads the message:
///
/// ```swift
/// do { _ = try registry.dispatch(ToolCall(name: "multiply")) }
/// catch AikidoError.unknownTool(let message) { print(message) }
/// ```
///
/// A handler may throw ``toolPanicked(_:)`` to report a panic (Swift cannot
/// catch a trap); any other error it throws is the tool's failure.
public enum AikidoError: Error, Sendable, Hashable {
    /// `AIKIDO_ERR_DUPLICATE_TOOL`: the name is registered already.
    case duplicateTool(String)
    /// `AIKIDO_ERR_UNKNOWN_TOOL`: no tool of that name.
    case unknownTool(String)
    /// `AIKIDO_ERR_INVALID_ARGUMENTS`: the call's arguments failed the check.
    case invalidArguments(String)
    /// `AIKIDO_ERR_TOOL_PANICKED`: the handler panicked (threw this case).
    case toolPanicked(String)
    /// `AIKIDO_ERR_TOOL_FAILED`: the handler failed; the message is its text.
    case toolFailed(String)
    /// `AIKIDO_ERR_INVALID_INPUT`: a misuse (an empty name, text holding a
    /// NUL byte, parameters that are not JSON, an unknown dialect…).
    case invalidInput(String)
    /// `AIKIDO_ERR_CANCELLED`: the call was cancelled before its handler ran.
    case cancelled(String)
    /// `AIKIDO_ERR_STORAGE`: a storage operation failed; the message says
    /// what and where, as a shell would (`/a/b: No such file or directory`).
    case storage(String)
    /// A status this binding does not know yet (a newer library).
    case other(status: Int32, message: String)

    /// Makes the error for a status the library returned (not `AIKIDO_OK`).
    /// Adding a status of the library means a case above and a line here.
    public init(status: Int32, message: String) {
        switch status {
        case AIKIDO_ERR_DUPLICATE_TOOL: self = .duplicateTool(message)
        case AIKIDO_ERR_UNKNOWN_TOOL: self = .unknownTool(message)
        case AIKIDO_ERR_INVALID_ARGUMENTS: self = .invalidArguments(message)
        case AIKIDO_ERR_TOOL_PANICKED: self = .toolPanicked(message)
        case AIKIDO_ERR_TOOL_FAILED: self = .toolFailed(message)
        case AIKIDO_ERR_INVALID_INPUT: self = .invalidInput(message)
        case AIKIDO_ERR_CANCELLED: self = .cancelled(message)
        case AIKIDO_ERR_STORAGE: self = .storage(message)
        default: self = .other(status: status, message: message)
        }
    }

    /// The library's status code, e.g. `AIKIDO_ERR_UNKNOWN_TOOL` (2).
    public var status: Int32 {
        switch self {
        case .duplicateTool: AIKIDO_ERR_DUPLICATE_TOOL
        case .unknownTool: AIKIDO_ERR_UNKNOWN_TOOL
        case .invalidArguments: AIKIDO_ERR_INVALID_ARGUMENTS
        case .toolPanicked: AIKIDO_ERR_TOOL_PANICKED
        case .toolFailed: AIKIDO_ERR_TOOL_FAILED
        case .invalidInput: AIKIDO_ERR_INVALID_INPUT
        case .cancelled: AIKIDO_ERR_CANCELLED
        case .storage: AIKIDO_ERR_STORAGE
        case .other(let status, _): status
        }
    }

    /// The library's message, unchanged.
    public var message: String {
        switch self {
        case .duplicateTool(let message), .unknownTool(let message), .invalidArguments(let message),
            .toolPanicked(let message), .toolFailed(let message), .invalidInput(let message),
            .cancelled(let message), .storage(let message), .other(_, let message):
            message
        }
    }

    /// The status's name, e.g. "AIKIDO_ERR_UNKNOWN_TOOL", from the library.
    public var statusName: String { AikidoLibrary.statusName(status) }
}

extension AikidoError: CustomStringConvertible {
    /// The library's message.
    public var description: String { message }
}

extension AikidoError: LocalizedError {
    /// The library's message (so `localizedDescription` is it too).
    public var errorDescription: String? { message }
}

/// Throws the error for `status` unless it is `AIKIDO_OK`, taking (and
/// freeing) the library's message.
@inline(__always)
func check(_ status: aikido_status, _ message: UnsafeMutablePointer<CChar>?) throws {
    if status == AIKIDO_OK {
        aikido_string_free(message)
        return
    }
    throw AikidoError(status: status, message: takeString(message) ?? "")
}

/// Calls a C function with an `error_out` and throws its error.
@inline(__always)
func call(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> aikido_status) throws {
    var message: UnsafeMutablePointer<CChar>?
    let status = body(&message)
    try check(status, message)
}

/// Copies a string the library returned and frees it.
func takeString(_ text: UnsafeMutablePointer<CChar>?) -> String? {
    guard let text else { return nil }
    defer { aikido_string_free(text) }
    return String(cString: text)
}

/// Refuses text holding a NUL byte: a C string would end there, and the
/// library would see it cut short without knowing.
func refuseNUL(_ text: String, _ what: String) throws {
    if text.utf8.contains(0) {
        throw AikidoError.invalidInput("aikido/tools: invalid input: \(what) holds a NUL byte")
    }
}

/// Runs `body` with a C copy of `text` (NULL for nil), after `refuseNUL`.
func withCText<R>(_ text: String?, _ what: String, _ body: (UnsafePointer<CChar>?) throws -> R) throws -> R {
    guard let text else { return try body(nil) }
    try refuseNUL(text, what)
    return try text.withCString { pointer in try body(pointer) }
}

/// Runs `body` with C copies of `texts` (NULL for nil), each checked by
/// `refuseNUL` under its name in `what`.
func withCTexts<R>(_ texts: [String?], _ what: [String], _ body: ([UnsafePointer<CChar>?]) throws -> R) throws -> R {
    for (text, name) in zip(texts, what) where text != nil { try refuseNUL(text!, name) }
    let copies = texts.map { text in text.map { strdup($0)! } }
    defer { for copy in copies { free(copy) } }
    return try body(copies.map { $0.map { UnsafePointer($0) } })
}
