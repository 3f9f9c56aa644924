//! Ours: text input for the word and arithmetic grammars with a read
//! budget. A PEG parser backtracks, and some unfinished nestings (`"${a[`,
//! `$((`, `a[a[` …) made upstream's grammars take time exponential in their
//! depth. The worst cases are fixed by `#[cache]` on the rules involved;
//! this budget bounds whatever is left: once it is spent, every read fails
//! and the parse ends with an error.

use std::cell::Cell;

use peg::str::LineCol;
use peg::{Parse, ParseElem, ParseLiteral, ParseSlice, RuleResult};

/// A `str` for peg, with a budget of reads.
pub(crate) struct FueledStr<'a> {
    text: &'a str,
    fuel: Cell<usize>,
}

impl<'a> FueledStr<'a> {
    /// The text with the budget for its length: far above what any word
    /// that parses needs (a few dozen reads per byte), small enough to end
    /// in milliseconds.
    pub(crate) fn new(text: &'a str) -> Self {
        let fuel = 100_000usize.saturating_add(text.len().saturating_mul(2_000));
        Self { text, fuel: Cell::new(fuel) }
    }

    /// The text itself.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// Whether the parse ran out of its budget.
    pub(crate) fn exhausted(&self) -> bool {
        self.fuel.get() == 0
    }

    /// Spends one read; false when none is left.
    #[inline]
    fn spend(&self) -> bool {
        let fuel = self.fuel.get();
        if fuel == 0 {
            return false;
        }
        self.fuel.set(fuel - 1);
        true
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
        if !self.spend() {
            return RuleResult::Failed;
        }
        self.text.parse_elem(pos)
    }
}

impl ParseLiteral for FueledStr<'_> {
    #[inline]
    fn parse_string_literal(&self, pos: usize, literal: &str) -> RuleResult<()> {
        if !self.spend() {
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
