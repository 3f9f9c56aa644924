//! jq's `@` formats: `@html`, `@uri`, `@sh`, `@csv`, `@tsv`, `@base64` and
//! `@base64d`.

use super::{str_val, text_of, to_json, tostring, truncated, type_name, Val};

pub(super) fn format(name: &str, value: &Val) -> Result<Val, String> {
    let text = match name {
        "html" => html(&tostring(value)?),
        "uri" => uri(&tostring(value)?),
        "sh" => sh(value)?,
        "csv" => row(value, "csv")?,
        "tsv" => row(value, "tsv")?,
        "base64" => base64(tostring(value)?.as_bytes()),
        "base64d" => {
            let text = tostring(value)?;
            match base64_decode(&text) {
                Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                None => {
                    let value = str_val(text);
                    return Err(format!("{} ({}) is not valid base64 data", type_name(&value), truncated(&value)));
                }
            }
        }
        "htmld" => {
            let text = tostring(value)?;
            let pairs = [("&lt;", "<"), ("&gt;", ">"), ("&#39;", "'"), ("&apos;", "'"), ("&quot;", "\"")];
            let mut text = pairs.iter().fold(text, |t, (from, to)| t.replace(from, to));
            text = text.replace("&amp;", "&");
            text
        }
        "urid" => {
            let text = tostring(value)?;
            let bytes = text.as_bytes();
            let mut out = Vec::with_capacity(bytes.len());
            let mut i = 0;
            while i < bytes.len() {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
                match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
                    (b'%', Some(byte)) => {
                        out.push(byte);
                        i += 3;
                    }
                    (byte, _) => {
                        out.push(byte);
                        i += 1;
                    }
                }
            }
            String::from_utf8_lossy(&out).into_owned()
        }
        "base32" => base32(tostring(value)?.as_bytes()),
        "base32d" => String::from_utf8_lossy(&base32_decode(&tostring(value)?)).into_owned(),
        other => return Err(format!("{other} is not a valid format")),
    };
    Ok(str_val(text))
}

fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&#39;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn uri(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn sh(value: &Val) -> Result<String, String> {
    let quote = |v: &Val| -> Result<String, String> {
        match v {
            Val::Arr(_) | Val::Obj(_) => {
                Err(format!("{} ({}) can not be escaped for shell", type_name(v), truncated(v)))
            }
            _ => match text_of(v) {
                Some(text) => Ok(format!("'{}'", text.replace('\'', "'\\''"))),
                None => to_json(v).map_err(|_| "too deep".to_string()),
            },
        }
    };
    match value {
        Val::Arr(items) => Ok(items.iter().map(quote).collect::<Result<Vec<_>, _>>()?.join(" ")),
        other => quote(other),
    }
}

fn row(value: &Val, kind: &str) -> Result<String, String> {
    let Val::Arr(items) = value else {
        return Err(format!(
            "{} ({}) cannot be {kind}-formatted, only an array can be",
            type_name(value),
            truncated(value)
        ));
    };
    let mut cells = Vec::with_capacity(items.len());
    for item in items.iter() {
        let cell = match item {
            Val::Null => String::new(),
            Val::Bool(b) => b.to_string(),
            Val::Num(_) => to_json(item).unwrap_or_default(),
            Val::TStr(_) | Val::BStr(_) => {
                let text = text_of(item).unwrap_or_default();
                if kind == "csv" {
                    format!("\"{}\"", text.replace('"', "\"\""))
                } else {
                    text.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r")
                }
            }
            _ => {
                return Err(format!("{} ({}) is not valid in a csv row", type_name(item), truncated(item)));
            }
        };
        cells.push(cell);
    }
    Ok(cells.join(if kind == "csv" { "," } else { "\t" }))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    let mut seen = 0;
    for b in text.bytes() {
        if b == b'=' {
            break;
        }
        let v = B64.iter().position(|&c| c == b)? as u32;
        seen += 1;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // jq refuses input that decodes to nothing from a lone character.
    if seen % 4 == 1 {
        return None;
    }
    Some(out)
}

const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

fn base32(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(5) {
        let mut n = 0u64;
        for (i, &b) in chunk.iter().enumerate() {
            n |= u64::from(b) << (32 - 8 * i);
        }
        let used = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < used {
                out.push(B32[((n >> (35 - 5 * i)) & 31) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base32_decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u64, 0u32);
    for b in text.bytes() {
        let Some(v) = B32.iter().position(|&c| c == b) else { continue };
        acc = (acc << 5) | v as u64;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
