//! `echo`, `read`, `mapfile`/`readarray` and `printf -v`: the builtins that
//! write text or read it into variables.

use super::*;

pub(super) fn echo<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut newline = true;
    let mut escapes = false;
    let mut args = &argv[1..];
    while let Some(first) = args.first() {
        let flags = first.strip_prefix('-').filter(|f| !f.is_empty() && f.bytes().all(|b| b"neE".contains(&b)));
        let Some(flags) = flags else { break };
        for flag in flags.bytes() {
            match flag {
                b'n' => newline = false,
                b'e' => escapes = true,
                _ => escapes = false,
            }
        }
        args = &args[1..];
    }
    if !escapes && args.len() == 1 && args[0].len() < 256 {
        // The hot path: one short argument, no escapes, one write.
        let mut line = [0u8; 257];
        let bytes = args[0].as_bytes();
        line[..bytes.len()].copy_from_slice(bytes);
        let mut len = bytes.len();
        if newline {
            line[len] = b'\n';
            len += 1;
        }
        interp.out(&line[..len])?;
        return Ok(0);
    }
    let mut text = String::new();
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        if escapes {
            if let Some(cut) = find_backslash_c(arg) {
                text.push_str(&crate::shell::expand::ansi_c(&echo_escapes(&arg[..cut])));
                interp.out(text.as_bytes())?;
                return Ok(0);
            }
            text.push_str(&crate::shell::expand::ansi_c(&echo_escapes(arg)));
        } else {
            text.push_str(arg);
        }
    }
    if newline {
        text.push('\n');
    }
    interp.out(text.as_bytes())?;
    Ok(0)
}

/// echo's escapes in `$'…'` form: `\0nnn` is octal, `\nnn` stays as written.
pub(super) fn echo_escapes(arg: &str) -> String {
    let mut out = String::with_capacity(arg.len());
    let mut chars = arg.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => {
                let mut value = 0u32;
                for _ in 0..3 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push_str(&format!("\\x{:02x}", value & 0xff));
            }
            Some(d @ '1'..='7') => {
                out.push_str("\\\\");
                out.push(d);
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push_str("\\\\"),
        }
    }
    out
}

pub(super) fn find_backslash_c(arg: &str) -> Option<usize> {
    let bytes = arg.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'\\' {
            if bytes[i + 1] == b'c' {
                return Some(i);
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    None
}

pub(super) fn read<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut raw = false;
    let mut array: Option<String> = None;
    let mut delim = Some(b'\n');
    let mut count: Option<usize> = None;
    let mut unit: Option<String> = None;
    let mut names: Vec<String> = Vec::new();
    let mut i = 1;
    while i < argv.len() {
        let arg = &argv[i];
        if names.is_empty() && arg.starts_with('-') && arg.len() > 1 {
            for (pos, flag) in arg[1..].char_indices() {
                let takes_value = matches!(flag, 'a' | 'd' | 'p' | 'n' | 'N' | 't' | 'u' | 'i');
                let value = if takes_value {
                    let rest = &arg[1 + pos + 1..];
                    if rest.is_empty() {
                        i += 1;
                        argv.get(i).cloned()
                    } else {
                        Some(rest.to_string())
                    }
                } else {
                    None
                };
                match flag {
                    'r' => raw = true,
                    's' | 'e' => {}
                    'a' => array = value,
                    // `-d ''`: the NUL byte (`find -print0 | while read -d ''`).
                    'd' => delim = Some(value.and_then(|v| v.bytes().next()).unwrap_or(0)),
                    'n' | 'N' => count = value.and_then(|v| v.parse().ok()),
                    'u' => unit = value,
                    'p' | 't' | 'i' => {}
                    _ => return usage(interp, "read", format_args!("-{flag}: invalid option")),
                }
                if takes_value {
                    break;
                }
            }
        } else {
            names.push(arg.clone());
        }
        i += 1;
    }
    // Read up to the delimiter (or `count` characters), backslash escapes
    // honoured unless -r.
    // Byte by byte from a pipe, as bash reads one: the rest stays for the
    // next reader. `read -u N`: fd N (0, or 3 to 9 opened for reading).
    let input_index = match unit {
        None => interp.streams().fd.input,
        Some(unit) => match unit.parse::<i32>().ok().and_then(|n| interp.streams().input_fd(n)) {
            Some(index) => index,
            None => {
                interp.error(format_args!("read: {unit}: invalid file descriptor: Bad file descriptor"))?;
                return Ok(1);
            }
        },
    };
    let max_memory = interp.runtime().limits.max_memory_bytes;
    let input = &mut interp.streams_mut().ins[input_index];
    let mut line: Vec<u8> = Vec::new();
    let mut escaped: Vec<bool> = Vec::new();
    let mut found_delim = false;
    while count.is_none_or(|c| line.len() < c) {
        let Some(b) = input.next_byte()? else { break };
        if Some(b) == delim {
            found_delim = true;
            break;
        }
        if b == b'\\' && !raw {
            match input.peek_byte()? {
                Some(b'\n') => {
                    input.next_byte()?;
                }
                Some(next) => {
                    input.next_byte()?;
                    line.push(next);
                    escaped.push(true);
                }
                None => {}
            }
        } else {
            line.push(b);
            escaped.push(false);
        }
        if line.len() > max_memory {
            return Err(Flow::Limit(crate::shell::LimitHit::Memory));
        }
    }
    if count.is_some_and(|c| line.len() >= c) {
        found_delim = true;
    }
    let status = i32::from(!found_delim);
    let text = String::from_utf8_lossy(&line).into_owned();
    let ifs = interp.state().get("IFS").map_or_else(|| " \t\n".to_string(), str::to_string);
    if let Some(array) = array {
        let fields = split_read(&text, &escaped, &ifs, usize::MAX);
        let map = fields.into_iter().enumerate().map(|(i, f)| (i as i64, f)).collect();
        interp.state_mut().set_value(&array, Value::Indexed(map));
        return Ok(status);
    }
    if names.is_empty() {
        // REPLY keeps the line whole (no IFS trimming).
        if let Err(message) = interp.set_var("REPLY", text) {
            interp.error(message)?;
            return Ok(1);
        }
        return Ok(status);
    }
    let fields = split_read(&text, &escaped, &ifs, names.len());
    for (k, name) in names.iter().enumerate() {
        let value = fields.get(k).cloned().unwrap_or_default();
        if !is_name(name) {
            interp.error(format_args!("read: `{name}': not a valid identifier"))?;
            return Ok(1);
        }
        if let Err(message) = interp.set_var(name, value) {
            interp.error(message)?;
            return Ok(1);
        }
    }
    Ok(status)
}

/// Splits a line read by `read` into at most `n` fields; the last one keeps
/// the rest of the line (trailing IFS whitespace removed).
pub(super) fn split_read(text: &str, escaped: &[bool], ifs: &str, n: usize) -> Vec<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    // Map char positions to the escape flags (which are per byte).
    let is_sep = |idx: usize, c: char| ifs.contains(c) && !escaped.get(idx).copied().unwrap_or(false);
    let is_ws = |c: char| matches!(c, ' ' | '\t' | '\n') && ifs.contains(c);
    let mut fields = Vec::new();
    let mut i = 0;
    // Leading IFS whitespace.
    while i < chars.len() && is_ws(chars[i].1) && is_sep(chars[i].0, chars[i].1) {
        i += 1;
    }
    while i < chars.len() {
        if fields.len() + 1 == n {
            // The rest of the line, trailing IFS whitespace removed.
            let mut end = chars.len();
            while end > i && is_ws(chars[end - 1].1) && is_sep(chars[end - 1].0, chars[end - 1].1) {
                end -= 1;
            }
            let start_byte = chars[i].0;
            let end_byte = if end < chars.len() { chars[end].0 } else { text.len() };
            fields.push(text[start_byte..end_byte].to_string());
            return fields;
        }
        let mut field = String::new();
        while i < chars.len() && !is_sep(chars[i].0, chars[i].1) {
            field.push(chars[i].1);
            i += 1;
        }
        fields.push(field);
        // Skip the separator: whitespace, at most one non-whitespace
        // delimiter, whitespace.
        while i < chars.len() && is_ws(chars[i].1) && is_sep(chars[i].0, chars[i].1) {
            i += 1;
        }
        if i < chars.len() && is_sep(chars[i].0, chars[i].1) && !is_ws(chars[i].1) {
            i += 1;
            while i < chars.len() && is_ws(chars[i].1) && is_sep(chars[i].0, chars[i].1) {
                i += 1;
            }
        }
    }
    fields
}

/// bash's usage line for `mapfile`, printed after an option error.
const MAPFILE_USAGE: &[u8] =
    b"mapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n";

pub(super) fn mapfile<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let mut strip = false;
    let mut delim = b'\n';
    let mut max: Option<usize> = None;
    let mut skip = 0usize;
    // `-O N`: the first index; the elements below it stay.
    let mut origin: Option<i64> = None;
    let mut name = "MAPFILE".to_string();
    // Options as bash's getopt reads them: bundled (`-ts1`), a value
    // attached (`-n1`) or in the next word.
    let mut i = 1;
    while i < argv.len() {
        let arg = &argv[i];
        i += 1;
        if arg == "--" {
            if let Some(operand) = argv.get(i) {
                name = operand.clone();
            }
            break;
        }
        let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty()) else {
            name = arg.clone();
            continue;
        };
        for (at, flag) in flags.char_indices() {
            if flag == 't' {
                strip = true;
                continue;
            }
            if !matches!(flag, 'd' | 'n' | 's' | 'u' | 'C' | 'c' | 'O') {
                interp.error(format_args!("mapfile: -{flag}: invalid option"))?;
                interp.err(MAPFILE_USAGE)?;
                return Ok(2);
            }
            let attached = &flags[at + flag.len_utf8()..];
            let value = if !attached.is_empty() {
                attached.to_string()
            } else if let Some(next) = argv.get(i) {
                i += 1;
                next.clone()
            } else {
                interp.error(format_args!("mapfile: -{flag}: option requires an argument"))?;
                interp.err(MAPFILE_USAGE)?;
                return Ok(2);
            };
            match flag {
                'd' => delim = value.bytes().next().unwrap_or(0),
                'n' => max = value.parse().ok().filter(|&v| v > 0),
                's' => skip = value.parse().unwrap_or(0),
                'O' => origin = Some(value.parse().unwrap_or(0)),
                _ => {}
            }
            break;
        }
    }
    let max_memory = interp.runtime().limits.max_memory_bytes;
    let io = interp.streams_mut();
    let input = &mut io.ins[io.fd.input];
    let mut items = std::collections::BTreeMap::new();
    let start = origin.unwrap_or(0);
    let mut index = start;
    let mut seen = 0usize;
    let mut bytes = 0usize;
    while input.fill()? {
        if max.is_some_and(|m| (index - start) as usize >= m) {
            break;
        }
        let mut item = Vec::new();
        loop {
            let rest = input.rest();
            match memchr::memchr(delim, rest) {
                Some(at) => {
                    item.extend_from_slice(&rest[..=at]);
                    input.consume(at + 1);
                    break;
                }
                None => {
                    item.extend_from_slice(rest);
                    let n = rest.len();
                    input.consume(n);
                    if !input.fill()? {
                        break;
                    }
                }
            }
        }
        bytes += item.len();
        if bytes > max_memory {
            return Err(Flow::Limit(crate::shell::LimitHit::Memory));
        }
        if strip && item.last() == Some(&delim) {
            item.pop();
        }
        // A bash string ends at a NUL (`mapfile -d ''` keeps none).
        if let Some(nul) = item.iter().position(|&b| b == 0) {
            item.truncate(nul);
        }
        seen += 1;
        if seen <= skip {
            continue;
        }
        items.insert(index, String::from_utf8_lossy(&item).into_owned());
        index += 1;
    }
    if origin.is_some() {
        if let Some(Value::Indexed(old)) = interp.state().vars.get(&name).map(|v| &v.value) {
            let mut merged = old.clone();
            merged.extend(items);
            items = merged;
        }
    }
    interp.state_mut().set_value(&name, Value::Indexed(items));
    Ok(0)
}

// ----- printf -v -----

/// `printf -v NAME FORMAT [ARGUMENT]...` stores the output in a variable
/// (a name or an array element).
pub(super) fn printf_var<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let Some(name) = argv.get(2) else {
        interp.error("printf: -v: option requires an argument")?;
        interp.err(b"printf: usage: printf [-v var] format [arguments]\n")?;
        return Ok(2);
    };
    // `-v name` or `-v 'name[index]'` (an element of an indexed or
    // associative array, as bash allows).
    let target = match name.strip_suffix(']').and_then(|head| head.split_once('[')) {
        Some((base, index)) if is_name(base) && !index.is_empty() => (base, Some(index.to_string())),
        _ if is_name(name) => (name.as_str(), None),
        _ => {
            interp.error(format_args!("printf: `{name}': not a valid identifier"))?;
            return Ok(2);
        }
    };
    let rest = match argv.get(3).map(String::as_str) {
        Some("--") => &argv[4..],
        _ => &argv[3..],
    };
    let Some((format, args)) = rest.split_first() else {
        interp.err(b"printf: usage: printf [-v var] format [arguments]\n")?;
        return Ok(2);
    };
    let formatted = commands::printf_format(
        format.as_bytes(),
        args,
        &|| interp.runtime().check(),
        interp.runtime().limits.max_output_bytes.saturating_mul(4),
    )?;
    for message in &formatted.errors {
        interp.error(format_args!("printf: {message}"))?;
    }
    let value = AssignValue::Scalar(String::from_utf8_lossy(&formatted.output).into_owned());
    // An associative array's key is expanded (`-v 'm[$k]'`, `-v 'm["k"]'`);
    // an indexed array's is arithmetic, which expands it itself.
    let index = match target.1 {
        Some(index) if matches!(interp.state().var(target.0).map(|v| &v.value), Some(Value::Assoc(_))) => {
            Some(interp.expand_string(&index)?)
        }
        other => other,
    };
    let assign = Assign { name: target.0.to_string(), index, value, append: false };
    if let Err(message) = interp.assign(&assign, false) {
        interp.error(message)?;
        return Ok(1);
    }
    Ok(formatted.status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_splitting() {
        let none = [false; 64];
        assert_eq!(split_read("  a  b  c  ", &none, " \t\n", 2), ["a", "b  c"]);
        assert_eq!(split_read("a,b,c", &none, ",", 2), ["a", "b,c"]);
        assert_eq!(split_read("a,,c", &none, ",", 5), ["a", "", "c"]);
        assert_eq!(split_read("  x  ", &none, " \t\n", 1), ["x"]);
    }
}
