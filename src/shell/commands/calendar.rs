//! Calendar arithmetic shared by the commands that print dates (`ls -l`,
//! `find -printf`, `date`, `diff`'s headers, `tar -tv`, jq's time
//! functions): UTC only, as the storage's times are.

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the epoch (negative before it).
pub(super) fn epoch_seconds(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_secs()).unwrap_or(i64::MAX),
    }
}

/// Day names from Sunday, as `%A` prints them (`%a`: the first three letters).
pub(super) const DAY_NAMES: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// Month names from January, as `%B` prints them (`%b`: the first three letters).
pub(super) const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A UTC civil time: (year, month 1–12, day, hour, minute, second).
pub(super) fn civil(seconds: i64) -> (i64, u32, u32, u32, u32, u32) {
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, (rest / 3600) as u32, (rest % 3600 / 60) as u32, (rest % 60) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil(1_796_227_270), (2026, 12, 2, 16, 1, 10));
        assert_eq!(civil(-1), (1969, 12, 31, 23, 59, 59));
        assert_eq!(epoch_seconds(UNIX_EPOCH + std::time::Duration::from_secs(5)), 5);
        assert_eq!(epoch_seconds(UNIX_EPOCH - std::time::Duration::from_secs(5)), -5);
    }
}
