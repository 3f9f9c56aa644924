//! The stdio transport: newline-delimited JSON-RPC, one message a line.
//!
//! The reading thread answers every message but `tools/call` at once;
//! calls go to [`MAX_CONCURRENT_CALLS`] workers, so `ping`, `tools/list` and
//! `notifications/cancelled` are served while a long call runs. One writer
//! thread writes every response and notification, flushing when it has
//! nothing more to write.

use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::Value;

use super::protocol::{self, Call, Prepared};
use super::{McpServer, MAX_CONCURRENT_CALLS, MAX_MESSAGE_BYTES, MAX_QUEUED_CALLS};
use crate::CancelToken;

/// What the writer thread writes.
enum Out {
    Line(String),
    /// The registry changed: `notifications/tools/list_changed`, once for
    /// any number of changes since the last one was written.
    ListChanged,
    /// A `subscriptions/listen` stream opened: its id and acknowledgement,
    /// which must precede anything else tagged with that id.
    Acknowledge(String, String),
    Shutdown,
}

/// Work for a worker.
enum Job {
    Call(Call),
    Batch(Vec<Value>),
}

/// The notification sent after the registry changed.
const LIST_CHANGED: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;

/// One line of at most `MAX_MESSAGE_BYTES`.
enum Line {
    Message(Vec<u8>),
    TooLong,
    Eof,
}

/// Reads the next line; a longer one is skipped up to its newline.
fn read_line(reader: &mut impl BufRead, buffer: &mut Vec<u8>) -> io::Result<Line> {
    buffer.clear();
    let read = reader.by_ref().take(MAX_MESSAGE_BYTES as u64 + 1).read_until(b'\n', buffer)?;
    if read == 0 {
        return Ok(Line::Eof);
    }
    if buffer.last() == Some(&b'\n') {
        buffer.pop();
        return Ok(Line::Message(std::mem::take(buffer)));
    }
    if buffer.len() <= MAX_MESSAGE_BYTES {
        // The last line, without a newline.
        return Ok(Line::Message(std::mem::take(buffer)));
    }
    // Too long: drop the rest of the line.
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(Line::TooLong);
        }
        match available.iter().position(|&byte| byte == b'\n') {
            Some(at) => {
                reader.consume(at + 1);
                return Ok(Line::TooLong);
            }
            None => {
                let length = available.len();
                reader.consume(length);
            }
        }
    }
}

impl McpServer<'_> {
    /// Serves the server's session over newline-delimited JSON-RPC: reads
    /// messages from `reader`, writes responses and notifications (one a
    /// line, nothing else) to `writer`, until EOF or until `stop` fires
    /// (checked between messages; [`FdReader`] wakes up for it).
    ///
    /// At EOF the calls already read are answered before this returns; when
    /// `stop` fires or the writer fails (the client is gone), running calls
    /// are cancelled. A line longer than [`MAX_MESSAGE_BYTES`] gets a
    /// `-32600` error and is skipped. Fails only when reading fails.
    pub fn serve_stdio<R: BufRead, W: Write + Send>(
        &self,
        mut reader: R,
        writer: W,
        stop: Option<&CancelToken>,
    ) -> io::Result<()> {
        let session = self.session.clone();
        let (out_sender, out_receiver) = mpsc::channel::<Out>();
        let (job_sender, job_receiver) = mpsc::sync_channel::<Job>(MAX_QUEUED_CALLS);
        let job_receiver = Mutex::new(job_receiver);
        let broken = AtomicBool::new(false);
        let list_changed_pending = Arc::new(AtomicBool::new(false));
        let watch = {
            let out_sender = out_sender.clone();
            let pending = list_changed_pending.clone();
            self.registry.watch(move || {
                if !pending.swap(true, Ordering::AcqRel) {
                    let _ = out_sender.send(Out::ListChanged);
                }
            })
        };
        let outcome = std::thread::scope(|scope| {
            scope.spawn(|| self.write_loop(writer, out_receiver, &list_changed_pending, &broken));
            let workers: Vec<_> = (0..MAX_CONCURRENT_CALLS)
                .map(|_| {
                    let out_sender = out_sender.clone();
                    let (job_receiver, session) = (&job_receiver, &session);
                    scope.spawn(move || loop {
                        let job = job_receiver.lock().unwrap_or_else(PoisonError::into_inner).recv();
                        let reply = match job {
                            Ok(Job::Call(call)) => self.finish_call(session, call),
                            Ok(Job::Batch(items)) => self.run_batch(session, items),
                            Err(_) => return,
                        };
                        if let Some(reply) = reply {
                            let _ = out_sender.send(Out::Line(reply));
                        }
                    })
                })
                .collect();
            let outcome = self.read_loop(&mut reader, &out_sender, &job_sender, stop, &broken);
            if outcome.is_err() || stop.is_some_and(CancelToken::is_fired) {
                session.cancel_all();
            }
            drop(job_sender);
            for worker in workers {
                let _ = worker.join();
            }
            self.registry.unwatch(watch);
            // Open subscriptions/listen streams end gracefully.
            for listener in session.take_listeners() {
                let _ = out_sender.send(Out::Line(protocol::listen_closed(&listener)));
            }
            let _ = out_sender.send(Out::Shutdown);
            outcome
        });
        outcome
    }

    fn read_loop(
        &self,
        reader: &mut impl BufRead,
        out: &Sender<Out>,
        jobs: &SyncSender<Job>,
        stop: Option<&CancelToken>,
        broken: &AtomicBool,
    ) -> io::Result<()> {
        let mut buffer = Vec::new();
        loop {
            if stop.is_some_and(CancelToken::is_fired) || broken.load(Ordering::Acquire) {
                return Ok(());
            }
            let line = match read_line(reader, &mut buffer) {
                Ok(line) => line,
                Err(problem) if problem.kind() == io::ErrorKind::Interrupted => continue,
                Err(problem) => return Err(problem),
            };
            let message = match line {
                Line::Eof => return Ok(()),
                Line::TooLong => {
                    let text = format!("Invalid Request: a message may hold at most {MAX_MESSAGE_BYTES} bytes");
                    let _ = out.send(Out::Line(protocol::error(&Value::Null, protocol::INVALID_REQUEST, &text)));
                    continue;
                }
                Line::Message(message) => message,
            };
            let trimmed = message.trim_ascii();
            if trimmed.is_empty() {
                continue;
            }
            let job = match self.prepare(&self.session, trimmed) {
                Prepared::Done(Some(reply)) => {
                    let _ = out.send(Out::Line(reply));
                    continue;
                }
                Prepared::Done(None) => continue,
                Prepared::Call(call) => Job::Call(call),
                Prepared::Batch(items) => Job::Batch(items),
                Prepared::Listen(listen) => {
                    let _ = out.send(Out::Acknowledge(listen.id.clone(), listen.acknowledgement()));
                    continue;
                }
            };
            if jobs.send(job).is_err() {
                return Ok(());
            }
        }
    }

    fn write_loop(
        &self,
        writer: impl Write,
        receiver: Receiver<Out>,
        list_changed_pending: &AtomicBool,
        broken: &AtomicBool,
    ) {
        let mut writer = io::BufWriter::with_capacity(64 * 1024, writer);
        let mut failed = false;
        // The listen streams whose acknowledgement was written.
        let mut acknowledged: Vec<String> = Vec::new();
        while let Ok(first) = receiver.recv() {
            let mut next = Some(first);
            while let Some(out) = next.take() {
                let line = match out {
                    Out::Line(line) => line,
                    Out::Acknowledge(id, line) => {
                        acknowledged.push(id);
                        line
                    }
                    Out::ListChanged => {
                        list_changed_pending.store(false, Ordering::Release);
                        acknowledged.retain(|id| self.session.is_listening(id));
                        let mut lines = String::new();
                        // A session of the handshake hears it untagged; 2026-07-28
                        // clients only on the listen streams that asked for it.
                        if self.session.protocol_version().is_some() {
                            lines.push_str(LIST_CHANGED);
                        }
                        for id in self.session.tool_listeners().iter().filter(|id| acknowledged.contains(id)) {
                            if !lines.is_empty() {
                                lines.push('\n');
                            }
                            lines.push_str(&protocol::list_changed_on(id));
                        }
                        if lines.is_empty() {
                            next = receiver.try_recv().ok();
                            continue;
                        }
                        lines
                    }
                    Out::Shutdown => {
                        let _ = writer.flush();
                        return;
                    }
                };
                if !failed && (writer.write_all(line.as_bytes()).is_err() || writer.write_all(b"\n").is_err()) {
                    failed = true;
                }
                next = receiver.try_recv().ok();
            }
            if !failed && writer.flush().is_err() {
                failed = true;
            }
            if failed && !broken.swap(true, Ordering::AcqRel) {
                // The client is gone: nobody will read the results.
                self.session.cancel_all();
            }
        }
    }
}

/// A reader of a file descriptor that gives up (reads EOF) once a stop
/// token fires: it waits for input in slices of 100 ms, checking the token
/// between them. The descriptor is borrowed, never closed.
#[derive(Debug)]
pub struct FdReader {
    fd: i32,
    stop: Option<CancelToken>,
}

impl FdReader {
    /// A reader of `fd` that stops when `stop` fires.
    pub fn new(fd: i32, stop: Option<CancelToken>) -> Self {
        FdReader { fd, stop }
    }
}

impl Read for FdReader {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.stop.as_ref().is_some_and(CancelToken::is_fired) {
                return Ok(0);
            }
            let mut poll = libc::pollfd { fd: self.fd, events: libc::POLLIN, revents: 0 };
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut poll, 1, Duration::from_millis(100).as_millis() as i32) };
            if ready < 0 {
                let problem = io::Error::last_os_error();
                if problem.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(problem);
            }
            if ready == 0 {
                continue;
            }
            // SAFETY: the buffer is valid for its length; the fd is the caller's.
            let read = unsafe { libc::read(self.fd, buffer.as_mut_ptr().cast(), buffer.len()) };
            if read < 0 {
                let problem = io::Error::last_os_error();
                if problem.kind() == io::ErrorKind::Interrupted || problem.kind() == io::ErrorKind::WouldBlock {
                    continue;
                }
                return Err(problem);
            }
            return Ok(read as usize);
        }
    }
}

/// A writer of a file descriptor it does not close.
#[derive(Debug)]
pub struct FdWriter(i32);

impl FdWriter {
    /// A writer of `fd`.
    pub fn new(fd: i32) -> Self {
        FdWriter(fd)
    }
}

impl Write for FdWriter {
    fn write(&mut self, buffer: &[u8]) -> io::Result<usize> {
        loop {
            // SAFETY: the buffer is valid for its length; the fd is the caller's.
            let written = unsafe { libc::write(self.0, buffer.as_ptr().cast(), buffer.len()) };
            if written >= 0 {
                return Ok(written as usize);
            }
            let problem = io::Error::last_os_error();
            if problem.kind() != io::ErrorKind::Interrupted {
                return Err(problem);
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
