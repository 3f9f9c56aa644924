//! Comparing files: `diff` (GNU diffutils: normal and unified formats,
//! directories), `cmp` (byte by byte) and `comm` (two sorted files), in the
//! C locale. `diff` finds its changes with Myers' O(ND) algorithm in linear
//! space, after setting aside lines that occur in one file only, then slides
//! each run of changes the way GNU does so that the hunks read the same.

use crate::shell::command::{CommandFn, Context};
use crate::shell::LimitHit;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("diff", diff), ("cmp", cmp), ("comm", comm)];

/// A diffutils usage error: `diff: message` and `diff: Try 'diff --help'…`,
/// status 2 (diffutils prefixes the Try line with its name, coreutils not).
pub(super) fn diffutils_usage(ctx: &mut Context<'_>, message: &str) -> Result<i32, LimitHit> {
    ctx.error(message)?;
    let line = format!("{}: Try '{} --help' for more information.\n", ctx.name, ctx.name);
    ctx.stderr.write_str(&line)?;
    Ok(2)
}

mod cmp;
mod comm;
mod command;
mod format;
mod lines;
mod myers;
#[cfg(test)]
mod tests;

use cmp::cmp;
use comm::comm;
use command::{diff, DiffOptions};
use format::{context_format, ed_format, normal_format, paint, push_line, unified_format, SideBySide};
use lines::{ignorable, line_key, split_lines, Change};
use myers::compute_changes;
