//! One run's resources, as each of its threads sees them: the storage, the
//! limits, the clock and the cancellation token, and the counters the
//! limits are checked against (commands, iterations, memory, threads).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::pipe::Clock;
use super::state::State;
use super::{LimitHit, Limits};
use crate::storage::Storage;
use crate::CancelToken;

/// What one run shares across its subshells and the threads of its
/// pipeline stages: the clock and the token, and the counters of the limits.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) clock: Arc<Clock>,
    commands: AtomicU64,
    iterations: AtomicU64,
    /// Bytes stored in variables since the session's size was last counted.
    stored: AtomicUsize,
    /// Set when the memory budget was exceeded: the next command stops.
    over_memory: AtomicBool,
    /// Stage and job threads running.
    pub(crate) threads: AtomicUsize,
    /// Background jobs: the last `$!` given, and how many have finished
    /// (each job's place in that order, for `wait -n`), with a signal to
    /// those waiting for one.
    pub(crate) pids: std::sync::atomic::AtomicU32,
    pub(crate) finished: Mutex<u64>,
    pub(crate) job_done: std::sync::Condvar,
    /// Jobs left by jobs that have ended, for the run's end to join.
    pub(crate) orphans: super::jobs::Orphans,
}

/// One thread's view of a run: the storage, the limits, the shared
/// counters, and what is the thread's own (the stack, `timeout`'s clock).
pub(crate) struct Runtime<'r> {
    pub(crate) storage: &'r dyn Storage,
    pub(crate) limits: &'r Limits,
    pub(crate) shared: Arc<Shared>,
    /// This thread's clock: the run's, or a background job's own.
    pub(crate) clock: Arc<Clock>,
    /// What a background job's thread needs to outlive the command that
    /// starts it (`None`: `&` runs in the foreground).
    pub(crate) jobs_env: Option<Arc<super::jobs::JobEnv>>,
    ticks: Cell<u32>,
    /// A nearer end than `max_duration`, while `timeout` runs a command.
    deadline: Cell<Option<Instant>>,
    /// The stack address when the run started (see [`STACK_BUDGET`]).
    stack_base: usize,
}

/// What a stage's thread needs to make its own [`Runtime`].
#[derive(Clone, Copy)]
pub(crate) struct Seed<'a, 'r> {
    storage: &'r dyn Storage,
    limits: &'r Limits,
    shared: &'a Arc<Shared>,
    clock: &'a Arc<Clock>,
    jobs_env: &'a Option<Arc<super::jobs::JobEnv>>,
    deadline: Option<Instant>,
}

impl<'r> Seed<'_, 'r> {
    pub(crate) fn runtime(self) -> Runtime<'r> {
        Runtime {
            storage: self.storage,
            limits: self.limits,
            shared: self.shared.clone(),
            clock: self.clock.clone(),
            jobs_env: self.jobs_env.clone(),
            ticks: Cell::new(0),
            deadline: Cell::new(self.deadline),
            stack_base: stack_address(),
        }
    }
}

/// Stack a run may use below where it started. Nesting (functions,
/// subshells, `eval`, substitutions, deeply nested compound commands) is
/// refused past it with [`LimitHit::FunctionDepth`], so no script can
/// overflow the caller's stack (threads have at least 2 MiB by default).
const STACK_BUDGET: usize = 1 << 20;

/// The address of a local: how deep the stack is here.
fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl<'r> Runtime<'r> {
    pub(crate) fn new(storage: &'r dyn Storage, limits: &'r Limits, cancel: Option<&'r CancelToken>) -> Self {
        let clock = Arc::new(Clock::new(Instant::now(), limits.max_duration, cancel.cloned()));
        Runtime {
            storage,
            limits,
            clock: clock.clone(),
            jobs_env: None,
            shared: Arc::new(Shared {
                clock,
                commands: AtomicU64::new(0),
                iterations: AtomicU64::new(0),
                stored: AtomicUsize::new(0),
                over_memory: AtomicBool::new(false),
                threads: AtomicUsize::new(0),
                pids: std::sync::atomic::AtomicU32::new(super::jobs::FIRST_PID),
                finished: Mutex::new(0),
                job_done: std::sync::Condvar::new(),
                orphans: super::jobs::Orphans::default(),
            }),
            ticks: Cell::new(0),
            deadline: Cell::new(None),
            stack_base: stack_address(),
        }
    }

    /// A background job's view of the run (see `jobs.rs`).
    pub(crate) fn for_job(
        env: &'r Arc<super::jobs::JobEnv>,
        shared: Arc<Shared>,
        clock: Arc<Clock>,
        deadline: Option<Instant>,
    ) -> Self {
        Runtime {
            storage: &*env.storage,
            limits: &env.limits,
            shared,
            clock,
            jobs_env: Some(env.clone()),
            ticks: Cell::new(0),
            deadline: Cell::new(deadline),
            stack_base: stack_address(),
        }
    }

    /// The storage as a shared handle a stream may keep (`< file` reads a
    /// large file piece by piece); `None` where the run has no jobs.
    pub(crate) fn shared_storage(&self) -> Option<Arc<dyn Storage>> {
        self.jobs_env.as_ref().map(|env| env.storage.clone())
    }

    /// `timeout`'s nearer end, while it runs a command.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline.get()
    }

    /// Sets (or clears) `timeout`'s nearer end.
    pub(crate) fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
    }

    /// What another thread of this run needs.
    pub(crate) fn seed(&self) -> Seed<'_, 'r> {
        Seed {
            storage: self.storage,
            limits: self.limits,
            shared: &self.shared,
            clock: &self.clock,
            jobs_env: &self.jobs_env,
            deadline: self.deadline.get(),
        }
    }

    /// Takes `n` stage threads from the run's allowance ([`super::MAX_THREADS`]).
    pub(crate) fn reserve_threads(&self, n: usize) -> Result<(), LimitHit> {
        let before = self.shared.threads.fetch_add(n, Ordering::AcqRel);
        if before.saturating_add(n) > super::MAX_THREADS {
            self.shared.threads.fetch_sub(n, Ordering::AcqRel);
            return Err(LimitHit::Threads);
        }
        Ok(())
    }

    /// Gives back what [`reserve_threads`](Self::reserve_threads) took.
    pub(crate) fn release_threads(&self, n: usize) {
        self.shared.threads.fetch_sub(n, Ordering::AcqRel);
    }

    /// Refuses to nest deeper once the stack budget is used.
    pub(crate) fn check_stack(&self) -> Result<(), LimitHit> {
        if self.stack_base.saturating_sub(stack_address()) > STACK_BUDGET || super::stack::too_deep() {
            Err(LimitHit::FunctionDepth)
        } else {
            Ok(())
        }
    }

    /// The clock and the token (cheap enough to call often, not every step).
    pub(crate) fn check(&self) -> Result<(), LimitHit> {
        self.clock.check()?;
        if self.deadline.get().is_some_and(|end| Instant::now() >= end) {
            return Err(LimitHit::WallTime);
        }
        Ok(())
    }

    fn tick(&self) -> Result<(), LimitHit> {
        let t = self.ticks.get().wrapping_add(1);
        self.ticks.set(t);
        if t.is_multiple_of(16) {
            self.check()
        } else {
            Ok(())
        }
    }

    /// Notes `bytes` just stored in a variable of `state`. Every eighth of
    /// the memory budget stored, the session's variables are counted; past
    /// the budget the run stops at its next command.
    pub(crate) fn note_stored(&self, bytes: usize, state: &State) -> Result<(), LimitHit> {
        let budget = self.limits.max_memory_bytes;
        let stored = self.shared.stored.fetch_add(bytes, Ordering::AcqRel).saturating_add(bytes);
        if stored < budget / 8 {
            return Ok(());
        }
        self.shared.stored.store(0, Ordering::Release);
        if bytes > budget || state.bytes() > budget {
            self.shared.over_memory.store(true, Ordering::Release);
            return Err(LimitHit::Memory);
        }
        Ok(())
    }

    pub(crate) fn count_command(&self) -> Result<(), LimitHit> {
        if self.shared.over_memory.load(Ordering::Acquire) {
            return Err(LimitHit::Memory);
        }
        let n = self.shared.commands.fetch_add(1, Ordering::AcqRel) + 1;
        if n > self.limits.max_commands {
            return Err(LimitHit::Commands);
        }
        self.tick()
    }

    pub(crate) fn elapsed_secs(&self) -> u64 {
        self.shared.clock.start.elapsed().as_secs()
    }

    pub(crate) fn count_iteration(&self) -> Result<(), LimitHit> {
        if self.shared.over_memory.load(Ordering::Acquire) {
            return Err(LimitHit::Memory);
        }
        let n = self.shared.iterations.fetch_add(1, Ordering::AcqRel) + 1;
        if n > self.limits.max_loop_iterations {
            return Err(LimitHit::LoopIterations);
        }
        self.tick()
    }
}
