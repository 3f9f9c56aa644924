//! The Streamable HTTP transport (MCP 2025-03-26 and later), on
//! [`tiny_http`]: one endpoint, `/mcp`.
//!
//! - `POST /mcp` carries one JSON-RPC message (or a batch, where the
//!   session's version allows); the answer is `application/json`, or `202
//!   Accepted` with no body when there is none (a notification, a response).
//! - `initialize` without an `Mcp-Session-Id` header opens a session: the
//!   answer carries its id in `Mcp-Session-Id`, and every later request must
//!   send it back (400 without it, 404 once the session is gone). Each
//!   session's calls run with its id as session id, so the `bash` tool keeps
//!   one shell per session.
//! - `DELETE /mcp` ends the session (its running calls are cancelled).
//! - `GET /mcp` (the server-initiated SSE stream) gets 405: this server
//!   sends no request of its own, and `notifications/tools/list_changed` is
//!   not delivered over HTTP.
//! - A request with an `Origin` header that is not a loopback origin gets
//!   403 (DNS rebinding: the MCP spec requires the check); a body over
//!   [`MAX_MESSAGE_BYTES`] gets 413; an unsupported `MCP-Protocol-Version`
//!   header gets 400.
//! - Bounded: [`HttpOptions::workers`] requests run at once and
//!   [`HttpOptions::queue`] wait (past that: 503); at most
//!   [`HttpOptions::max_sessions`] sessions are kept, the least recently
//!   used one is dropped past that (its calls cancelled).

use std::io::{self, Read};
use std::net::ToSocketAddrs;
use std::sync::mpsc::{self, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rustc_hash::FxHashMap;
use serde_json::Value;
use tiny_http::{Header, Method, Request, Response, StatusCode};

use super::protocol::{self, INVALID_REQUEST};
use super::{McpServer, Session, MAX_MESSAGE_BYTES, PROTOCOL_VERSIONS};
use crate::CancelToken;

/// How the HTTP transport is bounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Requests handled at once (each a thread) [32].
    pub workers: usize,
    /// Requests waiting for a worker; past this they get 503 [256].
    pub queue: usize,
    /// Sessions kept [1024]; past this the least recently used one is dropped.
    pub max_sessions: usize,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions { workers: 32, queue: 256, max_sessions: 1024 }
    }
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

    fn insert(&mut self, session: Arc<Session>, max: usize) {
        while self.by_id.len() >= max.max(1) {
            // The least recently used session, preferring one with no call running.
            let victim = self
                .by_id
                .iter()
                .min_by_key(|(_, (session, used))| (session.calls_in_flight() > 0, *used))
                .map(|(id, _)| id.clone());
            match victim.and_then(|id| self.by_id.remove(&id)) {
                Some((dropped, _)) => dropped.cancel_all(),
                None => break,
            }
        }
        self.clock += 1;
        self.by_id.insert(session.id().to_owned(), (session, self.clock));
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn json_response(status: u16, body: String) -> Response<io::Cursor<Vec<u8>>> {
    Response::from_data(body.into_bytes())
        .with_status_code(StatusCode(status))
        .with_header(header("Content-Type", "application/json"))
}

fn error_response(status: u16, code: i64, message: &str) -> Response<io::Cursor<Vec<u8>>> {
    json_response(status, protocol::error(&Value::Null, code, message))
}

/// Whether an `Origin` header names this machine (http or https, any port).
fn is_loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) else {
        return false;
    };
    let host = match rest.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => rest.split(':').next().unwrap_or_default(),
    };
    matches!(host, "localhost" | "127.0.0.1" | "::1")
}

fn header_value<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|header| header.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|header| header.value.as_str())
}

/// Serves `server` over Streamable HTTP on `listener` (from
/// [`tiny_http::Server::http`]) until `stop` fires; then running calls are
/// cancelled, and this returns once every worker has finished.
pub fn serve(server: &McpServer<'_>, listener: &tiny_http::Server, options: &HttpOptions, stop: &CancelToken) {
    let sessions = Mutex::new(Sessions { by_id: FxHashMap::default(), clock: 0 });
    let (sender, receiver) = mpsc::sync_channel::<Request>(options.queue.max(1));
    let receiver = Mutex::new(receiver);
    std::thread::scope(|scope| {
        for _ in 0..options.workers.max(1) {
            scope.spawn(|| loop {
                let request = receiver.lock().unwrap_or_else(PoisonError::into_inner).recv();
                match request {
                    Ok(request) => handle_request(server, &sessions, options, request),
                    Err(_) => return,
                }
            });
        }
        while !stop.is_fired() {
            let request = match listener.recv_timeout(Duration::from_millis(100)) {
                Ok(Some(request)) => request,
                Ok(None) => continue,
                Err(_) => continue,
            };
            match sender.try_send(request) {
                Ok(()) => {}
                Err(TrySendError::Full(request) | TrySendError::Disconnected(request)) => {
                    let response =
                        error_response(503, INVALID_REQUEST, "Server busy: too many requests at once; retry")
                            .with_header(header("Retry-After", "1"));
                    let _ = request.respond(response);
                }
            }
        }
        for (session, _) in sessions.lock().unwrap_or_else(PoisonError::into_inner).by_id.values() {
            session.cancel_all();
        }
        drop(sender);
    });
}

/// Binds `address` and serves until `stop` fires (see [`serve`]).
pub fn listen(
    server: &McpServer<'_>,
    address: impl ToSocketAddrs,
    options: &HttpOptions,
    stop: &CancelToken,
) -> io::Result<()> {
    let listener = tiny_http::Server::http(address).map_err(|problem| io::Error::other(problem.to_string()))?;
    serve(server, &listener, options, stop);
    Ok(())
}

fn handle_request(server: &McpServer<'_>, sessions: &Mutex<Sessions>, options: &HttpOptions, mut request: Request) {
    let response = respond(server, sessions, options, &mut request);
    // The client may be gone; nothing to do then.
    let _ = request.respond(response);
}

fn respond(
    server: &McpServer<'_>,
    sessions: &Mutex<Sessions>,
    options: &HttpOptions,
    request: &mut Request,
) -> Response<io::Cursor<Vec<u8>>> {
    let path = request.url().split('?').next().unwrap_or_default();
    if path != "/mcp" {
        return error_response(404, INVALID_REQUEST, "Not Found: the MCP endpoint is /mcp");
    }
    if let Some(origin) = header_value(request, "Origin") {
        if !is_loopback_origin(origin) {
            return error_response(
                403,
                INVALID_REQUEST,
                &format!("Forbidden: requests from origin {origin:?} are refused"),
            );
        }
    }
    if let Some(version) = header_value(request, "MCP-Protocol-Version") {
        if !PROTOCOL_VERSIONS.contains(&version) {
            let message = format!(
                "Bad Request: unsupported MCP-Protocol-Version {version:?}; supported: {}",
                PROTOCOL_VERSIONS.join(", ")
            );
            return error_response(400, INVALID_REQUEST, &message);
        }
    }
    let session_id = header_value(request, SESSION_HEADER).map(str::to_owned);
    let lock = || sessions.lock().unwrap_or_else(PoisonError::into_inner);
    match request.method() {
        Method::Post => {}
        Method::Delete => {
            let Some(id) = session_id else {
                return error_response(400, INVALID_REQUEST, "Bad Request: DELETE needs an Mcp-Session-Id header");
            };
            return match lock().by_id.remove(&id) {
                Some((session, _)) => {
                    session.cancel_all();
                    Response::from_data(Vec::new()).with_status_code(StatusCode(204))
                }
                None => error_response(404, INVALID_REQUEST, "Not Found: no such session"),
            };
        }
        _ => {
            return error_response(
                405,
                INVALID_REQUEST,
                "Method Not Allowed: POST a JSON-RPC message to /mcp, or DELETE a session",
            )
            .with_header(header("Allow", "POST, DELETE"));
        }
    }
    if request.body_length().is_some_and(|length| length > MAX_MESSAGE_BYTES) {
        return error_response(413, INVALID_REQUEST, &format!("Payload Too Large: at most {MAX_MESSAGE_BYTES} bytes"));
    }
    let mut body = Vec::new();
    if request.as_reader().take(MAX_MESSAGE_BYTES as u64 + 1).read_to_end(&mut body).is_err() {
        return error_response(400, INVALID_REQUEST, "Bad Request: the body could not be read");
    }
    if body.len() > MAX_MESSAGE_BYTES {
        return error_response(413, INVALID_REQUEST, &format!("Payload Too Large: at most {MAX_MESSAGE_BYTES} bytes"));
    }
    let (session, new_session) = match session_id {
        Some(id) => match lock().get(&id) {
            Some(session) => (session, false),
            None => return error_response(404, INVALID_REQUEST, "Not Found: no such session; send initialize again"),
        },
        None => {
            let method = serde_json::from_slice::<Value>(&body)
                .ok()
                .and_then(|message| message.get("method").and_then(Value::as_str).map(str::to_owned));
            match method.as_deref() {
                Some("initialize") => (Arc::new(Session::new(uuid::Uuid::new_v4().to_string())), true),
                Some("tools/list" | "tools/call") => {
                    return error_response(
                        400,
                        INVALID_REQUEST,
                        "Bad Request: send the Mcp-Session-Id header that initialize gave",
                    )
                }
                // Anything else (ping, an unknown method such as server/discover,
                // a notification, malformed JSON) is answered in a session of its own.
                _ => (Arc::new(Session::new(uuid::Uuid::new_v4().to_string())), false),
            }
        }
    };
    let reply = server.handle_in(&session, &body);
    // A session exists once its initialize succeeded.
    let opened = new_session && session.protocol_version().is_some();
    if opened {
        lock().insert(session.clone(), options.max_sessions);
    }
    match reply {
        Some(reply) => {
            let response = json_response(200, reply);
            if opened {
                response.with_header(header(SESSION_HEADER, session.id()))
            } else {
                response
            }
        }
        None => Response::from_data(Vec::new()).with_status_code(StatusCode(202)),
    }
}

#[cfg(test)]
mod tests {
    use super::is_loopback_origin;

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
