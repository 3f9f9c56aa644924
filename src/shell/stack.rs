//! The stack a script runs on. Every recursive part of the shell (the
//! parsers, the interpreter, the expansions, arithmetic, `[[ ]]`, `test`,
//! `expr`, `find`, `awk`, `jq`) bounds its nesting, and as a last guard asks
//! [`too_deep`] before going one level deeper: once less than [`RED_ZONE`]
//! is left it refuses with an error of its own (`expression recursion level
//! exceeded`, `nests too deeply`…). So no input can overflow the stack,
//! whatever the caller's thread looks like.
//!
//! A run needs [`REQUIRED`] bytes of stack for its bounds to be reached
//! before the guard: [`run`] runs it inline when the calling thread has
//! that much left (a program's main thread, 8 MiB, usually has), else on a
//! thread of its own with a [`THREAD_STACK`] stack, so that a small-stack
//! caller (a 256 KiB thread of a C host) gets the same behaviour.

use std::cell::Cell;

use crate::thread_stack::measure;

/// Stack a run must have left to run inline (its bounds fit in it).
pub(crate) const REQUIRED: usize = 4 << 20;

/// The stack of a run's own thread, when the caller's has too little left
/// (reserved address space: only the pages a script touches are used).
pub(crate) const THREAD_STACK: usize = 64 << 20;

/// Stack kept free below the deepest level: a non-recursive step (a regex
/// compiled, a file read, a jq definition parsed) fits in it.
pub(crate) const RED_ZONE: usize = 512 << 10;

thread_local! {
    /// The lowest usable stack address of this thread; 0 until measured,
    /// 1 when it cannot be (then [`run`] moves to its own thread).
    static FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// The address of a local: how deep the stack is here.
#[inline(always)]
pub(crate) fn position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Bytes of stack left below here, if this thread's stack is known.
pub(crate) fn remaining() -> Option<usize> {
    let floor = FLOOR.with(|floor| {
        if floor.get() == 0 {
            floor.set(measure().unwrap_or(1));
            brush_parser::set_stack_floor(floor.get());
        }
        floor.get()
    });
    (floor > 1).then(|| position().saturating_sub(floor))
}

/// Whether nesting one level deeper must be refused: less than
/// [`RED_ZONE`] is left. A thread whose stack is unknown is never too deep
/// (a run never executes on one: see [`run`]).
#[inline]
pub(crate) fn too_deep() -> bool {
    remaining().is_some_and(|left| left < RED_ZONE)
}

/// Runs `f` where at least [`REQUIRED`] bytes of stack are left: here, or
/// on a thread of its own (panics are carried back to this thread). Fails
/// only when no thread can be started.
pub(crate) fn run<R: Send>(f: impl FnOnce() -> R + Send) -> std::io::Result<R> {
    if remaining().is_some_and(|left| left >= REQUIRED) {
        return Ok(f());
    }
    std::thread::scope(|scope| {
        let worker = spawn_scoped(scope, f)?;
        Ok(worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// Starts `f` on a scoped thread with a [`THREAD_STACK`] stack whose depth
/// the guard knows, as [`run`] does: a pipeline stage runs there.
pub(crate) fn spawn_scoped<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    std::thread::Builder::new().name("aikido-shell".to_string()).stack_size(THREAD_STACK).spawn_scoped(scope, || {
        know_floor();
        f()
    })
}

/// Starts `f` on a thread of its own, as [`spawn_scoped`] does, for a
/// background job (which outlives the command that started it; the run
/// joins it before it returns).
pub(crate) fn spawn_job<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<T>> {
    std::thread::Builder::new().name("aikido-shell-job".to_string()).stack_size(THREAD_STACK).spawn(|| {
        know_floor();
        f()
    })
}

/// Measures a new thread's stack: from the thread itself where the
/// platform tells; else from its size, 1 MiB kept for what sits above.
fn know_floor() {
    FLOOR.with(|floor| {
        let measured = measure().unwrap_or_else(|| position().saturating_sub(THREAD_STACK - (1 << 20)));
        floor.set(measured);
        brush_parser::set_stack_floor(measured);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_stack_runs_on_a_thread_of_its_own_and_knows_its_depth() {
        let here = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                assert!(remaining().is_some_and(|left| left < REQUIRED));
                run(|| remaining().unwrap_or(0)).unwrap()
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(here >= REQUIRED, "{here}");
        assert!(!run(too_deep).unwrap());
    }

    #[test]
    fn deep_recursion_stops_at_the_guard() {
        // Each level holds 1 KiB across the call: the pad is handed to
        // black_box before and after, so no optimisation shrinks the frame
        // (the tests run in release mode).
        fn dive(level: u32) -> u32 {
            if too_deep() {
                return level;
            }
            let mut pad = [0u8; 1024];
            std::hint::black_box(&mut pad);
            let deepest = dive(level + 1);
            std::hint::black_box(&pad);
            deepest
        }
        let levels = std::thread::Builder::new().stack_size(1 << 20).spawn(|| dive(0)).unwrap().join().unwrap();
        assert!(levels > 0 && levels < 1024, "{levels}");
    }
}
