//! Writing JSON: numbers, strings and values as jq prints them, depth
//! bounded.

use super::*;

pub(super) struct TooDeep;

/// jq's text of a number: integers as they are, decimal literals in
/// decNumber's canonical form (jq 1.7 keeps literals), doubles with up to 17
/// significant digits.
pub(super) fn format_number(out: &mut String, n: &Num) {
    match n {
        Num::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Num::Float(x) => format_double(out, *x),
        Num::Dec(text) => format_decimal(out, text),
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

pub(super) fn format_double(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("null");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "1.7976931348623157e+308" } else { "-1.7976931348623157e+308" });
        return;
    }
    if x.is_sign_negative() {
        out.push('-');
    }
    if x == 0.0 {
        out.push('0');
        return;
    }
    // Rust's `{:e}` gives the shortest digits that read back the same.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let n = digits.len() as i64;
    let point = exp + 1;
    if point <= -4 || point > n + 15 {
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if point <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat((-point) as usize));
        out.push_str(&digits);
    } else if point >= n {
        out.push_str(&digits);
        out.push_str(&"0".repeat((point - n) as usize));
    } else {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    }
}

/// decNumber's to-scientific-string of a decimal literal.
pub(super) fn format_decimal(out: &mut String, text: &str) {
    let (negative, body) = match text.strip_prefix('-') {
        Some(body) => (true, body),
        None => (false, text),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], body[at + 1..].parse::<i64>().ok()),
        None => (body, Some(0)),
    };
    let Some(mut exp) = exp else {
        // An exponent too large for i64: print it as jq would a double.
        format_double(out, text.parse().unwrap_or(f64::NAN));
        return;
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    exp -= frac.len() as i64;
    let all: String = format!("{int}{frac}");
    let coefficient = all.trim_start_matches('0');
    let coefficient = if coefficient.is_empty() { "0" } else { coefficient };
    let n = coefficient.len() as i64;
    let adjusted = exp + n - 1;
    if negative {
        out.push('-');
    }
    if exp <= 0 && adjusted >= -6 {
        if exp == 0 {
            out.push_str(coefficient);
        } else {
            let point = n + exp;
            if point > 0 {
                out.push_str(&coefficient[..point as usize]);
                out.push('.');
                out.push_str(&coefficient[point as usize..]);
            } else {
                out.push_str("0.");
                out.push_str(&"0".repeat((-point) as usize));
                out.push_str(coefficient);
            }
        }
    } else {
        out.push_str(&coefficient[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&coefficient[1..]);
        }
        let _ = write!(out, "E{}{}", if adjusted < 0 { '-' } else { '+' }, adjusted.abs());
    }
}

/// A JSON string with jq's escapes; `ascii` escapes everything past ASCII.
pub(super) fn format_string(out: &mut String, text: &str, ascii: bool) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if ascii && !c.is_ascii() => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

pub(super) fn string_bytes(value: &Val) -> Option<&[u8]> {
    match value {
        Val::TStr(s) | Val::BStr(s) => Some(s),
        _ => None,
    }
}

/// At least the bytes `format_string` writes for `s` (and at most six
/// times more for non-ASCII text under `-a`).
pub(super) fn escaped_len(s: &[u8]) -> usize {
    2 + s
        .iter()
        .map(|&b| match b {
            b'"' | b'\\' => 2,
            0..=0x1f | 0x7f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// Writes `value` as jq prints it.
pub(super) fn format_value(out: &mut String, value: &Val, style: &Style, level: usize) -> Result<(), TooDeep> {
    if level > MAX_DEPTH {
        return Err(TooDeep);
    }
    // The text of a value shared many times over can be far larger than
    // the value: stop at the budget (the run then ends with the limit).
    if out.len() > memory_budget() {
        too_big("the JSON text of a value");
        return Err(TooDeep);
    }
    let newline = |out: &mut String, level: usize| {
        if let Some(indent) = &style.indent {
            out.push('\n');
            for _ in 0..level {
                out.push_str(indent);
            }
        }
    };
    match value {
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Num(n) => format_number(out, n),
        Val::TStr(s) | Val::BStr(s) => {
            // Escapes take up to six bytes for one: count before writing.
            if out.len().saturating_add(s.len().saturating_mul(6)) > memory_budget()
                && out.len().saturating_add(escaped_len(s)) > memory_budget()
            {
                too_big("the JSON text of a value");
                return Err(TooDeep);
            }
            format_string(out, &String::from_utf8_lossy(s), style.ascii)
        }
        Val::Arr(items) if items.is_empty() => out.push_str("[]"),
        Val::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                format_value(out, item, style, level + 1)?;
            }
            newline(out, level);
            out.push(']');
        }
        Val::Obj(map) if map.is_empty() => out.push_str("{}"),
        Val::Obj(map) => {
            out.push('{');
            let mut entries: Vec<(&Val, &Val)> = map.iter().collect();
            if style.sort_keys {
                entries.sort_by(|a, b| a.0.cmp(b.0));
            }
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                match string_bytes(key) {
                    Some(s) => format_string(out, &String::from_utf8_lossy(s), style.ascii),
                    None => {
                        let mut text = String::new();
                        format_value(&mut text, key, &Style { indent: None, ..style.clone() }, level + 1)?;
                        format_string(out, &text, style.ascii);
                    }
                }
                out.push(':');
                if style.indent.is_some() {
                    out.push(' ');
                }
                format_value(out, item, style, level + 1)?;
            }
            newline(out, level);
            out.push('}');
        }
    }
    Ok(())
}

/// Compact JSON text, as `tojson` gives it.
pub(super) fn to_json(value: &Val) -> Result<String, TooDeep> {
    let mut out = String::new();
    format_value(&mut out, value, &Style { indent: None, sort_keys: false, ascii: false }, 0)?;
    Ok(out)
}

/// Drops a value without recursing on the native stack, for values that
/// may be deep.
pub(super) fn drop_deep(value: Val) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Val::Arr(items) => {
                if let Ok(items) = Rc::try_unwrap(items) {
                    stack.extend(items);
                }
            }
            Val::Obj(map) => {
                if let Ok(map) = Rc::try_unwrap(map) {
                    for (key, item) in map {
                        stack.push(key);
                        stack.push(item);
                    }
                }
            }
            _ => {}
        }
    }
}
