//! Why execution stops going straight on (`exit`, `return`, `break`, an
//! aborted command, a limit), which every part of the interpreter passes up.

use super::LimitHit;

/// Why execution stops going straight on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// `exit n`, `set -e`, or a fatal expansion error: ends the (sub)shell.
    Exit(i32),
    /// An arithmetic expansion error: abandons the current top-level
    /// command (function calls and lists included) with this status, and
    /// the script goes on with the next one, as `bash -c` does; a subshell
    /// ends with it.
    Abort(i32),
    /// `return n`.
    Return(i32),
    /// `break n`.
    Break(u32),
    /// `continue n`.
    Continue(u32),
    /// A limit stopped the script.
    Limit(LimitHit),
}

impl From<LimitHit> for Flow {
    fn from(hit: LimitHit) -> Self {
        Flow::Limit(hit)
    }
}

/// A status, or why execution stopped.
pub(crate) type Res = Result<i32, Flow>;
