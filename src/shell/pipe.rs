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

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::LimitHit;
use crate::CancelToken;

/// Bytes a pipe holds before its writer waits.
pub(crate) const CAPACITY: usize = 64 << 10;

/// How long a wait lasts before the clock is asked again.
const TICK: Duration = Duration::from_millis(10);

/// The run's clock and token, which every waiting stage asks.
#[derive(Debug, Clone)]
pub(crate) struct Clock {
    pub(crate) start: Instant,
    pub(crate) max_duration: Duration,
    pub(crate) cancel: Option<CancelToken>,
}

impl Clock {
    /// Whether the run may go on.
    pub(crate) fn check(&self) -> Result<(), LimitHit> {
        if self.cancel.as_ref().is_some_and(CancelToken::is_fired) {
            return Err(LimitHit::Cancelled);
        }
        if self.start.elapsed() > self.max_duration {
            return Err(LimitHit::WallTime);
        }
        Ok(())
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
    (PipeWriter(pipe.clone()), PipeReader(pipe))
}

/// The write end; dropping it is end of file for the reader.
#[derive(Debug)]
pub(crate) struct PipeWriter(Arc<Pipe>);

impl PipeWriter {
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
pub(crate) struct PipeReader(Arc<Pipe>);

impl PipeReader {
    /// The bytes written since the last read (at most [`CAPACITY`]),
    /// waiting for some; `None` at end of file. `recycle` is a buffer the
    /// caller is done with, kept for the writer.
    pub(crate) fn read(&self, recycle: Vec<u8>) -> Result<Option<Vec<u8>>, LimitHit> {
        let pipe = &*self.0;
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
        let mut state = self.0.lock();
        state.reader_gone = true;
        state.ghost = state.buf.len();
        state.buf = Vec::new();
        state.spare = Vec::new();
        drop(state);
        self.0.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> Arc<Clock> {
        Arc::new(Clock { start: Instant::now(), max_duration: Duration::from_secs(60), cancel: None })
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
        let clock = Arc::new(Clock {
            start: Instant::now(),
            max_duration: Duration::from_secs(60),
            cancel: Some(token.clone()),
        });
        let (writer, _reader) = pipe(clock);
        token.fire();
        assert_eq!(writer.write(&vec![0; 2 * CAPACITY]), Err(LimitHit::Cancelled));
        let clock = Arc::new(Clock { start: Instant::now(), max_duration: Duration::from_millis(30), cancel: None });
        let (_writer, reader) = pipe(clock);
        assert_eq!(reader.read(Vec::new()), Err(LimitHit::WallTime));
    }
}
