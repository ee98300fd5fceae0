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
    }
}
