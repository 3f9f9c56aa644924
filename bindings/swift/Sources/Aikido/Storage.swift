import CAikido
import Foundation

/// A virtual file storage: in memory, over a host folder, or composed
/// (read-only view, overlay, dry run, mounts, path policy). Thread-safe; a
/// storage composed from another keeps what it shares, so each handle may
/// go at any time. Failures throw `AikidoError.storage` with the library's
/// message, written as a shell would (`/a/b: No such file or directory`),
/// or `AikidoError.invalidInput` for a misuse.
///
/// Adding a storage of the library means one factory below; adding an
/// operation, one method.
public final class Storage: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Wraps what a constructor returned: NULL only for arguments the
    /// library refused.
    static func made(_ pointer: OpaquePointer?, _ what: String) throws -> Storage {
        guard let pointer else { throw AikidoError.invalidInput("aikido/tools: invalid input: \(what)") }
        return Storage(pointer)
    }

    deinit { aikido_storage_free(pointer) }

    // MARK: Storages

    /// A new, empty storage in memory; a limit of 0 is no limit.
    public static func memory(maxTotalBytes: UInt64 = 0, maxFileBytes: UInt64 = 0) -> Storage {
        Storage(aikido_storage_memory_new(maxTotalBytes, maxFileBytes))
    }

    /// A storage over the host folder `root`, which must exist; nothing can
    /// reach outside it. With `readOnly`, every change is refused.
    public static func host(root: String, readOnly: Bool = false) throws -> Storage {
        var storage: OpaquePointer?
        try withCText(root, "the root folder") { root in
            try call { aikido_storage_host_new(root, readOnly, &storage, $0) }
        }
        return try made(storage, "no storage for \(root)")
    }

    /// A read-only view of this storage.
    public func readOnly() -> Storage { Storage(aikido_storage_read_only(pointer)) }

    /// A writable layer in memory over this storage, which is untouched
    /// until `commit()`.
    public func overlay() -> Storage { Storage(aikido_storage_overlay_new(pointer)) }

    /// A dry run over this storage: changes are recorded (`changes()`),
    /// never applied.
    public func dryRun() -> Storage { Storage(aikido_storage_dry_run_new(pointer)) }

    /// A new storage: this one with `storage` mounted at `prefix`.
    public func mounting(_ storage: Storage, at prefix: String) throws -> Storage {
        try withCText(prefix, "the mount prefix") { prefix in
            try Storage.made(aikido_storage_mount(pointer, prefix, storage.pointer), "the mount was refused")
        }
    }

    /// A storage that lets through only what `rules` allow (a path must
    /// match no deny rule and, if there are allow rules of its kind of
    /// access, one of them); refusals are "Permission denied".
    public func restricted(by rules: [PathRule]) throws -> Storage {
        var storage: OpaquePointer?
        try withCTexts(rules.map(\.pattern), rules.map { _ in "a rule's pattern" }) { patterns in
            let cRules = zip(rules, patterns).map { rule, pattern in
                aikido_path_rule(access: rule.access.rawValue, allow: rule.allow, pattern: pattern)
            }
            try call { aikido_storage_policy_new(pointer, cRules, cRules.count, &storage, $0) }
        }
        return try Storage.made(storage, "the policy was refused")
    }

    // MARK: Files

    /// The whole file at `path` (symlinks followed).
    public func read(_ path: String) throws -> Data {
        try withCText(path, "the path") { path in
            var data: UnsafeMutablePointer<UInt8>?
            var count = 0
            try call { aikido_storage_read(pointer, path, &data, &count, $0) }
            defer { aikido_bytes_free(data, count) }
            return data.map { Data(bytes: $0, count: count) } ?? Data()
        }
    }

    /// The file at `path` as UTF-8 text.
    public func readText(_ path: String) throws -> String { String(decoding: try read(path), as: UTF8.self) }

    /// Creates or replaces the file at `path`.
    public func write(_ data: Data, to path: String) throws {
        try withCText(path, "the path") { path in
            try data.withUnsafeBytes { bytes in
                try call { aikido_storage_write(pointer, path, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, $0) }
            }
        }
    }

    /// Creates or replaces the file at `path` with UTF-8 text.
    public func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }

    /// Appends to the file at `path`, creating it.
    public func append(_ data: Data, to path: String) throws {
        try withCText(path, "the path") { path in
            try data.withUnsafeBytes { bytes in
                try call { aikido_storage_append(pointer, path, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, $0) }
            }
        }
    }

    /// Creates a directory; with `withParents`, missing parents too.
    public func createDirectory(_ path: String, withParents: Bool = false) throws {
        try withCText(path, "the path") { path in
            try call { aikido_storage_mkdir(pointer, path, withParents, $0) }
        }
    }

    /// Removes a file, symlink or empty directory; `recursive`, a directory
    /// and everything in it.
    public func remove(_ path: String, recursive: Bool = false) throws {
        try withCText(path, "the path") { path in
            try call { aikido_storage_remove(pointer, path, recursive, $0) }
        }
    }

    /// Moves `from` to `to`, replacing a file there.
    public func move(_ from: String, to: String) throws {
        try withCTexts([from, to], ["the source path", "the destination path"]) { paths in
            try call { aikido_storage_rename(pointer, paths[0], paths[1], $0) }
        }
    }

    /// Creates a symlink at `link` pointing at `target`, kept as written.
    public func createSymlink(at link: String, pointingTo target: String) throws {
        try withCTexts([target, link], ["the symlink target", "the symlink path"]) { paths in
            try call { aikido_storage_symlink(pointer, paths[0], paths[1], $0) }
        }
    }

    /// The target of the symlink at `path`.
    public func symlinkTarget(_ path: String) throws -> String {
        try withCText(path, "the path") { path in
            var target: UnsafeMutablePointer<CChar>?
            try call { aikido_storage_readlink(pointer, path, &target, $0) }
            return takeString(target) ?? ""
        }
    }

    /// What `path` is (symlinks followed).
    public func stat(_ path: String) throws -> FileStat { try stat(path, aikido_storage_stat) }

    /// What `path` itself is: a final symlink is reported as one.
    public func lstat(_ path: String) throws -> FileStat { try stat(path, aikido_storage_lstat) }

    private func stat(
        _ path: String,
        _ function: (
            OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<aikido_file_stat>?,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> aikido_status
    ) throws -> FileStat {
        try withCText(path, "the path") { path in
            var stat = aikido_file_stat()
            try call { function(pointer, path, &stat, $0) }
            return FileStat(
                kind: FileKind(rawValue: stat.kind), size: stat.size, mode: stat.mode,
                modified: Date(timeIntervalSince1970: Double(stat.modified_unix_ms) / 1000), modifiedUnixMilliseconds: stat.modified_unix_ms
            )
        }
    }

    /// The entries of the directory at `path`, sorted by name.
    public func contentsOfDirectory(_ path: String) throws -> [DirectoryEntry] {
        try withCText(path, "the path") { path in
            var entries: OpaquePointer?
            try call { aikido_storage_entries(pointer, path, &entries, $0) }
            defer { aikido_dir_entries_free(entries) }
            return try (0..<aikido_dir_entries_len(entries)).map { index in
                var entry = aikido_dir_entry()
                try call { aikido_dir_entries_get(entries, index, &entry, $0) }
                return DirectoryEntry(name: String(cString: entry.name), kind: FileKind(rawValue: entry.kind))
            }
        }
    }

    /// The entries of a directory as the library's JSON
    /// (`[{"kind":"file","name":"a.txt"}]`). Deprecated in the library:
    /// use `contentsOfDirectory(_:)`.
    public func listJSON(_ path: String) throws -> String {
        try withCText(path, "the path") { path in
            var json: UnsafeMutablePointer<CChar>?
            try call { aikido_storage_list(pointer, path, &json, $0) }
            return takeString(json) ?? ""
        }
    }

    // MARK: Overlays and dry runs

    /// What an overlay or a dry run changed, sorted by path. Throws
    /// `AikidoError.invalidInput` for any other storage.
    public func changes() throws -> [Change] {
        var changes: OpaquePointer?
        try call { aikido_storage_changes(pointer, &changes, $0) }
        defer { aikido_changes_free(changes) }
        return try (0..<aikido_changes_len(changes)).map { index in
            var change = aikido_change()
            try call { aikido_changes_get(changes, index, &change, $0) }
            return Change(path: String(cString: change.path), kind: ChangeKind(rawValue: change.change))
        }
    }

    /// The changes as the library's JSON
    /// (`[{"change":"added","path":"/a.txt"}]`). Deprecated in the library:
    /// use `changes()`.
    public func diffJSON() throws -> String {
        var json: UnsafeMutablePointer<CChar>?
        try call { aikido_storage_diff(pointer, &json, $0) }
        return takeString(json) ?? ""
    }

    /// Applies an overlay's changes to its lower storage and empties it.
    public func commit() throws { try call { aikido_storage_commit(pointer, $0) } }

    /// Drops an overlay's changes.
    public func discard() throws { try call { aikido_storage_discard(pointer, $0) } }
}

/// A kind of access a `PathRule` governs.
public struct Access: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Reading files, metadata and symlinks.
    public static let read = Access(rawValue: AIKIDO_ACCESS_READ)
    /// Creating, changing, renaming and removing.
    public static let write = Access(rawValue: AIKIDO_ACCESS_WRITE)
    /// Listing a directory.
    public static let list = Access(rawValue: AIKIDO_ACCESS_LIST)
}

/// One rule of a path policy: allow or deny `access` to the paths matching
/// `pattern` (gitignore-like globs; see `aikido_path_rule`).
public struct PathRule: Sendable, Hashable {
    public var access: Access
    public var allow: Bool
    public var pattern: String

    public init(_ access: Access, allow: Bool, _ pattern: String) {
        self.access = access
        self.allow = allow
        self.pattern = pattern
    }

    /// Allows `access` to `pattern`.
    public static func allow(_ access: Access, _ pattern: String) -> PathRule { PathRule(access, allow: true, pattern) }
    /// Denies `access` to `pattern`.
    public static func deny(_ access: Access, _ pattern: String) -> PathRule { PathRule(access, allow: false, pattern) }
}

/// A file's kind (an `AIKIDO_FILE_KIND_*` value).
public struct FileKind: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let file = FileKind(rawValue: AIKIDO_FILE_KIND_FILE)
    public static let directory = FileKind(rawValue: AIKIDO_FILE_KIND_DIRECTORY)
    public static let symlink = FileKind(rawValue: AIKIDO_FILE_KIND_SYMLINK)
}

/// What `Storage.stat` reports.
public struct FileStat: Sendable, Hashable {
    public var kind: FileKind
    /// Bytes in a file; 0 for a directory.
    public var size: UInt64
    /// Unix permission bits, e.g. 0o644.
    public var mode: UInt32
    /// Last change.
    public var modified: Date
    /// Last change, in milliseconds since the Unix epoch, as the library gives it.
    public var modifiedUnixMilliseconds: Int64
}

/// One entry of a directory.
public struct DirectoryEntry: Sendable, Hashable {
    /// The entry's name (not its path).
    public var name: String
    /// As `lstat` reports it (a symlink is not followed).
    public var kind: FileKind

    public init(name: String, kind: FileKind) {
        self.name = name
        self.kind = kind
    }
}

/// What happened to a path in an overlay or a dry run.
public struct ChangeKind: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let added = ChangeKind(rawValue: AIKIDO_CHANGE_ADDED)
    public static let modified = ChangeKind(rawValue: AIKIDO_CHANGE_MODIFIED)
    public static let deleted = ChangeKind(rawValue: AIKIDO_CHANGE_DELETED)
}

/// One path an overlay or a dry run changed.
public struct Change: Sendable, Hashable {
    public var path: String
    public var kind: ChangeKind

    public init(path: String, kind: ChangeKind) {
        self.path = path
        self.kind = kind
    }
}
