//! The proleptic Gregorian calendar of Go's `time` package (`daysIn`, `daysSinceEpoch`,
//! `absDate`): civil dates to days since 1970-01-01 and back, for every parser, formatter and
//! CEL accessor of times. The conversions are Howard Hinnant's `days_from_civil` and
//! `civil_from_days` (exact over the whole `i64` range of years Go represents).
//!
//! ```
//! use crdkit_apimachinery::calendar::{civil_from_days, days_from_civil, days_in_month};
//! assert_eq!(days_from_civil(2000, 3, 1), 11_017);
//! assert_eq!(civil_from_days(11_016), (2000, 2, 29));
//! assert_eq!(days_in_month(1900, 2), 28);
//! ```

/// Whether `year` has a 29 February.
#[must_use]
pub const fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// The number of days of `month` (1-12) in `year`.
#[must_use]
pub const fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a civil date (month 1-12, day 1-31).
#[must_use]
pub const fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date (year, month 1-12, day 1-31) of a number of days since 1970-01-01.
#[must_use]
pub const fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// The weekday of a number of days since 1970-01-01, 0 for Sunday (Go's `time.Weekday`).
#[must_use]
pub const fn weekday(days: i64) -> i64 {
    (days + 4).rem_euclid(7)
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, days_from_civil, days_in_month, weekday};

    #[test]
    fn round_trip() {
        let mut days = days_from_civil(-1, 1, 1);
        for year in -1..=2401 {
            for month in 1..=12 {
                for day in 1..=days_in_month(year, month) {
                    assert_eq!(
                        days_from_civil(year, month, day),
                        days,
                        "{year}-{month}-{day}"
                    );
                    assert_eq!(civil_from_days(days), (year, month, day));
                    days += 1;
                }
            }
        }
    }

    #[test]
    fn known_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(days_in_month(2000, 2), 29);
        assert_eq!(days_in_month(2100, 2), 28);
        // 1970-01-01 was a Thursday, 2024-02-29 too.
        assert_eq!(weekday(0), 4);
        assert_eq!(weekday(days_from_civil(2024, 2, 29)), 4);
    }
}
