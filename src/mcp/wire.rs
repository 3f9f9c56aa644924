//! HTTP/1.1 on the wire for the Streamable HTTP transport: the accept loop,
//! one reader thread per connection, and the read deadlines that keep a slow
//! or stalled client from holding anything but its own connection.
//!
//! Why our own loop over `std::net` and `httparse` rather than a server
//! crate: `tiny_http` 0.12 (used before) ends its accept loop on the first
//! accept error (EMFILE under ~560 idle connections stopped the server for
//! good), spawns a thread per connection with no cap and sets no read
//! timeout, so 32 stalled bodies held all 32 workers. hyper needs an async
//! runtime. What is left to us is small: accept with backoff, a connection
//! cap, deadlines; `httparse` parses the request head.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use super::MAX_MESSAGE_BYTES;
use crate::CancelToken;

/// The largest request head (request line and headers) read, in bytes.
pub(crate) const MAX_HEAD_BYTES: usize = 64 << 10;

/// The most headers one request may have.
const MAX_HEADERS: usize = 64;

/// How long reading waits at most, per connection.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadlines {
    /// The request line and headers must arrive within this.
    pub(crate) head: Duration,
    /// A body gets this long, plus one second per `min_rate` bytes it has sent.
    pub(crate) body: Duration,
    /// Bytes per second a body must keep up after its grace time.
    pub(crate) min_rate: u64,
    /// A kept-alive connection may wait this long for its next request.
    pub(crate) idle: Duration,
    /// A write (a response, an event) that the client does not take within
    /// this fails, and the connection is closed.
    pub(crate) write: Duration,
}

/// One request as read from the wire.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    /// Whether the connection may carry another request after this one.
    pub(crate) keep_alive: bool,
}

impl Request {
    /// The value of the first header of this name (any case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(field, _)| field.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }
}

/// A response to write.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) body: Vec<u8>,
}

impl Response {
    pub(crate) fn new(status: u16, body: Vec<u8>) -> Self {
        Response { status, headers: Vec::new(), body }
    }

    pub(crate) fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }
}

/// What went wrong reading a request; `Closed` is the client leaving.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The connection ended (or went idle past its deadline) between requests.
    Closed,
    /// A request that gets this status and message, then the connection closes.
    Refuse(u16, String),
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// Writes `response`; `close` adds `Connection: close`.
pub(crate) fn write_response(stream: &mut TcpStream, response: &Response, close: bool) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", response.status, reason(response.status));
    for (name, value) in &response.headers {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    if response.status != 204 {
        head.push_str(&format!("Content-Length: {}\r\n", response.body.len()));
    }
    head.push_str(if close { "Connection: close\r\n\r\n" } else { "\r\n" });
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(&response.body);
    stream.write_all(&bytes)?;
    stream.flush()
}

/// Closes a connection so that the client reads what was written: stop
/// writing, then drop what it still sends for a moment (closing with unread
/// bytes would send a reset that can destroy the response in flight).
pub(crate) fn close_gently(stream: &mut TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 16 << 10];
    let start = Instant::now();
    let mut drained = 0usize;
    // Enough for a client that sends a whole refused body before it reads
    // the answer (a 413 for a body a few MiB over the cap): bounded in bytes
    // and time, so a refused client cannot hold the connection's thread.
    while start.elapsed() < Duration::from_secs(2) && drained < (64 << 20) {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(read) => drained += read,
        }
    }
}

/// Reads requests off one connection, keeping bytes that arrived early.
pub(crate) struct Connection {
    pub(crate) stream: TcpStream,
    buffer: Vec<u8>,
    deadlines: Deadlines,
    served: usize,
    /// The server's stop: a read gives up (as at end of stream) once it fires.
    stop: CancelToken,
}

/// Reads into `buffer` with the deadline `until`; `Ok(0)` at end of stream
/// or once `stop` fires (checked every quarter second).
fn read_until(stream: &mut TcpStream, buffer: &mut [u8], until: Instant, stop: &CancelToken) -> io::Result<usize> {
    loop {
        if stop.is_fired() {
            return Ok(0);
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::from(io::ErrorKind::TimedOut));
        }
        stream.set_read_timeout(Some(left.min(Duration::from_millis(250))))?;
        match stream.read(buffer) {
            Err(problem)
                if matches!(
                    problem.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            other => return other,
        }
    }
}

impl Connection {
    pub(crate) fn new(stream: TcpStream, deadlines: Deadlines, stop: CancelToken) -> io::Result<Self> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(deadlines.write))?;
        Ok(Connection { stream, buffer: Vec::new(), deadlines, served: 0, stop })
    }

    /// Reads bytes into the buffer before `until`; false at end of stream.
    fn fill(&mut self, until: Instant) -> io::Result<bool> {
        let mut chunk = [0u8; 16 << 10];
        let read = read_until(&mut self.stream, &mut chunk, until, &self.stop)?;
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(read > 0)
    }

    /// The next request: its head within the head deadline (the idle one
    /// for the wait before its first byte on a kept-alive connection), its
    /// body at the minimum rate.
    pub(crate) fn next_request(&mut self) -> Result<Request, ReadError> {
        let start = Instant::now();
        if self.buffer.is_empty() && self.served > 0 {
            // Between requests: wait for a first byte at most `idle`.
            match self.fill(start + self.deadlines.idle) {
                Ok(true) => {}
                Ok(false) | Err(_) => return Err(ReadError::Closed),
            }
        }
        let head_deadline = Instant::now() + self.deadlines.head;
        let (method, path, headers, keep_alive, head_len) = loop {
            let mut slots = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut parsed = httparse::Request::new(&mut slots);
            match parsed.parse(&self.buffer) {
                Ok(httparse::Status::Complete(length)) => {
                    let headers: Vec<(String, String)> = parsed
                        .headers
                        .iter()
                        .map(|header| (header.name.to_owned(), String::from_utf8_lossy(header.value).trim().to_owned()))
                        .collect();
                    let version = parsed.version.unwrap_or(1);
                    let connection = headers
                        .iter()
                        .find(|(name, _)| name.eq_ignore_ascii_case("Connection"))
                        .map(|(_, value)| value.to_ascii_lowercase());
                    let keep_alive = match connection.as_deref() {
                        Some(value) if value.contains("close") => false,
                        Some(value) if value.contains("keep-alive") => true,
                        _ => version >= 1,
                    };
                    break (
                        parsed.method.unwrap_or_default().to_owned(),
                        parsed.path.unwrap_or_default().to_owned(),
                        headers,
                        keep_alive,
                        length,
                    );
                }
                Ok(httparse::Status::Partial) if self.buffer.len() > MAX_HEAD_BYTES => {
                    return Err(ReadError::Refuse(
                        431,
                        format!("Request Header Fields Too Large: a request head may have {MAX_HEAD_BYTES} bytes"),
                    ))
                }
                Ok(httparse::Status::Partial) => {}
                Err(httparse::Error::TooManyHeaders) => {
                    return Err(ReadError::Refuse(
                        431,
                        format!("Request Header Fields Too Large: at most {MAX_HEADERS} headers"),
                    ))
                }
                Err(problem) => {
                    return Err(ReadError::Refuse(
                        400,
                        format!("Bad Request: the request head is malformed ({problem})"),
                    ))
                }
            }
            match self.fill(head_deadline) {
                Ok(true) => {}
                Ok(false) if self.buffer.is_empty() => return Err(ReadError::Closed),
                Ok(false) => return Err(ReadError::Closed),
                Err(problem) if problem.kind() == io::ErrorKind::TimedOut => {
                    if self.buffer.is_empty() && self.served > 0 {
                        return Err(ReadError::Closed);
                    }
                    let seconds = self.deadlines.head.as_secs_f64();
                    return Err(ReadError::Refuse(
                        408,
                        format!("Request Timeout: the request line and headers must arrive within {seconds} s"),
                    ));
                }
                Err(_) => return Err(ReadError::Closed),
            }
        };
        self.buffer.drain(..head_len);
        let mut request = Request { method, path, headers, body: Vec::new(), keep_alive };
        let chunked = request
            .header("Transfer-Encoding")
            .map(|value| value.to_ascii_lowercase())
            .filter(|value| value != "identity");
        let length = request.header("Content-Length").map(str::to_owned);
        request.keep_alive &= self.served < 10_000;
        let body_start = Instant::now();
        match (chunked, length) {
            (Some(_), Some(_)) => {
                return Err(ReadError::Refuse(400, "Bad Request: both Content-Length and Transfer-Encoding".into()))
            }
            (Some(coding), None) if coding.trim() != "chunked" => {
                return Err(ReadError::Refuse(501, format!("Not Implemented: Transfer-Encoding {coding}")))
            }
            (Some(_), None) => {
                self.continue_if_expected(&request)?;
                request.body = self.read_chunked(body_start)?;
            }
            (None, Some(length)) => {
                let Ok(length) = length.parse::<usize>() else {
                    return Err(ReadError::Refuse(400, format!("Bad Request: Content-Length {length:?}")));
                };
                if length > MAX_MESSAGE_BYTES {
                    return Err(too_large());
                }
                self.continue_if_expected(&request)?;
                request.body = self.read_exact_body(length, body_start)?;
            }
            (None, None) => {}
        }
        self.served += 1;
        Ok(request)
    }

    /// Answers `Expect: 100-continue` (curl sends it before a body over 1 KiB).
    fn continue_if_expected(&mut self, request: &Request) -> Result<(), ReadError> {
        if request.header("Expect").is_some_and(|value| value.eq_ignore_ascii_case("100-continue")) {
            self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").map_err(|_| ReadError::Closed)?;
        }
        Ok(())
    }

    /// The deadline for a body that has `received` bytes so far.
    fn body_deadline(&self, start: Instant, received: usize) -> Instant {
        let earned = Duration::from_secs_f64(received as f64 / self.deadlines.min_rate.max(1) as f64);
        start + self.deadlines.body + earned
    }

    fn body_timeout(&self) -> ReadError {
        ReadError::Refuse(
            408,
            format!(
                "Request Timeout: a body must arrive at {} bytes per second or more after its first {} s",
                self.deadlines.min_rate,
                self.deadlines.body.as_secs_f64()
            ),
        )
    }

    /// Makes sure `wanted` bytes are buffered, keeping to the body's rate.
    fn buffer_at_least(&mut self, wanted: usize, start: Instant, received: usize) -> Result<(), ReadError> {
        while self.buffer.len() < wanted {
            match self.fill(self.body_deadline(start, received + self.buffer.len())) {
                Ok(true) => {}
                Ok(false) => return Err(ReadError::Closed),
                Err(problem) if problem.kind() == io::ErrorKind::TimedOut => return Err(self.body_timeout()),
                Err(_) => return Err(ReadError::Closed),
            }
        }
        Ok(())
    }

    fn read_exact_body(&mut self, length: usize, start: Instant) -> Result<Vec<u8>, ReadError> {
        self.buffer_at_least(length, start, 0)?;
        Ok(self.buffer.drain(..length).collect())
    }

    /// A `Transfer-Encoding: chunked` body, at most [`MAX_MESSAGE_BYTES`].
    fn read_chunked(&mut self, start: Instant) -> Result<Vec<u8>, ReadError> {
        let mut body = Vec::new();
        loop {
            let line = self.read_line(start, body.len())?;
            let size_text = line.split(';').next().unwrap_or_default().trim();
            let Ok(size) = usize::from_str_radix(size_text, 16) else {
                return Err(ReadError::Refuse(400, format!("Bad Request: chunk size {size_text:?}")));
            };
            if size == 0 {
                // Trailers, up to the empty line.
                while !self.read_line(start, body.len())?.is_empty() {}
                return Ok(body);
            }
            if body.len() + size > MAX_MESSAGE_BYTES {
                return Err(too_large());
            }
            self.buffer_at_least(size + 2, start, body.len())?;
            body.extend(self.buffer.drain(..size));
            if self.buffer.drain(..2).as_slice() != b"\r\n" {
                return Err(ReadError::Refuse(400, "Bad Request: a chunk does not end with CRLF".into()));
            }
        }
    }

    /// One CRLF-ended line of a chunked body, without its end.
    fn read_line(&mut self, start: Instant, received: usize) -> Result<String, ReadError> {
        loop {
            if let Some(at) = self.buffer.windows(2).position(|pair| pair == b"\r\n") {
                let line = String::from_utf8_lossy(&self.buffer[..at]).into_owned();
                self.buffer.drain(..at + 2);
                return Ok(line);
            }
            if self.buffer.len() > 4096 {
                return Err(ReadError::Refuse(400, "Bad Request: a chunk line is too long".into()));
            }
            let wanted = self.buffer.len() + 1;
            self.buffer_at_least(wanted, start, received)?;
        }
    }
}

fn too_large() -> ReadError {
    ReadError::Refuse(413, format!("Payload Too Large: at most {MAX_MESSAGE_BYTES} bytes"))
}

/// Whether an accept error means the process or system ran out of
/// something (descriptors, buffers, memory) that may come back.
pub(crate) fn is_resource_exhaustion(problem: &io::Error) -> bool {
    matches!(problem.raw_os_error(), Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM))
}

/// Waits at most `timeout` for `listener` to have a connection to accept.
pub(crate) fn wait_readable(listener: &TcpListener, timeout: Duration) {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd { fd: listener.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // SAFETY: one valid pollfd; the listener outlives the call.
    unsafe { libc::poll(&mut poll, 1, timeout.as_millis() as i32) };
}
