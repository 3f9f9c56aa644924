//! `$'…'` quoting's escapes.

/// Decodes the escapes of `$'…'` (also `echo -e`'s, minus `\c`).
pub(crate) fn ansi_c(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' || i + 1 >= bytes.len() {
            out.push(b);
            i += 1;
            continue;
        }
        i += 1;
        let c = bytes[i];
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'e' | b'E' => out.push(0x1b),
            b'f' => out.push(0x0c),
            b'v' => out.push(0x0b),
            b'\\' => out.push(b'\\'),
            b'\'' => out.push(b'\''),
            b'"' => out.push(b'"'),
            b'?' => out.push(b'?'),
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut k = 0;
                while k < 2 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    v = v * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    k += 1;
                }
                out.push((v & 0xff) as u8);
            }
            b'x' => {
                let mut v = 0u32;
                let mut k = 0;
                while k < 2 && i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    v = v * 16 + (bytes[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    k += 1;
                }
                if k == 0 {
                    out.extend_from_slice(b"\\x");
                } else {
                    out.push(v as u8);
                }
            }
            b'u' | b'U' => {
                let max = if c == b'u' { 4 } else { 8 };
                let mut v = 0u32;
                let mut k = 0;
                while k < max && i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    v = v * 16 + (bytes[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    k += 1;
                }
                match char::from_u32(v) {
                    Some(ch) if k > 0 && ch.is_ascii() => out.push(ch as u8),
                    // The C locale cannot show it: bash prints the escape.
                    Some(_) if k > 0 => {
                        let text = if c == b'u' { format!("\\u{v:04X}") } else { format!("\\U{v:08X}") };
                        out.extend_from_slice(text.as_bytes());
                    }
                    _ => {
                        out.push(b'\\');
                        out.push(c);
                    }
                }
            }
            b'c' => {
                // \cX: control character
                if i < bytes.len() {
                    out.push(bytes[i] & 0x1f);
                    i += 1;
                }
            }
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi() {
        assert_eq!(ansi_c("a\\nb\\t\\x41\\101\\'"), "a\nb\tAA'");
    }
}
