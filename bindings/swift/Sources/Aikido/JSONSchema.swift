import CAikido

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JSON Schema of a tool's arguments, as JSON text. The helpers call the
/// library's `aikido_schema_*` functions, so their bytes are the C helpers'
/// (and the seed's): `JSONSchema.object(["path": .string("File to read.")],
/// required: ["path"])` is
/// `{"properties":{"path":{"description":"File to read.","type":"string"}},"required":["path"],"type":"object"}`.
public struct JSONSchema: Sendable, Hashable, CustomStringConvertible {
    /// The schema's JSON text.
    public let json: String

    /// A schema from JSON text, checked by the library to be JSON.
    public init(json: String) throws {
        try refuseNUL(json, "the schema")
        // aikido_schema_array refuses items that are not valid JSON.
        guard let checked = json.withCString({ aikido_schema_array($0, nil) }) else {
            throw AikidoError.invalidInput("aikido/tools: invalid input: the schema is not valid JSON: \(json)")
        }
        aikido_string_free(checked)
        self.json = json
    }

    init(checked json: String) { self.json = json }

    public var description: String { json }

    /// `{"description":…,"type":"string"}` (an empty description is left out).
    public static func string(_ description: String = "") -> JSONSchema { typed(aikido_schema_string, description) }
    /// `{"description":…,"type":"integer"}`.
    public static func integer(_ description: String = "") -> JSONSchema { typed(aikido_schema_integer, description) }
    /// `{"description":…,"type":"number"}`.
    public static func number(_ description: String = "") -> JSONSchema { typed(aikido_schema_number, description) }
    /// `{"description":…,"type":"boolean"}`.
    public static func boolean(_ description: String = "") -> JSONSchema { typed(aikido_schema_boolean, description) }

    /// `{"description":…,"enum":[…],"type":"string"}`, the values in order.
    public static func `enum`(_ description: String = "", values: [String]) -> JSONSchema {
        let copies = ([description] + values).map { strdup(cut($0))! }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.dropFirst().map { UnsafePointer($0) as UnsafePointer<CChar>? }
        let text = pointers.withUnsafeBufferPointer { aikido_schema_enum(copies[0], $0.baseAddress, $0.count) }
        return JSONSchema(checked: takeString(text) ?? "")
    }

    /// `{"description":…,"items":…,"type":"array"}`.
    public static func array(of items: JSONSchema, _ description: String = "") -> JSONSchema {
        JSONSchema(checked: takeString(aikido_schema_array(items.json, cut(description))) ?? "")
    }

    /// `{"properties":{…},"required":[…],"type":"object"}`: the properties
    /// in the library's order (alphabetical, as the seed's), the required
    /// names in the order given. No properties leave `properties` out; no
    /// required names leave `required` out. Throws
    /// `AikidoError.invalidInput` for a name holding a NUL byte.
    public static func object(_ properties: [String: JSONSchema] = [:], required: [String] = []) throws -> JSONSchema {
        let sorted = properties.sorted { $0.key < $1.key }
        let names = sorted.map(\.key)
        let schemas = sorted.map(\.value.json)
        return try withCTexts(
            names + schemas + required, Array(repeating: "a property name", count: names.count + schemas.count + required.count)
        ) { texts in
            let namePointers = Array(texts[0..<names.count])
            let schemaPointers = Array(texts[names.count..<(2 * names.count)])
            let requiredPointers = Array(texts[(2 * names.count)...])
            var json: UnsafeMutablePointer<CChar>?
            try call { error in
                aikido_schema_object(namePointers, schemaPointers, names.count, requiredPointers, requiredPointers.count, &json, error)
            }
            return JSONSchema(checked: takeString(json) ?? "")
        }
    }

    /// The object form with required names as variadic arguments, as the
    /// seed's `Object(properties, required...)`.
    public static func object(_ properties: [String: JSONSchema], required: String...) throws -> JSONSchema {
        try object(properties, required: required)
    }

    private static func typed(_ helper: (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?, _ description: String) -> JSONSchema {
        JSONSchema(checked: takeString(helper(cut(description))) ?? "")
    }

    /// A description is text for the model: a NUL byte in it ends it, as C
    /// reads it (the helpers cannot fail, as the seed's cannot).
    private static func cut(_ text: String) -> String {
        guard let nul = text.utf8.firstIndex(of: 0) else { return text }
        return String(text[..<nul])
    }
}
