//! The one printf formatting core, shared by the shell's `printf` (the
//! command and the builtin, `text/printf.rs`) and awk's `printf`/`sprintf`
//! (`awk/value.rs`).
//!
//! It reads a conversion's flags, width and precision ([`Spec::parse`]) and
//! lays out one value the way C's `printf` does: [`signed`] (`%d %i`),
//! [`unsigned`] (`%u %o %x %X`), [`float`] (`%e %E %f %F %g %G`), [`hex_float`]
//! (`%a %A`), [`text`] (`%s`) and [`pad`] (`%c` and the callers' own
//! conversions). What an argument is (a shell word parsed as a number with
//! bash's errors, or an awk value), which conversions exist, what a bad
//! one does and how large a field may grow stay with the callers.

/// A conversion's flags, width and precision.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Spec {
    /// `-`: pad on the right.
    pub left: bool,
    /// `+`: a sign on positive numbers.
    pub plus: bool,
    /// ` `: a space where a positive number's sign would be.
    pub space: bool,
    /// `#`: the alternate form (`0x`, a leading `0`, a kept point).
    pub alt: bool,
    /// `0`: pad numbers with zeros after the sign.
    pub zero: bool,
    pub width: usize,
    pub precision: Option<usize>,
}

impl Spec {
    /// Reads flags, width (`*` too), precision (`.*` too) and the length
    /// modifiers in `lengths` from `fmt[*at..]`, just after the `%`, leaving
    /// `*at` on the conversion character. `star` gives the value of each
    /// `*` (a negative width means `-`, a negative precision none). Width
    /// and precision are held to `cap`.
    pub(crate) fn parse<E>(
        fmt: &[u8],
        at: &mut usize,
        cap: usize,
        lengths: &[u8],
        mut star: impl FnMut() -> Result<i64, E>,
    ) -> Result<Spec, E> {
        let mut spec = Spec::default();
        while let Some(&flag) = fmt.get(*at) {
            match flag {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                b'0' => spec.zero = true,
                _ => break,
            }
            *at += 1;
        }
        if fmt.get(*at) == Some(&b'*') {
            *at += 1;
            let width = star()?;
            if width < 0 {
                spec.left = true;
            }
            spec.width = usize::try_from(width.unsigned_abs()).unwrap_or(usize::MAX).min(cap);
        } else {
            spec.width = digits(fmt, at).min(cap);
        }
        if fmt.get(*at) == Some(&b'.') {
            *at += 1;
            if fmt.get(*at) == Some(&b'*') {
                *at += 1;
                spec.precision = usize::try_from(star()?).ok().map(|p| p.min(cap));
            } else {
                spec.precision = Some(digits(fmt, at).min(cap));
            }
        }
        while fmt.get(*at).is_some_and(|c| lengths.contains(c)) {
            *at += 1;
        }
        Ok(spec)
    }
}

fn digits(text: &[u8], at: &mut usize) -> usize {
    let mut value: usize = 0;
    while let Some(digit) = text.get(*at).filter(|b| b.is_ascii_digit()) {
        value = value.saturating_mul(10).saturating_add(usize::from(digit - b'0'));
        *at += 1;
    }
    value
}

/// `body` padded with spaces to the width (on the right with `-`).
pub(crate) fn pad(out: &mut Vec<u8>, spec: &Spec, body: &[u8]) {
    let fill = spec.width.saturating_sub(body.len());
    if !spec.left {
        out.resize(out.len() + fill, b' ');
    }
    out.extend_from_slice(body);
    if spec.left {
        out.resize(out.len() + fill, b' ');
    }
}

/// `%s`: at most `precision` bytes of `body`, padded.
pub(crate) fn text(out: &mut Vec<u8>, spec: &Spec, body: &[u8]) {
    let shown = spec.precision.map_or(body, |p| &body[..p.min(body.len())]);
    pad(out, spec, shown);
}

/// The sign a non-negative number shows under `spec` (`+`, ` ` or none).
fn positive_sign(spec: &Spec) -> &'static str {
    if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

/// `%d`/`%i` of the integer `-magnitude` or `magnitude`.
pub(crate) fn signed(out: &mut Vec<u8>, spec: &Spec, negative: bool, magnitude: u128) {
    let sign = if negative && magnitude != 0 { "-" } else { positive_sign(spec) };
    integer(out, spec, sign, "", magnitude.to_string(), false);
}

/// `%u`, `%o`, `%x` or `%X` (by `conversion`) of `value`.
pub(crate) fn unsigned(out: &mut Vec<u8>, spec: &Spec, conversion: u8, value: u128) {
    let (body, prefix) = match conversion {
        b'o' => (format!("{value:o}"), ""),
        b'x' => (format!("{value:x}"), if spec.alt && value != 0 { "0x" } else { "" }),
        b'X' => (format!("{value:X}"), if spec.alt && value != 0 { "0X" } else { "" }),
        _ => (value.to_string(), ""),
    };
    integer(out, spec, "", prefix, body, conversion == b'o' && spec.alt);
}

/// C's integer layout: the precision's zeros (and `%#o`'s leading 0), sign
/// and prefix, then the width with zeros (`0` without a precision) or spaces.
fn integer(out: &mut Vec<u8>, spec: &Spec, sign: &str, prefix: &str, mut body: String, octal_alt: bool) {
    if let Some(precision) = spec.precision {
        if precision == 0 && body == "0" {
            body.clear();
        }
        if body.len() < precision {
            body.insert_str(0, &"0".repeat(precision - body.len()));
        }
    }
    if octal_alt && !body.starts_with('0') {
        body.insert(0, '0');
    }
    let zero = spec.zero && spec.precision.is_none();
    numeric_layout(out, spec, zero, sign, prefix, &body);
}

/// Sign, prefix and body padded to the width: with zeros between the
/// prefix and the body when `zero`, else spaces on the side `-` says.
fn numeric_layout(out: &mut Vec<u8>, spec: &Spec, zero: bool, sign: &str, prefix: &str, body: &str) {
    let used = sign.len() + prefix.len() + body.len();
    let fill = spec.width.saturating_sub(used);
    if !spec.left && !zero {
        out.resize(out.len() + fill, b' ');
    }
    out.extend_from_slice(sign.as_bytes());
    out.extend_from_slice(prefix.as_bytes());
    if zero && !spec.left {
        out.resize(out.len() + fill, b'0');
    }
    out.extend_from_slice(body.as_bytes());
    if spec.left {
        out.resize(out.len() + fill, b' ');
    }
}

/// `inf`, `-inf`, `nan` or `-nan` (capitals when `upper`), as C prints
/// values that are not finite.
pub(crate) fn non_finite(value: f64, upper: bool) -> &'static str {
    match (value.is_nan(), value.is_sign_negative(), upper) {
        (true, false, false) => "nan",
        (true, true, false) => "-nan",
        (true, false, true) => "NAN",
        (true, true, true) => "-NAN",
        (false, false, false) => "inf",
        (false, true, false) => "-inf",
        (false, false, true) => "INF",
        (false, true, true) => "-INF",
    }
}

/// `%e %E %f %F %g %G` (by `conversion`) of `value`.
pub(crate) fn float(out: &mut Vec<u8>, spec: &Spec, conversion: u8, value: f64) {
    let upper = conversion.is_ascii_uppercase();
    if !value.is_finite() {
        signed_text(out, spec, non_finite(value, upper), false);
        return;
    }
    let precision = spec.precision.unwrap_or(6);
    let text = match conversion.to_ascii_lowercase() {
        b'f' => fixed(value, precision, spec.alt),
        b'e' => exponent_form(value, precision, spec.alt, upper),
        _ => general(value, precision, spec.alt, upper),
    };
    signed_text(out, spec, &text, spec.zero);
}

/// A number's text (with its `-`, if any) given its sign and laid out.
fn signed_text(out: &mut Vec<u8>, spec: &Spec, text: &str, zero: bool) {
    let (sign, body) = match text.strip_prefix('-') {
        Some(body) => ("-", body),
        None => (positive_sign(spec), text),
    };
    numeric_layout(out, spec, zero, sign, "", body);
}

/// `%f`: `precision` decimals (a kept point under `#`).
fn fixed(value: f64, precision: usize, alt: bool) -> String {
    let mut text = super::layout::fixed(value, precision);
    if alt && precision == 0 {
        text.push('.');
    }
    text
}

/// `%e`: `1.500000e+03`, the exponent signed and of two digits at least.
fn exponent_form(value: f64, precision: usize, alt: bool, upper: bool) -> String {
    let text = super::layout::scientific(value, precision);
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    let dot = if alt && precision == 0 { "." } else { "" };
    let e = if upper { 'E' } else { 'e' };
    format!("{mantissa}{dot}{e}{sign}{:02}", exponent.unsigned_abs())
}

/// `%g`: `%e` or `%f` by the exponent, with `precision` significant
/// digits; trailing zeros go unless `#`.
fn general(value: f64, precision: usize, alt: bool, upper: bool) -> String {
    let precision = precision.max(1);
    let probe = super::layout::scientific(value, precision - 1);
    let exponent: i64 = probe.rsplit('e').next().and_then(|e| e.parse().ok()).unwrap_or(0);
    let text = if exponent < -4 || exponent >= precision as i64 {
        exponent_form(value, precision - 1, alt, upper)
    } else {
        let decimals = usize::try_from(precision as i64 - 1 - exponent).unwrap_or(0);
        fixed(value, decimals, alt)
    };
    if alt {
        return text;
    }
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(pos) => text.split_at(pos),
        None => (text.as_str(), ""),
    };
    let mantissa = if mantissa.contains('.') { mantissa.trim_end_matches('0').trim_end_matches('.') } else { mantissa };
    format!("{mantissa}{exponent}")
}

/// `%a`/`%A` of `value` as glibc prints an x87 `long double` (bash's
/// printf reads its numbers as `long double`): the leading hex digit holds
/// the top four bits of the 64-bit significand (`1` is `0x8p-3`).
pub(crate) fn hex_float(out: &mut Vec<u8>, spec: &Spec, value: f64, upper: bool) {
    if !value.is_finite() {
        signed_text(out, spec, non_finite(value, upper), false);
        return;
    }
    let negative = value.is_sign_negative();
    let bits = value.abs().to_bits();
    let fraction_bits = bits & ((1 << 52) - 1);
    // The 64-bit significand, top bit set, and the exponent of its first
    // hex digit: value = significand / 2^60 * 2^exponent.
    let (significand, mut exponent) = match bits >> 52 {
        _ if value == 0.0 => (0u64, 0i64),
        0 => {
            let shift = fraction_bits.leading_zeros();
            (fraction_bits << shift, -1014 - i64::from(shift))
        }
        raw => ((fraction_bits | (1 << 52)) << 11, raw as i64 - 1023 - 3),
    };
    let mut lead = (significand >> 60) as u8;
    let fraction = significand & ((1 << 60) - 1);
    let digit_at = |fraction: u64, index: usize| hex_digit(((fraction >> (4 * index)) & 0xf) as u8, upper);
    let digits: String = match spec.precision {
        Some(precision) if precision < 15 => {
            // Rounded to `precision` hex digits, ties to even.
            let drop = 4 * (15 - precision as u32);
            let rest = fraction & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            let mut kept = fraction >> drop;
            if rest > half || (rest == half && kept & 1 == 1) {
                kept += 1;
                if kept >> (4 * precision as u32) != 0 {
                    kept = 0;
                    lead += 1;
                    if lead == 16 {
                        lead = 1;
                        exponent += 4;
                    }
                }
            }
            (0..precision).rev().map(|index| digit_at(kept, index)).collect()
        }
        _ => {
            let all: String = (0..15).rev().map(|index| digit_at(fraction, index)).collect();
            match spec.precision {
                None => all.trim_end_matches('0').to_string(),
                Some(precision) => format!("{all}{}", "0".repeat(precision - 15)),
            }
        }
    };
    let point = if !digits.is_empty() || spec.alt { "." } else { "" };
    let (x, p) = if upper { ("0X", 'P') } else { ("0x", 'p') };
    let exponent_sign = if exponent < 0 { '-' } else { '+' };
    let body = format!("{}{point}{digits}{p}{exponent_sign}{}", hex_digit(lead, upper), exponent.unsigned_abs());
    let sign = if negative { "-" } else { positive_sign(spec) };
    numeric_layout(out, spec, spec.zero, sign, x, &body);
}

fn hex_digit(value: u8, upper: bool) -> char {
    let digit = char::from_digit(u32::from(value), 16).unwrap_or('0');
    if upper {
        digit.to_ascii_uppercase()
    } else {
        digit
    }
}

#[cfg(test)]
mod tests {
    use super::super::awk::{sprintf, Value};
    use super::super::text::printf_format;

    /// `format_table.tsv` (made by `scripts/printf-table.py` from /bin/bash
    /// and mawk): format, argument, bash's output, and `=` where mawk prints
    /// the same (`!` where it has no `%a` or clamps negative numbers in
    /// unsigned conversions, as gawk and ours do not).
    const TABLE: &str = include_str!("format_table.tsv");

    fn unescape(text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] == b'\\' && bytes.get(at + 1) == Some(&b'x') {
                out.push(u8::from_str_radix(&text[at + 2..at + 4], 16).unwrap());
                at += 4;
            } else {
                out.push(bytes[at]);
                at += 1;
            }
        }
        out
    }

    fn rows() -> impl Iterator<Item = (&'static str, &'static str, Vec<u8>, &'static str)> {
        TABLE.lines().filter(|line| !line.starts_with('#')).map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            (fields[0], fields[1], unescape(fields[2]), fields[3])
        })
    }

    /// How many arguments a row's format takes.
    fn conversions(format: &str) -> usize {
        format.matches('%').count()
    }

    #[test]
    fn shell_printf_matches_bash() {
        let mut checked = 0;
        for (format, argument, bash, _) in rows() {
            let args = vec![argument.to_string(); conversions(format)];
            let got = printf_format(format.as_bytes(), &args, &|| Ok(()), 1 << 20).ok().unwrap();
            assert_eq!(
                String::from_utf8_lossy(&got.output),
                String::from_utf8_lossy(&bash),
                "printf '{format}' {argument}"
            );
            checked += 1;
        }
        assert!(checked > 400);
    }

    #[test]
    fn awk_sprintf_matches_mawk() {
        let mut checked = 0;
        for (format, argument, bash, mawk) in rows() {
            if mawk != "=" {
                continue;
            }
            // Numbers for the numeric conversions, strings for %s and %c.
            let value = if format.contains('s') || format.contains('c') {
                Value::str(argument.as_bytes())
            } else {
                Value::Num(argument.parse().unwrap_or(f64::NAN).copysign(if argument.starts_with('-') {
                    -1.0
                } else {
                    1.0
                }))
            };
            let args = vec![value; conversions(format)];
            let got = sprintf(format.as_bytes(), &args, b"%.6g").unwrap();
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&bash),
                "awk printf \"{format}\", {argument}"
            );
            checked += 1;
        }
        assert!(checked > 350);
    }
}
