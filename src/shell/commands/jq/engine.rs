//! The engine: jaq with our data (`JqData`), the run's shared state
//! (`Global`: inputs, budget, stderr, regex cache, stack base) and the
//! small helpers natives share.

use super::*;

// ---------------------------------------------------------------------------
// The engine: jaq with our data, natives and definitions

pub(super) struct JqData;

impl DataT for JqData {
    type V<'a> = V;
    type Data<'a> = &'a Global<'a>;
}

/// What natives see while the filter runs.
pub(super) struct Global<'a> {
    pub(super) lut: &'a jaq_core::Lut<JqData>,
    pub(super) inputs: Inputs<'a, V>,
    pub(super) check: &'a dyn Fn() -> Result<(), LimitHit>,
    pub(super) budget: Cell<u64>,
    /// The limit that stopped the run (the natives unwind with a halt).
    pub(super) limit: &'a Cell<Option<LimitHit>>,
    /// What `debug`, `stderr` and `halt_error` wrote.
    pub(super) stderr: RefCell<Vec<u8>>,
    pub(super) location: &'a RefCell<Location>,
    pub(super) regexes: RefCell<Vec<(String, String, std::rc::Rc<regex::bytes::Regex>)>>,
    /// Where the stack was when the run began (see [`stack_position`]).
    pub(super) stack_base: usize,
}

/// How much native stack a run may use past where it began.
pub(super) const STACK_BUDGET: usize = 1 << 20;

/// The address of a local: how deep the native stack is, roughly.
#[inline(never)]
pub(super) fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl<'a> jaq_core::data::HasLut<'a, JqData> for &'a Global<'a> {
    fn lut(&self) -> &'a jaq_core::Lut<JqData> {
        self.lut
    }
}

impl<'a> HasInputs<'a, V> for &'a Global<'a> {
    fn inputs(&self) -> Inputs<'a, V> {
        self.inputs
    }
}

impl Global<'_> {
    /// One step of a generator: the shell's check and the value budget.
    pub(super) fn tick<'e>(&self) -> Result<(), Exn<'e, V>> {
        // A value got too deep: unwind now rather than loop on.
        if TOO_DEEP.with(Cell::get) {
            return Err(Exn::halt(HALT_LIMIT));
        }
        if is_too_big() {
            self.limit.set(Some(LimitHit::Memory));
            return Err(Exn::halt(HALT_LIMIT));
        }
        if let Some(hit) = STOPPED.with(Cell::get) {
            self.limit.set(Some(hit));
            return Err(Exn::halt(HALT_LIMIT));
        }
        // jaq recurses on the native stack for every call of a jq function:
        // refuse to go deeper than a budget rather than overflow it.
        if stack_position().abs_diff(self.stack_base) > STACK_BUDGET || crate::shell::stack::too_deep() {
            return Err(Exn::from(jaq_core::Error::str("Exceeds the stack budget (recursion too deep)")));
        }
        let left = self.budget.get();
        let hit = if left == 0 { Some(LimitHit::LoopIterations) } else { (self.check)().err() };
        self.budget.set(left.saturating_sub(1));
        match hit {
            None => Ok(()),
            Some(hit) => {
                self.limit.set(Some(hit));
                Err(Exn::halt(HALT_LIMIT))
            }
        }
    }
}

/// The run's [`Global`] from a native's context.
pub(super) fn global_of<'a>(ctx: &Ctx<'a, JqData>) -> &'a Global<'a> {
    ctx.data()
}

pub(super) fn fail<'a>(message: impl Into<String>) -> ValXs<'a, V> {
    box_once(Err(Exn::from(jaq_core::Error::str(message.into()))))
}

pub(super) fn ok<'a>(value: Val) -> ValXs<'a, V> {
    box_once(Ok(V(value)))
}

pub(super) fn text_of(value: &Val) -> Option<String> {
    string_bytes(value).map(|s| String::from_utf8_lossy(s).into_owned())
}

pub(super) fn str_val(text: impl Into<String>) -> Val {
    Val::from(text.into())
}

pub(super) fn tostring(value: &Val) -> Result<String, String> {
    match text_of(value) {
        Some(text) => Ok(text),
        None => to_json(value).map_err(|_| "value nested too deeply".to_string()),
    }
}
