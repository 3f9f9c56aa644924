//! The threads that run the calls of one reply at once.
//!
//! The calling thread takes part: it claims calls from the same counter as
//! the helpers, so a reply of quick calls is done before any helper wakes,
//! and a handler that itself responds cannot starve. Helpers are kept
//! parked between replies (starting a thread costs more than a quick tool
//! call), at most `min(available_parallelism × 4, 16)` of them for the
//! process, and each one that starts a call wakes the next while calls
//! remain, so calls that block (a network request, a sleep) overlap.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// One reply's calls, shared with the helpers.
struct Batch {
    /// The job, its lifetime erased: called only while `closed` is false
    /// and the helper is counted in `active`, which `run` waits out.
    job: *const (dyn Fn(usize) + Sync),
    len: usize,
    next: AtomicUsize,
    done: AtomicUsize,
    active: AtomicUsize,
    closed: AtomicBool,
    /// How many more helpers this batch may still wake.
    wakes: AtomicUsize,
    /// Where the caller waits for the last call and the last helper (a
    /// condition variable rather than park/unpark: no thread handle is
    /// made for a foreign caller thread).
    lock: Mutex<()>,
    changed: Condvar,
}

impl Batch {
    fn wake_caller(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        self.changed.notify_all();
    }

    fn wait_until(&self, done: impl Fn(&Batch) -> bool) {
        let mut guard = self.lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        while !done(self) {
            guard = self.changed.wait(guard).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

// SAFETY: `job` points to a `Sync` closure, used as documented on the field.
unsafe impl Send for Batch {}
// SAFETY: as above; every other field is thread-safe.
unsafe impl Sync for Batch {}

struct Pool {
    queue: Mutex<VecDeque<Arc<Batch>>>,
    ready: Condvar,
    idle: AtomicUsize,
    threads: AtomicUsize,
    limit: usize,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool {
        queue: Mutex::new(VecDeque::new()),
        ready: Condvar::new(),
        idle: AtomicUsize::new(0),
        threads: AtomicUsize::new(0),
        limit: std::thread::available_parallelism().map_or(4, |count| count.get()).saturating_mul(4).min(16),
    })
}

/// Runs `job(0)` … `job(len - 1)`, at once where they block, and returns
/// when all have returned.
pub(super) fn run(len: usize, job: &(dyn Fn(usize) + Sync)) {
    if len <= 1 {
        (0..len).for_each(job);
        return;
    }
    let pool = pool();
    // SAFETY: only the lifetime is erased; see Batch::job.
    let erased: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(job) };
    let batch = Arc::new(Batch {
        job: erased,
        len,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        active: AtomicUsize::new(0),
        closed: AtomicBool::new(false),
        wakes: AtomicUsize::new((len - 1).min(pool.limit)),
        lock: Mutex::new(()),
        changed: Condvar::new(),
    });
    wake_helper(pool, &batch);
    loop {
        let index = batch.next.fetch_add(1, SeqCst);
        if index >= len {
            break;
        }
        run_one(job, index);
        batch.done.fetch_add(1, SeqCst);
    }
    if batch.done.load(SeqCst) < len {
        batch.wait_until(|batch| batch.done.load(SeqCst) == len);
    }
    batch.closed.store(true, SeqCst);
    if batch.active.load(SeqCst) > 0 {
        batch.wait_until(|batch| batch.active.load(SeqCst) == 0);
    }
}

fn run_one(job: &(dyn Fn(usize) + Sync), index: usize) {
    // The job catches handler panics itself; this keeps a helper alive
    // should anything else panic.
    let _ = catch_unwind(AssertUnwindSafe(|| job(index)));
}

/// Hands the batch to one more helper, if it may wake one.
fn wake_helper(pool: &'static Pool, batch: &Arc<Batch>) {
    if batch.wakes.fetch_update(SeqCst, SeqCst, |wakes| wakes.checked_sub(1)).is_err() {
        return;
    }
    let spawn = {
        let mut queue = pool.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        queue.push_back(Arc::clone(batch));
        if pool.idle.load(SeqCst) > 0 {
            pool.ready.notify_one();
            false
        } else {
            pool.threads.fetch_update(SeqCst, SeqCst, |count| (count < pool.limit).then_some(count + 1)).is_ok()
        }
    };
    if spawn {
        let started = std::thread::Builder::new().name("aikido-respond".to_owned()).spawn(move || helper(pool));
        if started.is_err() {
            pool.threads.fetch_sub(1, SeqCst);
        }
    }
}

fn helper(pool: &'static Pool) {
    loop {
        let batch = {
            let mut queue = pool.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            loop {
                if let Some(batch) = queue.pop_front() {
                    break batch;
                }
                pool.idle.fetch_add(1, SeqCst);
                queue = pool.ready.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
                pool.idle.fetch_sub(1, SeqCst);
            }
        };
        batch.active.fetch_add(1, SeqCst);
        if !batch.closed.load(SeqCst) {
            loop {
                let index = batch.next.fetch_add(1, SeqCst);
                if index >= batch.len {
                    break;
                }
                if index + 1 < batch.len {
                    wake_helper(pool, &batch);
                }
                // SAFETY: not closed and counted in `active`: the caller is
                // still inside `run`, so the job is alive.
                run_one(unsafe { &*batch.job }, index);
                if batch.done.fetch_add(1, SeqCst) + 1 == batch.len {
                    batch.wake_caller();
                }
            }
        }
        if batch.active.fetch_sub(1, SeqCst) == 1 && batch.closed.load(SeqCst) {
            batch.wake_caller();
        }
    }
}
