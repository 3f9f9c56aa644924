//! Ours: a read budget for the PEG parsers. A PEG parser backtracks, and
//! some unfinished nestings (`"${a[`, `$((`, `a[a[`, nested `case` …) made
//! upstream's grammars take time exponential in their depth. The worst
//! cases are fixed in the grammars; this budget bounds whatever is left:
//! once it is spent, every read fails and the parse ends with an error.
//! [`Fuel`] is the budget, spent by the token input (`Tokens`) and by
//! [`FueledStr`], the text input of the word and arithmetic grammars.

use std::cell::Cell;

use peg::str::LineCol;
use peg::{Parse, ParseElem, ParseLiteral, ParseSlice, RuleResult};

thread_local! {
    /// The lowest stack address this thread's parses may reach (0: unknown,
    /// no check): the shell sets it where it knows the thread's stack.
    static STACK_FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// Ours: tells this thread's parsers how low the stack may go. Past
/// `floor` plus a margin every read fails and the parse ends with
/// [`crate::ParseError::TooComplex`] (a deep nesting, not an overflow).
/// 0 or 1 turn the check off.
pub fn set_stack_floor(floor: usize) {
    STACK_FLOOR.with(|cell| cell.set(if floor > 1 { floor } else { 0 }));
}

/// Stack kept free below a parse's deepest rule.
const STACK_MARGIN: usize = 256 << 10;

/// Whether the stack is too deep for one more rule.
#[inline]
pub(crate) fn stack_too_deep() -> bool {
    let marker = 0u8;
    let here = std::hint::black_box(&marker) as *const u8 as usize;
    STACK_FLOOR.with(|floor| {
        let floor = floor.get();
        floor != 0 && here < floor.saturating_add(STACK_MARGIN)
    })
}

/// Reads a parse may still make.
#[derive(Debug)]
pub(crate) struct Fuel(Cell<usize>);

impl Fuel {
    /// `floor` reads plus 2000 per unit of input (token or byte): far above
    /// what input that parses needs (a few dozen per unit), small enough to
    /// end in milliseconds.
    pub(crate) fn for_input(floor: usize, units: usize) -> Self {
        Fuel(Cell::new(floor.saturating_add(units.saturating_mul(2_000))))
    }

    /// Spends one read; false when none is left.
    #[inline]
    pub(crate) fn spend(&self) -> bool {
        let left = self.0.get();
        if left == 0 {
            return false;
        }
        // A deep nesting spends the whole budget: the parse gives up.
        if left % 8 == 0 && stack_too_deep() {
            self.0.set(0);
            return false;
        }
        self.0.set(left - 1);
        true
    }

    /// Whether the parse ran out of its budget.
    pub(crate) fn exhausted(&self) -> bool {
        self.0.get() == 0
    }
}

/// A `str` for peg, with a budget of reads.
pub(crate) struct FueledStr<'a> {
    text: &'a str,
    fuel: Fuel,
}

impl<'a> FueledStr<'a> {
    /// The text with the budget for its length.
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, fuel: Fuel::for_input(100_000, text.len()) }
    }

    /// The text itself.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// Whether the parse ran out of its budget.
    pub(crate) fn exhausted(&self) -> bool {
        self.fuel.exhausted()
    }
}

impl Parse for FueledStr<'_> {
    type PositionRepr = LineCol;

    #[inline]
    fn start(&self) -> usize {
        0
    }

    #[inline]
    fn is_eof(&self, pos: usize) -> bool {
        pos >= self.text.len()
    }

    fn position_repr(&self, pos: usize) -> LineCol {
        self.text.position_repr(pos)
    }
}

impl<'input> ParseElem<'input> for FueledStr<'_> {
    type Element = char;

    #[inline]
    fn parse_elem(&'input self, pos: usize) -> RuleResult<char> {
        if !self.fuel.spend() {
            return RuleResult::Failed;
        }
        self.text.parse_elem(pos)
    }
}

impl ParseLiteral for FueledStr<'_> {
    #[inline]
    fn parse_string_literal(&self, pos: usize, literal: &str) -> RuleResult<()> {
        if !self.fuel.spend() {
            return RuleResult::Failed;
        }
        self.text.parse_string_literal(pos, literal)
    }
}

impl<'input, 'a> ParseSlice<'input> for FueledStr<'a> {
    type Slice = &'a str;

    #[inline]
    fn parse_slice(&'input self, p1: usize, p2: usize) -> &'a str {
        &self.text[p1..p2]
    }
}
