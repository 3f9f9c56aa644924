//! Regular expressions (after jaq-std's regex module, over the `regex`
//! crate): `test`, `match`, `capture`, `scan`, `split`, `sub`, `gsub`.

use super::*;

#[derive(Clone, Copy, Default)]
struct RegexFlags {
    pub(super) global: bool,
    pub(super) ignore_empty: bool,
}

fn build_regex(pattern: &str, flags: &str) -> Result<(regex::bytes::Regex, RegexFlags), String> {
    let mut builder = regex::bytes::RegexBuilder::new(pattern);
    let mut out = RegexFlags::default();
    for flag in flags.chars() {
        match flag {
            'g' => out.global = true,
            'n' => out.ignore_empty = true,
            'i' => _ = builder.case_insensitive(true),
            'm' => _ = builder.multi_line(true),
            's' => _ = builder.dot_matches_new_line(true),
            'p' => _ = builder.multi_line(true).dot_matches_new_line(true),
            'l' => _ = builder.swap_greed(true),
            'x' => _ = builder.ignore_whitespace(true),
            _ => return Err(format!("{flags} is not a valid modifier string")),
        }
    }
    builder.size_limit(1 << 22);
    let regex = builder.build().map_err(|e| {
        // The regex crate's message spans lines; its last line says what is wrong.
        let text = e.to_string();
        let reason = text.lines().last().unwrap_or_default().trim_start_matches("error: ").to_string();
        format!("{pattern} (at offset 0) is not a valid regex: {reason}")
    })?;
    Ok((regex, out))
}

pub(super) fn regex_run(mut cv: JCv<JqData>, mismatches: bool, matches: bool) -> ValXs<V> {
    let flags = cv.0.pop_var().0;
    let pattern = cv.0.pop_var().0;
    let global: &Global = cv.0.data();
    let Some(input) = text_of(cv.1.inner()) else {
        return fail(format!(
            "{} ({}) cannot be matched, as it is not a string",
            type_name(cv.1.inner()),
            truncated(cv.1.inner())
        ));
    };
    let Some(pattern) = text_of(&pattern) else {
        return fail(format!("{} ({}) is not a string", type_name(&pattern), truncated(&pattern)));
    };
    let flags = match &flags {
        Val::Null => String::new(),
        other => match text_of(other) {
            Some(text) => text,
            None => return fail(format!("{} ({}) is not a string", type_name(other), truncated(other))),
        },
    };
    let cached = global.regexes.borrow().iter().find(|(p, f, _)| *p == pattern && *f == flags).map(|e| e.2.clone());
    let regex = match cached {
        Some(regex) => regex,
        None => match build_regex(&pattern, &flags) {
            Ok((regex, _)) => {
                let regex = std::rc::Rc::new(regex);
                let mut cache = global.regexes.borrow_mut();
                if cache.len() >= 16 {
                    cache.remove(0);
                }
                cache.push((pattern.clone(), flags.clone(), regex.clone()));
                regex
            }
            Err(message) => return fail(message),
        },
    };
    let Ok((_, parsed)) = build_regex("", &flags) else {
        return fail(format!("{flags} is not a valid modifier string"));
    };
    ok(regex_parts(&input, &regex, parsed, mismatches, matches))
}

/// jaq's `matches`/`split_matches`/`split_`: an array of match arrays (the
/// whole match and each group as `{offset, length, string, name?}`) and,
/// when splitting, the strings between them.
fn regex_parts(input: &str, regex: &regex::bytes::Regex, flags: RegexFlags, mismatches: bool, matches: bool) -> Val {
    let bytes = input.as_bytes();
    let char_offset = |byte: usize| input[..byte].chars().count();
    let names: Vec<Option<&str>> = regex.capture_names().collect();
    let mut out = Vec::new();
    let mut last = 0;
    for caps in regex.captures_iter(bytes) {
        let Some(whole) = caps.get(0) else { continue };
        if flags.ignore_empty && whole.is_empty() {
            continue;
        }
        if mismatches {
            out.push(str_val(String::from_utf8_lossy(&bytes[last..whole.start()]).into_owned()));
            last = whole.end();
        }
        if matches {
            let mut groups = Vec::new();
            for (i, name) in names.iter().enumerate() {
                let mut map = Map::default();
                match caps.get(i) {
                    Some(m) => {
                        let text = String::from_utf8_lossy(m.as_bytes()).into_owned();
                        map.insert(str_val("offset"), Val::from(char_offset(m.start())));
                        map.insert(str_val("length"), Val::from(text.chars().count()));
                        map.insert(str_val("string"), str_val(text));
                    }
                    None if i > 0 => {
                        map.insert(str_val("offset"), Val::from(-1isize));
                        map.insert(str_val("length"), Val::from(0usize));
                        map.insert(str_val("string"), Val::Null);
                    }
                    None => continue,
                }
                if let Some(name) = name {
                    map.insert(str_val("name"), str_val(*name));
                }
                groups.push(Val::obj(map));
            }
            out.push(Val::Arr(Rc::new(groups)));
        }
        if !flags.global {
            break;
        }
    }
    if mismatches {
        out.push(str_val(String::from_utf8_lossy(&bytes[last..]).into_owned()));
    }
    Val::Arr(Rc::new(out))
}
