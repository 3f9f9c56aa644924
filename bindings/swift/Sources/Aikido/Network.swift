import CAikido
import Foundation

/// Limits of a `NetworkPolicy`; a field of 0 keeps the policy's value (the
/// defaults are in brackets).
public struct NetworkLimits: Sendable, Hashable {
    /// Time one request may take, connect to last byte, in milliseconds [30000].
    public var timeoutMilliseconds: UInt64 = 0
    /// Bytes of one response body; past it the transfer stops (curl's exit code 63) [10485760].
    public var maxResponseBytes: UInt64 = 0
    /// Requests of one run of a script; each redirect hop is one [50].
    public var maxRequests: UInt32 = 0
    /// Redirects one command follows [10].
    public var maxRedirects: UInt32 = 0

    public init(timeoutMilliseconds: UInt64 = 0, maxResponseBytes: UInt64 = 0, maxRequests: UInt32 = 0, maxRedirects: UInt32 = 0) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxResponseBytes = maxResponseBytes
        self.maxRequests = maxRequests
        self.maxRedirects = maxRedirects
    }

    /// The limits as C has them; a new field of the library is one line here.
    var c: aikido_network_limits {
        aikido_network_limits(
            timeout_milliseconds: timeoutMilliseconds, max_response_bytes: maxResponseBytes, max_requests: maxRequests,
            max_redirects: maxRedirects)
    }
}

/// What a shell's `curl` and `wget` may reach; a shell without one has no
/// network. A URL must fall under an allowed prefix (scheme, host, port,
/// and path on segment boundaries, matched on the parsed, normalised URL);
/// the methods are GET and HEAD plus those allowed; the address connected
/// to must be public or inside an allowed range (loopback, private,
/// link-local and cloud-metadata ones are refused unless a range names
/// them). The library checks every rule as it is added: a bad one throws
/// `AikidoError.invalidInput` with its message.
///
/// ```swift
/// let network = try NetworkPolicy()
///     .allowURL("https://api.example.com/v1")
///     .attachHeader("Authorization", value: "Bearer …", under: "https://api.example.com/v1")
/// let shell = Shell(storage: .memory(), network: network)
/// ```
///
/// A `Shell` or the `bash` tool takes a copy, so a policy changed later
/// changes no shell made from it. Not `Sendable`: the library's policy is
/// not thread-safe while being changed, so it is built in one place.
public final class NetworkPolicy {
    let pointer: OpaquePointer

    /// A policy that allows nothing yet.
    public init() { pointer = aikido_network_policy_new() }

    deinit { aikido_network_policy_free(pointer) }

    /// Allows the URLs under `prefix` (`https://api.example.com/v1`).
    /// Throws for a prefix that is not an http or https URL, or has a user,
    /// a query or a fragment.
    @discardableResult
    public func allowURL(_ prefix: String) throws -> NetworkPolicy {
        try withCText(prefix, "the URL prefix") { prefix in
            try call { aikido_network_policy_allow_url(pointer, prefix, $0) }
        }
        return self
    }

    /// Allows connecting to the addresses of a range (`127.0.0.1/32`,
    /// `10.0.0.0/8`, `::1`; a bare address is a range of one).
    @discardableResult
    public func allowAddress(_ range: String) throws -> NetworkPolicy {
        try withCText(range, "the address range") { range in
            try call { aikido_network_policy_allow_address(pointer, range, $0) }
        }
        return self
    }

    /// Allows a method besides GET and HEAD (`POST`, `PUT`…).
    @discardableResult
    public func allowMethod(_ method: String) throws -> NetworkPolicy {
        try withCText(method, "the method") { method in
            try call { aikido_network_policy_allow_method(pointer, method, $0) }
        }
        return self
    }

    /// Attaches `name: value` to every request under `prefix` (a token,
    /// say). The script never sees the value, not in its environment nor in
    /// `curl -v`; a header of that name the script sets is replaced.
    @discardableResult
    public func attachHeader(_ name: String, value: String, under prefix: String) throws -> NetworkPolicy {
        try withCTexts([prefix, name, value], ["the URL prefix", "the header name", "the header value"]) { texts in
            try call { aikido_network_policy_attach_header(pointer, texts[0], texts[1], texts[2], $0) }
        }
        return self
    }

    /// Sets the limits; each field of 0 keeps the policy's value.
    @discardableResult
    public func setLimits(_ limits: NetworkLimits) throws -> NetworkPolicy {
        var c = limits.c
        try call { aikido_network_policy_set_limits(pointer, &c, $0) }
        return self
    }
}

extension Registry {
    /// Registers the `bash` tool as `registerShellTool(storage:limits:)`
    /// does, each session's shell reaching what `network` allows (a copy).
    public func registerShellTool(storage: Storage, limits: ShellLimits? = nil, network: NetworkPolicy) throws {
        try withCLimits(limits) { limits in
            try call { aikido_registry_register_shell_tool_with_network(pointer, storage.pointer, limits, network.pointer, $0) }
        }
    }
}
