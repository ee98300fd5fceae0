//! Time as the API server writes and prints it: RFC 3339 timestamps to the second in UTC
//! (`metav1.Time`), and ages as kubectl shows them (apimachinery `pkg/util/duration`
//! `HumanDuration`, via `printers.ConvertToHumanReadableDateType`).

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch, now.
#[must_use]
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// `2021-06-20T07:35:27Z`.
#[must_use]
pub fn format(secs: i64) -> String {
    // From 1970 to jiff's last second (9999-12-30T22:00:00Z), every time a write stamps: Go's
    // layout written directly (each create formats its time twice).
    if (0..=253_402_207_200).contains(&secs) {
        return crdkit_apimachinery::goparse::format_rfc3339(secs);
    }
    match jiff::Timestamp::from_second(secs) {
        Ok(t) => t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
        Err(_) => "1970-01-01T00:00:00Z".to_owned(),
    }
}

/// Parses an RFC 3339 timestamp to seconds since the epoch.
#[must_use]
pub fn parse(s: &str) -> Option<i64> {
    s.parse::<jiff::Timestamp>().ok().map(|t| t.as_second())
}

/// `HumanDuration` (apimachinery `pkg/util/duration`), from its one home.
pub use crdkit_apimachinery::duration::human_duration;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(format(1_624_174_527), "2021-06-20T07:35:27Z");
        assert_eq!(parse("2021-06-20T07:35:27Z"), Some(1_624_174_527));
        assert_eq!(parse("nope"), None);
        // Both ways of writing agree where they meet, and before 1970 and after 9999.
        for secs in [0, 86_399, 951_782_400, 4_107_542_399, 253_402_207_200] {
            let jiff = jiff::Timestamp::from_second(secs)
                .unwrap()
                .strftime("%Y-%m-%dT%H:%M:%SZ")
                .to_string();
            assert_eq!(format(secs), jiff, "{secs}");
        }
        assert_eq!(format(-1), "1969-12-31T23:59:59Z");
        assert_eq!(format(253_402_207_201), "1970-01-01T00:00:00Z");
        assert_eq!(format(i64::MAX), "1970-01-01T00:00:00Z");
    }
}
