//! `seq [-w] [-s SEP] [-f FORMAT] [FIRST [INC]] LAST`.
//!
//! Numbers are decimals computed exactly (GNU uses `long double`, so on
//! rare steps like `0.1` we may print one more or one fewer term than it
//! would; ours is the exact answer). Exponents (`1e2`) are accepted;
//! `inf`, `nan` and hexadecimal numbers are not.

use super::super::options::{parse_until, Arg, HasArg, Spec};
use super::{quote, tick, usage_error};
use crate::shell::command::Context;
use crate::shell::LimitHit;

/// A decimal: `mantissa / 10^scale`.
#[derive(Debug, Clone, Copy)]
struct Decimal {
    mantissa: i128,
    scale: u32,
}

impl Decimal {
    fn parse(text: &str) -> Option<Decimal> {
        let text = text.trim_start_matches([' ', '\t']);
        let (number, exponent) = match text.find(['e', 'E']) {
            Some(cut) => (&text[..cut], text[cut + 1..].parse::<i32>().ok()?),
            None => (text, 0),
        };
        let (negative, digits) = match number.as_bytes().first()? {
            b'-' => (true, &number[1..]),
            b'+' => (false, &number[1..]),
            _ => (false, number),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() && fraction.is_empty() {
            return None;
        }
        if !whole.bytes().chain(fraction.bytes()).all(|byte| byte.is_ascii_digit()) {
            return None;
        }
        let mut mantissa: i128 = 0;
        for byte in whole.bytes().chain(fraction.bytes()) {
            mantissa = mantissa.checked_mul(10)?.checked_add(i128::from(byte - b'0'))?;
        }
        let mut scale = i64::try_from(fraction.len()).ok()? - i64::from(exponent);
        while scale < 0 {
            mantissa = mantissa.checked_mul(10)?;
            scale += 1;
        }
        if scale > 30 {
            return None;
        }
        Some(Decimal { mantissa: if negative { -mantissa } else { mantissa }, scale: u32::try_from(scale).ok()? })
    }

    /// The same value at a larger scale.
    fn at(self, scale: u32) -> Option<i128> {
        self.mantissa.checked_mul(10i128.checked_pow(scale - self.scale)?)
    }
}

/// `value / 10^scale` with `precision` decimals (`precision <= scale`,
/// extra digits truncated).
fn format_fixed(value: i128, scale: u32, precision: u32) -> String {
    let value = value / 10i128.pow(scale - precision);
    let negative = value < 0;
    let digits = value.unsigned_abs().to_string();
    let precision = precision as usize;
    let padded = if digits.len() <= precision {
        format!("{}{digits}", "0".repeat(precision + 1 - digits.len()))
    } else {
        digits
    };
    let (whole, fraction) = padded.split_at(padded.len() - precision);
    let sign = if negative { "-" } else { "" };
    if precision == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// GNU seq's options; they end at the first operand, or at an element that
/// looks like a negative number (`-1`, `-.5`), as GNU seq checks before
/// each getopt call.
const SPEC: Spec = Spec {
    short: "+f:s:w",
    long: &[("equal-width", "w", HasArg::No), ("format", "f", HasArg::Yes), ("separator", "s", HasArg::Yes)],
};

fn is_negative_number(arg: &str) -> bool {
    matches!(arg.as_bytes(), [b'-', b'.' | b'0'..=b'9', ..])
}

pub(super) fn seq(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut separator = "\n".to_string();
    let mut format: Option<String> = None;
    let mut equal_width = false;
    let mut operands = Vec::new();
    match parse_until(&SPEC, args, is_negative_number) {
        Ok(parsed) => {
            for arg in parsed {
                match arg {
                    Arg::Opt("w", _) => equal_width = true,
                    Arg::Opt("s", value) => separator = value.unwrap_or_default(),
                    Arg::Opt(_, value) => format = value,
                    Arg::Operand(operand) => operands.push(operand),
                }
            }
        }
        Err(message) => {
            usage_error(ctx, message)?;
            return Ok(1);
        }
    }
    let operands = &operands[..];
    if operands.is_empty() {
        usage_error(ctx, "missing operand")?;
        return Ok(1);
    }
    if operands.len() > 3 {
        usage_error(ctx, format_args!("extra operand {}", quote(&operands[3])))?;
        return Ok(1);
    }
    let mut numbers = Vec::new();
    for operand in operands {
        match Decimal::parse(operand) {
            Some(number) => numbers.push(number),
            None => {
                usage_error(ctx, format_args!("invalid floating point argument: {}", quote(operand)))?;
                return Ok(1);
            }
        }
    }
    let one = Decimal { mantissa: 1, scale: 0 };
    let (first, step, last) = match numbers.as_slice() {
        [last] => (one, one, *last),
        [first, last] => (*first, one, *last),
        [first, step, last] => (*first, *step, *last),
        _ => return Ok(1),
    };
    if step.mantissa == 0 {
        usage_error(ctx, format_args!("invalid Zero increment value: {}", quote(&operands[1])))?;
        return Ok(1);
    }
    if equal_width && format.is_some() {
        ctx.error("format string may not be specified when printing equal width strings")?;
        return Ok(1);
    }
    let precision = first.scale.max(step.scale);
    let scale = precision.max(last.scale);
    let (Some(first_v), Some(step_v), Some(last_v)) = (first.at(scale), step.at(scale), last.at(scale)) else {
        ctx.error("numbers too large")?;
        return Ok(1);
    };
    let width = if equal_width {
        format_fixed(first_v, scale, precision).len().max(format_fixed(last_v, scale, precision).len())
    } else {
        0
    };
    if format.is_none() && scale == 0 && !equal_width {
        if let (Ok(first), Ok(step), Ok(last)) = (i64::try_from(first_v), i64::try_from(step_v), i64::try_from(last_v))
        {
            return integers(ctx, first, step, last, separator.as_bytes());
        }
    }
    let mut value = first_v;
    let mut out = String::new();
    let mut started = false;
    let mut step_count = 0;
    while if step_v > 0 { value <= last_v } else { value >= last_v } {
        tick(ctx, &mut step_count)?;
        if started {
            out.push_str(&separator);
        }
        started = true;
        let text = match &format {
            Some(format) => match printf_number(format, value as f64 / 10f64.powi(scale as i32)) {
                Ok(text) => text,
                Err(message) => {
                    ctx.error(message)?;
                    return Ok(1);
                }
            },
            None => {
                let text = format_fixed(value, scale, precision);
                pad_zeros(&text, width)
            }
        };
        out.push_str(&text);
        if out.len() >= 1 << 16 {
            ctx.stdout.write_str(&out)?;
            out.clear();
        }
        match value.checked_add(step_v) {
            Some(next) => value = next,
            None => break,
        }
    }
    if started {
        out.push('\n');
    }
    ctx.stdout.write_str(&out)?;
    Ok(0)
}

/// The integer case, the common one (`seq 1 N`): the same text as the loop
/// above, formatted into a buffer written 64 KiB at a time.
fn integers(ctx: &mut Context<'_>, first: i64, step: i64, last: i64, separator: &[u8]) -> Result<i32, LimitHit> {
    let mut out: Vec<u8> = Vec::with_capacity((1 << 16) + 64);
    let mut value = first;
    let mut started = false;
    let mut count = 0u32;
    while if step > 0 { value <= last } else { value >= last } {
        if started {
            out.extend_from_slice(separator);
        }
        started = true;
        push_integer(&mut out, value);
        if out.len() >= 1 << 16 {
            ctx.stdout.write(&out)?;
            out.clear();
            count += 1;
            if count.is_multiple_of(16) {
                (ctx.check)()?;
            }
        }
        match value.checked_add(step) {
            Some(next) => value = next,
            None => break,
        }
    }
    if started {
        out.push(b'\n');
    }
    ctx.stdout.write(&out)?;
    Ok(0)
}

/// Appends `value` in decimal.
fn push_integer(out: &mut Vec<u8>, value: i64) {
    if value < 0 {
        out.push(b'-');
    }
    let mut rest = value.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// Zero-pads a number after its sign to `width` characters.
fn pad_zeros(text: &str, width: usize) -> String {
    if text.len() >= width {
        return text.to_string();
    }
    let zeros = "0".repeat(width - text.len());
    match text.strip_prefix('-') {
        Some(digits) => format!("-{zeros}{digits}"),
        None => format!("{zeros}{text}"),
    }
}

/// `-f FORMAT`: one `%f`, `%e`, `%g` (or upper case) directive with flags,
/// width and precision; `%%` is a percent sign.
fn printf_number(format: &str, value: f64) -> Result<String, String> {
    let bad = || format!("format {} has no % directive", quote(format));
    let mut out = String::new();
    let mut chars = format.char_indices().peekable();
    let mut seen = false;
    while let Some((_, c)) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if let Some((_, '%')) = chars.peek() {
            chars.next();
            out.push('%');
            continue;
        }
        if seen {
            return Err(format!("format {} has too many % directives", quote(format)));
        }
        seen = true;
        let mut flags = String::new();
        while let Some(&(_, flag)) = chars.peek() {
            if "-+ #0'".contains(flag) {
                flags.push(flag);
                chars.next();
            } else {
                break;
            }
        }
        let mut width = String::new();
        while let Some(&(_, digit)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
            width.push(digit);
            chars.next();
        }
        let mut precision: Option<usize> = None;
        if let Some((_, '.')) = chars.peek() {
            chars.next();
            let mut digits = String::new();
            while let Some(&(_, digit)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                digits.push(digit);
                chars.next();
            }
            precision = Some(digits.parse().unwrap_or(0));
        }
        if let Some((_, 'L')) = chars.peek() {
            chars.next();
        }
        let conversion = chars.next().map(|(_, c)| c).ok_or_else(|| format!("format {} ends in %", quote(format)))?;
        let precision = precision.unwrap_or(6).min(60);
        let body = match conversion {
            'f' | 'F' => super::super::layout::fixed(value.abs(), precision),
            'e' | 'E' => exp_form(value.abs(), precision),
            'g' | 'G' => general_form(value.abs(), precision, flags.contains('#')),
            _ => return Err(format!("format {} has unknown %{conversion} directive", quote(format))),
        };
        let body = if conversion.is_ascii_uppercase() { body.to_uppercase() } else { body };
        let sign = if value.is_sign_negative() && value != 0.0 {
            "-"
        } else if flags.contains('+') {
            "+"
        } else if flags.contains(' ') {
            " "
        } else {
            ""
        };
        let width: usize = width.parse().unwrap_or(0).min(1000);
        let len = sign.len() + body.len();
        let fill = width.saturating_sub(len);
        if flags.contains('-') {
            out.push_str(&format!("{sign}{body}{}", " ".repeat(fill)));
        } else if flags.contains('0') {
            out.push_str(&format!("{sign}{}{body}", "0".repeat(fill)));
        } else {
            out.push_str(&format!("{}{sign}{body}", " ".repeat(fill)));
        }
    }
    if seen {
        Ok(out)
    } else {
        Err(bad())
    }
}

/// C's `%e`: `1.500000e+02`.
fn exp_form(value: f64, precision: usize) -> String {
    let text = super::super::layout::scientific(value, precision);
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let exponent: i32 = exponent.parse().unwrap_or(0);
            let sign = if exponent < 0 { '-' } else { '+' };
            format!("{mantissa}e{sign}{:02}", exponent.abs())
        }
        None => text,
    }
}

/// C's `%g`: the shorter of `%e` and `%f` at `precision` significant digits.
fn general_form(value: f64, precision: usize, keep_zeros: bool) -> String {
    let precision = precision.max(1);
    let exponent = if value == 0.0 {
        0
    } else {
        let rounded = super::super::layout::scientific(value, precision - 1);
        rounded.split_once('e').and_then(|(_, e)| e.parse::<i32>().ok()).unwrap_or(0)
    };
    let text = if exponent < -4 || exponent >= precision as i32 {
        exp_form(value, precision - 1)
    } else {
        super::super::layout::fixed(value, (precision as i64 - 1 - i64::from(exponent)).max(0) as usize)
    };
    if keep_zeros {
        return text;
    }
    let (mantissa, suffix) = match text.find('e') {
        Some(cut) => text.split_at(cut),
        None => (text.as_str(), ""),
    };
    let mantissa = if mantissa.contains('.') { mantissa.trim_end_matches('0').trim_end_matches('.') } else { mantissa };
    format!("{mantissa}{suffix}")
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::MemoryStorage;

    fn seq(args: &[&str]) -> (i32, String, String) {
        run_for_test(&MemoryStorage::default(), "seq", args, "")
    }

    fn out(args: &[&str]) -> String {
        seq(args).1.replace('\n', " ")
    }

    #[test]
    fn integers_take_the_fast_path_with_the_same_text() {
        assert_eq!(
            seq(&["9223372036854775806", "9223372036854775807"]).1,
            "9223372036854775806\n9223372036854775807\n"
        );
        assert_eq!(seq(&["-s,", "5", "-2", "-3"]).1, "5,3,1,-1,-3\n");
        assert_eq!(seq(&["-s", "", "3"]).1, "123\n");
        assert_eq!(seq(&["0", "-1", "-2"]).1, "0\n-1\n-2\n");
        assert_eq!(seq(&["5", "1"]).1, "");
        let long = seq(&["1", "100000"]).1;
        assert_eq!(long.len(), (1..=100000).map(|n: u32| n.to_string().len() + 1).sum::<usize>());
        assert!(long.starts_with("1\n2\n") && long.ends_with("\n99999\n100000\n"));
    }

    #[test]
    fn counts_like_gnu() {
        assert_eq!(out(&["3"]), "1 2 3 ");
        assert_eq!(out(&["5", "-1", "1"]), "5 4 3 2 1 ");
        assert_eq!(out(&["-w", "-3", "2"]), "-3 -2 -1 00 01 02 ");
        assert_eq!(out(&["1.5", "3"]), "1.5 2.5 ");
        assert_eq!(out(&["0", "0.1", "0.35"]), "0.0 0.1 0.2 0.3 ");
        assert_eq!(out(&["-w", "8", "11"]), "08 09 10 11 ");
        assert_eq!(out(&["-w", "1", "0.5", "2"]), "1.0 1.5 2.0 ");
        assert_eq!(out(&["-w", "1", "4.5", "10"]), "01.0 05.5 10.0 ");
        assert_eq!(out(&["3.0"]), "1 2 3 ");
        assert_eq!(out(&["2", "1.0", "4"]), "2.0 3.0 4.0 ");
        assert_eq!(out(&["1e2", "1e2"]), "100 ");
        assert_eq!(out(&["--", "-2", "-1"]), "-2 -1 ");
        assert_eq!(seq(&["-1"]), (0, "".into(), "".into()));
        assert_eq!(seq(&["10", "2"]), (0, "".into(), "".into()));
        assert_eq!(seq(&["-s,", "3"]).1, "1,2,3\n");
        assert_eq!(seq(&["-s:", "-w", "9", "10"]).1, "09:10\n");
    }

    #[test]
    fn formats_and_errors() {
        assert_eq!(out(&["-f", "%03g", "3"]), "001 002 003 ");
        assert_eq!(out(&["-f", "x%.2fy", "1", "2"]), "x1.00y x2.00y ");
        assert_eq!(out(&["-f", "%e", "1"]), "1.000000e+00 ");
        assert_eq!(out(&["-f", "%g", "0.5", "1000000", "1500000"]), "0.5 1e+06 ");
        assert_eq!(
            seq(&["1", "0", "3"]),
            (1, "".into(), "seq: invalid Zero increment value: '0'\nTry 'seq --help' for more information.\n".into())
        );
        assert_eq!(
            seq(&["x"]),
            (
                1,
                "".into(),
                "seq: invalid floating point argument: 'x'\nTry 'seq --help' for more information.\n".into()
            )
        );
        assert_eq!(
            seq(&["1", "2", "3", "4"]),
            (1, "".into(), "seq: extra operand '4'\nTry 'seq --help' for more information.\n".into())
        );
    }
}
