//! Zig binding for libaikido: a registry of the tools an LLM may call.
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
        return take(gpa, c.aikido_schema_enum(optional(description), @ptrCast(values.ptr), values.len));
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
            @ptrCast(names.ptr),
            @ptrCast(schemas.ptr),
            properties.len,
            @ptrCast(required.ptr),
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
