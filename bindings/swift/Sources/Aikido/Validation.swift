import CAikido
import Foundation

/// How a registry checks the arguments of every call (docs/VALIDATION.md).
public struct Validation: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The seed's check: one JSON object holding every required field, not
    /// null. The default.
    public static let required = Validation(rawValue: UInt32(AIKIDO_VALIDATE_REQUIRED))
    /// The whole schema (JSON Schema 2020-12); every violation reported at
    /// its JSON Pointer.
    public static let full = Validation(rawValue: UInt32(AIKIDO_VALIDATE_FULL))
    /// `full`, after coercing what the schema makes unambiguous (a numeric
    /// string for a number…); `dispatchWithRepairs` reports what changed.
    public static let repair = Validation(rawValue: UInt32(AIKIDO_VALIDATE_REPAIR))
}

/// One change `Validation.repair` made to a call's arguments.
public struct Repair: Sendable, Hashable {
    /// Where, as a JSON Pointer (`/limit`).
    public var pointer: String
    /// The string the model sent.
    public var from: String
    /// The JSON of the value the handler got (`200`).
    public var to: String

    public init(pointer: String, from: String, to: String) {
        self.pointer = pointer
        self.from = from
        self.to = to
    }
}

extension Registry {
    /// Sets how every dispatch (and `respond`) checks arguments. Switching
    /// to `full` or `repair` compiles every schema registered so far; one
    /// that is not valid JSON Schema throws `AikidoError.invalidInput`
    /// naming the tool, and the mode stays as it was.
    public func setValidation(_ validation: Validation) throws {
        try call { aikido_registry_set_validation(pointer, validation.rawValue, $0) }
    }

    /// `dispatch`, and the repairs `Validation.repair` made to the arguments
    /// before the handler ran (`[]` when none), from
    /// `aikido_registry_dispatch_ex`.
    public func dispatchWithRepairs(_ call: ToolCall, environment: Environment = Environment()) throws -> (
        result: ToolResult, repairs: [Repair]
    ) {
        var json: UnsafeMutablePointer<CChar>?
        let result = try dispatch(call, environment: environment, repairs: &json)
        let text = takeString(json) ?? "[]"
        let list = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
        let repairs = list.map { item in
            let to = item["to"].flatMap {
                try? JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            }
            return Repair(
                pointer: item["pointer"] as? String ?? "", from: item["from"] as? String ?? "",
                to: to.map { String(decoding: $0, as: UTF8.self) } ?? "null")
        }
        return (result, repairs)
    }
}
