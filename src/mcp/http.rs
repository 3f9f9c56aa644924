//! The Streamable HTTP transport (MCP 2025-03-26 and later): one endpoint,
//! `/mcp`, over HTTP/1.1 read by our own accept loop ([`wire`](super::wire)).
//!
//! - `POST /mcp` carries one JSON-RPC message (or a batch, where the
//!   session's version allows); the answer is `application/json`, or `202
//!   Accepted` with no body when there is none (a notification, a response).
//! - `initialize` without an `Mcp-Session-Id` header opens a session: the
//!   answer carries its id in `Mcp-Session-Id`, and every later request must
//!   send it back (400 without it, 404 once the session is gone). Each
//!   session's calls run with its id as session id, so the `bash` tool keeps
//!   one shell per session.
//! - `DELETE /mcp` ends the session: its running calls are cancelled, the
//!   rest of a running batch is answered with an error instead of running,
//!   and [`Registry::end_session`](crate::Registry::end_session) lets the
//!   tools drop what they kept for it (the `bash` tool its shell).
//! - `GET /mcp` with the session's header opens the server-to-client SSE
//!   stream (2025-03-26 to 2025-11-25), which carries
//!   `notifications/tools/list_changed`.
//! - 2026-07-28 (stateless): a POST whose message names its version in
//!   `_meta` needs no session; its `MCP-Protocol-Version`, `Mcp-Method` and
//!   `Mcp-Name` headers must match the body (400 `HeaderMismatch` else); an
//!   unsupported version gets 400 and an unknown method 404, each with its
//!   JSON-RPC error; `subscriptions/listen` is answered with an SSE stream.
//!   Its throwaway session is ended once answered.
//! - SSE streams are bounded: [`HttpOptions::max_streams`] at once, a
//!   keep-alive comment every [`HttpOptions::keepalive`] finds clients that
//!   are gone, and a stream with nothing to say for
//!   [`HttpOptions::stream_idle`] is closed (the client opens another).
//! - A request with an `Origin` header that is not a loopback origin gets
//!   403 (DNS rebinding: the MCP spec requires the check), and so does one
//!   whose `Host` header is not a loopback name while the server listens on
//!   a loopback address; a body over [`MAX_MESSAGE_BYTES`] gets 413; an
//!   unsupported `MCP-Protocol-Version` header gets 400.
//! - Bounded: at most [`HttpOptions::max_connections`] connections are open
//!   (past that a new one gets 503 and is closed); the request head must
//!   arrive within [`HttpOptions::head_timeout`] and a body at
//!   [`HttpOptions::min_body_rate`] after [`HttpOptions::body_timeout`]
//!   (else 408), each read on the connection's own thread, never a
//!   worker's; [`HttpOptions::workers`] requests run at once and
//!   [`HttpOptions::queue`] wait (past that: 503); an accept that fails for
//!   want of descriptors or memory is retried with a growing pause, never
//!   given up; at most [`HttpOptions::max_sessions`] sessions are kept, the
//!   least recently used one is ended past that; a batch gets one deadline,
//!   [`HttpOptions::batch_timeout`].

use std::io::{self, Write};
use std::net::{IpAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use serde_json::{json, Value};

use super::protocol::{self, Prepared, HEADER_MISMATCH, INVALID_REQUEST, META_PROTOCOL_VERSION, METHOD_NOT_FOUND};
use super::wire::{self, Connection, Deadlines, ReadError, Request, Response};
use super::{McpServer, Session, MAX_MESSAGE_BYTES, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSIONS};
use crate::CancelToken;

/// How the HTTP transport is bounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Requests handled at once (each a thread) [32].
    pub workers: usize,
    /// Requests waiting for a worker; past this they get 503 [256].
    pub queue: usize,
    /// Sessions kept [1024]; past this the least recently used one is ended.
    pub max_sessions: usize,
    /// SSE streams open at once (`GET /mcp`, `subscriptions/listen`) [8];
    /// past this a stream request gets 503.
    pub max_streams: usize,
    /// How often an open stream sends a keep-alive comment, which also finds
    /// clients that are gone [15 s].
    pub keepalive: Duration,
    /// A stream with no event for this long is closed [10 min].
    pub stream_idle: Duration,
    /// Connections open at once, idle ones included [256]; past this a new
    /// connection gets 503 and is closed.
    pub max_connections: usize,
    /// The request line and headers must arrive within this [10 s]; else 408.
    pub head_timeout: Duration,
    /// A body's grace time before [`HttpOptions::min_body_rate`] applies [10 s].
    pub body_timeout: Duration,
    /// Bytes per second a body must average after its grace time [64 KiB];
    /// else 408.
    pub min_body_rate: u64,
    /// How long a kept-alive connection waits for its next request [30 s].
    pub idle_timeout: Duration,
    /// How long a write may wait for a client that does not read [30 s].
    pub write_timeout: Duration,
    /// The most time one batch may take, all its calls together [60 s]:
    /// past it the running call is cancelled and the rest are answered with
    /// an error.
    pub batch_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            workers: 32,
            queue: 256,
            max_sessions: 1024,
            max_streams: 8,
            keepalive: Duration::from_secs(15),
            stream_idle: Duration::from_secs(600),
            max_connections: 256,
            head_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            min_body_rate: 64 << 10,
            idle_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            batch_timeout: Duration::from_secs(60),
        }
    }
}

/// What the SSE streams wait on: a count of registry changes.
#[derive(Default)]
struct Changes {
    count: Mutex<u64>,
    signal: Condvar,
}

impl Changes {
    fn bump(&self) {
        *self.count.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        self.signal.notify_all();
    }

    fn current(&self) -> u64 {
        *self.count.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits at most `limit` for a count other than `seen`; returns the count.
    fn wait(&self, seen: u64, limit: Duration) -> u64 {
        let count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        let (count, _) = self
            .signal
            .wait_timeout_while(count, limit, |count| *count == seen)
            .unwrap_or_else(PoisonError::into_inner);
        *count
    }
}

/// The state of one HTTP server, shared by its threads.
struct Shared<'a> {
    sessions: Mutex<Sessions>,
    options: &'a HttpOptions,
    stop: &'a CancelToken,
    changes: Arc<Changes>,
    streams: AtomicUsize,
    /// Connections open now.
    connections: AtomicUsize,
    /// Whether the listener is on a loopback address: then the `Host`
    /// header must name this machine.
    loopback: bool,
}

/// An SSE stream to open instead of a plain response.
enum Stream {
    /// `GET /mcp` of a session of the handshake: untagged list_changed.
    Session(Arc<Session>),
    /// A 2026-07-28 `subscriptions/listen`.
    Listen { session: Arc<Session>, listen: protocol::Listen },
}

/// What a request gets.
enum Answer {
    Reply(Response),
    Stream(Stream),
}

/// A request handed from its connection to a worker, with where the answer goes.
struct Job {
    request: Request,
    answer: mpsc::Sender<Answer>,
}

/// The header that names the session.
const SESSION_HEADER: &str = "Mcp-Session-Id";

/// The sessions of one HTTP server.
struct Sessions {
    by_id: FxHashMap<String, (Arc<Session>, u64)>,
    clock: u64,
}

impl Sessions {
    fn get(&mut self, id: &str) -> Option<Arc<Session>> {
        self.clock += 1;
        let now = self.clock;
        self.by_id.get_mut(id).map(|(session, used)| {
            *used = now;
            session.clone()
        })
    }

    /// Keeps `session`, returning the sessions dropped to make room (the
    /// caller ends them outside the lock).
    fn insert(&mut self, session: Arc<Session>, max: usize) -> Vec<Arc<Session>> {
        let mut dropped = Vec::new();
        while self.by_id.len() >= max.max(1) {
            // The least recently used session, preferring one with no call running.
            let victim = self
                .by_id
                .iter()
                .min_by_key(|(_, (session, used))| (session.calls_in_flight() > 0, *used))
                .map(|(id, _)| id.clone());
            match victim.and_then(|id| self.by_id.remove(&id)) {
                Some((session, _)) => dropped.push(session),
                None => break,
            }
        }
        self.clock += 1;
        self.by_id.insert(session.id().to_owned(), (session, self.clock));
        dropped
    }
}

fn json_response(status: u16, body: String) -> Response {
    Response::new(status, body.into_bytes()).with_header("Content-Type", "application/json")
}

fn error_response(status: u16, code: i64, message: &str) -> Response {
    json_response(status, protocol::error(&Value::Null, code, message))
}

fn error_response_text(message: &str) -> String {
    protocol::error(&Value::Null, METHOD_NOT_FOUND, &format!("Method not found: {message}"))
}

/// The host name of an `Origin` or `Host` value (scheme and port removed).
fn host_name(value: &str) -> &str {
    let rest = value.strip_prefix("http://").or_else(|| value.strip_prefix("https://")).unwrap_or(value);
    match rest.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => rest.split([':', '/']).next().unwrap_or_default(),
    }
}

/// Whether an `Origin` header names this machine (http or https, any port).
fn is_loopback_origin(origin: &str) -> bool {
    if !(origin.starts_with("http://") || origin.starts_with("https://")) {
        return false;
    }
    matches!(host_name(origin), "localhost" | "127.0.0.1" | "::1")
}

/// Whether a `Host` header names this machine: `localhost` or a loopback
/// address, any port.
fn is_loopback_host(host: &str) -> bool {
    let name = host_name(host);
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok_and(|address| address.is_loopback())
}

/// Ends a session: its calls are cancelled, a running batch stops, and the
/// registry's tools drop what they kept for it.
fn end_session(server: &McpServer<'_>, session: &Session) {
    session.end();
    server.registry().end_session(session.id());
}

/// Serves `server` over Streamable HTTP on `listener` until `stop` fires;
/// then running calls are cancelled, and this returns once every
/// connection and worker has finished (within about a second).
pub fn serve(server: &McpServer<'_>, listener: &TcpListener, options: &HttpOptions, stop: &CancelToken) {
    let loopback = listener.local_addr().is_ok_and(|address| address.ip().is_loopback());
    let shared = Shared {
        sessions: Mutex::new(Sessions { by_id: FxHashMap::default(), clock: 0 }),
        options,
        stop,
        changes: Arc::default(),
        streams: AtomicUsize::new(0),
        connections: AtomicUsize::new(0),
        loopback,
    };
    if let Err(problem) = listener.set_nonblocking(true) {
        eprintln!("aikido-mcp: the listener cannot be made non-blocking: {problem}");
        return;
    }
    let (sender, receiver) = mpsc::sync_channel::<Job>(options.queue.max(1));
    let receiver = Mutex::new(receiver);
    std::thread::scope(|scope| {
        let shared = &shared;
        let watch = {
            let changes = shared.changes.clone();
            server.registry().watch(move || changes.bump())
        };
        for _ in 0..options.workers.max(1) {
            scope.spawn(|| loop {
                let job = receiver.lock().unwrap_or_else(PoisonError::into_inner).recv();
                match job {
                    Ok(job) => {
                        let answer = respond(server, shared, &job.request);
                        // The connection may be gone; nothing to do then.
                        let _ = job.answer.send(answer);
                    }
                    Err(_) => return,
                }
            });
        }
        let mut pause = Duration::ZERO;
        while !stop.is_fired() {
            wire::wait_readable(listener, Duration::from_millis(100));
            let stream = match listener.accept() {
                Ok((stream, _)) => stream,
                Err(problem) if wire::is_resource_exhaustion(&problem) => {
                    // Out of descriptors or memory: the connection waits in
                    // the backlog; try again once some were given back.
                    pause = (pause * 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
                    if pause == Duration::from_millis(10) {
                        eprintln!("aikido-mcp: accepting a connection failed ({problem}); retrying");
                    }
                    std::thread::sleep(pause);
                    continue;
                }
                // WouldBlock, a connection reset before it was accepted, …
                Err(_) => continue,
            };
            pause = Duration::ZERO;
            if shared.connections.load(Ordering::Acquire) >= options.max_connections.max(1) {
                refuse_connection(stream, options.max_connections.max(1));
                continue;
            }
            shared.connections.fetch_add(1, Ordering::AcqRel);
            let sender = sender.clone();
            let spawned = std::thread::Builder::new()
                .name("aikido-mcp-connection".into())
                .stack_size(256 << 10)
                .spawn_scoped(scope, move || {
                    serve_connection(server, shared, &sender, stream);
                    shared.connections.fetch_sub(1, Ordering::AcqRel);
                });
            if spawned.is_err() {
                // No thread to be had: the stream was dropped with the closure.
                shared.connections.fetch_sub(1, Ordering::AcqRel);
            }
        }
        let sessions: Vec<Arc<Session>> = shared
            .sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .by_id
            .values()
            .map(|(session, _)| session.clone())
            .collect();
        for session in sessions {
            session.cancel_all();
        }
        // Wake the streams so they see `stop`.
        shared.changes.signal.notify_all();
        drop(sender);
        server.registry().unwatch(watch);
    });
}

/// Tells a connection past the cap to come back later, without waiting on it.
fn refuse_connection(mut stream: TcpStream, max: usize) {
    let message = format!("Server busy: {max} connections are open (the max_connections limit); retry");
    let response = error_response(503, INVALID_REQUEST, &message).with_header("Retry-After", "1");
    let _ = stream.set_nonblocking(true);
    let _ = wire::write_response(&mut stream, &response, true);
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

/// Binds `address` and serves until `stop` fires (see [`serve`]).
pub fn listen(
    server: &McpServer<'_>,
    address: impl ToSocketAddrs,
    options: &HttpOptions,
    stop: &CancelToken,
) -> io::Result<()> {
    let listener = TcpListener::bind(address)?;
    serve(server, &listener, options, stop);
    Ok(())
}

/// Reads the requests of one connection, each handled by a worker, until
/// the client goes, a deadline passes, or the server stops.
fn serve_connection(server: &McpServer<'_>, shared: &Shared<'_>, jobs: &SyncSender<Job>, stream: TcpStream) {
    let options = shared.options;
    let deadlines = Deadlines {
        head: options.head_timeout,
        body: options.body_timeout,
        min_rate: options.min_body_rate,
        idle: options.idle_timeout,
        write: options.write_timeout,
    };
    let Ok(mut connection) = Connection::new(stream, deadlines, shared.stop.clone()) else {
        return;
    };
    while !shared.stop.is_fired() {
        let request = match connection.next_request() {
            Ok(request) => request,
            Err(ReadError::Closed) => return,
            Err(ReadError::Refuse(status, message)) => {
                let _ = wire::write_response(
                    &mut connection.stream,
                    &error_response(status, INVALID_REQUEST, &message),
                    true,
                );
                wire::close_gently(&mut connection.stream);
                return;
            }
        };
        let keep_alive = request.keep_alive && !shared.stop.is_fired();
        let (answer, answered) = mpsc::channel();
        let answer = match jobs.try_send(Job { request, answer }) {
            Ok(()) => match answered.recv() {
                Ok(answer) => answer,
                Err(_) => Answer::Reply(error_response(500, INVALID_REQUEST, "Internal error: the request was lost")),
            },
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Answer::Reply(
                error_response(503, INVALID_REQUEST, "Server busy: too many requests at once; retry")
                    .with_header("Retry-After", "1"),
            ),
        };
        match answer {
            Answer::Reply(response) => {
                if wire::write_response(&mut connection.stream, &response, !keep_alive).is_err() {
                    return;
                }
                if !keep_alive {
                    wire::close_gently(&mut connection.stream);
                    return;
                }
            }
            Answer::Stream(stream) => {
                open_stream(server, shared, stream, &mut connection.stream);
                return;
            }
        }
    }
}

/// Serves an SSE stream on the connection, if fewer than
/// [`HttpOptions::max_streams`] are open.
fn open_stream(server: &McpServer<'_>, shared: &Shared<'_>, stream: Stream, connection: &mut TcpStream) {
    let max = shared.options.max_streams.max(1);
    if shared.streams.fetch_add(1, Ordering::AcqRel) >= max {
        shared.streams.fetch_sub(1, Ordering::AcqRel);
        if let Stream::Listen { session, listen } = &stream {
            session.remove_listener(&listen.id);
            end_session(server, session);
        }
        let message = format!("Server busy: {max} streams are open; retry");
        let response = error_response(503, INVALID_REQUEST, &message).with_header("Retry-After", "1");
        let _ = wire::write_response(connection, &response, true);
        wire::close_gently(connection);
        return;
    }
    let listen_session = match &stream {
        Stream::Listen { session, .. } => Some(session.clone()),
        Stream::Session(_) => None,
    };
    // A client that goes away is found by the next write.
    let _ = run_stream(shared, stream, connection);
    shared.streams.fetch_sub(1, Ordering::AcqRel);
    if let Some(session) = listen_session {
        end_session(server, &session);
    }
}

/// One SSE event holding one JSON-RPC message.
fn write_event(writer: &mut dyn Write, message: &str) -> io::Result<()> {
    writer.write_all(b"event: message\ndata: ")?;
    writer.write_all(message.as_bytes())?;
    writer.write_all(b"\n\n")?;
    writer.flush()
}

/// Serves an SSE stream until the client goes, the server stops, the
/// session ends, or it stays idle too long.
fn run_stream(shared: &Shared<'_>, stream: Stream, writer: &mut TcpStream) -> io::Result<()> {
    writer.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
    )?;
    writer.flush()?;
    let (session, listen) = match stream {
        Stream::Session(session) => (session, None),
        Stream::Listen { session, listen } => (session, Some(listen)),
    };
    let result = (|| {
        if let Some(listen) = &listen {
            write_event(&mut *writer, &listen.acknowledgement())?;
        }
        let options = shared.options;
        let mut seen = shared.changes.current();
        let mut last_event = Instant::now();
        let mut last_write = Instant::now();
        loop {
            let count = shared.changes.wait(seen, Duration::from_millis(200));
            if shared.stop.is_fired() {
                return Ok(true);
            }
            let open = match &listen {
                Some(listen) => session.is_listening(&listen.id),
                None => shared.sessions.lock().unwrap_or_else(PoisonError::into_inner).by_id.contains_key(session.id()),
            };
            if !open {
                return Ok(false);
            }
            if count != seen {
                seen = count;
                match &listen {
                    Some(listen) if listen.tools => write_event(&mut *writer, &protocol::list_changed_on(&listen.id))?,
                    Some(_) => continue,
                    None => {
                        write_event(&mut *writer, r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#)?
                    }
                }
                last_event = Instant::now();
                last_write = last_event;
            } else if last_event.elapsed() >= options.stream_idle {
                return Ok(true);
            } else if last_write.elapsed() >= options.keepalive {
                writer.write_all(b": keep-alive\n\n")?;
                writer.flush()?;
                last_write = Instant::now();
            }
        }
    })();
    if let Some(listen) = &listen {
        let graceful = session.remove_listener(&listen.id);
        if matches!(result, Ok(true)) && graceful {
            // Closed by the server: the listen request gets its result.
            write_event(&mut *writer, &protocol::listen_closed(&listen.id))?;
        }
    }
    result.map(|_| ())
}

/// Decodes a header value that may use the `=?base64?…?=` sentinel of
/// 2026-07-28; `None` when it is malformed.
fn decode_header_value(value: &str) -> Option<String> {
    let Some(encoded) = value.strip_prefix("=?base64?").and_then(|rest| rest.strip_suffix("?=")) else {
        return Some(value.to_owned());
    };
    let mut bytes = Vec::with_capacity(encoded.len() * 3 / 4);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for byte in encoded.bytes().filter(|&byte| byte != b'=') {
        let sextet = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        buffer = (buffer << 6) | u32::from(sextet);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((buffer >> bits) as u8);
        }
    }
    String::from_utf8(bytes).ok()
}

/// The checks 2026-07-28 makes of a POST's headers against its body:
/// `None` when they agree, else the 400 to answer.
fn check_modern_headers(request: &Request, message: &Value, version: &str) -> Option<Response> {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let mismatch = |what: String| {
        Some(json_response(400, protocol::error(&id, HEADER_MISMATCH, &format!("Header mismatch: {what}"))))
    };
    match request.header("MCP-Protocol-Version") {
        None => return mismatch("the MCP-Protocol-Version header is missing".into()),
        Some(header) if header != version => {
            return mismatch(format!("MCP-Protocol-Version is {header:?} but _meta names {version:?}"))
        }
        Some(_) => {}
    }
    let method = message.get("method").and_then(Value::as_str).unwrap_or_default();
    match request.header("Mcp-Method") {
        None => return mismatch("the Mcp-Method header is missing".into()),
        Some(header) if header != method => {
            return mismatch(format!("Mcp-Method is {header:?} but the body's method is {method:?}"))
        }
        Some(_) => {}
    }
    if method == "tools/call" {
        let name = message.get("params").and_then(|params| params.get("name")).and_then(Value::as_str);
        let header = request.header("Mcp-Name");
        match (header.map(decode_header_value), name) {
            (None, _) => return mismatch("the Mcp-Name header is missing".into()),
            (Some(None), _) => return mismatch("Mcp-Name is not valid =?base64?…?= text".into()),
            (Some(Some(header)), Some(name)) if header != name => {
                return mismatch(format!("Mcp-Name is {header:?} but the body's name is {name:?}"))
            }
            _ => {}
        }
    }
    None
}

/// The HTTP status of a 2026-07-28 answer: its JSON-RPC error decides.
fn modern_status(reply: &str) -> u16 {
    if !reply.contains("\"error\":{\"code\":") {
        return 200;
    }
    let code = serde_json::from_str::<Value>(reply).ok().and_then(|value| value["error"]["code"].as_i64());
    match code {
        Some(protocol::UNSUPPORTED_PROTOCOL_VERSION | HEADER_MISMATCH) => 400,
        Some(METHOD_NOT_FOUND) => 404,
        _ => 200,
    }
}

fn respond(server: &McpServer<'_>, shared: &Shared<'_>, request: &Request) -> Answer {
    let reply = |response| Answer::Reply(response);
    let path = request.path.split('?').next().unwrap_or_default();
    if path != "/mcp" {
        return reply(error_response(404, INVALID_REQUEST, "Not Found: the MCP endpoint is /mcp"));
    }
    if let Some(host) = request.header("Host") {
        if shared.loopback && !is_loopback_host(host) {
            return reply(error_response(
                403,
                INVALID_REQUEST,
                &format!("Forbidden: Host {host:?} is not a name of this machine (the server listens on loopback)"),
            ));
        }
    }
    if let Some(origin) = request.header("Origin") {
        if !is_loopback_origin(origin) {
            return reply(error_response(
                403,
                INVALID_REQUEST,
                &format!("Forbidden: requests from origin {origin:?} are refused"),
            ));
        }
    }
    let header_version = request.header("MCP-Protocol-Version").map(str::to_owned);
    if let Some(version) = &header_version {
        if !PROTOCOL_VERSIONS.contains(&version.as_str()) && version != MODERN_PROTOCOL_VERSION {
            let message = format!(
                "Bad Request: unsupported MCP-Protocol-Version {version:?}; supported: {}",
                protocol::supported_versions().join(", ")
            );
            let error = json!({"jsonrpc":"2.0","id":null,"error":{"code":protocol::UNSUPPORTED_PROTOCOL_VERSION,"message":message,
                "data":{"supported":protocol::supported_versions(),"requested":version}}});
            return reply(json_response(400, error.to_string()));
        }
    }
    let session_id = request.header(SESSION_HEADER).map(str::to_owned);
    let lock = || shared.sessions.lock().unwrap_or_else(PoisonError::into_inner);
    match request.method.as_str() {
        "POST" => {}
        "DELETE" => {
            let Some(id) = session_id else {
                return reply(error_response(
                    400,
                    INVALID_REQUEST,
                    "Bad Request: DELETE needs an Mcp-Session-Id header",
                ));
            };
            let removed = lock().by_id.remove(&id);
            return reply(match removed {
                Some((session, _)) => {
                    end_session(server, &session);
                    Response::new(204, Vec::new())
                }
                None => error_response(404, INVALID_REQUEST, "Not Found: no such session"),
            });
        }
        "GET" => {
            let Some(id) = session_id else {
                return reply(error_response(
                    400,
                    INVALID_REQUEST,
                    "Bad Request: GET /mcp opens a session's stream and needs its Mcp-Session-Id header",
                ));
            };
            return match lock().get(&id) {
                Some(session) => Answer::Stream(Stream::Session(session)),
                None => {
                    reply(error_response(404, INVALID_REQUEST, "Not Found: no such session; send initialize again"))
                }
            };
        }
        _ => {
            return reply(
                error_response(
                    405,
                    INVALID_REQUEST,
                    "Method Not Allowed: POST a JSON-RPC message to /mcp, GET its stream, or DELETE a session",
                )
                .with_header("Allow", "GET, POST, DELETE"),
            );
        }
    }
    let body = &request.body;
    if body.len() > MAX_MESSAGE_BYTES {
        return reply(error_response(
            413,
            INVALID_REQUEST,
            &format!("Payload Too Large: at most {MAX_MESSAGE_BYTES} bytes"),
        ));
    }
    let message = crate::json::parse_value(body).ok();
    let modern_version = message
        .as_ref()
        .and_then(|message| message.get("params")?.get("_meta")?.get(META_PROTOCOL_VERSION))
        .filter(|_| {
            message.as_ref().and_then(|message| message.get("method")).and_then(Value::as_str) != Some("initialize")
        });
    if let (Some(version), Some(message)) = (modern_version, message.as_ref()) {
        // 2026-07-28: stateless, no session; the headers must match the body.
        if let Some(refusal) = check_modern_headers(request, message, version.as_str().unwrap_or_default()) {
            return reply(refusal);
        }
        let session = Arc::new(Session::new(uuid::Uuid::new_v4().to_string()));
        let answer = match server.prepare(&session, body) {
            Prepared::Done(answer) => answer,
            Prepared::Call(call) => server.finish_call(&session, call),
            Prepared::Batch(items) => server.run_batch(&session, items),
            Prepared::Listen(listen) => return Answer::Stream(Stream::Listen { session, listen }),
        };
        // Its throwaway session keeps nothing: the tools drop what they made for it.
        end_session(server, &session);
        return reply(match answer {
            Some(answer) => json_response(modern_status(&answer), answer),
            None => Response::new(202, Vec::new()),
        });
    }
    if header_version.as_deref() == Some(MODERN_PROTOCOL_VERSION)
        && message.as_ref().is_some_and(|message| message.get("id").is_some())
    {
        let id = message.as_ref().and_then(|message| message.get("id").cloned()).unwrap_or(Value::Null);
        let text = format!("Header mismatch: MCP-Protocol-Version is {MODERN_PROTOCOL_VERSION:?} but the body's _meta names no version");
        return reply(json_response(400, protocol::error(&id, HEADER_MISMATCH, &text)));
    }
    let (session, new_session) = match session_id.as_deref() {
        Some(id) => match lock().get(id) {
            Some(session) => (session, false),
            None => {
                return reply(error_response(404, INVALID_REQUEST, "Not Found: no such session; send initialize again"))
            }
        },
        None => {
            let method =
                message.as_ref().and_then(|message| message.get("method").and_then(Value::as_str).map(str::to_owned));
            match method.as_deref() {
                Some("initialize") => (Arc::new(Session::new(uuid::Uuid::new_v4().to_string())), true),
                Some("tools/list" | "tools/call") => {
                    return reply(error_response(
                        400,
                        INVALID_REQUEST,
                        "Bad Request: send the Mcp-Session-Id header that initialize gave",
                    ))
                }
                // Anything else (ping, server/discover without _meta, an unknown
                // method, a notification, malformed JSON) is answered in a session of its own.
                _ => (Arc::new(Session::new(uuid::Uuid::new_v4().to_string())), false),
            }
        }
    };
    let deadline = Instant::now() + shared.options.batch_timeout;
    let answer = match server.prepare(&session, body) {
        Prepared::Done(answer) => answer,
        Prepared::Call(call) => server.finish_call(&session, call),
        Prepared::Batch(items) => server.run_batch_until(&session, items, Some(deadline)),
        Prepared::Listen(listen) => {
            // Only 2026-07-28 requests listen, and they were answered above.
            session.remove_listener(&listen.id);
            Some(error_response_text("subscriptions/listen needs the 2026-07-28 _meta protocol version"))
        }
    };
    // A session exists once its initialize succeeded; any other session
    // without a header was a throwaway, ended now.
    let opened = new_session && session.protocol_version().is_some();
    if opened {
        let dropped = lock().insert(session.clone(), shared.options.max_sessions);
        for dropped in dropped {
            end_session(server, &dropped);
        }
    } else if new_session || session_id.is_none() {
        end_session(server, &session);
    }
    reply(match answer {
        Some(answer) => {
            let response = json_response(200, answer);
            if opened {
                response.with_header(SESSION_HEADER, session.id())
            } else {
                response
            }
        }
        None => Response::new(202, Vec::new()),
    })
}

#[cfg(test)]
mod tests {
    use super::{decode_header_value, is_loopback_origin};

    #[test]
    fn header_values_decode_the_base64_sentinel() {
        assert_eq!(decode_header_value("get_weather").as_deref(), Some("get_weather"));
        assert_eq!(decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=").as_deref(), Some("Hello, 世界"));
        assert_eq!(decode_header_value("=?base64?IHBhZGRlZCA=?=").as_deref(), Some(" padded "));
        assert_eq!(decode_header_value("=?base64?!!?="), None);
    }

    #[test]
    fn only_loopback_origins_pass() {
        for origin in ["http://localhost", "http://localhost:3000", "https://127.0.0.1:8931", "http://[::1]:80"] {
            assert!(is_loopback_origin(origin), "{origin}");
        }
        for origin in [
            "http://evil.example",
            "http://localhost.evil.example",
            "null",
            "file://",
            "http://127.0.0.2",
            "http://[::2]",
        ] {
            assert!(!is_loopback_origin(origin), "{origin}");
        }
    }
}
