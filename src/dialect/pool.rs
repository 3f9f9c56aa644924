//! The threads that run the calls of one reply at once.
//!
//! Scoped threads (`std::thread::scope`): they borrow the calls for the
//! length of `run` and are joined before it returns, so no lifetime is
//! erased and nothing outlives the reply. The calling thread takes part: it
//! claims calls from the same counter as the helpers, so a handler that
//! itself responds cannot starve. Each thread that claims a call while more
//! remain starts one more helper, so calls that block (a network request, a
//! sleep) overlap, up to `min(available_parallelism × 4, 16)` helpers alive
//! in the process at once. Only calls past the quick threshold (20 us, see
//! `run_calls`) come here, so a thread's start is paid only beside calls
//! that take at least that long; `dialects_threads/respond_4_calls_of_50us`
//! in benches/dispatch.rs measures it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::OnceLock;
use std::thread::Scope;

/// Helpers alive in the process, across every reply.
static HELPERS: AtomicUsize = AtomicUsize::new(0);

fn limit() -> usize {
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| std::thread::available_parallelism().map_or(4, |count| count.get()).saturating_mul(4).min(16))
}

/// One reply's calls, shared by the threads that run them.
struct Batch<'a> {
    job: &'a (dyn Fn(usize) + Sync),
    len: usize,
    next: AtomicUsize,
}

/// Runs `job(0)` … `job(len - 1)`, at once where they block, and returns
/// when all have returned.
pub(super) fn run(len: usize, job: &(dyn Fn(usize) + Sync)) {
    if len <= 1 {
        (0..len).for_each(job);
        return;
    }
    let batch = Batch { job, len, next: AtomicUsize::new(0) };
    std::thread::scope(|scope| work(scope, &batch));
}

/// Claims and runs calls until none is left, starting a helper for the rest
/// before each call it runs.
fn work<'scope>(scope: &'scope Scope<'scope, '_>, batch: &'scope Batch<'scope>) {
    loop {
        let index = batch.next.fetch_add(1, SeqCst);
        if index >= batch.len {
            return;
        }
        if index + 1 < batch.len {
            start_helper(scope, batch);
        }
        // The job catches handler panics itself; this keeps the other calls
        // going should anything else panic.
        let _ = catch_unwind(AssertUnwindSafe(|| (batch.job)(index)));
    }
}

/// Starts one more helper on `batch`, if the process may have one more.
fn start_helper<'scope>(scope: &'scope Scope<'scope, '_>, batch: &'scope Batch<'scope>) {
    if HELPERS.fetch_update(SeqCst, SeqCst, |count| (count < limit()).then_some(count + 1)).is_err() {
        return;
    }
    let started = std::thread::Builder::new().name("aikido-respond".to_owned()).spawn_scoped(scope, move || {
        work(scope, batch);
        HELPERS.fetch_sub(1, SeqCst);
    });
    if started.is_err() {
        // No thread: the threads already running take the calls.
        HELPERS.fetch_sub(1, SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    #[test]
    fn every_call_runs_once_and_blocking_calls_overlap() {
        // Each call waits (up to a minute) until all four are inside at
        // once: only threads of their own get them there.
        let (inside, all_in) = (Mutex::new(0), Condvar::new());
        let ran = Mutex::new(Vec::new());
        run(4, &|index| {
            let mut count = inside.lock().unwrap();
            *count += 1;
            all_in.notify_all();
            let (count, waited) =
                all_in.wait_timeout_while(count, Duration::from_secs(60), |count| *count < 4).unwrap();
            assert!(!waited.timed_out(), "only {} calls ran at once", *count);
            drop(count);
            ran.lock().unwrap().push(index);
        });
        let mut ran = ran.into_inner().unwrap();
        ran.sort_unstable();
        assert_eq!(ran, [0, 1, 2, 3]);
    }

    #[test]
    fn a_panicking_call_leaves_the_others_running() {
        let ran = AtomicUsize::new(0);
        run(4, &|index| {
            assert_ne!(index, 1, "call 1 panics");
            ran.fetch_add(1, SeqCst);
        });
        assert_eq!(ran.load(SeqCst), 3);
    }

    #[test]
    fn a_call_that_responds_itself_finishes() {
        let inner = AtomicUsize::new(0);
        run(3, &|_| {
            run(3, &|_| {
                inner.fetch_add(1, SeqCst);
            })
        });
        assert_eq!(inner.load(SeqCst), 9);
    }
}
