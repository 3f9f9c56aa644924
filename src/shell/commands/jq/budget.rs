//! The run's limits as jaq sees them: the memory budget each built value
//! is measured against, and the shell's check polled from inside jaq's loops.

use super::*;

// ---------------------------------------------------------------------------
// The memory budget
//
// jaq builds strings, arrays and objects in its own code, so every place a
// value grows is checked here before (or, for collections, as) it is built:
// string `+` and `*`, array and object `+`, collecting `[…]` and `{…}`,
// assigning into an array or object, `tojson` and printing, the `@` formats
// and `indices`. A value is counted as [`measure`] does: 16 bytes for each
// value plus the bytes of every string, a shared part once for each place it
// appears (as it would print). No single value may pass the budget; a run
// that tries ends with the shell's memory limit.

/// What one value takes besides its strings' bytes (jaq's `Val` is 16 bytes).
pub(super) const VALUE_BYTES: usize = 16;

thread_local! {
    /// The running filter's memory budget (the shell's `max_memory`).
    pub(super) static MEMORY_BUDGET: Cell<usize> = const { Cell::new(usize::MAX) };
    /// What passed the budget, when something did: the run ends with
    /// [`LimitHit::Memory`] (checked like [`TOO_DEEP`]).
    pub(super) static TOO_BIG: Cell<Option<&'static str>> = const { Cell::new(None) };
    /// The last arrays and objects grown by `+` or an assignment: (address,
    /// length, bytes), so that growing an accumulator in `reduce` (or the
    /// containers along a path into it) does not measure it again at every
    /// step.
    pub(super) static LAST_GROWN: Cell<[(usize, usize, usize); GROWN_SLOTS]> = const { Cell::new([(0, 0, 0); GROWN_SLOTS]) };
    pub(super) static NEXT_SLOT: Cell<usize> = const { Cell::new(0) };
}

thread_local! {
    /// The shell's check (clock, cancellation) while a `jq` runs, for the
    /// loops inside jaq that call no function of ours with the run's data
    /// (iterating `.[]`, collecting `[…]`, `if`): see [`poll`].
    pub(super) static RUN_CHECK: Cell<Option<&'static dyn Fn() -> Result<(), LimitHit>>> = const { Cell::new(None) };
    /// Calls of [`poll`] since the check last ran, and the limit it hit.
    pub(super) static POLLS: Cell<u32> = const { Cell::new(0) };
    pub(super) static STOPPED: Cell<Option<LimitHit>> = const { Cell::new(None) };
}

/// Clears [`RUN_CHECK`] when the run ends, unwinding or not.
pub(super) struct RunCheckGuard;

impl Drop for RunCheckGuard {
    fn drop(&mut self) {
        RUN_CHECK.with(|check| check.set(None));
    }
}

/// Makes `check` reachable from [`poll`] until the guard is dropped.
pub(super) fn install_run_check(check: &dyn Fn() -> Result<(), LimitHit>) -> RunCheckGuard {
    // SAFETY: only the lifetime is changed. The reference is stored until
    // the returned guard is dropped (also on unwind), the guard lives in
    // `jq_command`'s frame, which `check` (borrowed from its caller)
    // outlives, and `jq` runs nothing else on this thread meanwhile.
    let check: &'static dyn Fn() -> Result<(), LimitHit> = unsafe {
        std::mem::transmute::<&dyn Fn() -> Result<(), LimitHit>, &'static dyn Fn() -> Result<(), LimitHit>>(check)
    };
    RUN_CHECK.with(|cell| cell.set(Some(check)));
    RunCheckGuard
}

/// One step of a loop inside jaq: every 1024th runs the shell's check.
/// True when the run must stop (the limit is kept in [`STOPPED`], and the
/// next [`Global::tick`] or printed value ends the run).
pub(super) fn poll() -> bool {
    if STOPPED.with(Cell::get).is_some() {
        return true;
    }
    let polls = POLLS.with(|polls| {
        let next = polls.get().wrapping_add(1);
        polls.set(next);
        next
    });
    if !polls.is_multiple_of(1024) {
        return false;
    }
    let hit = RUN_CHECK.with(Cell::get).and_then(|check| check().err());
    if let Some(hit) = hit {
        STOPPED.with(|stopped| stopped.set(Some(hit)));
        return true;
    }
    false
}

/// How many grown containers [`LAST_GROWN`] remembers.
pub(super) const GROWN_SLOTS: usize = 8;

pub(super) fn memory_budget() -> usize {
    MEMORY_BUDGET.with(Cell::get)
}

/// Records that `what` would pass the budget.
pub(super) fn too_big(what: &'static str) {
    TOO_BIG.with(|flag| {
        if flag.get().is_none() {
            flag.set(Some(what));
        }
    });
}

pub(super) fn is_too_big() -> bool {
    TOO_BIG.with(|flag| flag.get().is_some())
}

/// The error a builder returns when its result would pass the budget.
pub(super) fn memory_error<T>(what: &'static str) -> Result<T, jaq_core::Error<V>> {
    too_big(what);
    Err(jaq_core::Error::str(format!("memory limit reached ({what} too large)")))
}

/// Whether `value` nests containers deeper than `depth_limit`, and the
/// bytes it holds (16 for each value, plus string bytes), counted until
/// they pass `cap` (then some count above `cap`).
pub(super) fn measure(value: &Val, depth_limit: usize, cap: usize) -> (bool, usize) {
    let string_len = |v: &Val| string_bytes(v).map_or(0, <[u8]>::len);
    let mut bytes = VALUE_BYTES + string_len(value);
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        if bytes > cap {
            return (false, bytes);
        }
        match value {
            Val::Arr(items) if !items.is_empty() => {
                if depth >= depth_limit {
                    return (true, bytes);
                }
                for item in items.iter() {
                    bytes = bytes.saturating_add(VALUE_BYTES + string_len(item));
                    if matches!(item, Val::Arr(_) | Val::Obj(_)) {
                        stack.push((item, depth + 1));
                    }
                }
            }
            Val::Obj(map) if !map.is_empty() => {
                if depth >= depth_limit {
                    return (true, bytes);
                }
                for (key, item) in map.iter() {
                    bytes = bytes.saturating_add(2 * VALUE_BYTES + string_len(key) + string_len(item));
                    if matches!(item, Val::Arr(_) | Val::Obj(_)) {
                        stack.push((item, depth + 1));
                    }
                }
            }
            _ => {}
        }
    }
    (false, bytes)
}

/// The address and length of an array's or object's items.
pub(super) fn container_key(value: &Val) -> Option<(usize, usize)> {
    match value {
        Val::Arr(items) => Some((Rc::as_ptr(items) as *const u8 as usize, items.len())),
        Val::Obj(map) => Some((Rc::as_ptr(map) as *const u8 as usize, map.len())),
        _ => None,
    }
}

/// The bytes an array or object holds: remembered for the one grown last
/// (a `reduce` accumulator), measured otherwise (up to just past the budget).
pub(super) fn container_bytes(value: &Val) -> usize {
    if let Some((at, len)) = container_key(value) {
        let slots = LAST_GROWN.with(Cell::get);
        if let Some(&(_, _, bytes)) = slots.iter().find(|slot| (slot.0, slot.1) == (at, len) && at != 0) {
            return bytes;
        }
    }
    measure(value, usize::MAX, memory_budget().saturating_add(1)).1
}

/// The bytes any value holds ([`container_bytes`] for arrays and objects).
pub(super) fn value_bytes(value: &Val) -> usize {
    match value {
        Val::Arr(_) | Val::Obj(_) => container_bytes(value),
        other => VALUE_BYTES + string_bytes(other).map_or(0, <[u8]>::len),
    }
}

/// Remembers the bytes of the container just grown (see [`LAST_GROWN`]).
pub(super) fn grown(value: &Val, bytes: usize) {
    if let Some((at, len)) = container_key(value) {
        let mut slots = LAST_GROWN.with(Cell::get);
        // The same address again (an accumulator rebuilt in place) takes
        // its old slot; a new one the oldest.
        let slot = match slots.iter().position(|slot| slot.0 == at) {
            Some(slot) => slot,
            None => NEXT_SLOT.with(|next| {
                let slot = next.get();
                next.set((slot + 1) % GROWN_SLOTS);
                slot
            }),
        };
        slots[slot] = (at, len, bytes);
        LAST_GROWN.with(|last| last.set(slots));
    }
}
