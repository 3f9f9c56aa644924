//! awk values (number, string, "strnum" input string, uninitialised), the
//! conversions between numbers and strings, and `printf` formatting (awk's
//! arguments and conversions over `commands/format.rs`, the layout it shares
//! with the shell's printf).

use std::rc::Rc;

use super::super::format::{self, Spec};

/// Longest string any operation may build (concatenation, `sprintf` widths,
/// `gsub` results): beyond it the program stops with an error instead of
/// exhausting memory.
pub const MAX_STRING: usize = 64 << 20;

/// One awk value.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// Never assigned: both "" and 0.
    #[default]
    Uninit,
    /// A number.
    Num(f64),
    /// A string constant or the result of a string operation.
    Str(Rc<[u8]>),
    /// Input text (fields, `getline`, `split` elements, `-v` values): a
    /// number when it looks like one, a string otherwise.
    StrNum(Rc<[u8]>),
}

impl Value {
    /// A string value from bytes.
    pub fn str(bytes: &[u8]) -> Value {
        Value::Str(Rc::from(bytes))
    }

    /// An input (strnum) value from bytes.
    pub fn strnum(bytes: &[u8]) -> Value {
        Value::StrNum(Rc::from(bytes))
    }

    /// The numeric value.
    pub fn num(&self) -> f64 {
        match self {
            Value::Uninit => 0.0,
            Value::Num(n) => *n,
            Value::Str(s) | Value::StrNum(s) => str_to_num(s),
        }
    }

    /// Truth as awk sees it: numbers are true when nonzero, strings when
    /// nonempty, input text by whichever it looks like.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Uninit => false,
            Value::Num(n) => *n != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::StrNum(s) => match looks_numeric(s) {
                Some(n) => n != 0.0,
                None => !s.is_empty(),
            },
        }
    }

    /// The number this value compares as, if it compares numerically.
    pub fn as_comparable_num(&self) -> Option<f64> {
        match self {
            Value::Uninit => Some(0.0),
            Value::Num(n) => Some(*n),
            Value::Str(_) => None,
            Value::StrNum(s) => looks_numeric(s),
        }
    }
}

/// Whether `c` is a blank as awk's number scanner and default field
/// splitting see it.
#[inline]
pub fn is_blank(c: u8) -> bool {
    // Most bytes are past the space: one comparison for them.
    c <= b' ' && (c == b' ' || c == b'\t' || c == b'\n')
}

/// Length of the longest decimal number at the start of `s` (after no
/// blanks): sign, digits, fraction, exponent. 0 when there is none.
fn number_prefix(s: &[u8]) -> usize {
    let mut i = 0;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        i += 1;
    }
    let digits_start = i;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    let mut mantissa = i - digits_start;
    if i < s.len() && s[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        mantissa += i - frac_start;
    }
    if mantissa == 0 {
        return 0;
    }
    if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
        let mut j = i + 1;
        if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
            j += 1;
        }
        let exp_start = j;
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
        }
        if j > exp_start {
            i = j;
        }
    }
    i
}

/// Powers of ten exact in an `f64`.
const POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/// The number at the start of `s` (no blanks before it) and its length,
/// when it is a plain decimal of at most 15 digits with no exponent (most
/// input numbers): the digits as an integer, exact in an `f64`, divided
/// by an exact power of ten is the correctly rounded value, the one the
/// general parser gives. `None` sends the caller to the general path.
#[inline]
fn simple_prefix(s: &[u8]) -> Option<(f64, usize)> {
    let (negative, mut i) = match s.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let mut mantissa: u64 = 0;
    let mut digits = 0;
    while let Some(&c) = s.get(i) {
        if !c.is_ascii_digit() {
            break;
        }
        mantissa = mantissa * 10 + u64::from(c - b'0');
        digits += 1;
        i += 1;
        if digits > 15 {
            return None;
        }
    }
    let mut fraction = 0;
    if s.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&c) = s.get(i) {
            if !c.is_ascii_digit() {
                break;
            }
            mantissa = mantissa * 10 + u64::from(c - b'0');
            digits += 1;
            fraction += 1;
            i += 1;
            if digits > 15 {
                return None;
            }
        }
    }
    if digits == 0 || matches!(s.get(i), Some(b'e' | b'E')) {
        return None;
    }
    let value = mantissa as f64 / POW10[fraction];
    Some((if negative { -value } else { value }, i))
}

fn parse_prefix(s: &[u8]) -> f64 {
    // The prefix is ASCII digits, signs, '.', 'e': always valid UTF-8.
    std::str::from_utf8(s).ok().and_then(|t| t.parse::<f64>().ok()).unwrap_or(0.0)
}

/// awk's string-to-number conversion: leading blanks, then the longest
/// numeric prefix; anything else is 0.
pub fn str_to_num(s: &[u8]) -> f64 {
    let start = s.iter().position(|&c| !is_blank(c) && c != b'\r' && c != 0x0b && c != 0x0c).unwrap_or(s.len());
    let rest = &s[start..];
    if let Some((value, _)) = simple_prefix(rest) {
        return value;
    }
    let len = number_prefix(rest);
    if len == 0 {
        return 0.0;
    }
    parse_prefix(&rest[..len])
}

/// The number an input string stands for when the whole of it (blanks
/// aside) is a decimal number; `None` otherwise.
pub fn looks_numeric(s: &[u8]) -> Option<f64> {
    let is_space = |c: u8| is_blank(c) || c == b'\r' || c == 0x0b || c == 0x0c;
    let start = s.iter().position(|&c| !is_space(c))?;
    let end = s.iter().rposition(|&c| !is_space(c))? + 1;
    let body = &s[start..end];
    if let Some((value, len)) = simple_prefix(body) {
        return (len == body.len()).then_some(value);
    }
    let len = number_prefix(body);
    if len == 0 || len != body.len() {
        return None;
    }
    Some(parse_prefix(body))
}

/// A number as awk shows it: integral values as integers, others through
/// `fmt` (CONVFMT or OFMT).
pub fn num_to_str(n: f64, fmt: &[u8]) -> Vec<u8> {
    if n.is_nan() {
        return if n.is_sign_negative() { b"-nan".to_vec() } else { b"nan".to_vec() };
    }
    if n.is_infinite() {
        return if n < 0.0 { b"-inf".to_vec() } else { b"inf".to_vec() };
    }
    if n == n.trunc() {
        if n.abs() < 1e18 {
            return (n as i64).to_string().into_bytes();
        }
        return format!("{n:.0}").into_bytes();
    }
    let shortest = || {
        let mut out = Vec::with_capacity(16);
        format::float(&mut out, &Spec { precision: Some(6), ..Spec::default() }, b'g', n);
        out
    };
    if fmt == b"%.6g" {
        return shortest();
    }
    sprintf(fmt, &[Value::Num(n)], b"%.6g").unwrap_or_else(|_| shortest())
}

fn value_bytes(v: &Value, convfmt: &[u8]) -> Vec<u8> {
    match v {
        Value::Uninit => Vec::new(),
        Value::Num(n) => num_to_str(*n, convfmt),
        Value::Str(s) | Value::StrNum(s) => s.to_vec(),
    }
}

/// awk's `sprintf`: `%c %d %i %o %x %X %u %e %E %f %F %g %G %s %%` with
/// flags `-+ #0`, widths and precisions (`*` too). Too few arguments is an
/// error, as in gawk.
pub fn sprintf(fmt: &[u8], args: &[Value], convfmt: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut next_arg = 0usize;
    let take = |next_arg: &mut usize| -> Result<&Value, String> {
        let v = args.get(*next_arg).ok_or_else(|| "not enough arguments to satisfy format string".to_string())?;
        *next_arg += 1;
        Ok(v)
    };
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            let run_end = memchr::memchr(b'%', &fmt[i..]).map_or(fmt.len(), |p| i + p);
            out.extend_from_slice(&fmt[i..run_end]);
            i = run_end;
            continue;
        }
        let start = i;
        i += 1;
        if i >= fmt.len() {
            out.push(b'%');
            break;
        }
        if fmt[i] == b'%' {
            out.push(b'%');
            i += 1;
            continue;
        }
        let star = || take(&mut next_arg).map(|v| v.num() as i64);
        let spec = Spec::parse(fmt, &mut i, MAX_STRING + 1, b"hlLqjzt", star)?;
        if i >= fmt.len() {
            out.extend_from_slice(&fmt[start..]);
            break;
        }
        if spec.precision.is_some_and(|p| p > MAX_STRING) {
            return Err("printf precision too large".into());
        }
        let conv = fmt[i];
        i += 1;
        if spec.width > MAX_STRING && b"diuoxXeEfFgGcs".contains(&conv) {
            return Err("printf width too large".into());
        }
        match conv {
            b'd' | b'i' | b'u' => {
                let v = take(&mut next_arg)?.num();
                if v.is_finite() {
                    let n = v.trunc() as i128;
                    if conv == b'u' && n >= 0 {
                        format::unsigned(&mut out, &spec, conv, n.unsigned_abs());
                    } else {
                        format::signed(&mut out, &spec, n < 0, n.unsigned_abs());
                    }
                } else {
                    format::pad(&mut out, &spec, format::non_finite(v, false).as_bytes());
                }
            }
            b'o' | b'x' | b'X' => {
                let v = take(&mut next_arg)?.num();
                if v.is_finite() {
                    let t = v.trunc();
                    let n: u128 = if t < 0.0 { (t as i64) as u64 as u128 } else { t as u128 };
                    format::unsigned(&mut out, &spec, conv, n);
                } else {
                    format::pad(&mut out, &spec, format::non_finite(v, conv == b'X').as_bytes());
                }
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' => {
                let v = take(&mut next_arg)?.num();
                format::float(&mut out, &spec, conv, v);
            }
            b'c' => {
                let v = take(&mut next_arg)?;
                // A number's byte, or a string's first (a NUL for "", as mawk).
                let byte = match v {
                    Value::Num(n) => (*n as i64 & 0xff) as u8,
                    Value::Uninit => 0,
                    Value::Str(s) => s.first().copied().unwrap_or(0),
                    Value::StrNum(s) => match looks_numeric(s) {
                        Some(n) => (n as i64 & 0xff) as u8,
                        None => s.first().copied().unwrap_or(0),
                    },
                };
                format::pad(&mut out, &spec, &[byte]);
            }
            b's' => {
                let v = take(&mut next_arg)?;
                format::text(&mut out, &spec, &value_bytes(v, convfmt));
            }
            _ => {
                // Unknown conversion: printed as written.
                out.extend_from_slice(&fmt[start..i]);
            }
        }
        if out.len() > MAX_STRING {
            return Err("string too long".into());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[Value]) -> String {
        String::from_utf8(sprintf(fmt.as_bytes(), args, b"%.6g").unwrap()).unwrap()
    }

    #[test]
    fn conversions() {
        assert_eq!(str_to_num(b"  12abc"), 12.0);
        assert_eq!(str_to_num(b"1e3x"), 1000.0);
        assert_eq!(str_to_num(b"1e"), 1.0);
        assert_eq!(str_to_num(b".5"), 0.5);
        assert_eq!(str_to_num(b"abc"), 0.0);
        assert_eq!(looks_numeric(b" 12 "), Some(12.0));
        assert_eq!(looks_numeric(b"12a"), None);
        assert_eq!(looks_numeric(b""), None);
        assert_eq!(num_to_str(0.1 + 0.2, b"%.6g"), b"0.3");
        assert_eq!(num_to_str(1e30, b"%.6g"), b"1000000000000000019884624838656");
        assert_eq!(num_to_str(123456789.5, b"%.6g"), b"1.23457e+08");
        assert_eq!(num_to_str(0.0001, b"%.6g"), b"0.0001");
        assert_eq!(num_to_str(0.00001, b"%.6g"), b"1e-05");
    }

    /// The short path for plain decimals gives what the general parser
    /// gives, to the bit (signs of zero included).
    #[test]
    fn plain_decimals_parse_as_the_general_parser_does() {
        let general = |s: &[u8]| {
            let len = number_prefix(s);
            if len == 0 {
                0.0
            } else {
                parse_prefix(&s[..len])
            }
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = b"0123456789.-+ex";
        for _ in 0..200_000 {
            let len = (next() % 20) as usize;
            let text: Vec<u8> = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
            let (fast, slow) = (str_to_num(&text), general(&text));
            assert_eq!(fast.to_bits(), slow.to_bits(), "{:?}", String::from_utf8_lossy(&text));
        }
        for text in
            [&b"0.1"[..], b"-0", b"-0.0", b"999999999999999", b"0.000000000000001", b"123456.789012345", b"5.", b"+.5"]
        {
            assert_eq!(str_to_num(text).to_bits(), general(text).to_bits(), "{:?}", String::from_utf8_lossy(text));
        }
        assert_eq!(looks_numeric(b" 3.25 "), Some(3.25));
        assert_eq!(looks_numeric(b"1.2.3"), None);
        assert_eq!(looks_numeric(b"-"), None);
    }

    #[test]
    fn printf_formats() {
        let n = |x: f64| Value::Num(x);
        assert_eq!(
            f("%5.2f|%-5d|%05d|%x|%o|%e", &[n(3.24159), n(42.0), n(-42.0), n(255.0), n(8.0), n(1234.5)]),
            " 3.24|42   |-0042|ff|10|1.234500e+03"
        );
        assert_eq!(
            f("%c%c|%s|%.2s|%10s|%%", &[n(65.0), Value::str(b"hi"), n(1.5), Value::str(b"abc"), Value::str(b"x")]),
            "Ah|1.5|ab|         x|%"
        );
        assert_eq!(f("%g %g %g %G", &[n(100000.0), n(1000000.0), n(0.0001), n(1e-10)]), "100000 1e+06 0.0001 1E-10");
        assert_eq!(f("%+d % d %.3d %#x %#o", &[n(5.0), n(5.0), n(7.0), n(255.0), n(8.0)]), "+5  5 007 0xff 010");
        assert_eq!(f("%*d|%-*d|", &[n(4.0), n(1.0), n(3.0), n(2.0)]), "   1|2  |");
        assert!(sprintf(b"%d %d", &[n(1.0)], b"%.6g").is_err());
    }
}
