//! jq's dates, in UTC: `gmtime`, `mktime`, `strftime` and `strptime`, over
//! the proleptic Gregorian calendar's day numbers.

use super::super::calendar::{DAY_NAMES as DAYS, MONTH_NAMES as MONTHS};
use super::{Rc, Val};
use jaq_std::ValT as _;

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1–12).
pub(super) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, month 1–12, day) of days since 1970-01-01.
pub(super) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// jq's broken-down time: [year, month 0–11, day, hours, minutes,
/// seconds (with fraction), weekday, day of year].
pub(super) fn gmtime(secs: f64) -> Result<Val, String> {
    // About 300 million years either way: past that the day count overflows.
    if !secs.is_finite() || secs.abs() > 1e16 {
        return Err("errror converting number of seconds since epoch to datetime".into());
    }
    let whole = secs.floor();
    let days = (whole / 86_400.0).floor() as i64;
    let rest = whole as i64 - days * 86_400;
    let (y, m, d) = civil_from_days(days);
    let weekday = (days + 4).rem_euclid(7);
    let yday = days - days_from_civil(y, 1, 1);
    let seconds = (rest % 60) as f64 + (secs - whole);
    let fields = [
        Val::from(y as isize),
        Val::from((m - 1) as isize),
        Val::from(d as isize),
        Val::from((rest / 3600) as isize),
        Val::from((rest / 60 % 60) as isize),
        if seconds.fract() == 0.0 { Val::from(seconds as isize) } else { Val::from(seconds) },
        Val::from(weekday as isize),
        Val::from(yday as isize),
    ];
    Ok(Val::Arr(Rc::new(fields.to_vec())))
}

/// The fields of a broken-down time (a number is taken as seconds).
fn fields(value: &Val) -> Result<[f64; 8], String> {
    if let Some(secs) = value.as_f64().filter(|_| matches!(value, Val::Num(_))) {
        return fields(&gmtime(secs)?);
    }
    let Val::Arr(items) = value else {
        return Err("strftime/1 requires parsed datetime inputs".into());
    };
    let mut out = [0.0; 8];
    for (slot, item) in out.iter_mut().zip(items.iter()) {
        *slot = item.as_f64().filter(|x| x.abs() <= 1e9).ok_or("strftime/1 requires parsed datetime inputs")?;
    }
    if items.len() < 6 {
        return Err("strftime/1 requires parsed datetime inputs".into());
    }
    Ok(out)
}

pub(super) fn mktime(value: &Val) -> Result<i64, String> {
    let Val::Arr(items) = value else {
        return Err("mktime requires array of 6 numbers".into());
    };
    if items.len() < 6 {
        return Err("mktime requires array of 6 numbers".into());
    }
    let f = fields(value).map_err(|_| "mktime requires parsed datetime inputs".to_string())?;
    let days = days_from_civil(f[0] as i64, f[1] as i64 + 1, 1) + f[2] as i64 - 1;
    Ok(days * 86_400 + f[3] as i64 * 3600 + f[4] as i64 * 60 + f[5].floor() as i64)
}

pub(super) fn strftime(value: &Val, format: &str) -> Result<String, String> {
    let f = fields(value)?;
    let (year, month, day) = (f[0] as i64, f[1] as i64, f[2] as i64);
    let (hour, minute, second) = (f[3] as i64, f[4] as i64, f[5].floor() as i64);
    let days = days_from_civil(year, month + 1, day);
    let weekday = (days + 4).rem_euclid(7) as usize;
    let yday = days - days_from_civil(year, 1, 1);
    let month_name = MONTHS.get(month.clamp(0, 11) as usize).copied().unwrap_or("January");
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(spec) = chars.next() else {
            out.push('%');
            break;
        };
        let piece = match spec {
            'Y' => year.to_string(),
            'C' => format!("{:02}", year.div_euclid(100)),
            'y' => format!("{:02}", year.rem_euclid(100)),
            'm' => format!("{:02}", month + 1),
            'd' => format!("{day:02}"),
            'e' => format!("{day:2}"),
            'H' => format!("{hour:02}"),
            'k' => format!("{hour:2}"),
            'I' => format!("{:02}", (hour + 11) % 12 + 1),
            'l' => format!("{:2}", (hour + 11) % 12 + 1),
            'M' => format!("{minute:02}"),
            'S' => format!("{second:02}"),
            'p' => (if hour < 12 { "AM" } else { "PM" }).to_string(),
            'P' => (if hour < 12 { "am" } else { "pm" }).to_string(),
            'j' => format!("{:03}", yday + 1),
            'a' => DAYS[weekday][..3].to_string(),
            'A' => DAYS[weekday].to_string(),
            'b' | 'h' => month_name[..3].to_string(),
            'B' => month_name.to_string(),
            'u' => (if weekday == 0 { 7 } else { weekday }).to_string(),
            'w' => weekday.to_string(),
            's' => (days * 86_400 + hour * 3600 + minute * 60 + second).to_string(),
            'Z' => "UTC".to_string(),
            'z' => "+0000".to_string(),
            'T' => format!("{hour:02}:{minute:02}:{second:02}"),
            'R' => format!("{hour:02}:{minute:02}"),
            'D' => format!("{:02}/{day:02}/{:02}", month + 1, year.rem_euclid(100)),
            'F' => format!("{year}-{:02}-{day:02}", month + 1),
            'c' => {
                format!("{} {} {day:2} {hour:02}:{minute:02}:{second:02} {year}", &DAYS[weekday][..3], &month_name[..3])
            }
            'n' => "\n".to_string(),
            't' => "\t".to_string(),
            '%' => "%".to_string(),
            other => format!("%{other}"),
        };
        out.push_str(&piece);
    }
    Ok(out)
}

/// Parses `text` by `format`; `None` when they do not match.
pub(super) fn strptime(text: &str, format: &str) -> Option<Val> {
    let (mut year, mut month, mut day, mut hour, mut minute, mut second) = (1900i64, 0i64, 1i64, 0i64, 0i64, 0i64);
    let mut epoch: Option<i64> = None;
    let mut pm: Option<bool> = None;
    let mut twelve_hour = false;
    let mut rest = text;
    let number = |rest: &mut &str, max: usize| -> Option<i64> {
        let trimmed = rest.trim_start();
        let sign = trimmed.starts_with(['-', '+']) as usize;
        let len = trimmed[sign..].bytes().take(max).take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return None;
        }
        let value = trimmed[..sign + len].parse().ok()?;
        *rest = &trimmed[sign + len..];
        Some(value)
    };
    let name = |rest: &mut &str, names: &[&str]| -> Option<i64> {
        let lower = rest.to_ascii_lowercase();
        for (i, full) in names.iter().enumerate() {
            let full_lower = full.to_ascii_lowercase();
            for candidate in [&full_lower[..], &full_lower[..3]] {
                if lower.starts_with(candidate) {
                    *rest = &rest[candidate.len()..];
                    return Some(i as i64);
                }
            }
        }
        None
    };
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            rest = rest.trim_start();
            continue;
        }
        if c != '%' {
            rest = rest.strip_prefix(c)?;
            continue;
        }
        match chars.next()? {
            'Y' => year = number(&mut rest, 4)?,
            'm' => month = number(&mut rest, 2)? - 1,
            'd' | 'e' => day = number(&mut rest, 2)?,
            'H' | 'k' => hour = number(&mut rest, 2)?,
            'I' | 'l' => {
                hour = number(&mut rest, 2)?;
                twelve_hour = true;
            }
            'M' => minute = number(&mut rest, 2)?,
            'S' => second = number(&mut rest, 2)?,
            'j' => {
                let yday = number(&mut rest, 3)?;
                let (_, m, d) = civil_from_days(days_from_civil(year, 1, 1) + yday - 1);
                month = m - 1;
                day = d;
            }
            'y' => {
                let y = number(&mut rest, 2)?;
                year = if y < 69 { 2000 + y } else { 1900 + y };
            }
            'b' | 'B' | 'h' => month = name(&mut rest, &MONTHS)?,
            'a' | 'A' => _ = name(&mut rest, &DAYS)?,
            'p' => {
                let lower = rest.get(..2)?.to_ascii_lowercase();
                pm = Some(lower == "pm");
                if lower != "am" && lower != "pm" {
                    return None;
                }
                rest = &rest[2..];
            }
            's' => epoch = Some(number(&mut rest, 20)?),
            'z' => {
                let trimmed = rest.trim_start();
                if let Some(r) = trimmed.strip_prefix('Z') {
                    rest = r;
                } else {
                    let sign = trimmed.get(..1).filter(|s| *s == "+" || *s == "-")?;
                    let len = trimmed[1..].bytes().take_while(|b| b.is_ascii_digit() || *b == b':').count();
                    let _ = sign;
                    rest = &trimmed[1 + len..];
                }
            }
            'Z' => {
                let len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
                rest = &rest[len..];
            }
            'T' => {
                hour = number(&mut rest, 2)?;
                rest = rest.strip_prefix(':')?;
                minute = number(&mut rest, 2)?;
                rest = rest.strip_prefix(':')?;
                second = number(&mut rest, 2)?;
            }
            'F' => {
                year = number(&mut rest, 4)?;
                rest = rest.strip_prefix('-')?;
                month = number(&mut rest, 2)? - 1;
                rest = rest.strip_prefix('-')?;
                day = number(&mut rest, 2)?;
            }
            'D' => {
                month = number(&mut rest, 2)? - 1;
                rest = rest.strip_prefix('/')?;
                day = number(&mut rest, 2)?;
                rest = rest.strip_prefix('/')?;
                let y = number(&mut rest, 2)?;
                year = if y < 69 { 2000 + y } else { 1900 + y };
            }
            'n' | 't' => rest = rest.trim_start(),
            '%' => rest = rest.strip_prefix('%')?,
            _ => return None,
        }
    }
    if !rest.is_empty() {
        return None;
    }
    if let Some(secs) = epoch {
        return gmtime(secs as f64).ok();
    }
    // glibc applies %p only to a %I hour.
    match pm.filter(|_| twelve_hour) {
        Some(true) if hour < 12 => hour += 12,
        Some(false) if hour == 12 => hour = 0,
        _ => {}
    }
    if !(0..12).contains(&month) || !(1..=31).contains(&day) || hour > 24 || minute > 59 || second > 61 {
        return None;
    }
    let days = days_from_civil(year, month + 1, day);
    let weekday = (days + 4).rem_euclid(7);
    let yday = days - days_from_civil(year, 1, 1);
    let fields = [year, month, day, hour, minute, second, weekday, yday];

    Some(Val::Arr(Rc::new(fields.iter().map(|&n| Val::from(n as isize)).collect())))
}
