//! An MCP server over any [`Registry`]: the registry's tools, served to any
//! Model Context Protocol client (Claude Desktop and Code, Cursor, agent
//! SDKs).
//!
//! The core is transport-agnostic: [`McpServer::handle`] takes one JSON-RPC
//! message and returns the response (`None` for a notification), so a
//! program can put it behind any transport it already has. Two transports
//! are built on it: newline-delimited stdio ([`McpServer::serve_stdio`]) and,
//! with the `mcp-http` feature, Streamable HTTP ([`http`]).
//!
//! What the server speaks (see `docs/MCP.md` for every decision):
//! - the `initialize` handshake of protocol versions 2024-11-05, 2025-03-26,
//!   2025-06-18 and 2025-11-25, with version negotiation: a version the
//!   server knows is echoed, any other gets 2025-11-25;
//! - `ping`, `tools/list` (pages of [`McpServer::with_page_size`] tools,
//!   opaque cursors), `tools/call`, `notifications/cancelled` (fires the
//!   call's [`CancelToken`]), and `notifications/tools/list_changed` after
//!   every register or unregister (on the transports: stdio, and HTTP's SSE
//!   streams);
//! - 2026-07-28's stateless requests: `server/discover`, and requests that
//!   name their version in `_meta` (no `initialize`), `subscriptions/listen`
//!   on the transports; another version in `_meta` gets
//!   `UnsupportedProtocolVersionError` (`-32022`);
//! - every other method gets `-32601`.
//!
//! ```
//! use aikido::mcp::McpServer;
//! use aikido::{Environment, Registry, ToolDefinition, ToolResult};
//!
//! let registry = Registry::new();
//! registry.register(ToolDefinition::new("hello", "Say hello."), |_: &str, _: &Environment| Ok(ToolResult::new("hi"))).unwrap();
//! let server = McpServer::new(&registry, "demo", "1.0");
//! let reply = server
//!     .handle(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#)
//!     .unwrap();
//! assert!(reply.contains(r#""protocolVersion":"2025-06-18""#));
//! let reply = server.handle(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hello"}}"#).unwrap();
//! assert_eq!(reply, r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}"#);
//! ```

#[cfg(feature = "mcp-http")]
pub mod http;
mod protocol;
mod session;
mod stdio;
#[cfg(feature = "mcp-http")]
mod wire;

pub use protocol::{is_mcp_tool_name, mcp_tools};
pub use session::{Session, MAX_LISTENERS};
pub use stdio::{FdReader, FdWriter};

use std::sync::Arc;

use crate::{CancelToken, Registry};

/// The protocol versions the `initialize` handshake accepts, oldest first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The stateless protocol version (no `initialize`: each request names its
/// version in `_meta`), served beside the four of the handshake.
pub const MODERN_PROTOCOL_VERSION: &str = "2026-07-28";

/// The version answered to a client that asks for one the server does not know.
pub const LATEST_PROTOCOL_VERSION: &str = "2025-11-25";

/// The largest message the transports read, in bytes (16 MiB). A longer
/// line or HTTP body is refused with a JSON-RPC error (stdio) or 413 (HTTP).
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// How many tools one `tools/list` page holds unless
/// [`McpServer::with_page_size`] says otherwise.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How many `tools/call` requests of one stdio connection run at once; the
/// others wait in a queue of [`MAX_QUEUED_CALLS`].
pub const MAX_CONCURRENT_CALLS: usize = 8;

/// How many `tools/call` requests may wait for a worker; past this the
/// stdio transport stops reading until one finishes.
pub const MAX_QUEUED_CALLS: usize = 1024;

/// How many bytes of `tools/call` messages may wait for a stdio worker
/// (64 MiB); past it a call is answered at once with a JSON-RPC error
/// (`-32600`, "Server busy") instead of being queued.
pub const MAX_QUEUED_BYTES: usize = 64 << 20;

/// Serves the tools of one registry over MCP. Safe to share between
/// threads: [`McpServer::handle`] may run on many at once (a
/// `notifications/cancelled` on one thread stops a call running on another).
pub struct McpServer<'r> {
    registry: &'r Registry,
    name: String,
    version: String,
    page_size: usize,
    /// The session of [`McpServer::handle`] and [`McpServer::serve_stdio`].
    session: Arc<Session>,
}

impl std::fmt::Debug for McpServer<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("McpServer")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("page_size", &self.page_size)
            .finish_non_exhaustive()
    }
}

impl<'r> McpServer<'r> {
    /// A server for `registry`, introducing itself to clients as `name` and
    /// `version` (the `serverInfo` of the `initialize` result). The server
    /// reads the registry on every request, so tools registered later are
    /// served too.
    pub fn new(registry: &'r Registry, name: impl Into<String>, version: impl Into<String>) -> Self {
        McpServer {
            registry,
            name: name.into(),
            version: version.into(),
            page_size: DEFAULT_PAGE_SIZE,
            session: Arc::new(Session::new(uuid::Uuid::new_v4().to_string())),
        }
    }

    /// The same server with `tools/list` pages of `page_size` tools (at
    /// least 1).
    pub fn with_page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// The registry served.
    pub fn registry(&self) -> &'r Registry {
        self.registry
    }

    /// The session [`McpServer::handle`] serves: its id is the
    /// [`Environment::session_id`](crate::Environment) of every call, so the
    /// `bash` tool keeps one shell for it.
    pub fn session(&self) -> &Arc<Session> {
        &self.session
    }

    /// Handles one JSON-RPC message (or, for protocol versions 2024-11-05 and
    /// 2025-03-26, a batch) of the server's own session and returns the
    /// response, or `None` when there is none to send (a notification, a
    /// response, a call cancelled by `notifications/cancelled`). A
    /// `tools/call` runs its handler on the calling thread.
    pub fn handle(&self, message: &str) -> Option<String> {
        self.handle_in(&self.session, message.as_bytes())
    }

    /// [`McpServer::handle`] for a session of the caller's own (from
    /// [`Session::new`]), as a transport with many clients needs; `message`
    /// may be any bytes (invalid UTF-8 gets `-32700`).
    pub fn handle_in(&self, session: &Arc<Session>, message: &[u8]) -> Option<String> {
        match self.prepare(session, message) {
            protocol::Prepared::Done(reply) => reply,
            protocol::Prepared::Call(call) => self.finish_call(session, call),
            protocol::Prepared::Batch(items) => self.run_batch(session, items),
            protocol::Prepared::Listen(listen) => {
                // One message in, one out: there is no stream to hold open.
                session.remove_listener(&listen.id);
                let id: serde_json::Value = serde_json::from_str(&listen.id).unwrap_or_default();
                Some(protocol::error(
                    &id,
                    protocol::METHOD_NOT_FOUND,
                    "Method not found: subscriptions/listen needs a transport that holds a stream open \
                     (serve_stdio or Streamable HTTP), not one message in and one out",
                ))
            }
        }
    }

    /// Fires the cancellation token of every call of `session` still running.
    pub fn cancel_all(&self, session: &Session) {
        session.cancel_all();
    }
}

/// A stop signal for [`McpServer::serve_stdio`] and the HTTP server.
pub type StopToken = CancelToken;

#[cfg(test)]
mod tests;
