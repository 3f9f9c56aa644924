//! The protocol: one JSON-RPC message in, the response out.

use std::fmt::Write;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

use serde_json::{json, Map, Value};

use super::session::Session;
use super::{McpServer, LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSIONS};
use crate::{CancelToken, Environment, Error, Registry, ToolCall};

/// JSON-RPC: the message is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the message is not a valid request.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: no such method.
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC: the params are wrong.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// MCP 2026-07-28: HTTP headers that do not match the body (`HeaderMismatchError`).
#[cfg(feature = "mcp-http")]
pub(crate) const HEADER_MISMATCH: i64 = -32020;
/// MCP 2026-07-28: the request's protocol version is not served (`UnsupportedProtocolVersionError`).
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The `_meta` key of a 2026-07-28 request that names its protocol version.
pub(crate) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key naming the stream of a `subscriptions/listen` notification.
pub(crate) const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// What a message needs after it was read.
pub(crate) enum Prepared {
    /// Answered already (or needs no answer).
    Done(Option<String>),
    /// A `tools/call` to run, on this thread or a worker.
    Call(Call),
    /// A batch (protocol versions 2024-11-05 and 2025-03-26).
    Batch(Vec<Value>),
    /// A 2026-07-28 `subscriptions/listen`: a stream only a transport can
    /// hold open (registered in the session's listeners already).
    Listen(Listen),
}

/// An open `subscriptions/listen` stream.
pub(crate) struct Listen {
    /// The request id's JSON text: the stream's `subscriptionId`.
    pub(crate) id: String,
    /// Whether the client asked for `notifications/tools/list_changed`.
    pub(crate) tools: bool,
}

impl Listen {
    /// `notifications/subscriptions/acknowledged`: the first message of the stream.
    pub(crate) fn acknowledgement(&self) -> String {
        let honored = if self.tools { r#"{"toolsListChanged":true}"# } else { "{}" };
        format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{{\"notifications\":{honored},\"_meta\":{{\"{META_SUBSCRIPTION_ID}\":{}}}}}}}",
            self.id
        )
    }
}

/// `notifications/tools/list_changed` on the listen stream `id` (its JSON text).
pub(crate) fn list_changed_on(id: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{{\"_meta\":{{\"{META_SUBSCRIPTION_ID}\":{id}}}}}}}"
    )
}

/// The result that closes the listen stream `id` gracefully (server shutdown).
pub(crate) fn listen_closed(id: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"resultType\":\"complete\",\"_meta\":{{\"{META_SUBSCRIPTION_ID}\":{id}}}}}}}"
    )
}

/// A checked `tools/call` request, registered in its session's calls in
/// flight until it finishes.
pub(crate) struct Call {
    id: Value,
    key: String,
    name: String,
    arguments: String,
    token: CancelToken,
    /// A 2026-07-28 request: the result carries `resultType` and `_meta`.
    modern: bool,
}

impl Call {
    /// Answers the call with an error instead of running it.
    pub(crate) fn refuse(self, session: &Session, message: &str) -> String {
        session.end_call(&self.key);
        error(&self.id, INVALID_REQUEST, message)
    }
}

/// Answers every request of a batch with an error instead of running it;
/// `None` when it holds only notifications.
pub(crate) fn refuse_batch(items: &[Value], message: &str) -> Option<String> {
    let replies: Vec<String> = items
        .iter()
        .filter_map(|item| item.get("id").filter(|id| id.is_string() || id.is_number()))
        .map(|id| error(id, INVALID_REQUEST, message))
        .collect();
    (!replies.is_empty()).then(|| format!("[{}]", replies.join(",")))
}

/// Whether the protocol version allows JSON-RPC batches (2025-06-18 removed them).
fn allows_batches(version: Option<&str>) -> bool {
    matches!(version, Some("2024-11-05" | "2025-03-26"))
}

/// Whether `name` is a tool name MCP allows: 1 to 128 of `A-Z a-z 0-9 _ - .`.
/// `tools/list` leaves other tools out, and `tools/call` refuses them.
pub fn is_mcp_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.'))
}

/// The registry's tools as MCP `Tool` objects, `{"name","description","inputSchema"}`
/// (JSON text), in registration order: the one place that decides what
/// `tools/list` shows. Each item is the one [`Registry::definitions_for`]
/// writes for [`Dialect::Mcp`](crate::dialect::Dialect::Mcp); a tool that
/// dialect refuses (a name MCP does not allow, parameters that are not an
/// object schema) is left out, where `definitions_for` refuses the whole
/// listing.
pub fn mcp_tools(registry: &Registry) -> Vec<String> {
    registry
        .definitions()
        .iter()
        .filter(|definition| is_mcp_tool_name(&definition.name))
        .filter_map(|definition| crate::dialect::mcp_tool(definition).ok())
        .collect()
}

/// A JSON-RPC success response.
fn result(id: &Value, result: &Value) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}")
}

/// A JSON-RPC error response.
pub(crate) fn error(id: &Value, code: i64, message: &str) -> String {
    let message = Value::String(message.to_owned());
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":{code},\"message\":{message}}}}}")
}

/// The `UnsupportedProtocolVersionError` of a request that asked for `requested`.
fn unsupported_version(id: &Value, requested: &str) -> String {
    let data = json!({"supported": supported_versions(), "requested": requested});
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":{UNSUPPORTED_PROTOCOL_VERSION},\"message\":\"Unsupported protocol version\",\"data\":{data}}}}}"
    )
}

/// Every version served, newest first: 2026-07-28's stateless requests and
/// the four of the `initialize` handshake.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    std::iter::once(MODERN_PROTOCOL_VERSION).chain(PROTOCOL_VERSIONS.iter().rev().copied()).collect()
}

/// The protocol version a request names in `_meta` (2026-07-28 and later).
fn meta_version(params: Option<&Value>) -> Option<&Value> {
    params?.get("_meta")?.get(META_PROTOCOL_VERSION)
}

/// The params object of a request: absent or null is empty.
fn params<'a>(id: &Value, params: Option<&'a Value>, method: &str) -> Result<Option<&'a Map<String, Value>>, String> {
    match params {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(map)),
        Some(_) => Err(error(id, INVALID_PARAMS, &format!("Invalid params: the params of {method} must be an object"))),
    }
}

/// The opaque cursor of the page starting at `offset`.
fn cursor(offset: usize) -> String {
    format!("aikido-page-{offset:x}")
}

fn read_cursor(text: &str) -> Option<usize> {
    let digits = text.strip_prefix("aikido-page-")?;
    if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    usize::from_str_radix(digits, 16).ok()
}

impl McpServer<'_> {
    /// Reads one message: answers everything but `tools/call` and batches.
    pub(crate) fn prepare(&self, session: &Arc<Session>, message: &[u8]) -> Prepared {
        let value: Value = match crate::json::parse_value(message) {
            Ok(value) => value,
            Err(problem) => {
                let what = if std::str::from_utf8(message).is_err() { "the message is not UTF-8" } else { "" };
                let detail = if what.is_empty() { problem.to_string() } else { what.to_owned() };
                return Prepared::Done(Some(error(&Value::Null, PARSE_ERROR, &format!("Parse error: {detail}"))));
            }
        };
        match value {
            Value::Array(items) => {
                if items.is_empty() {
                    return Prepared::Done(Some(error(
                        &Value::Null,
                        INVALID_REQUEST,
                        "Invalid Request: an empty batch",
                    )));
                }
                let version = session.protocol_version();
                if !allows_batches(version) {
                    let message = format!(
                        "Invalid Request: JSON-RPC batches are part of MCP 2024-11-05 and 2025-03-26 only{}; \
                         send one message at a time",
                        version
                            .map(|version| format!(", not of {version}, the version of this session"))
                            .unwrap_or_default()
                    );
                    return Prepared::Done(Some(error(&Value::Null, INVALID_REQUEST, &message)));
                }
                Prepared::Batch(items)
            }
            value => self.prepare_value(session, value, false),
        }
    }

    /// Answers the items of a batch in order, running calls on this thread.
    pub(crate) fn run_batch(&self, session: &Arc<Session>, items: Vec<Value>) -> Option<String> {
        self.run_batch_until(session, items, None)
    }

    /// [`McpServer::run_batch`] with one deadline for the whole batch: past
    /// it the running call is cancelled and answered with an error, and so
    /// is every item after it. An item after the session ended is answered
    /// with an error, never run.
    pub(crate) fn run_batch_until(
        &self,
        session: &Arc<Session>,
        items: Vec<Value>,
        deadline: Option<Instant>,
    ) -> Option<String> {
        let running: Mutex<Option<CancelToken>> = Mutex::new(None);
        let finished = (Mutex::new(false), Condvar::new());
        let expired = |now: Instant| deadline.is_some_and(|deadline| now >= deadline);
        let (running, finished) = (&running, &finished);
        std::thread::scope(|scope| {
            if let Some(deadline) = deadline {
                // Fires the running call's token when the batch's time is up.
                scope.spawn(move || {
                    let (done, signal) = finished;
                    let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
                    while !*done {
                        let left = deadline.saturating_duration_since(Instant::now());
                        if left.is_zero() {
                            if let Some(token) = running.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
                                token.fire();
                            }
                            // Woken again only when the batch ends.
                            done = signal.wait(done).unwrap_or_else(PoisonError::into_inner);
                            continue;
                        }
                        done = signal.wait_timeout(done, left).unwrap_or_else(PoisonError::into_inner).0;
                    }
                });
            }
            let mut replies = Vec::new();
            for item in items {
                let item_id = item.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
                if session.is_ended() || expired(Instant::now()) {
                    let why = if session.is_ended() {
                        "the session has ended (DELETE); the rest of the batch did not run"
                    } else {
                        "the batch's time limit (batch_timeout) passed; the rest of the batch did not run"
                    };
                    if let Some(id) = item_id {
                        replies.push(error(&id, INVALID_REQUEST, &format!("Invalid Request: {why}")));
                    }
                    continue;
                }
                let reply = match self.prepare_value(session, item, true) {
                    Prepared::Done(reply) => reply,
                    Prepared::Call(call) => {
                        let id = call.id.clone();
                        *running.lock().unwrap_or_else(PoisonError::into_inner) = Some(call.token.clone());
                        let reply = self.finish_call(session, call);
                        *running.lock().unwrap_or_else(PoisonError::into_inner) = None;
                        match reply {
                            None if expired(Instant::now()) => Some(error(
                                &id,
                                INVALID_REQUEST,
                                "Invalid Request: the batch's time limit (batch_timeout) passed; the call was cancelled",
                            )),
                            reply => reply,
                        }
                    }
                    Prepared::Batch(_) => {
                        Some(error(&Value::Null, INVALID_REQUEST, "Invalid Request: a batch may not hold a batch"))
                    }
                    // 2026-07-28 requests are refused in batches before they get here.
                    Prepared::Listen(listen) => {
                        session.remove_listener(&listen.id);
                        Some(error(&Value::Null, INVALID_REQUEST, "Invalid Request: subscriptions/listen in a batch"))
                    }
                };
                replies.extend(reply);
            }
            let (done, signal) = finished;
            *done.lock().unwrap_or_else(PoisonError::into_inner) = true;
            signal.notify_all();
            if replies.is_empty() {
                return None;
            }
            Some(format!("[{}]", replies.join(",")))
        })
    }

    fn prepare_value(&self, session: &Arc<Session>, value: Value, in_batch: bool) -> Prepared {
        let done = |reply: String| Prepared::Done(Some(reply));
        let Value::Object(mut message) = value else {
            return done(error(&Value::Null, INVALID_REQUEST, "Invalid Request: a message must be a JSON object"));
        };
        let id = match message.remove("id") {
            None => None,
            Some(id @ (Value::String(_) | Value::Number(_))) => Some(id),
            Some(_) => {
                return done(error(
                    &Value::Null,
                    INVALID_REQUEST,
                    "Invalid Request: an id must be a string or a number",
                ))
            }
        };
        let reply_id = id.clone().unwrap_or(Value::Null);
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return done(error(&reply_id, INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\""));
        }
        let method = match message.get("method") {
            Some(Value::String(method)) => method.as_str(),
            Some(_) => return done(error(&reply_id, INVALID_REQUEST, "Invalid Request: \"method\" must be a string")),
            // A response to a request of ours: the server sends none, so there is nothing to match it with.
            None if id.is_some() && (message.contains_key("result") || message.contains_key("error")) => {
                return Prepared::Done(None)
            }
            None => return done(error(&reply_id, INVALID_REQUEST, "Invalid Request: no \"method\"")),
        };
        let Some(id) = id else {
            self.notification(session, method, message.get("params"));
            return Prepared::Done(None);
        };
        match self.request(session, &id, method, message.get("params"), in_batch) {
            Ok(prepared) => prepared,
            Err(reply) => done(reply),
        }
    }

    /// A notification: never answered.
    fn notification(&self, session: &Session, method: &str, params: Option<&Value>) {
        if method == "notifications/cancelled" {
            if let Some(request_id @ (Value::String(_) | Value::Number(_))) =
                params.and_then(|params| params.get("requestId"))
            {
                let key = request_id.to_string();
                if !session.cancel(&key) {
                    // Or it closes a subscriptions/listen stream.
                    session.remove_listener(&key);
                }
            }
        }
        // notifications/initialized and every other notification need
        // nothing: the session is usable from the initialize response on.
    }

    /// A request; `Err` holds the error response.
    fn request(
        &self,
        session: &Arc<Session>,
        id: &Value,
        method: &str,
        params: Option<&Value>,
        in_batch: bool,
    ) -> Result<Prepared, String> {
        let answered = |value: Value| Ok(Prepared::Done(Some(result(id, &value))));
        if method != "initialize" {
            if let Some(requested) = meta_version(params) {
                if in_batch {
                    return Err(error(id, INVALID_REQUEST, "Invalid Request: 2026-07-28 requests may not be batched"));
                }
                return self.modern_request(session, id, method, params, requested);
            }
        }
        match method {
            // A client that probes without _meta still learns what is served.
            "server/discover" => answered(self.discover()),
            "initialize" => {
                if in_batch {
                    return Err(error(id, INVALID_REQUEST, "Invalid Request: initialize may not be part of a batch"));
                }
                let params = params_of(id, params, method)?;
                let Some(Value::String(requested)) = params.and_then(|params| params.get("protocolVersion")) else {
                    return Err(error(id, INVALID_PARAMS, "Invalid params: initialize needs \"protocolVersion\", a string"));
                };
                let version = PROTOCOL_VERSIONS
                    .iter()
                    .copied()
                    .find(|known| known == requested)
                    .unwrap_or(LATEST_PROTOCOL_VERSION);
                session.set_protocol_version(version);
                answered(json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": true}},
                    "serverInfo": {"name": self.name, "version": self.version},
                }))
            }
            "ping" => answered(json!({})),
            "tools/list" | "tools/call" if session.protocol_version().is_none() => Err(error(
                id,
                INVALID_REQUEST,
                &format!("Invalid Request: {method} before initialize; send initialize first (and notifications/initialized)"),
            )),
            "tools/list" => Ok(Prepared::Done(Some(self.listing(id, page_offset(id, params)?, false)))),
            "tools/call" => self.call(session, id, params, false),
            _ => Err(error(id, METHOD_NOT_FOUND, &format!("Method not found: {method}"))),
        }
    }

    /// The `_meta` member every 2026-07-28 result carries: who answers.
    fn server_info_meta(&self) -> String {
        let info = json!({"io.modelcontextprotocol/serverInfo": {"name": self.name, "version": self.version}});
        format!("\"_meta\":{info}")
    }

    /// The `DiscoverResult` of `server/discover`.
    fn discover(&self) -> Value {
        json!({
            "resultType": "complete",
            "supportedVersions": supported_versions(),
            "capabilities": {"tools": {"listChanged": true}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": self.name, "version": self.version}},
            "ttlMs": 0,
            "cacheScope": "private",
        })
    }

    /// A request that names its protocol version in `_meta` (2026-07-28):
    /// served statelessly, without `initialize`.
    fn modern_request(
        &self,
        session: &Arc<Session>,
        id: &Value,
        method: &str,
        params: Option<&Value>,
        requested: &Value,
    ) -> Result<Prepared, String> {
        let Value::String(requested) = requested else {
            return Err(error(
                id,
                INVALID_PARAMS,
                &format!("Invalid params: _meta[\"{META_PROTOCOL_VERSION}\"] must be a string"),
            ));
        };
        if requested != MODERN_PROTOCOL_VERSION {
            return Err(unsupported_version(id, requested));
        }
        let complete = |mut value: Value| {
            value["resultType"] = Value::String("complete".into());
            value["_meta"] =
                json!({"io.modelcontextprotocol/serverInfo": {"name": self.name, "version": self.version}});
            Ok(Prepared::Done(Some(result(id, &value))))
        };
        match method {
            "server/discover" => Ok(Prepared::Done(Some(result(id, &self.discover())))),
            // Removed by 2026-07-28, answered all the same: it costs nothing.
            "ping" => complete(json!({})),
            "tools/list" => Ok(Prepared::Done(Some(self.listing(id, page_offset(id, params)?, true)))),
            "tools/call" => self.call(session, id, params, true),
            "subscriptions/listen" => {
                let filter = params_of(id, params, method)?.and_then(|params| params.get("notifications"));
                let Some(Value::Object(filter)) = filter else {
                    return Err(error(
                        id,
                        INVALID_PARAMS,
                        "Invalid params: subscriptions/listen needs \"notifications\", an object",
                    ));
                };
                let tools = filter.get("toolsListChanged") == Some(&Value::Bool(true));
                let key = id.to_string();
                if !session.add_listener(&key, tools) {
                    return Err(error(
                        id,
                        INVALID_REQUEST,
                        &format!(
                            "Invalid Request: a request with this id is still open, or {} streams are open already",
                            super::session::MAX_LISTENERS
                        ),
                    ));
                }
                Ok(Prepared::Listen(Listen { id: key, tools }))
            }
            _ => Err(error(id, METHOD_NOT_FOUND, &format!("Method not found: {method}"))),
        }
    }

    /// One page of `tools/list`, from `offset`; a 2026-07-28 listing also
    /// carries the cache hints, `resultType` and `_meta`.
    fn listing(&self, id: &Value, offset: usize, modern: bool) -> String {
        let tools = mcp_tools(self.registry);
        let end = offset.saturating_add(self.page_size).min(tools.len());
        let page = tools.get(offset..end).unwrap_or_default();
        let mut out = String::with_capacity(64 + page.iter().map(String::len).sum::<usize>());
        let _ = write!(out, "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"tools\":[{}]", page.join(","));
        if end < tools.len() {
            let _ = write!(out, ",\"nextCursor\":\"{}\"", cursor(end));
        }
        if modern {
            // The registry may change at any time: the listing is stale at once.
            let _ = write!(
                out,
                ",\"ttlMs\":0,\"cacheScope\":\"private\",\"resultType\":\"complete\",{}",
                self.server_info_meta()
            );
        }
        out.push_str("}}");
        out
    }

    /// Checks a `tools/call` and registers it in the session's calls.
    fn call(
        &self,
        session: &Arc<Session>,
        id: &Value,
        params: Option<&Value>,
        modern: bool,
    ) -> Result<Prepared, String> {
        let method = "tools/call";
        let params = params_of(id, params, method)?
            .ok_or_else(|| error(id, INVALID_PARAMS, "Invalid params: tools/call needs params"))?;
        let Some(Value::String(name)) = params.get("name") else {
            return Err(error(id, INVALID_PARAMS, "Invalid params: tools/call needs \"name\", a string"));
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => "{}".to_owned(),
            Some(arguments @ Value::Object(_)) => arguments.to_string(),
            Some(_) => {
                return Err(error(id, INVALID_PARAMS, "Invalid params: \"arguments\" must be an object"));
            }
        };
        if !is_mcp_tool_name(name) {
            let message = format!(
                "aikido/tools: unknown tool {name:?}: MCP tool names are 1 to 128 of A-Z a-z 0-9 _ - . \
                 and this server lists no other"
            );
            return Err(error(id, INVALID_PARAMS, &message));
        }
        let key = id.to_string();
        let token = CancelToken::new();
        if let Err(message) = session.begin_call(&key, &token) {
            return Err(error(id, INVALID_REQUEST, message));
        }
        Ok(Prepared::Call(Call { id: id.clone(), key, name: name.clone(), arguments, token, modern }))
    }

    /// Runs a call and writes its response; `None` when the client
    /// cancelled it (MCP: a cancelled request gets no response).
    pub(crate) fn finish_call(&self, session: &Session, call: Call) -> Option<String> {
        let environment =
            Environment { session_id: session.id(), turn_id: uuid::Uuid::now_v7(), cancel: Some(&call.token) };
        let outcome = self.registry.dispatch(&ToolCall::new(&call.name, &call.arguments), &environment);
        session.end_call(&call.key);
        if call.token.is_fired() {
            return None;
        }
        Some(match outcome {
            Ok(tool_result) => call_result(&call.id, &tool_result.content, false, self.modern_meta(call.modern)),
            Err(unknown @ Error::UnknownTool { .. }) => error(&call.id, INVALID_PARAMS, &unknown.to_string()),
            Err(failure) => call_result(&call.id, &failure.to_string(), true, self.modern_meta(call.modern)),
        })
    }

    /// What a 2026-07-28 call result adds: `resultType` and `_meta`.
    fn modern_meta(&self, modern: bool) -> Option<String> {
        modern.then(|| format!(",\"resultType\":\"complete\",{}", self.server_info_meta()))
    }
}

/// Where the page of a `tools/list` starts: its cursor, or 0.
fn page_offset(id: &Value, params: Option<&Value>) -> Result<usize, String> {
    match params_of(id, params, "tools/list")?.and_then(|params| params.get("cursor")) {
        None | Some(Value::Null) => Ok(0),
        Some(Value::String(text)) => read_cursor(text)
            .ok_or_else(|| error(id, INVALID_PARAMS, &format!("Invalid params: unknown cursor {text:?}"))),
        Some(_) => Err(error(id, INVALID_PARAMS, "Invalid params: \"cursor\" must be a string")),
    }
}

fn params_of<'a>(id: &Value, value: Option<&'a Value>, method: &str) -> Result<Option<&'a Map<String, Value>>, String> {
    params(id, value, method)
}

/// A `CallToolResult` response, written directly: the hot path.
fn call_result(id: &Value, text: &str, is_error: bool, modern: Option<String>) -> String {
    let mut out = String::with_capacity(text.len() + 96);
    out.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
    // Ids are strings or numbers: their JSON text cannot fail.
    let _ = write!(out, "{id}");
    out.push_str(",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
    out.push_str("}],\"isError\":");
    out.push_str(if is_error { "true" } else { "false" });
    if let Some(modern) = modern {
        out.push_str(&modern);
    }
    out.push_str("}}");
    out
}
