//! The stdio transport: newline-delimited JSON-RPC, one message a line.
//!
//! The reading thread answers every message but `tools/call` at once;
//! calls go to [`MAX_CONCURRENT_CALLS`] workers, so `ping`, `tools/list` and
//! `notifications/cancelled` are served while a long call runs. Whoever has
//! a line writes it (no hand-off to a writer thread: one thread switch less
//! per call), and the output is flushed when no call is left to answer, so
//! pipelined answers go out in big writes and a lone one at once. A
//! notifier thread writes `notifications/tools/list_changed`.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use serde_json::Value;

use super::protocol::{self, Call, Prepared};
use super::{McpServer, Session, MAX_CONCURRENT_CALLS, MAX_MESSAGE_BYTES, MAX_QUEUED_BYTES, MAX_QUEUED_CALLS};
use crate::CancelToken;

/// What the notifier thread is told.
enum Notice {
    /// The registry changed: `notifications/tools/list_changed`, once for
    /// any number of changes since the last one was written.
    ListChanged,
    Shutdown,
}

/// Work for a worker.
enum Job {
    Call(Call),
    Batch(Vec<Value>),
}

/// A job and the bytes of the message it came from (what it holds, about).
type Sized = (Job, usize);

/// The calls waiting for a worker: a bounded queue whose `push` wakes
/// exactly one idle worker (a channel behind a shared mutex woke a second
/// one, to queue up on the mutex, for every call: on two cores that thread
/// competes with the one doing the work).
struct JobQueue {
    /// The jobs, whether the queue is closed, and the bytes queued.
    state: Mutex<(VecDeque<Sized>, bool, usize)>,
    ready: Condvar,
    space: Condvar,
}

impl JobQueue {
    fn new() -> Self {
        JobQueue { state: Mutex::new((VecDeque::new(), false, 0)), ready: Condvar::new(), space: Condvar::new() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (VecDeque<Sized>, bool, usize)> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a job of `bytes`, waiting while [`MAX_QUEUED_CALLS`] wait;
    /// `Err` gives it back when the queue is closed (`true`) or holds too
    /// many bytes for it ([`MAX_QUEUED_BYTES`], `false`).
    #[allow(clippy::result_large_err)] // the job goes back to the caller, which answers it
    fn push(&self, job: Job, bytes: usize) -> Result<(), (Job, bool)> {
        let mut state = self.lock();
        while state.0.len() >= MAX_QUEUED_CALLS && !state.1 {
            state = self.space.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        if state.1 {
            return Err((job, true));
        }
        // One job is always taken, however big: a message is at most MAX_MESSAGE_BYTES.
        if !state.0.is_empty() && state.2 + bytes > MAX_QUEUED_BYTES {
            return Err((job, false));
        }
        state.2 += bytes;
        state.0.push_back((job, bytes));
        self.ready.notify_one();
        Ok(())
    }

    /// The next job, waiting for one; `None` once closed and empty.
    fn pop(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            if let Some((job, bytes)) = state.0.pop_front() {
                state.2 -= bytes;
                self.space.notify_one();
                return Some(job);
            }
            if state.1 {
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// No more jobs: the workers finish what is queued, then stop.
    fn close(&self) {
        self.lock().1 = true;
        self.ready.notify_all();
        self.space.notify_all();
    }
}

/// The writer and what is written with it, under one lock.
struct OutState<W: Write> {
    writer: io::BufWriter<W>,
    /// The listen streams whose acknowledgement was written: nothing else
    /// tagged with their id may precede it.
    acknowledged: Vec<String>,
}

/// The output of one stdio connection, written by the thread that has a
/// line to write: no hand-off to a writer thread on the way out. A worker
/// flushes when no call waits in the queue (and one that takes the last
/// queued call flushes what others left), so pipelined answers go out in
/// big writes and a lone answer at once; the reader flushes its own.
struct Output<'s, W: Write> {
    state: Mutex<OutState<W>>,
    /// Calls waiting for a worker.
    queued: AtomicUsize,
    /// Writing failed: the client is gone.
    broken: AtomicBool,
    session: &'s Session,
}

impl<W: Write> Output<'_, W> {
    fn lock(&self) -> std::sync::MutexGuard<'_, OutState<W>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `line` (and `\n`), then flushes when asked.
    fn write(&self, state: &mut OutState<W>, line: &str, flush: bool) {
        if self.broken.load(Ordering::Acquire) {
            return;
        }
        let mut outcome = state.writer.write_all(line.as_bytes()).and_then(|()| state.writer.write_all(b"\n"));
        if flush && outcome.is_ok() {
            outcome = state.writer.flush();
        }
        if outcome.is_err() {
            self.fail();
        }
    }

    fn flush(&self, state: &mut OutState<W>) {
        if !self.broken.load(Ordering::Acquire) && state.writer.flush().is_err() {
            self.fail();
        }
    }

    fn fail(&self) {
        if !self.broken.swap(true, Ordering::AcqRel) {
            // The client is gone: nobody will read the results.
            self.session.cancel_all();
        }
    }
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
        let output = Output {
            state: Mutex::new(OutState {
                writer: io::BufWriter::with_capacity(64 * 1024, writer),
                acknowledged: Vec::new(),
            }),
            queued: AtomicUsize::new(0),
            broken: AtomicBool::new(false),
            session: &session,
        };
        let (notice_sender, notice_receiver) = mpsc::channel::<Notice>();
        let jobs = JobQueue::new();
        let list_changed_pending = Arc::new(AtomicBool::new(false));
        let watch = {
            let notice_sender = notice_sender.clone();
            let pending = list_changed_pending.clone();
            self.registry.watch(move || {
                if !pending.swap(true, Ordering::AcqRel) {
                    let _ = notice_sender.send(Notice::ListChanged);
                }
            })
        };
        let outcome = std::thread::scope(|scope| {
            let output = &output;
            scope.spawn(|| self.notify_loop(output, notice_receiver, &list_changed_pending));
            let workers: Vec<_> = (0..MAX_CONCURRENT_CALLS)
                .map(|_| {
                    let (jobs, session) = (&jobs, &session);
                    scope.spawn(move || loop {
                        let Some(job) = jobs.pop() else { return };
                        if output.queued.fetch_sub(1, Ordering::AcqRel) == 1 {
                            // The queue is empty now: what other workers left
                            // unflushed goes out before this call runs (it may be long).
                            let mut state = output.lock();
                            if !state.writer.buffer().is_empty() {
                                output.flush(&mut state);
                            }
                        }
                        let reply = match job {
                            Job::Call(call) => self.finish_call(session, call),
                            Job::Batch(items) => self.run_batch(session, items),
                        };
                        let mut state = output.lock();
                        // More calls queued: the worker that takes the last one flushes.
                        let flush = output.queued.load(Ordering::Acquire) == 0;
                        match reply {
                            Some(reply) => output.write(&mut state, &reply, flush),
                            None if flush => output.flush(&mut state),
                            None => {}
                        }
                    })
                })
                .collect();
            let outcome = self.read_loop(&mut reader, output, &jobs, stop);
            if outcome.is_err() || stop.is_some_and(CancelToken::is_fired) {
                session.cancel_all();
            }
            jobs.close();
            for worker in workers {
                let _ = worker.join();
            }
            self.registry.unwatch(watch);
            let _ = notice_sender.send(Notice::Shutdown);
            outcome
        });
        // Open subscriptions/listen streams end gracefully.
        let mut state = output.lock();
        for listener in session.take_listeners() {
            output.write(&mut state, &protocol::listen_closed(&listener), false);
        }
        output.flush(&mut state);
        outcome
    }

    fn read_loop<W: Write>(
        &self,
        reader: &mut impl BufRead,
        output: &Output<'_, W>,
        jobs: &JobQueue,
        stop: Option<&CancelToken>,
    ) -> io::Result<()> {
        let mut buffer = Vec::new();
        loop {
            if stop.is_some_and(CancelToken::is_fired) || output.broken.load(Ordering::Acquire) {
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
                    let mut state = output.lock();
                    let reply = protocol::error(&Value::Null, protocol::INVALID_REQUEST, &text);
                    output.write(&mut state, &reply, true);
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
                    let mut state = output.lock();
                    output.write(&mut state, &reply, true);
                    continue;
                }
                Prepared::Done(None) => continue,
                Prepared::Call(call) => Job::Call(call),
                Prepared::Batch(items) => Job::Batch(items),
                Prepared::Listen(listen) => {
                    let mut state = output.lock();
                    output.write(&mut state, &listen.acknowledgement(), true);
                    state.acknowledged.push(listen.id);
                    continue;
                }
            };
            output.queued.fetch_add(1, Ordering::AcqRel);
            match jobs.push(job, trimmed.len()) {
                Ok(()) => {}
                Err((_, true)) => {
                    output.queued.fetch_sub(1, Ordering::AcqRel);
                    return Ok(());
                }
                Err((job, false)) => {
                    output.queued.fetch_sub(1, Ordering::AcqRel);
                    let why = format!(
                        "Server busy: the calls waiting hold {MAX_QUEUED_BYTES} bytes (MAX_QUEUED_BYTES); retry once some were answered"
                    );
                    let reply = match job {
                        Job::Call(call) => Some(call.refuse(&self.session, &why)),
                        Job::Batch(items) => protocol::refuse_batch(&items, &why),
                    };
                    if let Some(reply) = reply {
                        let mut state = output.lock();
                        output.write(&mut state, &reply, true);
                    }
                }
            }
        }
    }

    /// Writes `notifications/tools/list_changed` for every change (a burst
    /// of changes makes one), flushing at once.
    fn notify_loop<W: Write>(
        &self,
        output: &Output<'_, W>,
        receiver: Receiver<Notice>,
        list_changed_pending: &AtomicBool,
    ) {
        while let Ok(Notice::ListChanged) = receiver.recv() {
            list_changed_pending.store(false, Ordering::Release);
            let mut state = output.lock();
            let state = &mut *state;
            state.acknowledged.retain(|id| self.session.is_listening(id));
            // A session of the handshake hears it untagged; 2026-07-28
            // clients only on the listen streams that asked for it.
            let mut lines = Vec::new();
            if self.session.protocol_version().is_some() {
                lines.push(LIST_CHANGED.to_owned());
            }
            for id in self.session.tool_listeners().iter().filter(|id| state.acknowledged.contains(id)) {
                lines.push(protocol::list_changed_on(id));
            }
            for line in &lines {
                output.write(state, line, false);
            }
            if !lines.is_empty() {
                output.flush(state);
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
