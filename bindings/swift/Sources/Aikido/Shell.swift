import CAikido
import Foundation

/// Bounds on each run of a script; a field of 0 takes the library's default
/// (in brackets). A script that reaches one stops, writes a message to its
/// stderr, and ends with exit code 125 (124 for the time limit).
public struct ShellLimits: Sendable, Hashable {
    /// Simple commands run [100000].
    public var maxCommands: UInt64 = 0
    /// Iterations of all loops together [100000].
    public var maxLoopIterations: UInt64 = 0
    /// Nested function calls, and `source`/`eval` levels [100].
    public var maxFunctionDepth: UInt32 = 0
    /// Bytes in any one stream [1048576]; output past it is cut.
    public var maxOutputBytes: Int = 0
    /// Wall-clock time in milliseconds [10000].
    public var maxMilliseconds: UInt64 = 0
    /// Bytes the session's variables may hold together [268435456].
    public var maxMemoryBytes: Int = 0
    /// The `bash` tool only: the most bytes of a result the model reads [30720].
    public var maxResultBytes: Int = 0

    public init(
        maxCommands: UInt64 = 0, maxLoopIterations: UInt64 = 0, maxFunctionDepth: UInt32 = 0, maxOutputBytes: Int = 0,
        maxMilliseconds: UInt64 = 0, maxMemoryBytes: Int = 0, maxResultBytes: Int = 0
    ) {
        self.maxCommands = maxCommands
        self.maxLoopIterations = maxLoopIterations
        self.maxFunctionDepth = maxFunctionDepth
        self.maxOutputBytes = maxOutputBytes
        self.maxMilliseconds = maxMilliseconds
        self.maxMemoryBytes = maxMemoryBytes
        self.maxResultBytes = maxResultBytes
    }

    /// The limits as C has them; a new field of the library is one line here.
    var c: aikido_shell_limits {
        aikido_shell_limits(
            max_commands: maxCommands, max_loop_iterations: maxLoopIterations, max_function_depth: maxFunctionDepth,
            max_output_bytes: maxOutputBytes, max_milliseconds: maxMilliseconds, max_memory_bytes: maxMemoryBytes,
            max_result_bytes: maxResultBytes)
    }
}

/// Runs `body` with `limits` as C sees them (NULL for the defaults).
func withCLimits<R>(_ limits: ShellLimits?, _ body: (UnsafePointer<aikido_shell_limits>?) throws -> R) rethrows -> R {
    guard var c = limits?.c else { return try body(nil) }
    return try body(&c)
}

/// The limit that stopped a script (an `AIKIDO_SHELL_LIMIT_*` value).
public struct ShellLimit: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let none = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_NONE)
    public static let commands = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_COMMANDS)
    public static let loopIterations = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS)
    public static let functionDepth = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_FUNCTION_DEPTH)
    public static let output = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_OUTPUT)
    public static let time = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_TIME)
    public static let cancelled = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_CANCELLED)
    public static let memory = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_MEMORY)
    public static let threads = ShellLimit(rawValue: AIKIDO_SHELL_LIMIT_THREADS)
}

/// What one `Shell.run` produced: every field of `aikido_shell_result`.
public struct ShellResult: Sendable, Hashable {
    /// Everything the script wrote to standard output (any bytes).
    public var standardOutput: Data
    /// Everything the script wrote to standard error.
    public var standardError: Data
    /// The exit status, as `$?` would show it.
    public var exitCode: Int32
    /// Whether stdout or stderr was cut at `maxOutputBytes`.
    public var truncated: Bool
    /// The limit that stopped the script (`.none` when none did).
    public var limit: ShellLimit
    /// Every path the script created, changed or removed, sorted, once each.
    public var writeSet: [String]
    /// `writeSet` as the library's JSON array. Deprecated in the library.
    public var writeSetJSON: String

    /// Standard output as UTF-8 text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var errorOutput: String { String(decoding: standardError, as: UTF8.self) }
}

/// An in-process bash over a storage: its working directory, variables and
/// functions persist from one run to the next; nothing runs on the host.
/// Thread-safe (runs on one shell take turns).
public final class Shell: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A new shell over `storage`, starting in `/`, each run bounded by
    /// `limits` (nil: the defaults). Its `curl` and `wget` reach what
    /// `network` allows (a copy; nil: no network, they exit with 7).
    public init(storage: Storage, limits: ShellLimits? = nil, network: NetworkPolicy? = nil) {
        pointer = withCLimits(limits) { limits in
            if let network {
                aikido_shell_new_with_network(storage.pointer, limits, network.pointer)
            } else {
                aikido_shell_new(storage.pointer, limits)
            }
        }
    }

    /// Owns a shell the library made.
    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { aikido_shell_free(pointer) }

    /// Runs a script as `bash -c` would. A script that fails or hits a limit
    /// still returns: its exit code, stderr and `limit` say how it ended.
    /// Throws `AikidoError.invalidInput` for a script holding a NUL byte.
    public func run(_ script: String, cancellation: CancellationToken? = nil) throws -> ShellResult {
        try refuseNUL(script, "the script")
        var result = aikido_shell_result()
        defer { aikido_shell_result_free(&result) }
        try withBytes(script) { bytes, count in
            try call { aikido_shell_run(pointer, bytes, count, cancellation?.pointer, &result, $0) }
        }
        withExtendedLifetime(cancellation) {}
        let writeSet = (0..<aikido_strings_len(result.write_set)).map { index -> String in
            var item: UnsafePointer<CChar>?
            var message: UnsafeMutablePointer<CChar>?
            _ = aikido_strings_get(result.write_set, index, &item, &message)
            aikido_string_free(message)
            return item.map { String(cString: $0) } ?? ""
        }
        return ShellResult(
            standardOutput: result.stdout_data.map { Data(bytes: $0, count: result.stdout_len) } ?? Data(),
            standardError: result.stderr_data.map { Data(bytes: $0, count: result.stderr_len) } ?? Data(),
            exitCode: result.exit_code, truncated: result.truncated, limit: ShellLimit(rawValue: result.limit),
            writeSet: writeSet, writeSetJSON: result.write_set_json.map { String(cString: $0) } ?? "[]")
    }

    /// `run`, stopped (exit code 130) when the task is cancelled.
    public func run(_ script: String) async throws -> ShellResult {
        let token = CancellationToken()
        return try await withTaskCancellationHandler {
            if Task.isCancelled { token.cancel() }
            return try run(script, cancellation: token)
        } onCancel: {
            token.cancel()
        }
    }

    /// Forgets the working directory, variables and functions; files stay.
    public func reset() { aikido_shell_reset(pointer) }

    // MARK: Snapshots

    /// The session as bytes in the library's snapshot format (docs/SHELL.md,
    /// "Snapshots"): working directory, variables, functions, options,
    /// traps, and the files of its storage when they live in memory (a
    /// memory storage whole, an overlay's or dry run's changes); a host
    /// folder is referred to, never copied. Waits for a run in progress.
    public func snapshot() throws -> Data {
        var data: UnsafeMutablePointer<UInt8>?
        var count = 0
        try call { aikido_shell_snapshot(pointer, &data, &count, $0) }
        defer { aikido_bytes_free(data, count) }
        return data.map { Data(bytes: $0, count: count) } ?? Data()
    }

    /// The session `snapshot` holds (from `snapshot()`), each run bounded by
    /// `limits` (nil: the defaults; a snapshot does not carry them). Its
    /// files go into `storage`, which must keep them in memory as the
    /// snapshotted one did (its content is replaced), or, when nil, into a
    /// new memory storage (`storage` of the shell). Bytes of a newer
    /// format, truncated, changed or hostile throw `AikidoError.invalidInput`
    /// with the library's message saying which, and change nothing.
    public init(restoring snapshot: Data, into storage: Storage? = nil, limits: ShellLimits? = nil) throws {
        var shell: OpaquePointer?
        try snapshot.withUnsafeBytes { bytes in
            try withCLimits(limits) { limits in
                try call {
                    aikido_shell_restore(
                        bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, storage?.pointer, limits, &shell, $0)
                }
            }
        }
        withExtendedLifetime(storage) {}
        guard let shell else { throw AikidoError.invalidInput("aikido/tools: invalid input: no shell restored") }
        pointer = shell
    }

    /// A copy of the session that shares nothing mutable with this one: the
    /// same state, and a copy of the files its storage keeps in memory
    /// (copied on write, so a fork is cheap); a host folder is shared.
    /// Waits for a run in progress.
    public func fork() -> Shell { Shell(aikido_shell_fork(pointer)) }

    /// The storage the shell runs over (shared): the files of a restored or
    /// forked shell are reached here.
    public var storage: Storage { Storage(aikido_shell_storage(pointer)) }
}

extension Registry {
    /// Registers the file tools `read_file`, `write_file`, `list_directory`,
    /// `edit_file` and `delete_path`, acting on `storage`.
    public func registerFileTools(storage: Storage) throws {
        try call { aikido_registry_register_file_tools(pointer, storage.pointer, $0) }
    }

    /// Registers the `bash` tool: an in-process bash over `storage`, one
    /// shell per session id, each run bounded by `limits` (nil: defaults).
    /// Its result is stdout, a `[stderr]` section, then `[exit code: N]`.
    /// Its `curl` and `wget` have no network; see
    /// `registerShellTool(storage:limits:network:)`.
    public func registerShellTool(storage: Storage, limits: ShellLimits? = nil) throws {
        try withCLimits(limits) { limits in
            try call { aikido_registry_register_shell_tool(pointer, storage.pointer, limits, $0) }
        }
    }
}
