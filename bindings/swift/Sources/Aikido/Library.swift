import CAikido
import Foundation

/// What the library says of itself, and its UUIDs.
public enum AikidoLibrary {
    /// The library's version, e.g. "0.1.0".
    public static var version: String { String(cString: aikido_version()) }

    /// The name of a status, e.g. "AIKIDO_ERR_UNKNOWN_TOOL", or
    /// "AIKIDO_UNKNOWN_STATUS".
    public static func statusName(_ status: Int32) -> String { String(cString: aikido_status_name(status)) }

    /// A new random (version 4) UUID, from the library.
    public static func newUUIDv4() -> UUID { makeUUID(aikido_uuid_new_v4) }

    /// A new time-ordered (version 7) UUID, e.g. for a turn id.
    public static func newUUIDv7() -> UUID { makeUUID(aikido_uuid_new_v7) }

    /// Parses UUID text (hyphenated, simple, braced or urn form); throws
    /// `AikidoError.invalidInput` for text that is not one.
    public static func parseUUID(_ text: String) throws -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        let status = try withCText(text, "the UUID text") { aikido_uuid_parse($0, &bytes) }
        if status != AIKIDO_OK {
            throw AikidoError(status: status, message: "aikido/tools: invalid input: not a UUID: \(text)")
        }
        return uuid(bytes)
    }

    /// The hyphenated lower-case form of a UUID, as the library writes it.
    public static func format(_ id: UUID) -> String {
        var text = [CChar](repeating: 0, count: 37)
        withUnsafeBytes(of: id.uuid) { aikido_uuid_format($0.bindMemory(to: UInt8.self).baseAddress, &text) }
        return String(decoding: text.prefix(36).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func makeUUID(_ make: (UnsafeMutablePointer<UInt8>?) -> Void) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        make(&bytes)
        return uuid(bytes)
    }

    private static func uuid(_ b: [UInt8]) -> UUID {
        UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
