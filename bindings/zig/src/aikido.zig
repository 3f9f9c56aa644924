//! Zig binding for libaikido: a registry of the tools an LLM may call, the
//! virtual file storage they act on, and the virtual bash.
//!
//! A thin layer over the C library (include/aikido.h): every argument check,
//! message and schema is the library's own; this module converts Zig values
//! to C and back, and turns statuses into Zig errors.
//!
//! Memory: every slice this module returns is owned by the caller and was
//! allocated with the allocator passed to that call (or, for error
//! messages, the allocator of the `Diagnostics`). Strings the C library
//! returns are copied and freed with `aikido_string_free` before the call
//! returns, so no C memory ever escapes.

const std = @import("std");
const Allocator = std.mem.Allocator;

/// The C declarations, translated from include/aikido.h.
pub const c = @import("aikido_c");

/// Everything a libaikido call can fail with, one error per `AIKIDO_ERR_*`
/// status. `UnexpectedStatus` is a status this binding does not know (a
/// newer library).
pub const Error = error{
    DuplicateTool,
    UnknownTool,
    InvalidArguments,
    ToolPanicked,
    ToolFailed,
    InvalidInput,
    Cancelled,
    Storage,
    UnexpectedStatus,
};

fn check(status: c.aikido_status) Error!void {
    return switch (status) {
        c.AIKIDO_OK => {},
        c.AIKIDO_ERR_DUPLICATE_TOOL => error.DuplicateTool,
        c.AIKIDO_ERR_UNKNOWN_TOOL => error.UnknownTool,
        c.AIKIDO_ERR_INVALID_ARGUMENTS => error.InvalidArguments,
        c.AIKIDO_ERR_TOOL_PANICKED => error.ToolPanicked,
        c.AIKIDO_ERR_TOOL_FAILED => error.ToolFailed,
        c.AIKIDO_ERR_INVALID_INPUT => error.InvalidInput,
        c.AIKIDO_ERR_CANCELLED => error.Cancelled,
        c.AIKIDO_ERR_STORAGE => error.Storage,
        else => error.UnexpectedStatus,
    };
}

/// Where a failed call leaves the library's message (written for the
/// model: it names the tool, the field, the panic value). Pass one to any
/// call that takes it; pass `null` when the error alone is enough.
pub const Diagnostics = struct {
    /// Allocates `message`.
    gpa: Allocator,
    /// The message of the last failed call, or null. Owned by `gpa`.
    message: ?[]u8 = null,

    /// Empty diagnostics whose messages `gpa` allocates.
    pub fn init(gpa: Allocator) Diagnostics {
        return .{ .gpa = gpa };
    }

    /// Frees the message, if any.
    pub fn deinit(diagnostics: *Diagnostics) void {
        diagnostics.clear();
    }

    fn clear(diagnostics: *Diagnostics) void {
        if (diagnostics.message) |message| diagnostics.gpa.free(message);
        diagnostics.message = null;
    }

    /// Takes the C error string (freeing it): the message replaces the
    /// previous one. A copy that fails for lack of memory leaves null, so
    /// that the status error still reaches the caller.
    fn record(diagnostics: ?*Diagnostics, error_text: [*c]u8) void {
        defer c.aikido_string_free(error_text);
        const self = diagnostics orelse return;
        self.clear();
        if (error_text == null) return;
        self.message = self.gpa.dupe(u8, std.mem.span(error_text)) catch null;
    }
};

/// Copies an owned C string into `gpa` and frees it.
fn takeString(gpa: Allocator, text: [*c]u8) Allocator.Error![:0]u8 {
    defer c.aikido_string_free(text);
    return gpa.dupeSentinel(u8, std.mem.span(text), 0);
}

/// The 16 bytes of a UUID: a turn id.
pub const Uuid = [16]u8;

/// UUID helpers: the library's generators, parser and formatter.
pub const uuid = struct {
    /// The all-zero UUID: "no turn".
    pub const nil: Uuid = @splat(0);

    /// A new random (version 4) UUID.
    pub fn v4() Uuid {
        var id: Uuid = undefined;
        c.aikido_uuid_new_v4(&id);
        return id;
    }

    /// A new time-ordered (version 7) UUID.
    pub fn v7() Uuid {
        var id: Uuid = undefined;
        c.aikido_uuid_new_v7(&id);
        return id;
    }

    /// Parses the hyphenated, simple, braced or urn form.
    pub fn parse(text: [:0]const u8) Error!Uuid {
        var id: Uuid = undefined;
        try check(c.aikido_uuid_parse(text.ptr, &id));
        return id;
    }

    /// The hyphenated lower-case form.
    pub fn format(id: Uuid) [36]u8 {
        var text: [37]u8 = undefined;
        c.aikido_uuid_format(&id, &text);
        return text[0..36].*;
    }
};

/// A cancellation token: the C form of Go's `context.Context`. Fire it
/// from any thread; dispatches that carry it then return
/// `error.Cancelled` without running the handler, and running handlers
/// see `Environment.cancelled()` turn true.
pub const CancelToken = opaque {
    /// A token that has not fired. Free it with `destroy`.
    pub fn create() Allocator.Error!*CancelToken {
        return @ptrCast(c.aikido_cancel_new() orelse return error.OutOfMemory);
    }

    /// Frees the token; no dispatch may be using it.
    pub fn destroy(token: *CancelToken) void {
        c.aikido_cancel_free(@ptrCast(token));
    }

    /// Fires the token; thread-safe, and firing twice is harmless.
    pub fn fire(token: *const CancelToken) void {
        c.aikido_cancel_fire(@ptrCast(token));
    }

    /// Whether the token has fired.
    pub fn isFired(token: *const CancelToken) bool {
        return c.aikido_cancel_is_fired(@ptrCast(token));
    }
};

/// Per-call context: passed to `Registry.dispatch` and on to the handler.
pub const Environment = struct {
    /// The agent session the call belongs to.
    session_id: [:0]const u8 = "",
    /// The model reply that made the call; calls of one reply share it.
    turn_id: Uuid = uuid.nil,
    /// Fired when the caller no longer wants the result; null: never.
    cancel: ?*const CancelToken = null,

    /// Whether the caller has given up on this call: long handlers poll it.
    pub fn cancelled(environment: Environment) bool {
        const token = environment.cancel orelse return false;
        return token.isFired();
    }

    fn toC(environment: Environment) c.aikido_environment {
        return .{
            .session_id = environment.session_id.ptr,
            .turn_id = environment.turn_id,
            .cancel = @ptrCast(environment.cancel),
        };
    }

    fn fromC(raw: [*c]const c.aikido_environment) Environment {
        if (raw == null) return .{};
        return .{
            .session_id = if (raw.*.session_id == null) "" else std.mem.span(raw.*.session_id),
            .turn_id = raw.*.turn_id,
            .cancel = @ptrCast(raw.*.cancel),
        };
    }
};

/// A tool as the model sees it.
pub const Definition = struct {
    /// Non-empty; unique in a registry.
    name: [:0]const u8,
    /// What the tool does, for the model; null or "" leaves it out.
    description: ?[:0]const u8 = null,
    /// The JSON Schema of the arguments (see `schema`); null: none.
    parameters: ?[:0]const u8 = null,
};

/// One tool call from a model reply.
pub const ToolCall = struct {
    /// The model's id for the call; not interpreted.
    id: ?[:0]const u8 = null,
    /// The tool to run.
    name: [:0]const u8,
    /// The model's raw JSON arguments; "" counts as `{}`.
    arguments: []const u8 = "",
};

/// Where a handler writes its outcome. Valid only during the handler call
/// that received it.
///
/// The last report decides the status: `content` (the default), `fail`
/// (ToolFailed) or `panicked` (ToolPanicked). A handler that returns a Zig
/// error without reporting a failure fails with the error's name as text.
pub const Reply = struct {
    /// The library's reply; prefer the methods.
    raw: *c.aikido_reply,
    /// What the handler reported last.
    outcome: Outcome = .content,
    /// Whether the library refused a text of this reply.
    refused: bool = false,

    pub const Outcome = enum { content, failed, panicked };

    /// Sets the result text the model sees (copied). Returns
    /// `error.InvalidInput` for text that is not UTF-8 or holds a NUL byte.
    pub fn content(reply: *Reply, text: []const u8) Error!void {
        try reply.accepted(c.aikido_reply_set_content(reply.raw, text.ptr, text.len));
        reply.outcome = .content;
    }

    /// Reports a failure shown to the model as `text`, unchanged; returns
    /// `error.ToolFailed` so that a handler can `return reply.fail(...)`.
    pub fn fail(reply: *Reply, text: []const u8) Error {
        reply.setError(text, .failed) catch |err| return err;
        return error.ToolFailed;
    }

    /// Reports a panic-like outcome (the call gives `error.ToolPanicked`,
    /// with `text` as the panic value); returns `error.ToolPanicked`. Zig
    /// cannot catch a real `@panic`: that aborts the process, so a handler
    /// reports its "this cannot happen" cases here instead.
    pub fn panicked(reply: *Reply, text: []const u8) Error {
        reply.setError(text, .panicked) catch |err| return err;
        return error.ToolPanicked;
    }

    fn setError(reply: *Reply, text: []const u8, outcome: Outcome) Error!void {
        try reply.accepted(c.aikido_reply_set_error(reply.raw, text.ptr, text.len));
        reply.outcome = outcome;
    }

    fn accepted(reply: *Reply, status: c.aikido_status) Error!void {
        check(status) catch |err| {
            reply.refused = true;
            return err;
        };
    }

    /// The status handed back to the library, once the handler returned.
    fn finish(reply: *Reply, returned: anyerror!void) c.aikido_status {
        returned catch |err| if (reply.outcome == .content) {
            reply.outcome = .failed;
            // After a refused text the library explains the failure itself;
            // otherwise the error's name (ASCII, so accepted) is the text.
            if (!reply.refused) _ = c.aikido_reply_set_error(reply.raw, @errorName(err).ptr, @errorName(err).len);
        };
        return switch (reply.outcome) {
            .content => c.AIKIDO_OK,
            .failed => c.AIKIDO_ERR_TOOL_FAILED,
            .panicked => c.AIKIDO_ERR_TOOL_PANICKED,
        };
    }
};

/// The function type of a tool whose context has type `Context` (a
/// pointer, or `void` for a tool without state). `arguments` holds the
/// checked JSON object, verbatim; it, `environment` and `reply` live for
/// the call only. Handlers may run on many threads at once.
pub fn Handler(comptime Context: type) type {
    return fn (context: Context, arguments: [:0]const u8, environment: Environment, reply: *Reply) anyerror!void;
}

/// The C callbacks for one (context type, handler, release) triple.
fn Trampoline(comptime Context: type, comptime handler: Handler(Context), comptime release: ?fn (Context) void) type {
    return struct {
        fn call(
            userdata: ?*anyopaque,
            arguments: [*c]const u8,
            arguments_len: usize,
            environment: [*c]const c.aikido_environment,
            raw_reply: ?*c.aikido_reply,
        ) callconv(.c) c.aikido_status {
            var reply: Reply = .{ .raw = raw_reply orelse return c.AIKIDO_ERR_INVALID_INPUT };
            const text: [:0]const u8 = if (arguments == null) "" else arguments[0..arguments_len :0];
            return reply.finish(handler(context(userdata), text, Environment.fromC(environment), &reply));
        }

        fn free(userdata: ?*anyopaque) callconv(.c) void {
            release.?(context(userdata));
        }

        fn context(userdata: ?*anyopaque) Context {
            return if (Context == void) {} else @ptrCast(@alignCast(userdata.?));
        }
    };
}

/// The C userdata for a context: its address, or null for `{}`.
fn userdataOf(context: anytype) ?*anyopaque {
    const Context = @TypeOf(context);
    return if (Context == void)
        null
    else if (comptime isSinglePointer(Context))
        @ptrCast(@constCast(context))
    else
        @compileError("a tool's context is a single-item pointer or {}, not " ++ @typeName(Context));
}

fn isSinglePointer(comptime T: type) bool {
    return switch (@typeInfo(T)) {
        .pointer => |pointer| pointer.size == .one,
        else => false,
    };
}

/// A registry of tools, safe to use from many threads at once (except
/// `deinit`). A handle: copies share one registry.
pub const Registry = struct {
    /// The library's registry, for `aikido.c` calls.
    raw: *c.aikido_registry,

    /// A new, empty registry; free it with `deinit`.
    pub fn init() Allocator.Error!Registry {
        return .{ .raw = c.aikido_registry_new() orelse return error.OutOfMemory };
    }

    /// Frees the registry; every tool's `release` runs. No other call on
    /// it may be running.
    pub fn deinit(registry: *Registry) void {
        c.aikido_registry_free(registry.raw);
        registry.* = undefined;
    }

    /// Registers a tool: `handler` runs with `context` (a pointer, or `{}`
    /// for none). On success the registry owns the context: `release`, if
    /// not null, runs exactly once, when the tool is unregistered and its
    /// last call has returned, or when the registry is freed. On an error
    /// the caller still owns it and `release` does not run.
    pub fn register(
        registry: Registry,
        definition: Definition,
        context: anytype,
        comptime handler: Handler(@TypeOf(context)),
        comptime release: ?fn (@TypeOf(context)) void,
        diagnostics: ?*Diagnostics,
    ) Error!void {
        const trampoline = Trampoline(@TypeOf(context), handler, release);
        var error_text: [*c]u8 = null;
        const status = c.aikido_registry_register(
            registry.raw,
            definition.name.ptr,
            if (definition.description) |text| text.ptr else null,
            if (definition.parameters) |text| text.ptr else null,
            &trampoline.call,
            userdataOf(context),
            if (release == null) null else &trampoline.free,
            &error_text,
        );
        check(status) catch |err| {
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
    }

    /// Removes a tool; its running calls finish first, then its `release`
    /// runs.
    pub fn unregister(registry: Registry, name: [:0]const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        check(c.aikido_registry_unregister(registry.raw, name.ptr, &error_text)) catch |err| {
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
    }

    /// How many tools are registered.
    pub fn len(registry: Registry) usize {
        return c.aikido_registry_len(registry.raw);
    }

    /// Every definition, in registration order, as the JSON array a model
    /// API expects. Owned by `gpa`.
    pub fn definitions(registry: Registry, gpa: Allocator, diagnostics: ?*Diagnostics) (Error || Allocator.Error)![:0]u8 {
        var json: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        check(c.aikido_registry_definitions(registry.raw, &json, &error_text)) catch |err| {
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
        return takeString(gpa, json);
    }

    /// Registers the file tools `read_file`, `write_file`, `list_directory`,
    /// `edit_file` and `delete_path`, acting on `storage` (which they share).
    pub fn registerFileTools(registry: Registry, storage: Storage, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_registry_register_file_tools(registry.raw, storage.raw, &error_text), error_text, diagnostics);
    }

    /// Registers the `bash` tool: an in-process bash over `storage`
    /// (shared), one shell per session id, each run bounded by `limits`
    /// (null: the defaults). Its result is stdout, a `[stderr]` section,
    /// then `[exit code: N]`; its arguments `{"command":…,"restart":true}`.
    pub fn registerShellTool(registry: Registry, storage: Storage, limits: ?ShellLimits, diagnostics: ?*Diagnostics) Error!void {
        const c_limits = if (limits) |given| given.toC() else undefined;
        var error_text: [*c]u8 = null;
        try record(c.aikido_registry_register_shell_tool(registry.raw, storage.raw, if (limits != null) &c_limits else null, &error_text), error_text, diagnostics);
    }

    /// As `registerShellTool`, each session's curl and wget reaching what
    /// `network` allows (a copy; null: no network).
    pub fn registerShellToolWithNetwork(registry: Registry, storage: Storage, limits: ?ShellLimits, network: ?NetworkPolicy, diagnostics: ?*Diagnostics) Error!void {
        const c_limits = if (limits) |given| given.toC() else undefined;
        var error_text: [*c]u8 = null;
        try record(c.aikido_registry_register_shell_tool_with_network(registry.raw, storage.raw, if (limits != null) &c_limits else null, if (network) |policy| policy.raw else null, &error_text), error_text, diagnostics);
    }

    /// Sets how dispatch checks arguments (docs/VALIDATION.md). Switching to
    /// `.full` or `.repair` compiles every registered tool's schema; one
    /// that is not valid JSON Schema fails with `error.InvalidInput` (the
    /// message, naming the tool, in `diagnostics`) and the mode stays.
    pub fn setValidation(registry: Registry, mode: Validation, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_registry_set_validation(registry.raw, @backingInt(mode), &error_text), error_text, diagnostics);
    }

    /// `dispatch`, and on success also the repairs REPAIR mode made, as a
    /// JSON array (`[{"pointer":"/limit","from":"200","to":200}]`, `[]` for
    /// none) in `repairs`; both strings are owned by `gpa`.
    pub fn dispatchWithRepairs(
        registry: Registry,
        gpa: Allocator,
        call: ToolCall,
        environment: Environment,
        diagnostics: ?*Diagnostics,
    ) (Error || Allocator.Error)!Repaired {
        const raw_call: c.aikido_tool_call = .{
            .id = if (call.id) |id| id.ptr else null,
            .name = call.name.ptr,
            .arguments = call.arguments.ptr,
            .arguments_len = call.arguments.len,
        };
        const raw_environment = environment.toC();
        var content: [*c]u8 = null;
        var repairs: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        check(c.aikido_registry_dispatch_ex(registry.raw, &raw_call, &raw_environment, &content, &repairs, &error_text)) catch |err| {
            c.aikido_string_free(content);
            c.aikido_string_free(repairs);
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
        const owned_content = takeString(gpa, content) catch |err| {
            c.aikido_string_free(repairs);
            return err;
        };
        errdefer gpa.free(owned_content);
        return .{ .content = owned_content, .repairs = try takeString(gpa, repairs) };
    }

    /// Runs one tool call: checks the name and arguments, then the handler.
    /// Returns the handler's content, owned by `gpa`; on an error the
    /// message for the model is in `diagnostics`.
    pub fn dispatch(
        registry: Registry,
        gpa: Allocator,
        call: ToolCall,
        environment: Environment,
        diagnostics: ?*Diagnostics,
    ) (Error || Allocator.Error)![:0]u8 {
        const raw_call: c.aikido_tool_call = .{
            .id = if (call.id) |id| id.ptr else null,
            .name = call.name.ptr,
            .arguments = call.arguments.ptr,
            .arguments_len = call.arguments.len,
        };
        const raw_environment = environment.toC();
        var content: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        check(c.aikido_registry_dispatch(registry.raw, &raw_call, &raw_environment, &content, &error_text)) catch |err| {
            c.aikido_string_free(content);
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
        return takeString(gpa, content);
    }

    // --- Provider dialects (docs/DIALECTS.md) ---

    /// Every definition, in registration order, in `dialect`'s tools
    /// format, owned by `gpa`. `error.InvalidInput` when a tool's name or
    /// schema cannot be written in the dialect (the message in `diagnostics`
    /// names the tool and the rule).
    pub fn definitionsFor(registry: Registry, gpa: Allocator, dialect: Dialect, flags: Flags, diagnostics: ?*Diagnostics) (Error || Allocator.Error)![:0]u8 {
        var json: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        check(c.aikido_registry_definitions_for(registry.raw, @backingInt(dialect), @bitCast(flags), &json, &error_text)) catch |err| {
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
        return takeString(gpa, json);
    }

    /// Runs the tool calls of a model reply (at once, or in turn with
    /// `.sequential`) and returns the JSON array to append, in `dialect`'s
    /// format, results in call order, owned by `gpa`. Per-call failures are
    /// error results; `error.InvalidInput` only when the reply cannot be read.
    pub fn respond(registry: Registry, gpa: Allocator, dialect: Dialect, reply: []const u8, environment: Environment, flags: Flags, diagnostics: ?*Diagnostics) (Error || Allocator.Error)![:0]u8 {
        const raw_environment = environment.toC();
        var messages: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        check(c.aikido_registry_respond(registry.raw, @backingInt(dialect), reply.ptr, reply.len, &raw_environment, @bitCast(flags), &messages, &error_text)) catch |err| {
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
        return takeString(gpa, messages);
    }
};

/// A provider's wire format; the values are the `AIKIDO_DIALECT_*` numbers.
pub const Dialect = enum(u32) {
    neutral = c.AIKIDO_DIALECT_NEUTRAL,
    openai_chat = c.AIKIDO_DIALECT_OPENAI_CHAT,
    openai_responses = c.AIKIDO_DIALECT_OPENAI_RESPONSES,
    anthropic = c.AIKIDO_DIALECT_ANTHROPIC,
    gemini = c.AIKIDO_DIALECT_GEMINI,
    mcp = c.AIKIDO_DIALECT_MCP,
    _,
};

/// The flags of `definitionsFor` and `respond`: `AIKIDO_STRICT` and
/// `AIKIDO_RESPOND_SEQUENTIAL` as fields.
pub const Flags = packed struct(u32) {
    /// OpenAI/Anthropic strict mode, both directions.
    strict: bool = false,
    /// `respond` runs the calls one after the other, in order.
    sequential: bool = false,
    /// Other bits, passed on (the library refuses them).
    other: u30 = 0,
};

/// The tool calls of a model reply in `dialect` (the whole response body
/// or its relevant part), as the neutral JSON list
/// `[{"id","name","arguments"}]`, owned by `gpa`.
pub fn parseToolCalls(gpa: Allocator, dialect: Dialect, reply: []const u8, diagnostics: ?*Diagnostics) (Error || Allocator.Error)![:0]u8 {
    var json: [*c]u8 = null;
    var error_text: [*c]u8 = null;
    check(c.aikido_tool_calls_parse(@backingInt(dialect), reply.ptr, reply.len, &json, &error_text)) catch |err| {
        Diagnostics.record(diagnostics, error_text);
        return err;
    };
    return takeString(gpa, json);
}

/// The tool calls of a model reply in `dialect`, in reply order, as the
/// library's array (free it with `deinit`): each item a `c.aikido_tool_call`
/// ready for `c.aikido_registry_dispatch`, its strings borrowed from the
/// array. `error.InvalidInput` (the diagnostics say where) for a reply that
/// cannot be read.
pub fn readToolCalls(dialect: Dialect, reply: []const u8, diagnostics: ?*Diagnostics) Error!ToolCalls {
    var raw: ?*c.aikido_tool_calls = null;
    var error_text: [*c]u8 = null;
    try record(c.aikido_tool_calls_read(@backingInt(dialect), orNull(reply), reply.len, &raw, &error_text), error_text, diagnostics);
    return .{ .raw = raw };
}

/// How a registry checks a call's arguments (`AIKIDO_VALIDATE_*`).
pub const Validation = enum(u32) {
    /// The seed's check (the default): one object, every required field.
    required = c.AIKIDO_VALIDATE_REQUIRED,
    /// The whole JSON Schema; every violation at its JSON Pointer.
    full = c.AIKIDO_VALIDATE_FULL,
    /// `full`, after repairing what the schema makes unambiguous.
    repair = c.AIKIDO_VALIDATE_REPAIR,
};

/// What `Registry.dispatchWithRepairs` returns; `deinit` frees both.
pub const Repaired = struct {
    content: [:0]u8,
    repairs: [:0]u8,

    pub fn deinit(repaired: Repaired, gpa: Allocator) void {
        gpa.free(repaired.content);
        gpa.free(repaired.repairs);
    }
};

/// What kind of thing a path names.
pub const FileKind = enum(i32) {
    file = c.AIKIDO_FILE_KIND_FILE,
    directory = c.AIKIDO_FILE_KIND_DIRECTORY,
    symlink = c.AIKIDO_FILE_KIND_SYMLINK,
    _,
};

/// What `Storage.stat` reports.
pub const Stat = struct {
    kind: FileKind,
    /// Bytes in a file; 0 for a directory.
    size: u64,
    /// Unix permission bits, e.g. 0o644.
    mode: u32,
    /// Last change, in milliseconds since the Unix epoch.
    modified_unix_ms: i64,
};

/// One entry of `Storage.list`.
pub const Entry = struct { name: []const u8, kind: FileKind };

/// What happened to a path an overlay or a dry run changed.
pub const ChangeKind = enum(i32) {
    added = c.AIKIDO_CHANGE_ADDED,
    modified = c.AIKIDO_CHANGE_MODIFIED,
    /// A deleted directory is one change.
    deleted = c.AIKIDO_CHANGE_DELETED,
    _,
};

/// One path an overlay or a dry run changed (`Storage.diff`).
pub const Change = struct { path: []const u8, change: ChangeKind };

/// A listing or a diff copied out of the library: `value` is the slice;
/// `deinit` frees it all.
pub fn Parsed(comptime T: type) type {
    return struct {
        arena: *std.heap.ArenaAllocator,
        value: []const T,

        pub fn deinit(parsed: @This()) void {
            const gpa = parsed.arena.child_allocator;
            parsed.arena.deinit();
            gpa.destroy(parsed.arena);
        }

        /// Copies each item of `array` with `copy(arena, item)`.
        fn copyFrom(gpa: Allocator, array: anytype, comptime copy: anytype) (Error || Allocator.Error)!@This() {
            const arena = try gpa.create(std.heap.ArenaAllocator);
            errdefer gpa.destroy(arena);
            arena.* = .init(gpa);
            errdefer arena.deinit();
            const items = try arena.allocator().alloc(T, array.len());
            for (items, 0..) |*item, index| item.* = try copy(arena.allocator(), try array.get(index, null));
            return .{ .arena = arena, .value = items };
        }
    };
}

/// A library-owned array of structured results (docs/C-API.md): `len`,
/// `get` by index, an `iterator`, and `deinit` to free it once. The items
/// are the C structs, their strings borrowed from the array until `deinit`.
pub fn Array(comptime Handle: type, comptime Item: type, comptime len_fn: anytype, comptime get_fn: anytype, comptime free_fn: anytype) type {
    return struct {
        const Self = @This();
        /// The library's array, for `aikido.c` calls.
        raw: ?*Handle,

        pub fn deinit(array: *Self) void {
            free_fn(array.raw);
            array.* = undefined;
        }

        pub fn len(array: Self) usize {
            return len_fn(array.raw);
        }

        /// Item `index`; `error.InvalidInput` past the end.
        pub fn get(array: Self, index: usize, diagnostics: ?*Diagnostics) Error!Item {
            var item: Item = undefined;
            var error_text: [*c]u8 = null;
            try record(get_fn(array.raw, index, &item, &error_text), error_text, diagnostics);
            return item;
        }

        pub const Iterator = struct {
            array: Self,
            index: usize = 0,

            pub fn next(iterator_: *Iterator) ?Item {
                if (iterator_.index >= iterator_.array.len()) return null;
                defer iterator_.index += 1;
                return iterator_.array.get(iterator_.index, null) catch null;
            }
        };

        /// The items in order.
        pub fn iterator(array: Self) Iterator {
            return .{ .array = array };
        }
    };
}

/// The entries of a directory (`Storage.entries`): items `c.aikido_dir_entry`.
pub const DirEntries = Array(c.aikido_dir_entries, c.aikido_dir_entry, c.aikido_dir_entries_len, c.aikido_dir_entries_get, c.aikido_dir_entries_free);
/// What an overlay or a dry run changed (`Storage.changes`): items `c.aikido_change`.
pub const Changes = Array(c.aikido_changes, c.aikido_change, c.aikido_changes_len, c.aikido_changes_get, c.aikido_changes_free);
/// A reply's tool calls (`readToolCalls`): items `c.aikido_tool_call`,
/// each ready for `c.aikido_registry_dispatch`.
pub const ToolCalls = Array(c.aikido_tool_calls, c.aikido_tool_call, c.aikido_tool_calls_len, c.aikido_tool_calls_get, c.aikido_tool_calls_free);
/// An array of strings (a shell result's write set): items `[*c]const u8`.
const Strings = Array(c.aikido_strings, [*c]const u8, c.aikido_strings_len, c.aikido_strings_get, c.aikido_strings_free);

/// One rule of `Storage.policy`: allow or deny an access to the paths
/// matching a glob (`*`, `**`, `?`, `[a-z]`).
pub const PathRule = struct {
    access: enum(i32) { read = c.AIKIDO_ACCESS_READ, write = c.AIKIDO_ACCESS_WRITE, list = c.AIKIDO_ACCESS_LIST },
    allow: bool,
    pattern: [:0]const u8,
};

/// A virtual file storage: what the file tools and the shell act on. Every
/// path is virtual (absolute, normalised, `..` never above `/`). A handle,
/// thread-safe; the storages, tools and shells made from it keep their own
/// share, so it may be freed before them. A storage that refuses an
/// operation gives `error.Storage`, with the shell-style message
/// (`/a/b: No such file or directory`) in `diagnostics`.
pub const Storage = struct {
    /// The library's storage, for `aikido.c` calls.
    raw: *c.aikido_storage,

    /// Limits of a memory storage, in bytes; 0 means none.
    pub const MemoryLimits = struct { max_total_bytes: u64 = 0, max_file_bytes: u64 = 0 };

    /// An empty storage in memory. A write that would pass a limit fails
    /// and changes nothing.
    pub fn memory(limits: MemoryLimits) Allocator.Error!Storage {
        return .{ .raw = c.aikido_storage_memory_new(limits.max_total_bytes, limits.max_file_bytes) orelse return error.OutOfMemory };
    }

    /// The host folder `root`, which must exist; nothing reaches outside
    /// it. With `read_only`, every change is refused.
    pub fn host(root: [:0]const u8, options: struct { read_only: bool = false }, diagnostics: ?*Diagnostics) Error!Storage {
        var raw: ?*c.aikido_storage = null;
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_host_new(root.ptr, options.read_only, &raw, &error_text), error_text, diagnostics);
        return .{ .raw = raw.? };
    }

    /// A read-only view of `inner`.
    pub fn readOnly(inner: Storage) Error!Storage {
        return made(c.aikido_storage_read_only(inner.raw));
    }

    /// A writable layer in memory over `lower`, untouched until `commit`.
    pub fn overlay(lower: Storage) Error!Storage {
        return made(c.aikido_storage_overlay_new(lower.raw));
    }

    /// Changes recorded, never applied: `diff` says what they would be.
    pub fn dryRun(lower: Storage) Error!Storage {
        return made(c.aikido_storage_dry_run_new(lower.raw));
    }

    /// `base` with `mounted` at `prefix` (the longest prefix wins).
    /// `error.InvalidInput` when `prefix` is not UTF-8.
    pub fn mount(base: Storage, prefix: [:0]const u8, mounted: Storage) Error!Storage {
        return made(c.aikido_storage_mount(base.raw, prefix.ptr, mounted.raw));
    }

    /// `inner` behind allow/deny rules; refused accesses fail with
    /// "Permission denied". `gpa` holds the C form of the rules meanwhile.
    pub fn policy(inner: Storage, gpa: Allocator, rules: []const PathRule, diagnostics: ?*Diagnostics) (Error || Allocator.Error)!Storage {
        const c_rules = try gpa.alloc(c.aikido_path_rule, rules.len);
        defer gpa.free(c_rules);
        for (rules, c_rules) |rule, *c_rule| {
            c_rule.* = .{ .access = @backingInt(rule.access), .allow = rule.allow, .pattern = rule.pattern.ptr };
        }
        var raw: ?*c.aikido_storage = null;
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_policy_new(inner.raw, orNull(c_rules), c_rules.len, &raw, &error_text), error_text, diagnostics);
        return .{ .raw = raw.? };
    }

    /// Frees this handle; storages, tools and shells made from it keep
    /// their share.
    pub fn deinit(storage: *Storage) void {
        c.aikido_storage_free(storage.raw);
        storage.* = undefined;
    }

    /// The whole file at `path` (symlinks followed), owned by `gpa`.
    pub fn read(storage: Storage, gpa: Allocator, path: [:0]const u8, diagnostics: ?*Diagnostics) (Error || Allocator.Error)![]u8 {
        var data: [*c]u8 = null;
        var len: usize = 0;
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_read(storage.raw, path.ptr, &data, &len, &error_text), error_text, diagnostics);
        defer c.aikido_bytes_free(data, len);
        return gpa.dupe(u8, bytesOf(data, len));
    }

    /// Creates or replaces the file at `path`.
    pub fn write(storage: Storage, path: [:0]const u8, data: []const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_write(storage.raw, path.ptr, data.ptr, data.len, &error_text), error_text, diagnostics);
    }

    /// Appends to the file at `path`, creating it.
    pub fn append(storage: Storage, path: [:0]const u8, data: []const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_append(storage.raw, path.ptr, data.ptr, data.len, &error_text), error_text, diagnostics);
    }

    /// Creates a directory; with `.parents`, missing parents too (and an
    /// existing directory is fine).
    pub fn mkdir(storage: Storage, path: [:0]const u8, options: struct { parents: bool = false }, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_mkdir(storage.raw, path.ptr, options.parents, &error_text), error_text, diagnostics);
    }

    /// Removes a file, symlink or empty directory; with `.recursive`, a
    /// directory and everything in it.
    pub fn remove(storage: Storage, path: [:0]const u8, options: struct { recursive: bool = false }, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_remove(storage.raw, path.ptr, options.recursive, &error_text), error_text, diagnostics);
    }

    /// Moves `from` to `to`, replacing a file there.
    pub fn rename(storage: Storage, from: [:0]const u8, to: [:0]const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_rename(storage.raw, from.ptr, to.ptr, &error_text), error_text, diagnostics);
    }

    /// Creates a symlink at `link` pointing at `target`, kept as written.
    pub fn symlink(storage: Storage, target: [:0]const u8, link: [:0]const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_symlink(storage.raw, target.ptr, link.ptr, &error_text), error_text, diagnostics);
    }

    /// The target of the symlink at `path`, owned by `gpa`.
    pub fn readlink(storage: Storage, gpa: Allocator, path: [:0]const u8, diagnostics: ?*Diagnostics) (Error || Allocator.Error)![:0]u8 {
        var target: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_readlink(storage.raw, path.ptr, &target, &error_text), error_text, diagnostics);
        return takeString(gpa, target);
    }

    /// Kind, size, mode and time of `path`, symlinks followed.
    pub fn stat(storage: Storage, path: [:0]const u8, diagnostics: ?*Diagnostics) Error!Stat {
        var raw: c.aikido_file_stat = undefined;
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_stat(storage.raw, path.ptr, &raw, &error_text), error_text, diagnostics);
        return .{ .kind = @fromBackingInt(@intCast(raw.kind)), .size = raw.size, .mode = raw.mode, .modified_unix_ms = raw.modified_unix_ms };
    }

    /// The entries of the directory at `path`, sorted by name, as the
    /// library's array; free it with `deinit`.
    pub fn entries(storage: Storage, path: [:0]const u8, diagnostics: ?*Diagnostics) Error!DirEntries {
        var raw: ?*c.aikido_dir_entries = null;
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_entries(storage.raw, path.ptr, &raw, &error_text), error_text, diagnostics);
        return .{ .raw = raw };
    }

    /// The entries of the directory at `path`, sorted by name, copied; free
    /// them with `deinit`.
    pub fn list(storage: Storage, gpa: Allocator, path: [:0]const u8, diagnostics: ?*Diagnostics) (Error || Allocator.Error)!Parsed(Entry) {
        var array = try storage.entries(path, diagnostics);
        defer array.deinit();
        return Parsed(Entry).copyFrom(gpa, array, struct {
            fn copy(arena: Allocator, entry: c.aikido_dir_entry) Allocator.Error!Entry {
                return .{ .name = try arena.dupe(u8, std.mem.span(entry.name)), .kind = @fromBackingInt(@intCast(entry.kind)) };
            }
        }.copy);
    }

    /// What an overlay or a dry run changed, sorted by path, as the
    /// library's array (free it with `deinit`); `error.InvalidInput` for any
    /// other storage.
    pub fn changes(storage: Storage, diagnostics: ?*Diagnostics) Error!Changes {
        var raw: ?*c.aikido_changes = null;
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_changes(storage.raw, &raw, &error_text), error_text, diagnostics);
        return .{ .raw = raw };
    }

    /// What an overlay or a dry run changed, sorted by path, copied;
    /// `error.InvalidInput` for any other storage.
    pub fn diff(storage: Storage, gpa: Allocator, diagnostics: ?*Diagnostics) (Error || Allocator.Error)!Parsed(Change) {
        var array = try storage.changes(diagnostics);
        defer array.deinit();
        return Parsed(Change).copyFrom(gpa, array, struct {
            fn copy(arena: Allocator, change: c.aikido_change) Allocator.Error!Change {
                return .{ .path = try arena.dupe(u8, std.mem.span(change.path)), .change = @fromBackingInt(@intCast(change.change)) };
            }
        }.copy);
    }

    /// Applies an overlay's changes to its lower storage and empties it.
    pub fn commit(storage: Storage, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_commit(storage.raw, &error_text), error_text, diagnostics);
    }

    /// Drops an overlay's changes.
    pub fn discard(storage: Storage, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_storage_discard(storage.raw, &error_text), error_text, diagnostics);
    }

    /// A composed storage; NULL only for input the library refuses.
    fn made(raw: ?*c.aikido_storage) Error!Storage {
        return .{ .raw = raw orelse return error.InvalidInput };
    }
};

/// A slice's pointer, or null when it is empty: the library reads
/// `(NULL, 0)` as empty, while the pointer of an empty Zig slice may be
/// anything, even misaligned, which the library may not be given.
fn orNull(slice: anytype) ?@TypeOf(slice.ptr) {
    return if (slice.len == 0) null else slice.ptr;
}

/// `len` bytes the library returned at `data`, which may be NULL when `len` is 0.
fn bytesOf(data: [*c]const u8, len: usize) []const u8 {
    return if (len == 0) "" else data[0..len];
}

/// The status as an error, the message (if any) recorded.
fn record(status: c.aikido_status, error_text: [*c]u8, diagnostics: ?*Diagnostics) Error!void {
    check(status) catch |err| {
        Diagnostics.record(diagnostics, error_text);
        return err;
    };
}

/// Bounds on each run of a script; 0 takes the library's default (in
/// brackets). A script that reaches one stops with exit code 125 (124 for
/// time).
pub const ShellLimits = struct {
    /// Simple commands run [100000].
    max_commands: u64 = 0,
    /// Iterations of all loops together [100000].
    max_loop_iterations: u64 = 0,
    /// Nested functions, `source` and `eval` [100].
    max_function_depth: u32 = 0,
    /// Bytes in any one stream; output past it is cut [1 MiB].
    max_output_bytes: usize = 0,
    /// Wall-clock time [10000].
    max_milliseconds: u64 = 0,
    /// The session's variables, and any one value built [256 MiB].
    max_memory_bytes: usize = 0,
    /// The bash tool: result bytes the model reads; a longer result is cut
    /// in the middle and saved whole as a file it names [30 KiB].
    max_result_bytes: usize = 0,

    fn toC(limits: ShellLimits) c.aikido_shell_limits {
        return .{
            .max_commands = limits.max_commands,
            .max_loop_iterations = limits.max_loop_iterations,
            .max_function_depth = limits.max_function_depth,
            .max_output_bytes = limits.max_output_bytes,
            .max_milliseconds = limits.max_milliseconds,
            .max_memory_bytes = limits.max_memory_bytes,
            .max_result_bytes = limits.max_result_bytes,
        };
    }
};

/// The limit that stopped a script.
pub const ShellLimit = enum(i32) {
    none = c.AIKIDO_SHELL_LIMIT_NONE,
    commands = c.AIKIDO_SHELL_LIMIT_COMMANDS,
    loop_iterations = c.AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS,
    function_depth = c.AIKIDO_SHELL_LIMIT_FUNCTION_DEPTH,
    output = c.AIKIDO_SHELL_LIMIT_OUTPUT,
    time = c.AIKIDO_SHELL_LIMIT_TIME,
    cancelled = c.AIKIDO_SHELL_LIMIT_CANCELLED,
    memory = c.AIKIDO_SHELL_LIMIT_MEMORY,
    threads = c.AIKIDO_SHELL_LIMIT_THREADS,
    _,
};

/// What one `Shell.run` produced; `stdout`, `stderr` and `write_set` (the
/// slice and each path) are owned by the allocator given to `run`.
pub const ShellResult = struct {
    /// Any bytes, NULs included.
    stdout: []u8,
    stderr: []u8,
    /// As `$?` would show it.
    exit_code: i32,
    /// Whether stdout or stderr was cut at `max_output_bytes`.
    truncated: bool,
    limit: ShellLimit,
    /// Every path the script created, changed or removed, sorted, once
    /// each; over a dry run, what it would have changed.
    write_set: []const []const u8,

    pub fn deinit(result: *ShellResult, gpa: Allocator) void {
        gpa.free(result.stdout);
        gpa.free(result.stderr);
        freePaths(gpa, result.write_set);
        result.* = undefined;
    }

    /// The paths of the library's write set as a slice `gpa` owns; NULL
    /// (a zeroed result) is empty.
    fn writeSet(gpa: Allocator, raw: ?*c.aikido_strings) (Error || Allocator.Error)![]const []const u8 {
        const strings: Strings = .{ .raw = raw };
        const paths = try gpa.alloc([]const u8, strings.len());
        var copied: usize = 0;
        errdefer {
            for (paths[0..copied]) |path| gpa.free(path);
            gpa.free(paths);
        }
        for (paths, 0..) |*path, index| {
            path.* = try gpa.dupe(u8, std.mem.span(try strings.get(index, null)));
            copied += 1;
        }
        return paths;
    }

    fn freePaths(gpa: Allocator, paths: []const []const u8) void {
        for (paths) |path| gpa.free(path);
        gpa.free(paths);
    }
};

/// Limits of a `NetworkPolicy`; a field of 0 keeps the policy's value.
pub const NetworkLimits = struct {
    /// One request, connect to last byte [30000].
    timeout_milliseconds: u64 = 0,
    /// One response body [10 MiB]; past it curl exits 63.
    max_response_bytes: u64 = 0,
    /// Requests of one run; each redirect hop is one [50].
    max_requests: u32 = 0,
    /// Redirects one command follows [10].
    max_redirects: u32 = 0,
};

/// What a shell's curl and wget may reach: URL prefixes, methods (GET and
/// HEAD by default), address ranges (public only by default), headers
/// attached per prefix, limits. A shell or the bash tool takes a copy.
pub const NetworkPolicy = struct {
    /// The library's policy, for `aikido.c` calls.
    raw: *c.aikido_network_policy,

    /// A policy that allows nothing yet.
    pub fn init() Allocator.Error!NetworkPolicy {
        return .{ .raw = c.aikido_network_policy_new() orelse return error.OutOfMemory };
    }

    /// Frees the policy.
    pub fn deinit(policy: *NetworkPolicy) void {
        c.aikido_network_policy_free(policy.raw);
        policy.* = undefined;
    }

    /// Allows the URLs under `prefix` (scheme, host, port, path prefix on
    /// segment boundaries). `error.InvalidInput` for a bad prefix.
    pub fn allowUrl(policy: NetworkPolicy, prefix: [:0]const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_network_policy_allow_url(policy.raw, prefix.ptr, &error_text), error_text, diagnostics);
    }

    /// Allows connecting to the addresses of a range (`127.0.0.1/32`).
    pub fn allowAddress(policy: NetworkPolicy, range: [:0]const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_network_policy_allow_address(policy.raw, range.ptr, &error_text), error_text, diagnostics);
    }

    /// Allows a method besides GET and HEAD.
    pub fn allowMethod(policy: NetworkPolicy, method: [:0]const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_network_policy_allow_method(policy.raw, method.ptr, &error_text), error_text, diagnostics);
    }

    /// Attaches `name: value` to the requests under `prefix`; the script
    /// never sees the value.
    pub fn attachHeader(policy: NetworkPolicy, prefix: [:0]const u8, name: [:0]const u8, value: [:0]const u8, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_network_policy_attach_header(policy.raw, prefix.ptr, name.ptr, value.ptr, &error_text), error_text, diagnostics);
    }

    /// Sets the limits (0 keeps a value).
    pub fn setLimits(policy: NetworkPolicy, limits: NetworkLimits) Error!void {
        const c_limits: c.aikido_network_limits = .{
            .timeout_milliseconds = limits.timeout_milliseconds,
            .max_response_bytes = limits.max_response_bytes,
            .max_requests = limits.max_requests,
            .max_redirects = limits.max_redirects,
        };
        var error_text: [*c]u8 = null;
        try record(c.aikido_network_policy_set_limits(policy.raw, &c_limits, &error_text), error_text, null);
    }
};

/// An in-process bash over a `Storage`; nothing runs on the host. Its
/// working directory, variables and functions persist from one run to the
/// next. Thread-safe: runs on one shell take turns.
pub const Shell = struct {
    /// The library's shell, for `aikido.c` calls.
    raw: *c.aikido_shell,

    /// As `init`, with curl and wget reaching what `network` allows (a
    /// copy; null: no network).
    pub fn initWithNetwork(over: Storage, limits: ?ShellLimits, network: ?NetworkPolicy) Error!Shell {
        const c_limits = if (limits) |given| given.toC() else undefined;
        return .{ .raw = c.aikido_shell_new_with_network(over.raw, if (limits != null) &c_limits else null, if (network) |policy| policy.raw else null) orelse return error.InvalidInput };
    }

    /// A shell over `over` (shared: it may be freed first), starting in
    /// `/`, each run bounded by `limits` (null: the defaults).
    pub fn init(over: Storage, limits: ?ShellLimits) Error!Shell {
        const c_limits = if (limits) |given| given.toC() else undefined;
        return .{ .raw = c.aikido_shell_new(over.raw, if (limits != null) &c_limits else null) orelse return error.InvalidInput };
    }

    /// Frees the shell; no run may be in progress.
    pub fn deinit(shell: *Shell) void {
        c.aikido_shell_free(shell.raw);
        shell.* = undefined;
    }

    /// Runs `script` as `bash -c` would. A failing or stopped script is a
    /// result, not an error: its exit code, stderr and limit say how it
    /// ended; a fired `cancel` stops it (exit code 130). `error.InvalidInput`
    /// for a script that is not UTF-8 or holds a NUL byte.
    pub fn run(shell: Shell, gpa: Allocator, script: []const u8, cancel: ?*const CancelToken, diagnostics: ?*Diagnostics) (Error || Allocator.Error)!ShellResult {
        var raw: c.aikido_shell_result = undefined;
        var error_text: [*c]u8 = null;
        try record(c.aikido_shell_run(shell.raw, script.ptr, script.len, @ptrCast(cancel), &raw, &error_text), error_text, diagnostics);
        defer c.aikido_shell_result_free(&raw);
        const stdout = try gpa.dupe(u8, bytesOf(raw.stdout_data, raw.stdout_len));
        errdefer gpa.free(stdout);
        const stderr = try gpa.dupe(u8, bytesOf(raw.stderr_data, raw.stderr_len));
        errdefer gpa.free(stderr);
        return .{
            .stdout = stdout,
            .stderr = stderr,
            .exit_code = raw.exit_code,
            .truncated = raw.truncated,
            .limit = @fromBackingInt(@intCast(raw.limit)),
            .write_set = try ShellResult.writeSet(gpa, raw.write_set),
        };
    }

    /// Forgets the working directory, variables and functions; files stay.
    pub fn reset(shell: Shell) void {
        c.aikido_shell_reset(shell.raw);
    }

    /// The session as bytes owned by `gpa` (docs/SHELL.md, "Snapshots"):
    /// its state, and the files of its storage when they live in memory (a
    /// memory storage whole, an overlay's changes); a host folder is
    /// referred to, never copied.
    pub fn snapshot(shell: Shell, gpa: Allocator, diagnostics: ?*Diagnostics) (Error || Allocator.Error)![]u8 {
        var data: [*c]u8 = null;
        var len: usize = 0;
        var error_text: [*c]u8 = null;
        try record(c.aikido_shell_snapshot(shell.raw, &data, &len, &error_text), error_text, diagnostics);
        defer c.aikido_bytes_free(data, len);
        return gpa.dupe(u8, bytesOf(data, len));
    }

    /// The session `bytes` hold (from `snapshot`), each run bounded by
    /// `limits` (null: the defaults). With a null `storage` its files go into
    /// a new memory storage (see `storage`); else into `into`, which must
    /// keep them in memory as the snapshotted one did (its content is
    /// replaced). `error.InvalidInput` for bytes of a newer version,
    /// truncated, changed or hostile; nothing is changed then.
    pub fn restore(bytes: []const u8, into: ?Storage, limits: ?ShellLimits, diagnostics: ?*Diagnostics) Error!Shell {
        const c_limits = if (limits) |given| given.toC() else undefined;
        var raw: ?*c.aikido_shell = null;
        var error_text: [*c]u8 = null;
        const target: ?*const c.aikido_storage = if (into) |given| given.raw else null;
        try record(c.aikido_shell_restore(bytes.ptr, bytes.len, target, if (limits != null) &c_limits else null, &raw, &error_text), error_text, diagnostics);
        return .{ .raw = raw.? };
    }

    /// A copy of the session that shares nothing mutable with this one
    /// (files in memory are copied on write; a host folder is shared).
    pub fn fork(shell: Shell) Error!Shell {
        return .{ .raw = c.aikido_shell_fork(shell.raw) orelse return error.InvalidInput };
    }

    /// A new handle to the storage the shell runs over (shared); free it
    /// with `Storage.deinit`.
    pub fn storage(shell: Shell) Error!Storage {
        return .{ .raw = c.aikido_shell_storage(shell.raw) orelse return error.InvalidInput };
    }
};

/// JSON Schema builders; the text is the library's (keys sorted, no
/// whitespace). Each result is owned by `gpa` and NUL-terminated, so it can
/// go straight into a `Definition` or another builder.
pub const schema = struct {
    /// `{"description":…,"type":"string"}`; a null or empty description is left out.
    pub fn string(gpa: Allocator, description: ?[:0]const u8) (Error || Allocator.Error)![:0]u8 {
        return take(gpa, c.aikido_schema_string(optional(description)));
    }

    /// `{"description":…,"type":"integer"}`.
    pub fn integer(gpa: Allocator, description: ?[:0]const u8) (Error || Allocator.Error)![:0]u8 {
        return take(gpa, c.aikido_schema_integer(optional(description)));
    }

    /// `{"description":…,"type":"number"}`.
    pub fn number(gpa: Allocator, description: ?[:0]const u8) (Error || Allocator.Error)![:0]u8 {
        return take(gpa, c.aikido_schema_number(optional(description)));
    }

    /// `{"description":…,"type":"boolean"}`.
    pub fn boolean(gpa: Allocator, description: ?[:0]const u8) (Error || Allocator.Error)![:0]u8 {
        return take(gpa, c.aikido_schema_boolean(optional(description)));
    }

    /// `{"description":…,"enum":[…],"type":"string"}`, values in order.
    pub fn enumeration(gpa: Allocator, description: ?[:0]const u8, values: []const [*:0]const u8) (Error || Allocator.Error)![:0]u8 {
        return take(gpa, c.aikido_schema_enum(optional(description), @ptrCast(orNull(values)), values.len));
    }

    /// `{"description":…,"items":…,"type":"array"}`; `items` is one item's schema.
    pub fn array(gpa: Allocator, items: [:0]const u8, description: ?[:0]const u8) (Error || Allocator.Error)![:0]u8 {
        return take(gpa, c.aikido_schema_array(items.ptr, optional(description)));
    }

    /// One property of an `object` schema.
    pub const Property = struct {
        name: [*:0]const u8,
        /// The property's JSON Schema, e.g. from `string`.
        schema: [*:0]const u8,
    };

    /// `{"properties":{…},"required":[…],"type":"object"}`; `required`
    /// keeps its order. Invalid input gives `error.InvalidInput` with the
    /// library's message in `diagnostics`.
    pub fn object(
        gpa: Allocator,
        properties: []const Property,
        required: []const [*:0]const u8,
        diagnostics: ?*Diagnostics,
    ) (Error || Allocator.Error)![:0]u8 {
        // The C call takes names and schemas as two parallel arrays.
        const names = try gpa.alloc([*:0]const u8, properties.len);
        defer gpa.free(names);
        const schemas = try gpa.alloc([*:0]const u8, properties.len);
        defer gpa.free(schemas);
        for (properties, names, schemas) |property, *name, *property_schema| {
            name.* = property.name;
            property_schema.* = property.schema;
        }
        var json: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        check(c.aikido_schema_object(
            @ptrCast(orNull(names)),
            @ptrCast(orNull(schemas)),
            properties.len,
            @ptrCast(orNull(required)),
            required.len,
            &json,
            &error_text,
        )) catch |err| {
            Diagnostics.record(diagnostics, error_text);
            return err;
        };
        return takeString(gpa, json);
    }

    fn optional(text: ?[:0]const u8) [*c]const u8 {
        return if (text) |t| t.ptr else null;
    }

    /// The simple builders signal bad input with NULL and no message.
    fn take(gpa: Allocator, json: [*c]u8) (Error || Allocator.Error)![:0]u8 {
        if (json == null) return error.InvalidInput;
        return takeString(gpa, json);
    }
};

/// The library's version, e.g. "0.1.0".
pub fn version() [:0]const u8 {
    return std.mem.span(c.aikido_version());
}

/// Serves a registry's tools over the Model Context Protocol (MCP
/// 2024-11-05 to 2025-11-25, see docs/MCP.md): `handle` takes one JSON-RPC
/// message and returns the response, so any transport can carry it;
/// `serveStdio` serves newline-delimited JSON-RPC over two file
/// descriptors. The registry must outlive the server. Thread-safe: a
/// `notifications/cancelled` handled on one thread stops a call running
/// on another.
pub const McpServer = struct {
    /// The library's server, for `aikido.c` calls.
    raw: *c.aikido_mcp_server,

    /// A server for `registry`, introducing itself as `name` and `version`
    /// (null: "aikido" and the library's version). `error.InvalidInput`
    /// when a string is not UTF-8.
    pub fn init(registry: Registry, name: ?[:0]const u8, server_version: ?[:0]const u8) Error!McpServer {
        const raw = c.aikido_mcp_server_new(registry.raw, if (name) |n| n.ptr else null, if (server_version) |v| v.ptr else null);
        return .{ .raw = raw orelse return error.InvalidInput };
    }

    /// Frees the server; no call on it may be running.
    pub fn deinit(server: *McpServer) void {
        c.aikido_mcp_server_free(server.raw);
        server.* = undefined;
    }

    /// Handles one JSON-RPC message: the response (owned by `gpa`), or null
    /// when there is none (a notification, a cancelled call). Protocol
    /// failures are JSON-RPC error responses, not Zig errors.
    pub fn handle(server: McpServer, gpa: Allocator, message: []const u8, diagnostics: ?*Diagnostics) (Error || Allocator.Error)!?[:0]u8 {
        var response: [*c]u8 = null;
        var error_text: [*c]u8 = null;
        try record(c.aikido_mcp_server_handle(server.raw, message.ptr, message.len, &response, &error_text), error_text, diagnostics);
        if (response == null) return null;
        return try takeString(gpa, response);
    }

    /// Serves newline-delimited JSON-RPC from `in_fd` to `out_fd` until EOF
    /// on `in_fd` or until `stop` fires.
    pub fn serveStdio(server: McpServer, in_fd: c_int, out_fd: c_int, stop: ?*const CancelToken, diagnostics: ?*Diagnostics) Error!void {
        var error_text: [*c]u8 = null;
        try record(c.aikido_mcp_server_serve_stdio(server.raw, in_fd, out_fd, @ptrCast(stop), &error_text), error_text, diagnostics);
    }
};
