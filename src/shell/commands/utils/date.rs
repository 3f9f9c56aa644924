//! `date`: the current time or a given one, always in UTC (`TZ` is not
//! read), in the C locale's words. `-d` takes `@SECONDS`, `now`, and ISO
//! dates `YYYY-MM-DD[( |T)HH:MM[:SS]]`; setting the clock is refused.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::super::calendar::{civil, DAY_NAMES as DAYS, MONTH_NAMES as MONTHS};
use super::{options, quote, usage, Arg, HasArg, Spec};

const SPEC: Spec = Spec {
    short: "d:uR",
    long: &[
        ("date", "d", HasArg::Yes),
        ("utc", "u", HasArg::No),
        ("universal", "u", HasArg::No),
        ("iso-8601", "I", HasArg::Optional),
        ("rfc-email", "R", HasArg::No),
        ("rfc-3339", "rfc-3339", HasArg::Yes),
    ],
};

/// A moment: seconds since the epoch and nanoseconds.
#[derive(Clone, Copy)]
struct Moment {
    seconds: i64,
    nanos: u32,
}

/// `date [-u] [-d DATE] [-I[FMT] | -R | --rfc-3339=FMT | +FORMAT]`.
pub(super) fn date(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    // `-I` takes an optional argument glued to it (`-Iseconds`).
    let args: Vec<String> = args
        .iter()
        .map(|arg| match arg.strip_prefix("-I") {
            Some("") => "--iso-8601".to_string(),
            Some(spec) => format!("--iso-8601={spec}"),
            None => arg.clone(),
        })
        .collect();
    let parsed = match options(ctx, &SPEC, &args, 1)? {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let mut given: Option<String> = None;
    let mut format: Option<String> = None;
    let mut user_format: Option<String> = None;
    let mut formats = 0_usize;
    for arg in parsed {
        match arg {
            Arg::Opt("d", value) => given = value,
            Arg::Opt("u", _) => {}
            Arg::Opt("I", value) => {
                formats += 1;
                let spec = match value.as_deref().unwrap_or("date") {
                    spec if "date".starts_with(spec) && !spec.is_empty() => "%Y-%m-%d",
                    spec if "hours".starts_with(spec) && !spec.is_empty() => "%Y-%m-%dT%H%:z",
                    spec if "minutes".starts_with(spec) && !spec.is_empty() => "%Y-%m-%dT%H:%M%:z",
                    spec if "seconds".starts_with(spec) && !spec.is_empty() => "%Y-%m-%dT%H:%M:%S%:z",
                    spec if "ns".starts_with(spec) && !spec.is_empty() => "%Y-%m-%dT%H:%M:%S,%N%:z",
                    spec => return bad_argument(ctx, spec, "--iso-8601"),
                };
                format = Some(spec.to_string());
            }
            Arg::Opt("R", _) => {
                formats += 1;
                format = Some("%a, %d %b %Y %H:%M:%S %z".to_string());
            }
            Arg::Opt(_, value) => {
                formats += 1;
                let value = value.unwrap_or_default();
                let spec = match value.as_str() {
                    "date" => "%Y-%m-%d",
                    "seconds" => "%Y-%m-%d %H:%M:%S%:z",
                    "ns" => "%Y-%m-%d %H:%M:%S.%N%:z",
                    _ => return bad_argument(ctx, &value, "--rfc-3339"),
                };
                format = Some(spec.to_string());
            }
            Arg::Operand(operand) => match operand.strip_prefix('+') {
                Some(user) if user_format.is_none() => user_format = Some(user.to_string()),
                _ if given.is_none() && user_format.is_none() => {
                    // Setting the clock: the operand is read as a date first.
                    ctx.error(format!("invalid date {}", quote(&operand)))?;
                    return Ok(1);
                }
                _ => return usage(ctx, &format!("extra operand {}", quote(&operand)), 1),
            },
        }
    }
    if formats + usize::from(user_format.is_some()) > 1 {
        ctx.error("multiple output formats specified")?;
        return Ok(1);
    }
    let format = user_format.or(format);
    let moment = match given {
        None => now(),
        Some(text) => match parse_date(&text) {
            Some(moment) => moment,
            None => {
                ctx.error(format!("invalid date {}", quote(&text)))?;
                return Ok(1);
            }
        },
    };
    let format = format.unwrap_or_else(|| "%a %b %e %H:%M:%S %Z %Y".to_string());
    ctx.stdout.write_str(&format!("{}\n", strftime(&format, moment)))?;
    Ok(0)
}

fn bad_argument(ctx: &mut Context<'_>, value: &str, option: &str) -> Result<i32, LimitHit> {
    ctx.error(format!("invalid argument {} for '{option}'", quote(value)))?;
    let valid = if option == "--rfc-3339" {
        "Valid arguments are:\n  - 'date'\n  - 'seconds'\n  - 'ns'\n"
    } else {
        "Valid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'\n"
    };
    ctx.stderr.write_str(valid)?;
    ctx.stderr.write_str("Try 'date --help' for more information.\n")?;
    Ok(1)
}

fn now() -> Moment {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(after) => {
            Moment { seconds: i64::try_from(after.as_secs()).unwrap_or(i64::MAX), nanos: after.subsec_nanos() }
        }
        Err(_) => Moment { seconds: 0, nanos: 0 },
    }
}

/// Days since the epoch of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let month = i64::from(month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(year: i64, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `-d`: `@SECONDS`, or an optional ISO date `YYYY-MM-DD[( |T)HH:MM[:SS]]`
/// (else now) followed by relative items: `now`, `today`, `yesterday`,
/// `tomorrow`, `[+-]N UNIT [ago]` with UNIT seconds to years (UTC).
fn parse_date(text: &str) -> Option<Moment> {
    let text = text.trim();
    if text.is_empty() {
        // GNU reads an empty date as today's midnight.
        return Some(Moment { seconds: now().seconds.div_euclid(86_400) * 86_400, nanos: 0 });
    }
    if let Some(seconds) = text.strip_prefix('@') {
        return Some(Moment { seconds: seconds.trim().parse().ok()?, nanos: 0 });
    }
    let words: Vec<String> = text.split_whitespace().map(str::to_ascii_lowercase).collect();
    let mut at = 0;
    let mut moment = now();
    let (day, glued_time) = match words[0].split_once('t') {
        Some((day, time)) if day.contains('-') => (day, Some(time)),
        _ => (words[0].as_str(), None),
    };
    if let Some(days) = iso_day(day) {
        at = 1;
        let mut time = glued_time;
        if time.is_none() && words.get(1).is_some_and(|w| w.contains(':')) {
            time = Some(words[1].as_str());
            at = 2;
        }
        let seconds = match time {
            Some(time) => clock(time)?,
            None => 0,
        };
        moment = Moment { seconds: days * 86_400 + seconds, nanos: 0 };
    }
    // Relative items: (amount, seconds per unit, or 0 for months).
    let mut items: Vec<(i64, i64)> = Vec::new();
    let mut amount: Option<i64> = None;
    for word in &words[at..] {
        let (count, unit) = match word.find(|c: char| c.is_ascii_alphabetic()) {
            Some(0) => ("", word.as_str()),
            Some(pos) => word.split_at(pos),
            None => (word.as_str(), ""),
        };
        if !count.is_empty() {
            if amount.is_some() {
                return None;
            }
            let digits = count.strip_prefix(['+', '-']).unwrap_or(count);
            let value: i64 = number(digits)?;
            amount = Some(if count.starts_with('-') { -value } else { value });
        }
        if unit.is_empty() {
            continue;
        }
        let n = amount.take().unwrap_or(1);
        let unit = unit.strip_suffix('s').filter(|u| u.len() > 2).unwrap_or(unit);
        match unit {
            "now" | "today" if count.is_empty() => {}
            "yesterday" if count.is_empty() => items.push((-1, 86_400)),
            "tomorrow" if count.is_empty() => items.push((1, 86_400)),
            "ago" if count.is_empty() => items.last_mut()?.0 *= -1,
            "sec" | "second" => items.push((n, 1)),
            "min" | "minute" => items.push((n, 60)),
            "hour" => items.push((n, 3600)),
            "day" => items.push((n, 86_400)),
            "week" => items.push((n, 7 * 86_400)),
            "fortnight" => items.push((n, 14 * 86_400)),
            "month" => items.push((n, 0)),
            "year" => items.push((12 * n, 0)),
            _ => return None,
        }
    }
    if amount.is_some() {
        return None;
    }
    for (n, unit) in items {
        if unit > 0 {
            moment.seconds = moment.seconds.checked_add(n.checked_mul(unit)?)?;
            continue;
        }
        // Calendar months; a day past the month's end runs into the next.
        let (year, month, day, ..) = civil(moment.seconds);
        let months = year * 12 + i64::from(month) - 1 + n;
        let (year, month) = (months.div_euclid(12), months.rem_euclid(12) as u32 + 1);
        let time = moment.seconds.rem_euclid(86_400);
        moment.seconds = (days_from_civil(year, month, 1) + i64::from(day) - 1) * 86_400 + time;
    }
    Some(moment)
}

/// Days since the epoch of `YYYY-MM-DD`, if it is a valid date.
fn iso_day(day: &str) -> Option<i64> {
    let mut parts = day.splitn(3, '-');
    let year: i64 = number(parts.next()?)?;
    let month: u32 = number(parts.next()?)?;
    let mday: u32 = number(parts.next()?)?;
    if !(1..=12).contains(&month) || mday == 0 || mday > days_in_month(year, month) {
        return None;
    }
    Some(days_from_civil(year, month, mday))
}

/// Seconds into the day of `HH:MM[:SS][Z]`.
fn clock(time: &str) -> Option<i64> {
    let time = time.strip_suffix('z').unwrap_or(time);
    let fields: Vec<&str> = time.split(':').collect();
    if !(2..=3).contains(&fields.len()) {
        return None;
    }
    let hour: i64 = number(fields[0])?;
    let minute: i64 = number(fields[1])?;
    let second: i64 = fields.get(2).map_or(Some(0), |s| number(s))?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    Some(hour * 3600 + minute * 60 + second)
}

fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// GNU `date`'s conversions in the C locale, UTC; the flags `-` (no
/// padding), `_` (spaces) and `0` (zeros). An unknown conversion is
/// printed as written.
fn strftime(format: &str, moment: Moment) -> String {
    let (year, month, day, hour, minute, second) = civil(moment.seconds);
    let days = moment.seconds.div_euclid(86_400);
    let weekday = (days + 4).rem_euclid(7) as usize;
    let yday = (days - days_from_civil(year, 1, 1)) as u32 + 1;
    let hour12 = if hour % 12 == 0 { 12 } else { hour % 12 };
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let flag = chars.next_if(|c| matches!(c, '-' | '_' | '0'));
        let colon = chars.next_if_eq(&':').is_some();
        let Some(conv) = chars.next() else {
            out.push('%');
            break;
        };
        // A number with its default padding, then the flag's.
        let num = |value: i64, width: usize, zero: bool| -> String {
            match (flag, zero) {
                (Some('-'), _) => value.to_string(),
                (Some('_'), _) | (None, false) => super::super::layout::pad(&value.to_string(), width, ' ', true),
                _ => super::super::layout::zero_padded(i128::from(value), width),
            }
        };
        let text = match conv {
            'Y' => num(year, 1, true),
            'C' => num(year.div_euclid(100), 2, true),
            'y' => num(year.rem_euclid(100), 2, true),
            'm' => num(i64::from(month), 2, true),
            'd' => num(i64::from(day), 2, true),
            'e' => num(i64::from(day), 2, false),
            'H' => num(i64::from(hour), 2, true),
            'k' => num(i64::from(hour), 2, false),
            'I' => num(i64::from(hour12), 2, true),
            'l' => num(i64::from(hour12), 2, false),
            'M' => num(i64::from(minute), 2, true),
            'S' => num(i64::from(second), 2, true),
            'j' => num(i64::from(yday), 3, true),
            'u' => num(if weekday == 0 { 7 } else { weekday as i64 }, 1, true),
            'w' => num(weekday as i64, 1, true),
            's' => moment.seconds.to_string(),
            'N' => format!("{:09}", moment.nanos),
            'a' => DAYS[weekday][..3].to_string(),
            'A' => DAYS[weekday].to_string(),
            'b' | 'h' => MONTHS[month as usize - 1][..3].to_string(),
            'B' => MONTHS[month as usize - 1].to_string(),
            'p' => if hour < 12 { "AM" } else { "PM" }.to_string(),
            'P' => if hour < 12 { "am" } else { "pm" }.to_string(),
            'Z' => "UTC".to_string(),
            'z' if colon => "+00:00".to_string(),
            'z' => "+0000".to_string(),
            'F' => format!("{year:04}-{month:02}-{day:02}"),
            'T' | 'X' => format!("{hour:02}:{minute:02}:{second:02}"),
            'R' => format!("{hour:02}:{minute:02}"),
            'D' | 'x' => format!("{month:02}/{day:02}/{:02}", year.rem_euclid(100)),
            'r' => format!("{hour12:02}:{minute:02}:{second:02} {}", if hour < 12 { "AM" } else { "PM" }),
            'c' => format!(
                "{} {} {day:>2} {hour:02}:{minute:02}:{second:02} {year}",
                &DAYS[weekday][..3],
                &MONTHS[month as usize - 1][..3]
            ),
            'n' => "\n".to_string(),
            't' => "\t".to_string(),
            '%' => "%".to_string(),
            other => {
                let mut raw = String::from("%");
                raw.extend(flag);
                if colon {
                    raw.push(':');
                }
                raw.push(other);
                raw
            }
        };
        out.push_str(&text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{parse_date, strftime, Moment};

    fn at(seconds: i64) -> Moment {
        Moment { seconds, nanos: 0 }
    }

    /// Expected texts from GNU date 9 with `TZ=UTC LC_ALL=C`.
    #[test]
    fn formats_like_gnu() {
        assert_eq!(strftime("%a %b %e %H:%M:%S %Z %Y", at(0)), "Thu Jan  1 00:00:00 UTC 1970");
        assert_eq!(
            strftime("%Q %-d %_m %e %j %s %N %P %p %l %k %Z %z %:z %c %x %X %r", at(0)),
            "%Q 1  1  1 001 0 000000000 am AM 12  0 UTC +0000 +00:00 Thu Jan  1 00:00:00 1970 01/01/70 00:00:00 12:00:00 AM"
        );
        assert_eq!(
            strftime("%F %T %A %B %u %w %y %C", at(1_709_251_199)),
            "2024-02-29 23:59:59 Thursday February 4 4 24 20"
        );
        assert_eq!(strftime("%a, %d %b %Y %H:%M:%S %z", at(0)), "Thu, 01 Jan 1970 00:00:00 +0000");
    }

    #[test]
    fn reads_iso_and_epoch_dates() {
        assert_eq!(parse_date("2024-01-02 03:04").map(|m| m.seconds), Some(1_704_164_640));
        assert_eq!(parse_date("2024-01-02T03:04:05").map(|m| m.seconds), Some(1_704_164_645));
        assert_eq!(parse_date("2024-02-29").map(|m| m.seconds), Some(1_709_164_800));
        assert_eq!(parse_date("@-86400").map(|m| m.seconds), Some(-86_400));
        assert!(parse_date("2023-02-29").is_none());
        assert!(parse_date("bad").is_none());
        // GNU: `date -u -d '2024-01-31 1 month' +%F` is 2024-03-02.
        let day = |text: &str| parse_date(text).map(|m| strftime("%F %T", m));
        assert_eq!(day("2024-01-31 1 month").as_deref(), Some("2024-03-02 00:00:00"));
        assert_eq!(day("2024-03-01 yesterday").as_deref(), Some("2024-02-29 00:00:00"));
        assert_eq!(day("2024-03-01 12:00 2 days ago").as_deref(), Some("2024-02-28 12:00:00"));
        assert_eq!(day("2024-03-01 -1 week +3 hours").as_deref(), Some("2024-02-23 03:00:00"));
        assert_eq!(day("2024-03-01 1 year ago").as_deref(), Some("2023-03-01 00:00:00"));
        assert!(parse_date("2 parsecs ago").is_none());
        assert!(parse_date("3").is_none());
    }
}
