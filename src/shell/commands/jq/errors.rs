//! jq's wording of errors: type names, truncated values, runtime and
//! compile errors.

use super::*;

pub(super) fn type_name(value: &Val) -> &'static str {
    match value {
        Val::Null => "null",
        Val::Bool(_) => "boolean",
        Val::Num(_) => "number",
        Val::TStr(_) | Val::BStr(_) => "string",
        Val::Arr(_) => "array",
        Val::Obj(_) => "object",
    }
}

/// A value as jq shows it in a message: compact, cut to 11 bytes and `...`.
pub(super) fn truncated(value: &Val) -> String {
    let mut text = to_json(value).unwrap_or_else(|_| "<deep>".into());
    if text.len() > 14 {
        let mut cut = 11;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("...");
    }
    text
}

/// Parses one value (as jaq prints it) off the front of `text`.
fn value_prefix(text: &str) -> Option<(Val, &str)> {
    let mut parser = JsonParser::new(text.as_bytes());
    let value = parser.next_value()?.ok()?;
    Some((value, text.get(parser.pos..)?))
}

/// Rewords jaq's messages for the errors agents meet most in jq's words.
fn jq_message(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("cannot index ") {
        if let Some((target, rest)) = value_prefix(rest) {
            if let Some(index) = rest.strip_prefix(" with ").and_then(value_prefix) {
                let index = match &index.0 {
                    Val::TStr(s) => to_json(&Val::from(String::from_utf8_lossy(s).into_owned())).unwrap_or_default(),
                    other => type_name(other).to_string(),
                };
                return format!("Cannot index {} with {}", type_name(&target), index);
            }
        }
    }
    if let Some(rest) = message.strip_prefix("cannot use ") {
        if let Some((value, rest)) = value_prefix(rest) {
            if let Some(what) = rest.strip_prefix(" as ") {
                if what.starts_with("iterable") {
                    return format!("Cannot iterate over {} ({})", type_name(&value), truncated(&value));
                }
                return format!("{} ({}) cannot be used as {}", type_name(&value), truncated(&value), what);
            }
        }
    }
    if let Some(rest) = message.strip_prefix("cannot calculate ") {
        if let Some((left, rest)) = value_prefix(rest) {
            let mut parts = rest.trim_start().splitn(2, ' ');
            if let (Some(op), Some(rest)) = (parts.next(), parts.next()) {
                if let Some((right, "")) = value_prefix(rest) {
                    let verb = match op {
                        "+" => "added",
                        "-" => "subtracted",
                        "*" => "multiplied",
                        "/" => "divided",
                        _ => "divided (remainder)",
                    };
                    let zero = matches!(op, "/" | "%") && right.as_f64() == Some(0.0);
                    return format!(
                        "{} ({}) and {} ({}) cannot be {}{}",
                        type_name(&left),
                        truncated(&left),
                        type_name(&right),
                        truncated(&right),
                        verb,
                        if zero { " because the divisor is zero" } else { "" }
                    );
                }
            }
        }
    }
    if let Some(text) = message.strip_suffix(" has no length") {
        if let Some((value, "")) = value_prefix(text) {
            return format!("{} ({}) has no length", type_name(&value), truncated(&value));
        }
    }
    message.to_string()
}

/// `jq: error (at LOC): MESSAGE` for a runtime error.
pub(super) fn runtime_error(error: jaq_core::Error<V>, at: &str) -> String {
    match error.into_val().0 {
        Val::TStr(s) => format!("jq: error (at {at}): {}\n", jq_message(&String::from_utf8_lossy(&s))),
        other => {
            let text = to_json(&other).unwrap_or_default();
            format!("jq: error (at {at}) (not a string): {text}\n")
        }
    }
}

pub(super) fn line_of(code: &str, part: &str) -> usize {
    let start = (part.as_ptr() as usize).saturating_sub(code.as_ptr() as usize).min(code.len());
    1 + code.as_bytes()[..start].iter().filter(|&&b| b == b'\n').count()
}

/// Something short to show for where a syntax error was found.
fn found_text(found: &str) -> String {
    let token: String = found.chars().take_while(|c| !c.is_whitespace()).take(20).collect();
    if token.is_empty() {
        "end of file".into()
    } else {
        format!("'{token}'")
    }
}

fn lex_expected(expect: &load::lex::Expect<&str>) -> &'static str {
    use load::lex::Expect;
    match expect {
        Expect::Digit => "digit",
        Expect::Ident => "identifier",
        Expect::Delim("(") => "closing parenthesis",
        Expect::Delim("[") => "closing bracket",
        Expect::Delim("{") => "closing brace",
        Expect::Delim(_) => "closing quote",
        Expect::Escape => "string escape sequence",
        Expect::Unicode => "4-digit hexadecimal UTF-8 code point",
        Expect::Token => "token",
        _ => "token",
    }
}

/// jq's compile error report: each error, the program, and the count.
pub(super) fn compile_report(code: &str, shown: &str, errors: Vec<(String, usize)>) -> String {
    let mut out = String::new();
    for (message, line) in &errors {
        let _ = writeln!(out, "jq: error: {message} at <top-level>, line {line}:\n{shown}");
    }
    let n = errors.len();
    let _ = writeln!(out, "jq: {n} compile error{}", if n == 1 { "" } else { "s" });
    let _ = code;
    out
}

pub(super) fn load_errors(code: &str, errors: load::Errors<&str, ()>) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (_file, error) in errors {
        match error {
            load::Error::Io(items) => {
                for (path, message) in items {
                    out.push((format!("{path}: {message}"), 1));
                }
            }
            load::Error::Lex(items) => {
                for (expect, found) in items {
                    let message = format!(
                        "syntax error, unexpected {}, expecting {} (Unix shell quoting issues?)",
                        found_text(found),
                        lex_expected(&expect)
                    );
                    out.push((message, line_of(code, found)));
                }
            }
            load::Error::Parse(items) => {
                for (expect, found) in items {
                    let message = format!(
                        "syntax error, unexpected {}, expecting {} (Unix shell quoting issues?)",
                        found_text(found),
                        expect.as_str()
                    );
                    out.push((message, line_of(code, found)));
                }
            }
        }
    }
    out
}
