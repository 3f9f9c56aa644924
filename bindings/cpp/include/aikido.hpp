// libaikido for C++17: a registry of the tools an LLM may call.
// SPDX-License-Identifier: MIT OR Apache-2.0
//
// A header-only wrapper over aikido.h: the registry, the virtual file
// storage and the virtual bash. It converts and wraps; every rule and every
// message comes from the library. Calls that set a registry up
// (register_tool, unregister_tool, definitions, the schema helpers) and
// storage operations throw aikido::Error; dispatch returns an
// aikido::Outcome and Shell::run a ShellResult, because the failures they
// report are ordinary answers for the model (see README.md).

#ifndef AIKIDO_HPP
#define AIKIDO_HPP

#include "aikido.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace aikido {

/// The outcome of a call; the values are the library's AIKIDO_* codes.
enum class Status : std::int32_t {
    ok = AIKIDO_OK,
    duplicate_tool = AIKIDO_ERR_DUPLICATE_TOOL,
    unknown_tool = AIKIDO_ERR_UNKNOWN_TOOL,
    invalid_arguments = AIKIDO_ERR_INVALID_ARGUMENTS,
    tool_panicked = AIKIDO_ERR_TOOL_PANICKED,
    tool_failed = AIKIDO_ERR_TOOL_FAILED,
    invalid_input = AIKIDO_ERR_INVALID_INPUT,
    cancelled = AIKIDO_ERR_CANCELLED,
    storage = AIKIDO_ERR_STORAGE,
};

/// The library's name for a status, e.g. "AIKIDO_ERR_UNKNOWN_TOOL".
inline const char *status_name(Status status) noexcept {
    return aikido_status_name(static_cast<aikido_status>(status));
}

/// The library's version, e.g. "0.1.0".
inline const char *version() noexcept { return aikido_version(); }

/// A failure reported by libaikido: its status and its message, which is
/// what() and is written for the model.
class Error : public std::runtime_error {
public:
    Error(Status status, const std::string &message) : std::runtime_error(message), status_(status) {}

    /// Why the call failed.
    Status status() const noexcept { return status_; }

private:
    Status status_;
};

namespace detail {

struct StringFree {
    void operator()(char *text) const noexcept { aikido_string_free(text); }
};

/// A string the library returned, freed with aikido_string_free.
using OwnedString = std::unique_ptr<char, StringFree>;

/// Copies a string the library returned into a std::string and frees it.
inline std::string take(char *text) {
    const OwnedString owned(text);
    return owned ? std::string(owned.get()) : std::string();
}

/// The error a failed call's status and error_out message make.
inline Error error_from(aikido_status status, const OwnedString &message) {
    return Error(static_cast<Status>(status), message ? message.get() : "");
}

/// Throws the error unless the status is AIKIDO_OK.
inline void check(aikido_status status, char *message) {
    const OwnedString owned(message);
    if (status != AIKIDO_OK) {
        throw error_from(status, owned);
    }
}

/// How the library begins its own misuse messages; the wrapper's few
/// messages of its own begin the same way.
inline const std::string invalid_input_prefix = "aikido/tools: invalid input: ";

/// True when text would be cut short by a C function that reads it up to its
/// first NUL byte.
inline bool holds_nul(std::string_view text) noexcept { return text.find('\0') != std::string_view::npos; }

/// A NUL-terminated copy of text for the C API. The C API cannot see bytes
/// after a NUL, so such text is refused rather than silently cut short.
inline std::string c_string(std::string_view text, const char *what) {
    if (holds_nul(text)) {
        throw Error(Status::invalid_input, invalid_input_prefix + std::string(what) +
                                               " holds a NUL byte, which the C API cannot pass");
    }
    return std::string(text);
}

/// NUL-terminated copies of strings and the array of pointers to them, for
/// the C functions that take `const char *const *`.
class CStringArray {
public:
    template <class Iterator>
    CStringArray(Iterator first, Iterator last, const char *what) {
        for (; first != last; ++first) {
            copies_.push_back(c_string(*first, what));
        }
        // Taken once every copy is in place: growing the vector moves them.
        for (const std::string &copy : copies_) {
            pointers_.push_back(copy.c_str());
        }
    }

    // The pointers point into copies_: neither may move.
    CStringArray(const CStringArray &) = delete;
    CStringArray &operator=(const CStringArray &) = delete;

    const char *const *data() const noexcept { return pointers_.data(); }
    std::size_t size() const noexcept { return pointers_.size(); }

private:
    std::vector<std::string> copies_;
    std::vector<const char *> pointers_;
};

/// The result of a schema function that returns NULL for input it refuses.
inline std::string schema_text(char *json, const char *function) {
    if (json == nullptr) {
        throw Error(Status::invalid_input, invalid_input_prefix + std::string(function) +
                                               " refused its input (text that is not UTF-8, or items that are not JSON)");
    }
    return take(json);
}

template <class Fn>
aikido_status run_handler(void *, const char *, std::size_t, const aikido_environment *, aikido_reply *) noexcept;

}  // namespace detail

/// A UUID, such as a turn id. Default-constructed, it is the nil UUID.
class Uuid {
public:
    using Bytes = std::array<std::uint8_t, 16>;

    constexpr Uuid() noexcept = default;
    constexpr explicit Uuid(const Bytes &bytes) noexcept : bytes_(bytes) {}

    /// A new random (version 4) UUID.
    static Uuid v4() noexcept {
        Uuid id;
        aikido_uuid_new_v4(id.bytes_.data());
        return id;
    }

    /// A new time-ordered (version 7) UUID.
    static Uuid v7() noexcept {
        Uuid id;
        aikido_uuid_new_v7(id.bytes_.data());
        return id;
    }

    /// The UUID in text (hyphenated, simple, braced or urn form), or nothing
    /// when the text is not a UUID.
    static std::optional<Uuid> parse(std::string_view text) {
        Uuid id;
        if (detail::holds_nul(text) || aikido_uuid_parse(std::string(text).c_str(), id.bytes_.data()) != AIKIDO_OK) {
            return std::nullopt;
        }
        return id;
    }

    const Bytes &bytes() const noexcept { return bytes_; }
    bool is_nil() const noexcept { return *this == Uuid(); }

    /// The hyphenated lower-case form, 36 characters.
    std::string to_string() const {
        char text[37];
        aikido_uuid_format(bytes_.data(), text);
        return std::string(text, 36);
    }

    friend bool operator==(const Uuid &left, const Uuid &right) noexcept { return left.bytes_ == right.bytes_; }
    friend bool operator!=(const Uuid &left, const Uuid &right) noexcept { return !(left == right); }

private:
    Bytes bytes_{};
};

/// A cancellation token, the C++ form of Go's context cancellation. Fire it
/// from any thread; dispatches that use it from then on return
/// Status::cancelled, and running handlers see Environment::cancelled().
/// Move-only; the token must outlive every dispatch that uses it.
class CancelToken {
public:
    CancelToken() : token_(aikido_cancel_new()) {
        if (!token_) {
            throw std::bad_alloc();
        }
    }

    /// Fires the token. Firing again does nothing.
    void fire() const noexcept { aikido_cancel_fire(token_.get()); }

    /// Whether the token has fired.
    bool is_fired() const noexcept { return aikido_cancel_is_fired(token_.get()); }

    /// The C handle, for calls into aikido.h; NULL once moved from.
    const aikido_cancel *native() const noexcept { return token_.get(); }

private:
    struct Free {
        void operator()(aikido_cancel *token) const noexcept { aikido_cancel_free(token); }
    };
    std::unique_ptr<aikido_cancel, Free> token_;
};

/// Per-call context: the session, the model reply (turn) that made the call,
/// and the token that cancels it. Callers pass one to dispatch; handlers
/// receive one.
class Environment {
public:
    /// No session, the nil turn, never cancelled.
    Environment() = default;

    /// The token, when given, must outlive the dispatches that use this
    /// environment.
    explicit Environment(std::string session_id, Uuid turn_id = {}, const CancelToken *cancel = nullptr)
        : session_id_(std::move(session_id)), turn_id_(turn_id), cancel_(cancel ? cancel->native() : nullptr) {}

    explicit Environment(std::string session_id, Uuid turn_id, const CancelToken &cancel)
        : Environment(std::move(session_id), turn_id, &cancel) {}

    /// A temporary token would be gone before the dispatch that uses it.
    explicit Environment(std::string session_id, Uuid turn_id, const CancelToken &&cancel) = delete;

    /// The agent session the call belongs to.
    std::string_view session_id() const noexcept { return session_id_; }

    /// The model reply that made the call; calls of the same reply share it.
    const Uuid &turn_id() const noexcept { return turn_id_; }

    /// Whether the caller no longer wants the result; handlers poll it.
    bool cancelled() const noexcept { return aikido_cancel_is_fired(cancel_); }

private:
    template <class Fn>
    friend aikido_status detail::run_handler(void *, const char *, std::size_t, const aikido_environment *,
                                             aikido_reply *) noexcept;
    friend class Registry;

    explicit Environment(const aikido_environment &native)
        : session_id_(native.session_id ? native.session_id : ""), cancel_(native.cancel) {
        Uuid::Bytes bytes;
        std::memcpy(bytes.data(), native.turn_id, bytes.size());
        turn_id_ = Uuid(bytes);
    }

    /// The C view, valid while this environment lives.
    aikido_environment native() const noexcept {
        aikido_environment view{};
        view.session_id = session_id_.c_str();
        std::memcpy(view.turn_id, turn_id_.bytes().data(), sizeof view.turn_id);
        view.cancel = cancel_;
        return view;
    }

    std::string session_id_;
    Uuid turn_id_;
    const aikido_cancel *cancel_ = nullptr;
};

/// A handler's error, shown to the model unchanged:
/// `return aikido::Failure{"file not found: " + path};`
struct Failure {
    std::string message;
};

/// What a handler returns: its content, or a Failure. A std::string or a
/// string literal converts to content.
class Result {
public:
    Result(std::string content) : text_(std::move(content)) {}
    Result(const char *content) : text_(content ? content : "") {}
    Result(Failure failure) : text_(std::move(failure.message)), failed_(true) {}

    /// Whether this is a Failure.
    bool failed() const noexcept { return failed_; }

    /// The content, or the failure's message.
    const std::string &text() const noexcept { return text_; }

private:
    std::string text_;
    bool failed_ = false;
};

/// How a registry checks a call's arguments (AIKIDO_VALIDATE_*).
enum class Validation : std::uint32_t {
    required = AIKIDO_VALIDATE_REQUIRED, ///< the seed's check (the default)
    full = AIKIDO_VALIDATE_FULL,         ///< the whole JSON Schema, every violation
    repair = AIKIDO_VALIDATE_REPAIR,     ///< full, after repairing what is unambiguous
};

/// What dispatch returns: the handler's content, or the Error that stopped
/// the call (unknown tool, invalid arguments, cancelled, the handler's
/// failure or exception). Test it like a pointer: `if (outcome) ...`.
class Outcome {
public:
    Outcome(std::string content) : state_(std::in_place_index<0>, std::move(content)) {}
    Outcome(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool has_content() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_content(); }

    /// The content; throws the Error when the call failed, for callers who
    /// prefer exceptions: `registry.dispatch(...).content()`.
    const std::string &content() const & {
        if (!has_content()) {
            throw std::get<1>(state_);
        }
        return std::get<0>(state_);
    }

    /// As above; moved out of a temporary, so the result cannot dangle.
    std::string content() && {
        if (!has_content()) {
            throw std::get<1>(state_);
        }
        return std::get<0>(std::move(state_));
    }

    /// The error; Status::ok with an empty message when the call succeeded.
    const Error &error() const & noexcept {
        static const Error none(Status::ok, "");
        return has_content() ? none : std::get<1>(state_);
    }

    /// As above; copied out of a temporary, so the result cannot dangle.
    Error error() && noexcept { return std::as_const(*this).error(); }

    Status status() const noexcept { return error().status(); }

private:
    std::variant<std::string, Error> state_;
};

/// What kind of thing a path names.
enum class FileKind : std::int32_t {
    file = AIKIDO_FILE_KIND_FILE,
    directory = AIKIDO_FILE_KIND_DIRECTORY,
    symlink = AIKIDO_FILE_KIND_SYMLINK,
};

/// What Storage::stat reports.
struct FileStat {
    FileKind kind = FileKind::file;
    /// Bytes in a file; 0 for a directory.
    std::uint64_t size = 0;
    /// Unix permission bits, e.g. 0644.
    std::uint32_t mode = 0;
    /// Last change, in milliseconds since the Unix epoch.
    std::int64_t modified_unix_ms = 0;
};

/// One entry of Storage::list.
struct DirEntry {
    std::string name;
    FileKind kind = FileKind::file;
};

/// What happened to a path an overlay or a dry run changed; the values are
/// the AIKIDO_CHANGE_* numbers.
enum class ChangeKind : std::int32_t {
    added = AIKIDO_CHANGE_ADDED,
    modified = AIKIDO_CHANGE_MODIFIED,
    deleted = AIKIDO_CHANGE_DELETED,  ///< a deleted directory is one change
};

/// One path an overlay or a dry run changed (Storage::diff).
struct Change {
    /// The virtual path that changed, e.g. "/notes/a.txt".
    std::string path;
    ChangeKind change = ChangeKind::added;
};

/// A kind of access a PathRule governs.
enum class Access : std::int32_t {
    read = AIKIDO_ACCESS_READ,
    write = AIKIDO_ACCESS_WRITE,
    list = AIKIDO_ACCESS_LIST,
};

/// One rule of Storage::policy: allow or deny an access to the paths
/// matching a glob (`*`, `**`, `?`, `[a-z]`).
struct PathRule {
    Access access;
    bool allow;
    std::string pattern;
};

namespace detail {

/// A library-owned array of structured results (aikido_dir_entries,
/// aikido_changes, aikido_strings, aikido_tool_calls): move-only, freed once,
/// read by index or with a range-for. Its items are the C structs, whose
/// strings are borrowed from the array: copy what must outlive it.
template <class Handle, class Item, std::size_t (*Len)(const Handle *),
          aikido_status (*Get)(const Handle *, std::size_t, Item *, char **), void (*Free)(Handle *)>
class Array {
public:
    /// Takes ownership of `handle` (NULL is an empty array).
    explicit Array(Handle *handle) noexcept : handle_(handle) {}

    std::size_t size() const noexcept { return Len(handle_.get()); }
    bool empty() const noexcept { return size() == 0; }

    /// Item `index`; throws Error (Status::invalid_input) past the end.
    Item operator[](std::size_t index) const {
        Item item{};
        char *error = nullptr;
        const aikido_status status = Get(handle_.get(), index, &item, &error);
        check_status(status, error);
        return item;
    }

    /// A forward iterator over the items, in order.
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Item;
        using difference_type = std::ptrdiff_t;
        using pointer = const Item *;
        using reference = Item;

        iterator(const Array *array, std::size_t index) noexcept : array_(array), index_(index) {}
        Item operator*() const { return (*array_)[index_]; }
        iterator &operator++() noexcept {
            ++index_;
            return *this;
        }
        iterator operator++(int) noexcept {
            iterator before = *this;
            ++index_;
            return before;
        }
        bool operator==(const iterator &other) const noexcept { return index_ == other.index_; }
        bool operator!=(const iterator &other) const noexcept { return index_ != other.index_; }

    private:
        const Array *array_;
        std::size_t index_;
    };

    iterator begin() const noexcept { return iterator(this, 0); }
    iterator end() const noexcept { return iterator(this, size()); }

    /// The C handle, for calls into aikido.h.
    const Handle *native() const noexcept { return handle_.get(); }

private:
    static void check_status(aikido_status status, char *message) { check(status, message); }
    struct Deleter {
        void operator()(Handle *handle) const noexcept { Free(handle); }
    };
    std::unique_ptr<Handle, Deleter> handle_;
};

/// Frees bytes from aikido_storage_read, which needs their length.
struct BytesFree {
    std::size_t len;
    void operator()(std::uint8_t *data) const noexcept { aikido_bytes_free(data, len); }
};

/// `len` bytes at `data`, which may be NULL when `len` is 0.
inline std::string copy(const char *data, std::size_t len) { return len ? std::string(data, len) : std::string(); }

}  // namespace detail

/// The entries of a directory (Storage::entries), items aikido_dir_entry.
using DirEntryArray = detail::Array<aikido_dir_entries, aikido_dir_entry, aikido_dir_entries_len,
                                    aikido_dir_entries_get, aikido_dir_entries_free>;
/// What an overlay or a dry run changed (Storage::changes), items aikido_change.
using ChangeArray =
    detail::Array<aikido_changes, aikido_change, aikido_changes_len, aikido_changes_get, aikido_changes_free>;
/// A model reply's tool calls (read_tool_calls), items aikido_tool_call,
/// each ready for aikido_registry_dispatch.
using ToolCallArray = detail::Array<aikido_tool_calls, aikido_tool_call, aikido_tool_calls_len,
                                    aikido_tool_calls_get, aikido_tool_calls_free>;

/// A virtual file storage: what the file tools and the shell act on. Every
/// path is virtual (absolute, normalised, `..` never above `/`). A handle,
/// move-only; the storages, tools and shells made from it keep their own
/// share, so it may be destroyed before them. Thread-safe. Failures throw
/// Error: Status::storage with a shell-style message
/// (`/a/b: No such file or directory`), or Status::invalid_input.
class Storage {
public:
    /// An empty storage in memory; a limit of 0 means none. A write that
    /// would pass a limit fails and changes nothing.
    static Storage memory(std::uint64_t max_total_bytes = 0, std::uint64_t max_file_bytes = 0) {
        return Storage(aikido_storage_memory_new(max_total_bytes, max_file_bytes));
    }

    /// The host folder `root` (which must exist); nothing reaches outside
    /// it. With `read_only`, every change is refused.
    static Storage host(std::string_view root, bool read_only = false) {
        aikido_storage *storage = nullptr;
        char *error = nullptr;
        const aikido_status status =
            aikido_storage_host_new(detail::c_string(root, "the root").c_str(), read_only, &storage, &error);
        detail::check(status, error);
        return Storage(storage);
    }

    /// A read-only view of `inner`.
    static Storage read_only(const Storage &inner) { return Storage(aikido_storage_read_only(inner.native())); }

    /// A writable layer in memory over `lower`, which stays untouched until
    /// commit(); diff() and discard() too.
    static Storage overlay(const Storage &lower) { return Storage(aikido_storage_overlay_new(lower.native())); }

    /// Changes recorded, never applied: read them with diff().
    static Storage dry_run(const Storage &lower) { return Storage(aikido_storage_dry_run_new(lower.native())); }

    /// `base` with `mounted` at `prefix` (the longest prefix wins).
    static Storage mount(const Storage &base, std::string_view prefix, const Storage &mounted) {
        return Storage(aikido_storage_mount(base.native(), detail::c_string(prefix, "the prefix").c_str(),
                                            mounted.native()),
                       "a storage is NULL (moved from), or the prefix is not UTF-8");
    }

    /// `inner` behind allow/deny rules; refused accesses fail with
    /// "Permission denied".
    static Storage policy(const Storage &inner, const std::vector<PathRule> &rules) {
        std::vector<std::string> patterns;
        for (const PathRule &rule : rules) patterns.push_back(detail::c_string(rule.pattern, "a pattern"));
        std::vector<aikido_path_rule> c_rules;
        for (std::size_t i = 0; i < rules.size(); ++i) {
            c_rules.push_back({static_cast<std::int32_t>(rules[i].access), rules[i].allow, patterns[i].c_str()});
        }
        aikido_storage *storage = nullptr;
        char *error = nullptr;
        const aikido_status status =
            aikido_storage_policy_new(inner.native(), c_rules.data(), c_rules.size(), &storage, &error);
        detail::check(status, error);
        return Storage(storage);
    }

    /// The whole file (symlinks followed); any bytes.
    std::string read(std::string_view path) const {
        std::uint8_t *data = nullptr;
        std::size_t len = 0;
        char *error = nullptr;
        const aikido_status status = aikido_storage_read(native(), c_path(path).c_str(), &data, &len, &error);
        detail::check(status, error);
        const std::unique_ptr<std::uint8_t, detail::BytesFree> owned(data, detail::BytesFree{len});
        return detail::copy(reinterpret_cast<const char *>(data), len);
    }

    /// Creates or replaces the file at `path`.
    void write(std::string_view path, std::string_view data) const {
        char *error = nullptr;
        const aikido_status status =
            aikido_storage_write(native(), c_path(path).c_str(), bytes(data), data.size(), &error);
        detail::check(status, error);
    }

    /// Appends to the file at `path`, creating it.
    void append(std::string_view path, std::string_view data) const {
        char *error = nullptr;
        const aikido_status status =
            aikido_storage_append(native(), c_path(path).c_str(), bytes(data), data.size(), &error);
        detail::check(status, error);
    }

    /// Creates a directory; with `parents`, missing parents too (and an
    /// existing directory is fine).
    void mkdir(std::string_view path, bool parents = false) const {
        char *error = nullptr;
        const aikido_status status = aikido_storage_mkdir(native(), c_path(path).c_str(), parents, &error);
        detail::check(status, error);
    }

    /// Removes a file, symlink or empty directory; with `recursive`, a
    /// directory and everything in it.
    void remove(std::string_view path, bool recursive = false) const {
        char *error = nullptr;
        const aikido_status status = aikido_storage_remove(native(), c_path(path).c_str(), recursive, &error);
        detail::check(status, error);
    }

    /// Moves `from` to `to`, replacing a file there.
    void rename(std::string_view from, std::string_view to) const {
        char *error = nullptr;
        const aikido_status status = aikido_storage_rename(native(), c_path(from).c_str(), c_path(to).c_str(), &error);
        detail::check(status, error);
    }

    /// Creates a symlink at `link` pointing at `target`, kept as written.
    void symlink(std::string_view target, std::string_view link) const {
        char *error = nullptr;
        const aikido_status status =
            aikido_storage_symlink(native(), c_path(target).c_str(), c_path(link).c_str(), &error);
        detail::check(status, error);
    }

    /// The target of the symlink at `path`.
    std::string readlink(std::string_view path) const {
        char *target = nullptr;
        char *error = nullptr;
        const aikido_status status =
            aikido_storage_readlink(native(), c_path(path).c_str(), &target, &error);
        const detail::OwnedString owned(target);
        detail::check(status, error);
        return owned.get();
    }

    /// Kind, size, mode and time of `path`, symlinks followed.
    FileStat stat(std::string_view path) const {
        aikido_file_stat stat{};
        char *error = nullptr;
        const aikido_status status = aikido_storage_stat(native(), c_path(path).c_str(), &stat, &error);
        detail::check(status, error);
        return {static_cast<FileKind>(stat.kind), stat.size, stat.mode, stat.modified_unix_ms};
    }

    /// The entries of the directory at `path`, sorted by name, as the
    /// library's array (its names borrowed from it).
    DirEntryArray entries(std::string_view path) const {
        aikido_dir_entries *entries = nullptr;
        char *error = nullptr;
        const aikido_status status = aikido_storage_entries(native(), c_path(path).c_str(), &entries, &error);
        DirEntryArray owned(entries);
        detail::check(status, error);
        return owned;
    }

    /// The entries of the directory at `path`, sorted by name.
    std::vector<DirEntry> list(std::string_view path) const {
        std::vector<DirEntry> entries;
        for (const aikido_dir_entry &entry : this->entries(path)) {
            entries.push_back({entry.name, static_cast<FileKind>(entry.kind)});
        }
        return entries;
    }

    /// What an overlay or a dry run changed, sorted by path, as the
    /// library's array. Throws Status::invalid_input for any other storage.
    ChangeArray changes() const {
        aikido_changes *changes = nullptr;
        char *error = nullptr;
        const aikido_status status = aikido_storage_changes(native(), &changes, &error);
        ChangeArray owned(changes);
        detail::check(status, error);
        return owned;
    }

    /// What an overlay or a dry run changed, sorted by path. Throws
    /// Status::invalid_input for any other storage.
    std::vector<Change> diff() const {
        std::vector<Change> changes;
        for (const aikido_change &change : this->changes()) {
            changes.push_back({change.path, static_cast<ChangeKind>(change.change)});
        }
        return changes;
    }

    /// Applies an overlay's changes to its lower storage and empties it.
    void commit() const {
        char *error = nullptr;
        const aikido_status status = aikido_storage_commit(native(), &error);
        detail::check(status, error);
    }

    /// Drops an overlay's changes.
    void discard() const {
        char *error = nullptr;
        const aikido_status status = aikido_storage_discard(native(), &error);
        detail::check(status, error);
    }

    /// The C handle, for calls into aikido.h; NULL once moved from.
    const aikido_storage *native() const noexcept { return storage_.get(); }

private:
    friend class Shell;  // Shell::storage() wraps the handle it gets
    /// Takes a handle a constructor returned; NULL means it refused its
    /// input, which only `why` explains (such constructors give no message).
    explicit Storage(aikido_storage *storage, const char *why = "storage is NULL (moved from)") : storage_(storage) {
        if (!storage_) {
            throw Error(Status::invalid_input, detail::invalid_input_prefix + why);
        }
    }

    static std::string c_path(std::string_view path) { return detail::c_string(path, "the path"); }

    static const std::uint8_t *bytes(std::string_view data) noexcept {
        return reinterpret_cast<const std::uint8_t *>(data.data());
    }

    struct Free {
        void operator()(aikido_storage *storage) const noexcept { aikido_storage_free(storage); }
    };
    std::unique_ptr<aikido_storage, Free> storage_;
};

/// Bounds on each run of a script; 0 takes the library's default (in
/// brackets). A script that reaches one stops with exit code 125 (124 for
/// time).
struct ShellLimits {
    std::uint64_t max_commands = 0;         ///< simple commands run [100000]
    std::uint64_t max_loop_iterations = 0;  ///< iterations of all loops together [100000]
    std::uint32_t max_function_depth = 0;   ///< nested functions, source and eval [100]
    std::size_t max_output_bytes = 0;       ///< bytes in any one stream [1 MiB]
    std::uint64_t max_milliseconds = 0;     ///< wall-clock time [10000]
    std::size_t max_memory_bytes = 0;       ///< the session's variables, and any one value built [256 MiB]
    std::size_t max_result_bytes = 0;       ///< the bash tool: result bytes the model reads, the rest saved [30 KiB]

    aikido_shell_limits native() const noexcept {
        return {max_commands,     max_loop_iterations, max_function_depth, max_output_bytes,
                max_milliseconds, max_memory_bytes,    max_result_bytes};
    }
};

/// The limit that stopped a script.
enum class ShellLimit : std::int32_t {
    none = AIKIDO_SHELL_LIMIT_NONE,
    commands = AIKIDO_SHELL_LIMIT_COMMANDS,
    loop_iterations = AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS,
    function_depth = AIKIDO_SHELL_LIMIT_FUNCTION_DEPTH,
    output = AIKIDO_SHELL_LIMIT_OUTPUT,
    time = AIKIDO_SHELL_LIMIT_TIME,
    cancelled = AIKIDO_SHELL_LIMIT_CANCELLED,
    memory = AIKIDO_SHELL_LIMIT_MEMORY,
    threads = AIKIDO_SHELL_LIMIT_THREADS,
};

/// What one Shell::run produced. `out` and `err` are bytes (a NUL may be
/// among them).
struct ShellResult {
    std::string out;   ///< everything written to standard output
    std::string err;   ///< everything written to standard error
    int exit_code = 0; ///< as `$?` would show it
    bool truncated = false;  ///< out or err was cut at max_output_bytes
    ShellLimit limit = ShellLimit::none;
    /// Every path the script created, changed or removed, sorted, once
    /// each; over a dry run, what it would have changed.
    std::vector<std::string> write_set;
};

/// Limits of a NetworkPolicy; a field of 0 keeps the policy's value.
struct NetworkLimits {
    std::uint64_t timeout_milliseconds = 0;  ///< one request, connect to last byte [30000]
    std::uint64_t max_response_bytes = 0;    ///< one response body [10 MiB]; past it, curl exits 63
    std::uint32_t max_requests = 0;          ///< requests of one run; each redirect hop is one [50]
    std::uint32_t max_redirects = 0;         ///< redirects one command follows [10]
};

/// What a shell's curl and wget may reach (docs/SHELL.md, "Network"):
/// URL prefixes, methods (GET and HEAD by default), address ranges
/// (public ones only by default), headers attached per prefix, limits.
/// A Shell or the bash tool takes a copy. Move-only.
class NetworkPolicy {
public:
    NetworkPolicy() : policy_(aikido_network_policy_new()) {}

    /// Allows the URLs under `prefix` (scheme, host, port, path prefix on
    /// segment boundaries). Throws Error (Status::invalid_input) for a bad prefix.
    NetworkPolicy &allow_url(const std::string &prefix) {
        char *error = nullptr;
        const aikido_status status = aikido_network_policy_allow_url(policy_.get(), prefix.c_str(), &error);
        detail::check(status, error);
        return *this;
    }
    /// Allows connecting to the addresses of a range (`127.0.0.1/32`).
    NetworkPolicy &allow_address(const std::string &range) {
        char *error = nullptr;
        const aikido_status status = aikido_network_policy_allow_address(policy_.get(), range.c_str(), &error);
        detail::check(status, error);
        return *this;
    }
    /// Allows a method besides GET and HEAD.
    NetworkPolicy &allow_method(const std::string &method) {
        char *error = nullptr;
        const aikido_status status = aikido_network_policy_allow_method(policy_.get(), method.c_str(), &error);
        detail::check(status, error);
        return *this;
    }
    /// Attaches `name: value` to the requests under `prefix`; the script
    /// never sees the value.
    NetworkPolicy &attach_header(const std::string &prefix, const std::string &name, const std::string &value) {
        char *error = nullptr;
        const aikido_status status = aikido_network_policy_attach_header(policy_.get(), prefix.c_str(), name.c_str(), value.c_str(), &error);
        detail::check(status, error);
        return *this;
    }
    /// Sets the limits (0 keeps a value).
    NetworkPolicy &set_limits(const NetworkLimits &limits) {
        const aikido_network_limits c_limits{limits.timeout_milliseconds, limits.max_response_bytes,
                                             limits.max_requests, limits.max_redirects};
        char *error = nullptr;
        const aikido_status status = aikido_network_policy_set_limits(policy_.get(), &c_limits, &error);
        detail::check(status, error);
        return *this;
    }

    /// The C handle; NULL once moved from.
    const aikido_network_policy *native() const noexcept { return policy_.get(); }

private:
    struct Free {
        void operator()(aikido_network_policy *policy) const noexcept { aikido_network_policy_free(policy); }
    };
    std::unique_ptr<aikido_network_policy, Free> policy_;
};

/// An in-process bash over a Storage; nothing runs on the host. Its
/// working directory, variables and functions persist from one run to the
/// next. Move-only; runs on one shell take turns.
class Shell {
public:
    /// A shell whose curl and wget reach what `network` allows (a copy).
    Shell(const Storage &storage, const NetworkPolicy &network,
          const std::optional<ShellLimits> &limits = std::nullopt) {
        const aikido_shell_limits c_limits = limits ? limits->native() : aikido_shell_limits{};
        shell_.reset(aikido_shell_new_with_network(storage.native(), limits ? &c_limits : nullptr, network.native()));
        if (!shell_) {
            throw Error(Status::invalid_input, detail::invalid_input_prefix + "storage is NULL");
        }
    }

    /// A shell starting in `/`; the storage is shared, so it may go first.
    explicit Shell(const Storage &storage, const std::optional<ShellLimits> &limits = std::nullopt) {
        const aikido_shell_limits c_limits = limits ? limits->native() : aikido_shell_limits{};
        shell_.reset(aikido_shell_new(storage.native(), limits ? &c_limits : nullptr));
        if (!shell_) {
            throw Error(Status::invalid_input, detail::invalid_input_prefix + "storage is NULL");
        }
    }

    /// Runs a script as `bash -c` would. A failing or stopped script is a
    /// result, not an exception: its exit code, err and limit say how it
    /// ended. A fired `cancel` stops it (exit code 130). Throws Error
    /// (Status::invalid_input) for a script that is not UTF-8 or holds a
    /// NUL byte.
    ShellResult run(std::string_view script, const CancelToken *cancel = nullptr) {
        aikido_shell_result result;
        char *error = nullptr;
        const aikido_status status = aikido_shell_run(shell_.get(), script.data(), script.size(),
                                                      cancel ? cancel->native() : nullptr, &result, &error);
        const std::unique_ptr<aikido_shell_result, ResultFree> owned(&result);
        detail::check(status, error);
        return {detail::copy(result.stdout_data, result.stdout_len),
                detail::copy(result.stderr_data, result.stderr_len), result.exit_code, result.truncated,
                static_cast<ShellLimit>(result.limit), write_set(result.write_set)};
    }

    /// A temporary token would be gone before the run that uses it.
    ShellResult run(std::string_view script, const CancelToken &&cancel) = delete;

    /// As above, with a token.
    ShellResult run(std::string_view script, const CancelToken &cancel) { return run(script, &cancel); }

    /// Forgets the working directory, variables and functions; files stay.
    void reset() noexcept { aikido_shell_reset(shell_.get()); }

    /// The session as bytes (docs/SHELL.md, "Snapshots"): its state, and
    /// the files of its storage when they live in memory (a memory storage,
    /// an overlay's changes); a host folder is referred to, never copied.
    std::string snapshot() const {
        std::uint8_t *data = nullptr;
        std::size_t len = 0;
        char *error = nullptr;
        const aikido_status status = aikido_shell_snapshot(shell_.get(), &data, &len, &error);
        detail::check(status, error);
        const std::unique_ptr<std::uint8_t, detail::BytesFree> owned(data, detail::BytesFree{len});
        return detail::copy(reinterpret_cast<const char *>(data), len);
    }

    /// The session `bytes` hold (from snapshot()), its files in a new memory
    /// storage (storage()). Throws Error (Status::invalid_input) for bytes of
    /// a newer version, truncated, changed or hostile.
    static Shell restore(std::string_view bytes, const std::optional<ShellLimits> &limits = std::nullopt) {
        return restore_into(bytes, nullptr, limits);
    }

    /// As above, the files going into `storage`, which must keep them in
    /// memory as the snapshotted one did (its content is replaced).
    static Shell restore(std::string_view bytes, const Storage &storage,
                         const std::optional<ShellLimits> &limits = std::nullopt) {
        return restore_into(bytes, storage.native(), limits);
    }

    /// A copy of the session that shares nothing mutable with this one
    /// (files in memory are copied on write; a host folder is shared).
    Shell fork() const {
        aikido_shell *copy = aikido_shell_fork(shell_.get());
        if (!copy) throw Error(Status::invalid_input, detail::invalid_input_prefix + "shell is NULL (moved from)");
        return Shell(copy);
    }

    /// The storage the shell runs over (shared).
    Storage storage() const { return Storage(aikido_shell_storage(shell_.get()), "shell is NULL (moved from)"); }

    /// The C handle, for calls into aikido.h; NULL once moved from.
    aikido_shell *native() const noexcept { return shell_.get(); }

private:
    explicit Shell(aikido_shell *shell) { shell_.reset(shell); }

    static Shell restore_into(std::string_view bytes, const aikido_storage *storage,
                              const std::optional<ShellLimits> &limits) {
        const aikido_shell_limits c_limits = limits ? limits->native() : aikido_shell_limits{};
        aikido_shell *shell = nullptr;
        char *error = nullptr;
        const aikido_status status =
            aikido_shell_restore(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size(), storage,
                                 limits ? &c_limits : nullptr, &shell, &error);
        detail::check(status, error);
        return Shell(shell);
    }

    /// The paths of a result's write set (which the result owns).
    static std::vector<std::string> write_set(const aikido_strings *paths) {
        std::vector<std::string> copied;
        for (std::size_t i = 0, n = aikido_strings_len(paths); i < n; ++i) {
            const char *path = nullptr;
            char *error = nullptr;
            const aikido_status status = aikido_strings_get(paths, i, &path, &error);
            detail::check(status, error);
            copied.emplace_back(path);
        }
        return copied;
    }

    struct ResultFree {
        void operator()(aikido_shell_result *result) const noexcept { aikido_shell_result_free(result); }
    };
    struct Free {
        void operator()(aikido_shell *shell) const noexcept { aikido_shell_free(shell); }
    };
    std::unique_ptr<aikido_shell, Free> shell_;
};

/// A tool's name, description and JSON Schema of its arguments; an empty
/// description or parameters is left out of definitions().
struct ToolDefinition {
    // A constructor rather than an aggregate, so that `{"name"}` leaves the
    // rest empty without -Wmissing-field-initializers warnings.
    ToolDefinition(std::string tool_name, std::string tool_description = {}, std::string tool_parameters = {})
        : name(std::move(tool_name)),
          description(std::move(tool_description)),
          parameters(std::move(tool_parameters)) {}

    std::string name;
    std::string description;
    std::string parameters;
};

// --- Provider dialects (docs/DIALECTS.md) -----------------------------------

/// A provider's wire format; the values are the AIKIDO_DIALECT_* numbers.
enum class Dialect : std::uint32_t {
    Neutral = AIKIDO_DIALECT_NEUTRAL,
    OpenAIChat = AIKIDO_DIALECT_OPENAI_CHAT,
    OpenAIResponses = AIKIDO_DIALECT_OPENAI_RESPONSES,
    Anthropic = AIKIDO_DIALECT_ANTHROPIC,
    Gemini = AIKIDO_DIALECT_GEMINI,
    MCP = AIKIDO_DIALECT_MCP,
};

/// Flags of Registry::definitions_for and Registry::respond, combined with |
/// (they convert to std::uint32_t): `registry.definitions_for(Dialect::Anthropic, aikido::Strict)`.
enum Flags : std::uint32_t {
    /// OpenAI/Anthropic strict mode, both directions.
    Strict = AIKIDO_STRICT,
    /// respond runs the calls one after the other, in order.
    Sequential = AIKIDO_RESPOND_SEQUENTIAL,
};

/// The tool calls of a model reply in `dialect` (the whole response body or
/// its relevant part), as the neutral JSON list [{"id","name","arguments"}].
/// Throws Error (Status::invalid_input, saying where) for a reply that
/// cannot be read.
inline std::string parse_tool_calls(Dialect dialect, std::string_view reply) {
    char *json = nullptr;
    char *error = nullptr;
    const aikido_status status = aikido_tool_calls_parse(static_cast<std::uint32_t>(dialect), reply.data(),
                                                         reply.size(), &json, &error);
    const detail::OwnedString owned_json(json);
    detail::check(status, error);
    return owned_json.get();
}

/// The tool calls of a model reply in `dialect`, in reply order, as the
/// library's array: each item an aikido_tool_call ready for
/// aikido_registry_dispatch (its strings borrowed from the array). Throws
/// Error (Status::invalid_input, saying where) for a reply that cannot be
/// read.
inline ToolCallArray read_tool_calls(Dialect dialect, std::string_view reply) {
    aikido_tool_calls *calls = nullptr;
    char *error = nullptr;
    const aikido_status status =
        aikido_tool_calls_read(static_cast<std::uint32_t>(dialect), reply.data(), reply.size(), &calls, &error);
    ToolCallArray owned(calls);
    detail::check(status, error);
    return owned;
}


/// A registry of tools. Move-only; a moved-from registry holds no tools and
/// every call on it reports AIKIDO_ERR_INVALID_INPUT. Every member may run on
/// many threads at once, except destruction and move.
class Registry {
public:
    Registry() : registry_(aikido_registry_new()) {
        if (!registry_) {
            throw std::bad_alloc();
        }
    }

    Registry(const Registry &) = delete;
    Registry &operator=(const Registry &) = delete;
    Registry(Registry &&) noexcept = default;
    Registry &operator=(Registry &&) noexcept = default;
    ~Registry() = default;

    /// Registers a tool. The handler is any callable as
    /// `Result(std::string_view arguments, const Environment &)` or
    /// `Result(std::string_view arguments)`, returning a Result, a Failure, a
    /// std::string or a string literal. It is moved into the registry, which
    /// destroys it exactly once: at unregister_tool (after its last call) or
    /// with the registry. It runs on many threads at once, so it is called
    /// as const and must be thread-safe. An exception it throws becomes
    /// Status::tool_panicked with what() in the message. Throws Error on
    /// failure (duplicate name, empty name, parameters that are not JSON);
    /// the handler is then destroyed here.
    template <class F>
    void register_tool(const ToolDefinition &definition, F &&handler) {
        using Fn = std::decay_t<F>;
        static_assert(std::is_invocable_v<const Fn &, std::string_view, const Environment &> ||
                          std::is_invocable_v<const Fn &, std::string_view>,
                      "a handler is called as const (it runs on many threads at once) with "
                      "(std::string_view arguments, const aikido::Environment &) or (std::string_view arguments)");
        const std::string name = detail::c_string(definition.name, "the tool name");
        const std::string description = detail::c_string(definition.description, "the description");
        const std::string parameters = detail::c_string(definition.parameters, "the parameters");
        auto owned = std::make_unique<Fn>(std::forward<F>(handler));
        char *error = nullptr;
        const aikido_status status = aikido_registry_register(
            registry_.get(), name.c_str(), description.c_str(), parameters.c_str(), &detail::run_handler<Fn>,
            owned.get(), &destroy<Fn>, &error);
        // On failure the library hands the handler back: `owned` destroys it.
        detail::check(status, error);
        owned.release();
    }

    /// Removes a tool; calls of it already running finish first. Throws
    /// Error (Status::unknown_tool) when no tool has that name.
    void unregister_tool(std::string_view name) {
        const std::string c_name = detail::c_string(name, "the tool name");
        char *error = nullptr;
        const aikido_status status = aikido_registry_unregister(registry_.get(), c_name.c_str(), &error);
        detail::check(status, error);
    }

    /// Every definition in registration order, as the JSON array a model
    /// expects: [{"name":…,"description":…,"parameters":…},…].
    std::string definitions() const {
        char *json = nullptr;
        char *error = nullptr;
        const aikido_status status = aikido_registry_definitions(registry_.get(), &json, &error);
        const detail::OwnedString owned_json(json);
        detail::check(status, error);
        return owned_json.get();
    }

    /// Every definition in registration order in `dialect`'s tools format,
    /// strict with aikido::Strict. Throws Error (Status::invalid_input) when
    /// a tool's name or schema cannot be written in the dialect.
    std::string definitions_for(Dialect dialect, std::uint32_t flags = 0) const {
        char *json = nullptr;
        char *error = nullptr;
        const aikido_status status = aikido_registry_definitions_for(
            registry_.get(), static_cast<std::uint32_t>(dialect), flags, &json, &error);
        const detail::OwnedString owned_json(json);
        detail::check(status, error);
        return owned_json.get();
    }

    /// Runs the tool calls of a model reply (at once, or in turn with
    /// aikido::Sequential) and returns the JSON array to append, in
    /// `dialect`'s format, results in call order. Per-call failures are
    /// error results; throws Error (Status::invalid_input) only when the
    /// reply cannot be read.
    std::string respond(Dialect dialect, std::string_view reply, const Environment &environment = Environment(),
                        std::uint32_t flags = 0) const {
        if (detail::holds_nul(environment.session_id_)) {
            throw Error(Status::invalid_input, detail::invalid_input_prefix + "the session id holds a NUL byte");
        }
        const aikido_environment native = environment.native();
        char *messages = nullptr;
        char *error = nullptr;
        const aikido_status status =
            aikido_registry_respond(registry_.get(), static_cast<std::uint32_t>(dialect), reply.data(),
                                    reply.size(), &native, flags, &messages, &error);
        const detail::OwnedString owned_messages(messages);
        detail::check(status, error);
        return owned_messages.get();
    }

    /// How many tools are registered.
    std::size_t size() const noexcept { return aikido_registry_len(registry_.get()); }

    /// Runs one tool call: checks the name and arguments, then the handler.
    /// Every failure comes back in the Outcome, with a message written for
    /// the model; only std::bad_alloc is thrown.
    Outcome dispatch(std::string_view name, std::string_view arguments = {},
                     const Environment &environment = Environment()) const {
        if (detail::holds_nul(name) || detail::holds_nul(environment.session_id_)) {
            return Error(Status::invalid_input,
                         "the tool name or session id holds a NUL byte, which the C API cannot pass");
        }
        const std::string c_name(name);
        const aikido_tool_call call{nullptr, c_name.c_str(), arguments.data(), arguments.size()};
        const aikido_environment native = environment.native();
        char *content = nullptr;
        char *error = nullptr;
        const aikido_status status = aikido_registry_dispatch(registry_.get(), &call, &native, &content, &error);
        const detail::OwnedString owned_content(content);
        const detail::OwnedString owned_error(error);
        if (status != AIKIDO_OK) {
            return detail::error_from(status, owned_error);
        }
        return std::string(owned_content ? owned_content.get() : "");
    }

    /// Registers the file tools read_file, write_file, list_directory,
    /// edit_file and delete_path, acting on `storage` (which they share).
    void register_file_tools(const Storage &storage) {
        char *error = nullptr;
        const aikido_status status = aikido_registry_register_file_tools(registry_.get(), storage.native(), &error);
        detail::check(status, error);
    }

    /// Registers the `bash` tool: an in-process bash over `storage`, one
    /// shell per session id, each run bounded by `limits`. Its result is
    /// stdout, a `[stderr]` section, then `[exit code: N]`; arguments
    /// `{"command": "...", "restart": true}`.
    void register_shell_tool(const Storage &storage, const std::optional<ShellLimits> &limits = std::nullopt) {
        const aikido_shell_limits c_limits = limits ? limits->native() : aikido_shell_limits{};
        char *error = nullptr;
        const aikido_status status =
            aikido_registry_register_shell_tool(registry_.get(), storage.native(), limits ? &c_limits : nullptr,
                                                &error);
        detail::check(status, error);
    }

    /// As above, each session's curl and wget reaching what `network`
    /// allows (a copy).
    void register_shell_tool(const Storage &storage, const NetworkPolicy &network,
                             const std::optional<ShellLimits> &limits = std::nullopt) {
        const aikido_shell_limits c_limits = limits ? limits->native() : aikido_shell_limits{};
        char *error = nullptr;
        const aikido_status status = aikido_registry_register_shell_tool_with_network(
            registry_.get(), storage.native(), limits ? &c_limits : nullptr, network.native(), &error);
        detail::check(status, error);
    }

    /// How dispatch checks arguments (docs/VALIDATION.md): Validation::full
    /// checks the whole JSON Schema and reports every violation;
    /// Validation::repair also coerces what the schema makes unambiguous.
    /// Throws Error (Status::invalid_input) naming a registered tool whose
    /// schema is not valid JSON Schema; the mode then stays as it was.
    void set_validation(Validation mode) {
        char *error = nullptr;
        const aikido_status status =
            aikido_registry_set_validation(registry_.get(), static_cast<std::uint32_t>(mode), &error);
        detail::check(status, error);
    }

    /// dispatch, and on success also the repairs REPAIR mode made, as the
    /// JSON array aikido_registry_dispatch_ex writes into `repairs_json`
    /// ([{"pointer":"/limit","from":"200","to":200}], "[]" for none; left
    /// empty when the call failed).
    Outcome dispatch_with_repairs(std::string_view name, std::string_view arguments, std::string &repairs_json,
                                  const Environment &environment = Environment()) const {
        repairs_json.clear();
        if (detail::holds_nul(name) || detail::holds_nul(environment.session_id_)) {
            return Error(Status::invalid_input,
                         "the tool name or session id holds a NUL byte, which the C API cannot pass");
        }
        const std::string c_name(name);
        const aikido_tool_call call{nullptr, c_name.c_str(), arguments.data(), arguments.size()};
        const aikido_environment native = environment.native();
        char *content = nullptr;
        char *repairs = nullptr;
        char *error = nullptr;
        const aikido_status status =
            aikido_registry_dispatch_ex(registry_.get(), &call, &native, &content, &repairs, &error);
        const detail::OwnedString owned_content(content);
        const detail::OwnedString owned_repairs(repairs);
        const detail::OwnedString owned_error(error);
        if (status != AIKIDO_OK) {
            return detail::error_from(status, owned_error);
        }
        repairs_json = owned_repairs ? owned_repairs.get() : "[]";
        return std::string(owned_content ? owned_content.get() : "");
    }

    /// The C handle, for calls into aikido.h; NULL once moved from.
    aikido_registry *native() const noexcept { return registry_.get(); }

private:
    template <class Fn>
    static void destroy(void *handler) noexcept {
        delete static_cast<Fn *>(handler);
    }

    struct Free {
        void operator()(aikido_registry *registry) const noexcept { aikido_registry_free(registry); }
    };
    std::unique_ptr<aikido_registry, Free> registry_;
};

namespace detail {

/// Writes a handler's Result into the reply. Text the reply refuses (a NUL
/// byte, invalid UTF-8) is reported by returning the refusal's status, which
/// the library turns into a failure that names the tool.
inline aikido_status write_reply(const Result &result, aikido_reply *reply) noexcept {
    const std::string &text = result.text();
    const aikido_status written = result.failed() ? aikido_reply_set_error(reply, text.data(), text.size())
                                                  : aikido_reply_set_content(reply, text.data(), text.size());
    if (written != AIKIDO_OK) {
        return written;
    }
    return result.failed() ? AIKIDO_ERR_TOOL_FAILED : AIKIDO_OK;
}

inline aikido_status report_panic(aikido_reply *reply, const char *message) noexcept {
    aikido_reply_set_error(reply, message, std::strlen(message));
    return AIKIDO_ERR_TOOL_PANICKED;
}

/// The C handler for a callable of type Fn. No exception crosses into the
/// library: each becomes AIKIDO_ERR_TOOL_PANICKED with its text.
template <class Fn>
aikido_status run_handler(void *userdata, const char *arguments, std::size_t arguments_len,
                          const aikido_environment *native, aikido_reply *reply) noexcept {
    try {
        const Fn &handler = *static_cast<const Fn *>(userdata);
        const std::string_view view(arguments, arguments_len);
        if constexpr (std::is_invocable_v<const Fn &, std::string_view, const Environment &>) {
            const Environment environment(*native);
            return write_reply(std::invoke(handler, view, environment), reply);
        } else {
            return write_reply(std::invoke(handler, view), reply);
        }
    } catch (const std::exception &exception) {
        return report_panic(reply, exception.what());
    } catch (...) {
        return report_panic(reply,
                            "a non-standard exception (one that does not derive from std::exception) was thrown");
    }
}

}  // namespace detail

/// JSON Schema builders. Each returns the schema as JSON text with sorted
/// keys and no whitespace; an empty description is left out. They throw
/// Error (Status::invalid_input) for text that is not UTF-8 or not JSON.
namespace schema {

/// {"description":…,"type":"string"}
inline std::string string(std::string_view description = {}) {
    return detail::schema_text(aikido_schema_string(detail::c_string(description, "the description").c_str()),
                               "aikido_schema_string");
}

/// {"description":…,"type":"integer"}
inline std::string integer(std::string_view description = {}) {
    return detail::schema_text(aikido_schema_integer(detail::c_string(description, "the description").c_str()),
                               "aikido_schema_integer");
}

/// {"description":…,"type":"number"}
inline std::string number(std::string_view description = {}) {
    return detail::schema_text(aikido_schema_number(detail::c_string(description, "the description").c_str()),
                               "aikido_schema_number");
}

/// {"description":…,"type":"boolean"}
inline std::string boolean(std::string_view description = {}) {
    return detail::schema_text(aikido_schema_boolean(detail::c_string(description, "the description").c_str()),
                               "aikido_schema_boolean");
}

/// {"description":…,"enum":[…],"type":"string"}, the values in order.
inline std::string enumeration(std::string_view description, const std::vector<std::string_view> &values) {
    const detail::CStringArray c_values(values.begin(), values.end(), "an enum value");
    return detail::schema_text(aikido_schema_enum(detail::c_string(description, "the description").c_str(),
                                                  c_values.data(), c_values.size()),
                               "aikido_schema_enum");
}

/// {"description":…,"items":…,"type":"array"}, items being one item's schema.
inline std::string array(std::string_view items, std::string_view description = {}) {
    return detail::schema_text(aikido_schema_array(detail::c_string(items, "the items schema").c_str(),
                                                   detail::c_string(description, "the description").c_str()),
                               "aikido_schema_array");
}

/// {"properties":{…},"required":[…],"type":"object"} from name → schema
/// pairs and the required names, kept in the order given:
/// `object({{"path", string("File to read.")}}, {"path"})`.
inline std::string object(const std::vector<std::pair<std::string_view, std::string>> &properties,
                          const std::vector<std::string_view> &required = {}) {
    std::vector<std::string_view> names;
    std::vector<std::string_view> schemas;
    for (const auto &[name, property_schema] : properties) {
        names.push_back(name);
        schemas.push_back(property_schema);
    }
    const detail::CStringArray c_names(names.begin(), names.end(), "a property name");
    const detail::CStringArray c_schemas(schemas.begin(), schemas.end(), "a property schema");
    const detail::CStringArray c_required(required.begin(), required.end(), "a required name");
    char *json = nullptr;
    char *error = nullptr;
    const aikido_status status =
        aikido_schema_object(c_names.data(), c_schemas.data(), c_names.size(), c_required.data(),
                             c_required.size(), &json, &error);
    const detail::OwnedString owned_json(json);
    detail::check(status, error);
    return owned_json.get();
}

}  // namespace schema

// ---- MCP server ---------------------------------------------------------

/// Serves a registry's tools over the Model Context Protocol (MCP 2024-11-05
/// to 2025-11-25, see docs/MCP.md). handle() takes one JSON-RPC message and
/// returns the response, so any transport can carry it; serve_stdio() serves
/// newline-delimited JSON-RPC over two file descriptors. The registry must
/// outlive the server. Move-only; thread-safe (handle() may run on many
/// threads at once: a notifications/cancelled on one stops a call on another).
class McpServer {
public:
    /// A server for registry, introducing itself as name and version (empty:
    /// "aikido" and the library's version). Throws Error when a string holds
    /// a NUL byte or the registry was moved from.
    explicit McpServer(const Registry &registry, std::string_view name = "", std::string_view version = "") {
        const std::string c_name = detail::c_string(name, "the server name");
        const std::string c_version = detail::c_string(version, "the server version");
        if (!registry.native()) {
            throw Error(Status::invalid_input, detail::invalid_input_prefix + "the registry was moved from");
        }
        server_.reset(aikido_mcp_server_new(registry.native(), c_name.c_str(), c_version.c_str()));
        if (!server_) {
            throw Error(Status::invalid_input, detail::invalid_input_prefix + "the MCP server could not be made");
        }
    }

    McpServer(const McpServer &) = delete;
    McpServer &operator=(const McpServer &) = delete;
    McpServer(McpServer &&) noexcept = default;
    McpServer &operator=(McpServer &&) noexcept = default;
    ~McpServer() = default;

    /// Handles one JSON-RPC message; the response, or std::nullopt when there
    /// is none (a notification, a cancelled call). Protocol errors are
    /// JSON-RPC error responses, not exceptions; throws Error only for misuse.
    std::optional<std::string> handle(std::string_view message) const {
        char *response = nullptr;
        char *error = nullptr;
        const aikido_status status =
            aikido_mcp_server_handle(server_.get(), message.data(), message.size(), &response, &error);
        const detail::OwnedString owned_response(response);
        detail::check(status, error);
        if (!owned_response) {
            return std::nullopt;
        }
        return std::string(owned_response.get());
    }

    /// Serves newline-delimited JSON-RPC from in_fd to out_fd until EOF or
    /// until stop fires (nullptr: only EOF). Throws Error when reading fails.
    void serve_stdio(int in_fd, int out_fd, const CancelToken *stop = nullptr) const {
        char *error = nullptr;
        const aikido_status status =
            aikido_mcp_server_serve_stdio(server_.get(), in_fd, out_fd, stop ? stop->native() : nullptr, &error);
        detail::check(status, error);
    }

    /// The C handle, for calls into aikido.h; NULL once moved from.
    aikido_mcp_server *native() const noexcept { return server_.get(); }

private:
    struct Free {
        void operator()(aikido_mcp_server *server) const noexcept { aikido_mcp_server_free(server); }
    };
    std::unique_ptr<aikido_mcp_server, Free> server_;
};

}  // namespace aikido

#endif  // AIKIDO_HPP
