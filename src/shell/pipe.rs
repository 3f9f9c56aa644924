//! The pipe between two stages of a pipeline, as the kernel's: a bounded
//! buffer ([`CAPACITY`] bytes, Linux's 64 KiB), a writer that waits while
//! it is full, a reader that waits while it is empty, end of file once the
//! writer has gone, and SIGPIPE once the reader has gone.
//!
//! As with a real pipe, what the writer writes after the reader has gone
//! still fills the buffer (the reader may have exited before the writer
//! even started): the write that finds it full fails with
//! [`LimitHit::BrokenPipe`], which ends the writing stage with status 141.
//! So `echo hi | true` ends 0 and `yes | head -n 1` ends 141, as bash's
//! usually do, and always.
//!
//! Waiting never outlasts the run: every wait wakes up often enough to ask
//! the run's clock and cancellation token ([`Clock`]).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::LimitHit;
use crate::CancelToken;

/// Bytes a pipe holds before its writer waits.
pub(crate) const CAPACITY: usize = 64 << 10;

/// How long a wait lasts before the clock is asked again.
const TICK: Duration = Duration::from_millis(10);

/// The run's clock and token, which every waiting stage asks. A
/// background job has a clock of its own whose parent is the clock of the
/// shell that started it: `kill` stops the job alone, and the run's clock
/// (the root) can stop every job at once.
#[derive(Debug)]
pub(crate) struct Clock {
    pub(crate) start: Instant,
    pub(crate) max_duration: Duration,
    pub(crate) cancel: Option<CancelToken>,
    /// The clock of the shell that started this job (`None` for the run's).
    parent: Option<Arc<Clock>>,
    /// The signal `kill` sent this job (0: none).
    killed: AtomicU8,
    /// The root's: a limit a job hit, which stops the whole run, or
    /// [`STOPPING`] while the run's end stops its jobs.
    halt: AtomicU8,
}

/// [`Clock::halt`]'s value while the run's end stops its jobs.
const STOPPING: u8 = u8::MAX;

/// Every limit, numbered for [`Clock::halt`] (its index plus one).
const HITS: [LimitHit; 9] = [
    LimitHit::Commands,
    LimitHit::LoopIterations,
    LimitHit::FunctionDepth,
    LimitHit::Output,
    LimitHit::WallTime,
    LimitHit::Cancelled,
    LimitHit::Memory,
    LimitHit::Threads,
    LimitHit::BrokenPipe,
];

impl Clock {
    /// A run's clock.
    pub(crate) fn new(start: Instant, max_duration: Duration, cancel: Option<CancelToken>) -> Self {
        Clock { start, max_duration, cancel, parent: None, killed: AtomicU8::new(0), halt: AtomicU8::new(0) }
    }

    /// A background job's clock, below `parent`.
    pub(crate) fn child(parent: &Arc<Clock>) -> Self {
        Clock {
            start: parent.start,
            max_duration: parent.max_duration,
            cancel: None,
            parent: Some(parent.clone()),
            killed: AtomicU8::new(0),
            halt: AtomicU8::new(0),
        }
    }

    /// Whether the run may go on.
    pub(crate) fn check(&self) -> Result<(), LimitHit> {
        if self.killed.load(Ordering::Acquire) != 0 {
            return Err(LimitHit::Cancelled);
        }
        if let Some(parent) = &self.parent {
            return parent.check();
        }
        match self.halt.load(Ordering::Acquire) {
            0 => {}
            STOPPING => return Err(LimitHit::Cancelled),
            n => return Err(HITS[usize::from(n - 1)]),
        }
        if self.cancel.as_ref().is_some_and(CancelToken::is_fired) {
            return Err(LimitHit::Cancelled);
        }
        if self.start.elapsed() > self.max_duration {
            return Err(LimitHit::WallTime);
        }
        Ok(())
    }

    fn root(&self) -> &Clock {
        let mut clock = self;
        while let Some(parent) = &clock.parent {
            clock = parent;
        }
        clock
    }

    /// Stops the whole run with `hit` (a job hit a limit), unless it is
    /// already stopping.
    pub(crate) fn halt(&self, hit: LimitHit) {
        let code = HITS.iter().position(|&h| h == hit).map_or(STOPPING, |i| i as u8 + 1);
        let _ = self.root().halt.compare_exchange(0, code, Ordering::AcqRel, Ordering::Acquire);
    }

    /// The limit a job stopped the run with, if any.
    pub(crate) fn halted(&self) -> Option<LimitHit> {
        match self.root().halt.load(Ordering::Acquire) {
            0 | STOPPING => None,
            n => Some(HITS[usize::from(n - 1)]),
        }
    }

    /// Whether the run's end is stopping the jobs.
    pub(crate) fn stopping(&self) -> bool {
        self.root().halt.load(Ordering::Acquire) == STOPPING
    }

    /// The run's end: every job still running stops at its next check.
    pub(crate) fn stop_jobs(&self) {
        let _ = self.root().halt.compare_exchange(0, STOPPING, Ordering::AcqRel, Ordering::Acquire);
    }

    /// The jobs are gone: the run's clock checks as before.
    pub(crate) fn jobs_stopped(&self) {
        let _ = self.root().halt.compare_exchange(STOPPING, 0, Ordering::AcqRel, Ordering::Acquire);
    }

    /// `kill -SIG` on this job: it stops at its next check.
    pub(crate) fn kill(&self, signal: u8) {
        let _ = self.killed.compare_exchange(0, signal.max(1), Ordering::AcqRel, Ordering::Acquire);
    }

    /// The signal `kill` sent this job, if any.
    pub(crate) fn killed(&self) -> Option<u8> {
        Some(self.killed.load(Ordering::Acquire)).filter(|&s| s != 0)
    }
}

#[derive(Debug, Default)]
struct State {
    /// Bytes written and not yet read.
    buf: Vec<u8>,
    /// A buffer the reader gave back, reused by the writer.
    spare: Vec<u8>,
    /// Bytes written after the reader had gone (counted, not kept).
    ghost: usize,
    writer_gone: bool,
    reader_gone: bool,
}

#[derive(Debug)]
struct Pipe {
    state: Mutex<State>,
    changed: Condvar,
    clock: Arc<Clock>,
}

impl Pipe {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock: a poisoned one is consistent.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State>) -> Result<MutexGuard<'a, State>, LimitHit> {
        let (guard, _) = self.changed.wait_timeout(guard, TICK).unwrap_or_else(std::sync::PoisonError::into_inner);
        self.clock.check()?;
        Ok(guard)
    }
}

/// A new pipe: its write end and its read end.
pub(crate) fn pipe(clock: Arc<Clock>) -> (PipeWriter, PipeReader) {
    let pipe = Arc::new(Pipe { state: Mutex::new(State::default()), changed: Condvar::new(), clock });
    (PipeWriter(pipe.clone(), None), PipeReader { pipe, guard: None })
}

/// The write end; dropping it is end of file for the reader. Its guard (a
/// `>(cmd)`'s thread, which its drop joins) goes after the end has closed.
#[derive(Debug)]
pub(crate) struct PipeWriter(Arc<Pipe>, Option<Box<dyn std::any::Any + Send>>);

impl PipeWriter {
    /// This write end with `guard`, dropped once the end has closed.
    pub(crate) fn with_guard(mut self, guard: Box<dyn std::any::Any + Send>) -> Self {
        self.1 = Some(guard);
        self
    }

    /// Writes all of `bytes`, waiting while the pipe is full; fails with
    /// [`LimitHit::BrokenPipe`] once the reader has gone and the buffer is
    /// full, and with the run's limit when the run must stop.
    pub(crate) fn write(&self, mut bytes: &[u8]) -> Result<(), LimitHit> {
        let pipe = &*self.0;
        let mut state = pipe.lock();
        while !bytes.is_empty() {
            if state.reader_gone {
                let room = CAPACITY.saturating_sub(state.ghost);
                if room == 0 {
                    return Err(LimitHit::BrokenPipe);
                }
                let n = room.min(bytes.len());
                state.ghost += n;
                bytes = &bytes[n..];
                continue;
            }
            let room = CAPACITY.saturating_sub(state.buf.len());
            if room == 0 {
                state = pipe.wait(state)?;
                continue;
            }
            let n = room.min(bytes.len());
            let was_empty = state.buf.is_empty();
            if state.buf.capacity() == 0 {
                state.buf = std::mem::take(&mut state.spare);
            }
            state.buf.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if was_empty {
                pipe.changed.notify_all();
            }
        }
        Ok(())
    }
}

impl Drop for PipeWriter {
    fn drop(&mut self) {
        self.0.lock().writer_gone = true;
        self.0.changed.notify_all();
    }
}

/// The read end; dropping it makes the writer's next full write fail.
#[derive(Debug)]
pub(crate) struct PipeReader {
    pipe: Arc<Pipe>,
    /// Dropped after the end has closed: a process substitution's thread,
    /// which its drop stops and joins (see `procsub.rs`).
    guard: Option<Box<dyn std::any::Any + Send>>,
}

impl PipeReader {
    /// This read end with `guard`, dropped once the end has closed.
    pub(crate) fn with_guard(mut self, guard: Box<dyn std::any::Any + Send>) -> Self {
        self.guard = Some(guard);
        self
    }

    /// The bytes written since the last read (at most [`CAPACITY`]),
    /// waiting for some; `None` at end of file. `recycle` is a buffer the
    /// caller is done with, kept for the writer.
    pub(crate) fn read(&self, recycle: Vec<u8>) -> Result<Option<Vec<u8>>, LimitHit> {
        let pipe = &*self.pipe;
        let mut state = pipe.lock();
        if state.spare.capacity() == 0 && recycle.capacity() <= 2 * CAPACITY {
            let mut recycle = recycle;
            recycle.clear();
            state.spare = recycle;
        }
        loop {
            if !state.buf.is_empty() {
                let spare = std::mem::take(&mut state.spare);
                let data = std::mem::replace(&mut state.buf, spare);
                pipe.changed.notify_all();
                return Ok(Some(data));
            }
            if state.writer_gone {
                return Ok(None);
            }
            state = pipe.wait(state)?;
        }
    }
}

impl Drop for PipeReader {
    fn drop(&mut self) {
        let mut state = self.pipe.lock();
        state.reader_gone = true;
        state.ghost = state.buf.len();
        state.buf = Vec::new();
        state.spare = Vec::new();
        drop(state);
        self.pipe.changed.notify_all();
        // The guard goes after the end has closed, as a field after `drop`.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> Arc<Clock> {
        Arc::new(Clock::new(Instant::now(), Duration::from_secs(60), None))
    }

    #[test]
    fn bytes_flow_in_order_and_end_with_the_writer() {
        let (writer, reader) = pipe(clock());
        let producer = std::thread::spawn(move || {
            for i in 0..100_000u32 {
                writer.write(format!("{i}\n").as_bytes()).unwrap();
            }
        });
        let mut all = Vec::new();
        let mut recycle = Vec::new();
        while let Some(chunk) = reader.read(recycle).unwrap() {
            assert!(chunk.len() <= CAPACITY);
            all.extend_from_slice(&chunk);
            recycle = chunk;
        }
        producer.join().unwrap();
        let expected: String = (0..100_000u32).map(|i| format!("{i}\n")).collect();
        assert_eq!(all, expected.as_bytes());
    }

    #[test]
    fn a_gone_reader_breaks_the_pipe_once_the_buffer_is_full() {
        let (writer, reader) = pipe(clock());
        drop(reader);
        writer.write(b"fits\n").unwrap();
        assert_eq!(writer.write(&vec![b'y'; CAPACITY]), Err(LimitHit::BrokenPipe));
    }

    #[test]
    fn a_waiting_writer_stops_at_the_time_limit_or_cancellation() {
        let token = CancelToken::new();
        let clock = Arc::new(Clock::new(Instant::now(), Duration::from_secs(60), Some(token.clone())));
        let (writer, _reader) = pipe(clock);
        token.fire();
        assert_eq!(writer.write(&vec![0; 2 * CAPACITY]), Err(LimitHit::Cancelled));
        let clock = Arc::new(Clock::new(Instant::now(), Duration::from_millis(30), None));
        let (_writer, reader) = pipe(clock);
        assert_eq!(reader.read(Vec::new()), Err(LimitHit::WallTime));
    }
}
