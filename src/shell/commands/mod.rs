//! The commands a script can run, all in-process over the storage. Each
//! group file lists its commands in `COMMANDS`; [`lookup`] searches them.
//! Builtins that change the shell's own state (`cd`, `export`, `read`…)
//! live in the interpreter, not here.

use super::command::CommandFn;

mod archive;
mod awk;
mod calendar;
mod diff;
mod dump;
mod files;
mod format;
mod grep;
mod hash;
mod jq;
mod net;
mod options;
mod patch;
mod regex_syntax;

pub(crate) use regex_syntax::ere_to_regex;
mod sed;
mod text;
mod utils;

pub(crate) use text::printf_format;

/// Every group's commands, in lookup order.
const GROUPS: [&[(&str, CommandFn)]; 13] = [
    files::COMMANDS,
    text::COMMANDS,
    grep::COMMANDS,
    sed::COMMANDS,
    awk::COMMANDS,
    jq::COMMANDS,
    utils::COMMANDS,
    diff::COMMANDS,
    hash::COMMANDS,
    dump::COMMANDS,
    archive::COMMANDS,
    patch::COMMANDS,
    net::COMMANDS,
];

/// The command called `name`, if the shell has it.
pub fn lookup(name: &str) -> Option<CommandFn> {
    GROUPS.into_iter().flatten().find(|(command, _)| *command == name).map(|(_, function)| *function)
}

/// Every command name, sorted (for `type`, `command -v` and the docs).
pub fn names() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = GROUPS.into_iter().flatten().map(|(command, _)| *command).collect();
    all.sort_unstable();
    all
}

/// Formatting with widths and precisions a script chose. `format!` takes
/// them only up to 65535 and panics past it (`printf '%.70000f' 1`), so
/// these build the padding and the zero digits themselves.
pub(crate) mod layout {
    /// Past this many digits after the point (or significant digits), an
    /// f64's exact decimal expansion has only zeros (2^-1074 has 1074).
    const EXACT_DIGITS: usize = 1100;

    /// `format!("{v:.prec$}")` for any `prec`.
    pub(crate) fn fixed(v: f64, prec: usize) -> String {
        if prec <= EXACT_DIGITS || !v.is_finite() {
            return format!("{v:.prec$}");
        }
        let mut text = format!("{v:.EXACT_DIGITS$}");
        text.extend(std::iter::repeat_n('0', prec - EXACT_DIGITS));
        text
    }

    /// `format!("{v:.prec$e}")` for any `prec`.
    pub(crate) fn scientific(v: f64, prec: usize) -> String {
        if prec <= EXACT_DIGITS || !v.is_finite() {
            return format!("{v:.prec$e}");
        }
        let text = format!("{v:.EXACT_DIGITS$e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let mut out = String::with_capacity(prec + 16);
        out.push_str(mantissa);
        out.extend(std::iter::repeat_n('0', prec - EXACT_DIGITS));
        out.push('e');
        out.push_str(exponent);
        out
    }

    /// `text` padded with `fill` to `width` characters, on the left
    /// (right-aligned) or on the right.
    pub(crate) fn pad(text: &str, width: usize, fill: char, left: bool) -> String {
        let missing = width.saturating_sub(text.chars().count());
        let mut out = String::with_capacity(text.len() + missing);
        if !left {
            out.push_str(text);
        }
        out.extend(std::iter::repeat_n(fill, missing));
        if left {
            out.push_str(text);
        }
        out
    }

    /// `format!("{v:0width$}")` for any `width`: the sign, then zeros.
    pub(crate) fn zero_padded(v: i128, width: usize) -> String {
        let digits = v.unsigned_abs().to_string();
        let sign = if v < 0 { "-" } else { "" };
        let zeros = width.saturating_sub(sign.len() + digits.len());
        let mut out = String::with_capacity(sign.len() + zeros + digits.len());
        out.push_str(sign);
        out.extend(std::iter::repeat_n('0', zeros));
        out.push_str(&digits);
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn matches_format_and_goes_past_its_limit() {
            for (v, p) in [(1.0, 3), (-2.5, 0), (1e-300, 20), (f64::MAX, 2)] {
                assert_eq!(fixed(v, p), format!("{v:.p$}"));
                assert_eq!(scientific(v, p), format!("{v:.p$e}"));
            }
            assert_eq!(fixed(1.0, 1200), format!("1.{}", "0".repeat(1200)));
            assert_eq!(fixed(1.0, 70_000).len(), 70_002);
            assert_eq!(scientific(1.5, 70_000), format!("1.5{}e0", "0".repeat(69_999)));
            assert_eq!(zero_padded(-5, 4), format!("{:04}", -5));
            assert_eq!(zero_padded(7, 70_000).len(), 70_000);
            assert_eq!(pad("ab", 4, ' ', true), "  ab");
            assert_eq!(pad("ab", 4, '.', false), "ab..");
        }
    }
}
