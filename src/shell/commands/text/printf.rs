//! `printf`, with the bash builtin's semantics: the format is reused until
//! the arguments run out, missing arguments are empty or zero, numeric
//! arguments take C's prefixes (`0x1f`, `010`) and `'c` for a character
//! code, and an invalid number is reported while printing goes on (status
//! 1). Floats are f64, not C's `long double`: values past 1.8e308 become
//! `inf`. `%(fmt)T` is not supported here. The layout of each conversion
//! is `commands/format.rs`'s, shared with awk. `printf -v VAR` is
//! handled by the builtin of the same name (it sets a shell variable).

use super::super::format::{self, Spec};
use crate::shell::command::Context;
use crate::shell::LimitHit;

/// `printf FORMAT [ARGUMENT]...`
pub(super) fn printf(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let (args, ended) = match args.first().map(String::as_str) {
        Some("--") => (&args[1..], true),
        _ => (args, false),
    };
    let Some((format, rest)) = args.split_first() else {
        ctx.error("usage: printf [-v var] format [arguments]")?;
        return Ok(2);
    };
    if !ended && format.starts_with('-') && format.len() > 1 {
        if format == "-v" {
            ctx.error("-v: not supported here; use var=$(printf ...)")?;
        } else {
            let option: String = format.chars().take(2).collect();
            ctx.error(format!("{option}: invalid option"))?;
            ctx.stderr.write_str("printf: usage: printf [-v var] format [arguments]\n")?;
        }
        return Ok(2);
    }
    let formatted = format_all(format.as_bytes(), rest, &|| (ctx.check)(), ctx.stdout.cap().min(ctx.max_memory));
    let formatted = formatted?;
    for message in &formatted.errors {
        ctx.error(message)?;
    }
    ctx.stdout.write(&formatted.output)?;
    Ok(formatted.status)
}

/// The result of formatting: the bytes, the error messages (without the
/// `printf: ` prefix) and the exit status.
pub(crate) struct Formatted {
    pub output: Vec<u8>,
    pub errors: Vec<String>,
    pub status: i32,
}

/// Formats `args` with `format`, reusing it while arguments remain. The
/// result may hold at most `cap` bytes (the stream or variable it goes to):
/// past it formatting stops with [`LimitHit::Output`], so a width of
/// millions (`%*s`) or many arguments never build more than that, and a
/// result cut short is never written as if whole.
pub(crate) fn format_all(
    format: &[u8],
    args: &[String],
    check: &dyn Fn() -> Result<(), LimitHit>,
    cap: usize,
) -> Result<Formatted, LimitHit> {
    let mut state = State { args, next: 0, out: Vec::new(), errors: Vec::new(), status: 0, stopped: false, cap };
    loop {
        check()?;
        let before = state.next;
        let pass = state.pass(format);
        if state.out.len() > cap {
            return Err(LimitHit::Output);
        }
        match pass {
            Pass::Done => {}
            Pass::Stop => break,
        }
        if state.next >= args.len() || state.next == before {
            break;
        }
    }
    Ok(Formatted { output: state.out, errors: state.errors, status: state.status })
}

enum Pass {
    Done,
    /// `\c` or a bad conversion: stop everything.
    Stop,
}

struct State<'a> {
    args: &'a [String],
    next: usize,
    out: Vec<u8>,
    errors: Vec<String>,
    status: i32,
    /// `\c` in a `%b` argument: no more output at all.
    stopped: bool,
    /// The most bytes the result may hold.
    cap: usize,
}

impl<'a> State<'a> {
    /// The widest field worth building: one byte past the cap already
    /// overflows the result (a wider one would only cost memory).
    fn field_cap(&self) -> usize {
        self.cap.saturating_add(1)
    }

    fn take(&mut self) -> Option<&'a str> {
        let arg = self.args.get(self.next)?;
        self.next += 1;
        Some(arg)
    }

    fn pass(&mut self, format: &[u8]) -> Pass {
        let mut at = 0;
        while at < format.len() {
            if self.out.len() > self.cap {
                return Pass::Stop;
            }
            let byte = format[at];
            if byte == b'\\' {
                at = self.escape(format, at, false).1;
                continue;
            }
            if byte != b'%' {
                let end = memchr::memchr2(b'\\', b'%', &format[at..]).map_or(format.len(), |pos| at + pos);
                self.out.extend_from_slice(&format[at..end]);
                at = end;
                continue;
            }
            if format.get(at + 1) == Some(&b'%') {
                self.out.push(b'%');
                at += 2;
                continue;
            }
            let start = at;
            at += 1;
            let cap = self.field_cap();
            let star = || Ok::<_, std::convert::Infallible>(self.take().map_or(0, |arg| self.integer(arg)));
            let Ok(spec) = Spec::parse(format, &mut at, cap, b"hlLjzt", star);
            let Some(&conversion) = format.get(at) else {
                let text = String::from_utf8_lossy(&format[start..]);
                self.fail(format!("`{text}': missing format character"));
                return Pass::Stop;
            };
            at += 1;
            if !self.convert(conversion, &spec) {
                self.fail(format!("`{}': invalid format character", conversion as char));
                return Pass::Stop;
            }
            if self.stopped {
                // bash returns success after `\c`, even past an invalid number.
                self.status = 0;
                return Pass::Stop;
            }
        }
        Pass::Done
    }

    fn fail(&mut self, message: String) {
        self.errors.push(message);
        self.status = 1;
    }

    /// Formats one conversion; false if the conversion letter is unknown.
    fn convert(&mut self, conversion: u8, spec: &Spec) -> bool {
        match conversion {
            b's' => {
                let arg = self.take().unwrap_or("");
                format::text(&mut self.out, spec, arg.as_bytes());
            }
            b'b' => {
                let arg = self.take().unwrap_or("").as_bytes();
                let (expanded, stop) = self.expand_b(arg);
                format::text(&mut self.out, spec, &expanded);
                self.stopped |= stop;
            }
            b'q' => {
                // The precision cuts the quoted text, as bash's does.
                let quoted = shell_quote(self.take().unwrap_or("").as_bytes());
                format::text(&mut self.out, spec, &quoted);
            }
            b'c' => {
                let byte = self.take().map_or(0, |arg| arg.as_bytes().first().copied().unwrap_or(0));
                format::pad(&mut self.out, spec, &[byte]);
            }
            b'd' | b'i' => {
                let value = self.take().map_or(0, |arg| self.integer(arg));
                format::signed(&mut self.out, spec, value < 0, u128::from(value.unsigned_abs()));
            }
            b'u' | b'o' | b'x' | b'X' => {
                let value = self.take().map_or(0, |arg| self.unsigned(arg));
                format::unsigned(&mut self.out, spec, conversion, u128::from(value));
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                let value = self.take().map_or(0.0, |arg| self.float(arg));
                format::float(&mut self.out, spec, conversion, value);
            }
            b'a' | b'A' => {
                let value = self.take().map_or(0.0, |arg| self.float(arg));
                format::hex_float(&mut self.out, spec, value, conversion == b'A');
            }
            _ => return false,
        }
        true
    }

    /// Parses an integer argument like bash's `getintmax`.
    fn integer(&mut self, arg: &str) -> i64 {
        let (negative, magnitude) = self.number(arg);
        let limit = if negative { 1u128 << 63 } else { (1u128 << 63) - 1 };
        if magnitude > limit {
            self.errors.push(format!("warning: {arg}: Numerical result out of range"));
            return if negative { i64::MIN } else { i64::MAX };
        }
        let value = magnitude as i128;
        (if negative { -value } else { value }) as i64
    }

    /// Parses an unsigned argument like `getuintmax` (negatives wrap).
    fn unsigned(&mut self, arg: &str) -> u64 {
        let (negative, magnitude) = self.number(arg);
        if magnitude > u128::from(u64::MAX) {
            self.errors.push(format!("warning: {arg}: Numerical result out of range"));
            return u64::MAX;
        }
        let value = magnitude as u64;
        if negative {
            value.wrapping_neg()
        } else {
            value
        }
    }

    /// Sign and magnitude of a numeric argument (saturating), reporting
    /// `invalid number` when bytes are left over.
    fn number(&mut self, arg: &str) -> (bool, u128) {
        let bytes = arg.as_bytes();
        if let Some(&quote) = bytes.first().filter(|b| **b == b'\'' || **b == b'"') {
            let _ = quote;
            return (false, u128::from(bytes.get(1).copied().unwrap_or(0)));
        }
        if bytes.is_empty() {
            return (false, 0);
        }
        let mut at = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
        let mut negative = false;
        if let Some(sign @ (b'+' | b'-')) = bytes.get(at) {
            negative = *sign == b'-';
            at += 1;
        }
        let (radix, skip) = match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b'0'), Some(b'x' | b'X')) if bytes.get(at + 2).is_some_and(u8::is_ascii_hexdigit) => (16, 2),
            (Some(b'0'), _) => (8, 0),
            _ => (10, 0),
        };
        at += skip;
        let start = at;
        let mut value: u128 = 0;
        while let Some(digit) = bytes.get(at).and_then(|&b| (b as char).to_digit(radix)) {
            value = value.saturating_mul(u128::from(radix)).saturating_add(u128::from(digit));
            at += 1;
        }
        if at == start || at < bytes.len() {
            self.fail(format!("{arg}: invalid number"));
        }
        (negative, value)
    }

    /// Parses a float argument like `strtold`.
    fn float(&mut self, arg: &str) -> f64 {
        let bytes = arg.as_bytes();
        if matches!(bytes.first(), Some(b'\'' | b'"')) {
            return f64::from(bytes.get(1).copied().unwrap_or(0));
        }
        if bytes.is_empty() {
            return 0.0;
        }
        let trimmed = arg.trim_start();
        let (value, used) = float_prefix(trimmed);
        if used == 0 || used < trimmed.len() {
            self.fail(format!("{arg}: invalid number"));
        }
        value
    }

    /// Expands `%b` escapes; true when `\c` asked to stop.
    fn expand_b(&mut self, arg: &[u8]) -> (Vec<u8>, bool) {
        let saved = std::mem::take(&mut self.out);
        let mut at = 0;
        let mut stop = false;
        while at < arg.len() {
            if arg[at] == b'\\' {
                let (stopped, next) = self.escape(arg, at, true);
                at = next;
                if stopped {
                    stop = true;
                    break;
                }
            } else {
                self.out.push(arg[at]);
                at += 1;
            }
        }
        (std::mem::replace(&mut self.out, saved), stop)
    }

    /// Writes the escape at `at` (a backslash); returns whether it was `\c`
    /// (in `%b` only) and the index after it.
    fn escape(&mut self, text: &[u8], at: usize, in_b: bool) -> (bool, usize) {
        let Some(&next) = text.get(at + 1) else {
            self.out.push(b'\\');
            return (false, at + 1);
        };
        let simple = match next {
            b'a' => Some(7),
            b'b' => Some(8),
            b'e' | b'E' => Some(27),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' => Some(b'\\'),
            b'"' | b'?' if !in_b => Some(next),
            b'\'' => Some(b'\''),
            _ => None,
        };
        if let Some(byte) = simple {
            self.out.push(byte);
            return (false, at + 2);
        }
        match next {
            b'c' if in_b => (true, at + 2),
            b'0'..=b'7' => {
                // %b reads \0NNN (three digits after the 0); both read \NNN.
                let mut end = at + 1;
                let max = if in_b && next == b'0' { 4 } else { 3 };
                let mut value: u32 = 0;
                while end < text.len() && end < at + 1 + max && (b'0'..=b'7').contains(&text[end]) {
                    value = value * 8 + u32::from(text[end] - b'0');
                    end += 1;
                }
                self.out.push((value & 0xff) as u8);
                (false, end)
            }
            b'x' => {
                let mut end = at + 2;
                let mut value: u32 = 0;
                while end < text.len() && end < at + 4 && text[end].is_ascii_hexdigit() {
                    value = value * 16 + (text[end] as char).to_digit(16).unwrap_or(0);
                    end += 1;
                }
                if end == at + 2 {
                    self.errors.push("missing hex digit for \\x".to_string());
                    self.out.extend_from_slice(b"\\x");
                } else {
                    self.out.push(value as u8);
                }
                (false, end)
            }
            b'u' | b'U' => {
                let max = if next == b'u' { 4 } else { 8 };
                let mut end = at + 2;
                let mut value: u32 = 0;
                while end < text.len() && end < at + 2 + max && text[end].is_ascii_hexdigit() {
                    value = value * 16 + (text[end] as char).to_digit(16).unwrap_or(0);
                    end += 1;
                }
                match char::from_u32(value).filter(|_| end > at + 2) {
                    Some(ch) => self.out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes()),
                    None => self.out.extend_from_slice(&text[at..end]),
                }
                (false, end)
            }
            _ => {
                self.out.extend_from_slice(&[b'\\', next]);
                (false, at + 2)
            }
        }
    }
}

/// The longest prefix of `text` that is a float (decimal, hex integer,
/// `inf`, `nan`), and its length.
fn float_prefix(text: &str) -> (f64, usize) {
    let bytes = text.as_bytes();
    let mut at = 0;
    if matches!(bytes.first(), Some(b'+' | b'-')) {
        at += 1;
    }
    let negative = bytes.first() == Some(&b'-');
    let lower = text[at..].to_ascii_lowercase();
    for (word, value) in [("infinity", f64::INFINITY), ("inf", f64::INFINITY), ("nan", f64::NAN)] {
        if lower.starts_with(word) {
            return (if negative { -value } else { value }, at + word.len());
        }
    }
    if lower.starts_with("0x") && lower.as_bytes().get(2).is_some_and(u8::is_ascii_hexdigit) {
        let digits = lower[2..].bytes().take_while(u8::is_ascii_hexdigit).count();
        let value = u128::from_str_radix(&lower[2..2 + digits.min(32)], 16).unwrap_or(u128::MAX) as f64;
        return (if negative { -value } else { value }, at + 2 + digits);
    }
    let start = at;
    let int_digits = bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    at += int_digits;
    let mut frac_digits = 0;
    if bytes.get(at) == Some(&b'.') {
        frac_digits = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if int_digits + frac_digits > 0 {
            at += 1 + frac_digits;
        }
    }
    if int_digits + frac_digits == 0 {
        return (0.0, 0);
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let mut end = at + 1;
        if matches!(bytes.get(end), Some(b'+' | b'-')) {
            end += 1;
        }
        let exp_digits = bytes[end.min(bytes.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
        if exp_digits > 0 {
            at = end + exp_digits;
        }
    }
    let value: f64 = text[start..at].parse().unwrap_or(0.0);
    (if negative { -value } else { value }, at)
}

/// bash's `%q`: backslashes before shell-special bytes, `''` for the
/// empty string, `$'…'` when there are control characters.
fn shell_quote(arg: &[u8]) -> Vec<u8> {
    if arg.is_empty() {
        return b"''".to_vec();
    }
    if arg.iter().any(|b| b.is_ascii_control()) {
        let mut out = b"$'".to_vec();
        for &byte in arg {
            match byte {
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'\r' => out.extend_from_slice(b"\\r"),
                27 => out.extend_from_slice(b"\\E"),
                b'\'' | b'\\' => out.extend_from_slice(&[b'\\', byte]),
                byte if byte.is_ascii_control() => out.extend_from_slice(format!("\\{byte:03o}").as_bytes()),
                byte => out.push(byte),
            }
        }
        out.push(b'\'');
        return out;
    }
    let mut out = Vec::with_capacity(arg.len());
    for (index, &byte) in arg.iter().enumerate() {
        let special = b" '\"\\|&;()<>!{}*[]?^$`,".contains(&byte) || (index == 0 && (byte == b'#' || byte == b'~'));
        if special {
            out.push(b'\\');
        }
        out.push(byte);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::MemoryStorage;

    fn run(args: &[&str]) -> (i32, String, String) {
        run_for_test(&MemoryStorage::new(Default::default()), "printf", args, "")
    }

    fn out(args: &[&str]) -> String {
        run(args).1
    }

    #[test]
    fn conversions() {
        assert_eq!(
            out(&[
                "%d|%s|%5.2f|%-4s|%04d|%x|%X|%o|%c|%e|%g|%+d|% d|%#x|%#o\n",
                "42",
                "hi",
                "3.14159",
                "ab",
                "7",
                "255",
                "255",
                "8",
                "xyz",
                "12345.678",
                "0.0001",
                "5",
                "5",
                "255",
                "8"
            ]),
            "42|hi| 3.14|ab  |0007|ff|FF|10|x|1.234568e+04|0.0001|+5| 5|0xff|010\n"
        );
        assert_eq!(
            out(&[
                "%x|%.3d|%+.2e|%08.3f|%-08d|%#g|%G|%E\n",
                "-1",
                "5",
                "12345",
                "-3.14159",
                "42",
                "1.5",
                "1e-10",
                "123"
            ]),
            "ffffffffffffffff|005|+1.23e+04|-003.142|42      |1.50000|1E-10|1.230000E+02\n"
        );
        assert_eq!(out(&["%*d|%-*d|%.*f\n", "5", "1", "4", "2", "2", "3.14159"]), "    1|2   |3.14\n");
        assert_eq!(out(&["%*s|\n", "-4", "a"]), "a   |\n");
        assert_eq!(out(&["%g %g %g %g\n", "100000", "1000000", "1e-5", "0"]), "100000 1e+06 1e-05 0\n");
        assert_eq!(out(&["%#.3g|%g|%g\n", "1", "123456789", "0.000123456"]), "1.00|1.23457e+08|0.000123456\n");
        assert_eq!(
            out(&["%.1f %.2f %.0e %.0f %.0f\n", "0.05", "1.005", "15000", "0.5", "1.5"]),
            "0.1 1.00 2e+04 0 2\n"
        );
        assert_eq!(out(&["%5.1f|%-+6d|\n", "2.25", "3"]), "  2.2|+3    |\n");
        assert_eq!(out(&["%f %f\n", "inf", "nan"]), "inf nan\n");
        assert_eq!(out(&["%.3s|%5s|%-5s|\n", "abcdef", "ab", "ab"]), "abc|   ab|ab   |\n");
        assert_eq!(out(&["%5c|%-3c|\n", "a", "b"]), "    a|b  |\n");
        assert_eq!(out(&["%d%%\n", "50"]), "50%\n");
        assert_eq!(out(&["%u\n", "-1"]), "18446744073709551615\n");
        assert_eq!(out(&["%o %#X\n", "0", "0"]), "0 0\n");
        assert_eq!(out(&["%ld %lld %hd\n", "1", "2", "3"]), "1 2 3\n");
    }

    #[test]
    fn reuse_and_missing_arguments() {
        assert_eq!(out(&["%s %s\n", "a", "b", "c"]), "a b\nc \n");
        assert_eq!(out(&["[%s]\n", "a", "b"]), "[a]\n[b]\n");
        assert_eq!(out(&["x%sy\n"]), "xy\n");
        assert_eq!(out(&["abc\n", "extra"]), "abc\n");
        assert_eq!(out(&["%s %d\n", "a", "1", "b"]), "a 1\nb 0\n");
        assert_eq!(out(&["%s\n", "%d"]), "%d\n");
        assert_eq!(out(&["--", "-%s\n", "a"]), "-a\n");
    }

    #[test]
    fn numbers() {
        assert_eq!(
            run(&["%d\n", "abc", "12abc", "'A", "0x1f", "010", " 12", ""]),
            (
                1,
                "0\n12\n65\n31\n8\n12\n0\n".into(),
                "printf: abc: invalid number\nprintf: 12abc: invalid number\n".into()
            )
        );
        assert_eq!(run(&["%d %d\n", "+5", "-0x10"]), (0, "5 -16\n".into(), "".into()));
        assert_eq!(
            run(&["%d\n", "99999999999999999999"]),
            (
                0,
                "9223372036854775807\n".into(),
                "printf: warning: 99999999999999999999: Numerical result out of range\n".into()
            )
        );
        assert_eq!(run(&["%f\n", "1,5"]), (1, "1.000000\n".into(), "printf: 1,5: invalid number\n".into()));
        assert_eq!(out(&["%.3e\n", "0x10"]), "1.600e+01\n");
        assert_eq!(out(&["%c\n", "65"]), "6\n");
    }

    #[test]
    fn escapes() {
        assert_eq!(out(&["%b\n", "a\\tb\\0101\\x41c\\cdef"]), "a\tbAAc");
        assert_eq!(run(&["%d%b%s\n", "x", "\\c", "more", "1"]), (0, "0".into(), "printf: x: invalid number\n".into()));
        assert_eq!(out(&["%b|%b\n", "\\101\\1011", "\\q"]), "AA1|\\q\n");
        assert_eq!(out(&["\\101\\0102\\x41\\\"\\q\n"]), "A\x082A\"\\q\n");
        assert_eq!(out(&["\\u263a\\e"]), "\u{263a}\x1b");
        assert_eq!(out(&["a\\"]), "a\\");
        assert_eq!(run(&["\\x"]), (0, "\\x".into(), "printf: missing hex digit for \\x\n".into()));
        assert_eq!(out(&["[%.2q][%5.3q][%-6q]\n", "a b", "a b", "x"]), "[a\\][  a\\ ][x     ]\n");
        assert_eq!(
            out(&["%q\n", "a b", "", "it's", "a\nb", "#a", "x,y", "a=b"]),
            "a\\ b\n''\nit\\'s\n$'a\\nb'\n\\#a\nx\\,y\na=b\n"
        );
    }

    #[test]
    fn errors() {
        assert_eq!(run(&["ab%yc\n"]), (1, "ab".into(), "printf: `y': invalid format character\n".into()));
        assert_eq!(run(&["ab%5"]), (1, "ab".into(), "printf: `%5': missing format character\n".into()));
        assert_eq!(run(&["%5%|"]), (1, "".into(), "printf: `%': invalid format character\n".into()));
        assert_eq!(run(&[]), (2, "".into(), "printf: usage: printf [-v var] format [arguments]\n".into()));
    }
}
