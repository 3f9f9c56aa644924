//! Text commands: head, tail, wc, sort, uniq, cut, tr, rev, nl, paste,
//! fold and printf, with GNU coreutils semantics in the C locale. They work
//! on bytes, never assuming UTF-8.

use crate::shell::command::CommandFn;

mod common;
mod cut;
mod head_tail;
mod misc;
mod printf;
mod sort;
mod tr;
mod uniq;
mod version;
mod wc;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[
    ("head", head_tail::head),
    ("tail", head_tail::tail),
    ("wc", wc::wc),
    ("sort", sort::sort),
    ("uniq", uniq::uniq),
    ("cut", cut::cut),
    ("tr", tr::tr),
    ("printf", printf::printf),
    ("rev", misc::rev),
    ("nl", misc::nl),
    ("paste", misc::paste),
    ("fold", misc::fold),
];
