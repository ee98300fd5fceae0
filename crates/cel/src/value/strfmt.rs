//! The parsing of `format: duration`, `date` and `date-time` strings as kube-openapi `strfmt`
//! does it for CEL values (apiserver `pkg/cel/common/values.go`).

use super::time::{self, Duration, Timestamp};

/// kube-openapi `strfmt.ParseDuration`: Go durations plus `d` (days) and `w` (weeks) units,
/// spaces allowed between number and unit.
pub(crate) fn parse_strfmt_duration(s: &str) -> Option<Duration> {
    if let Some(d) = time::parse_go_duration(s) {
        return Some(d);
    }
    let t = s.trim();
    let num_end = t.find(|c: char| !c.is_ascii_digit())?;
    let n: i64 = t[..num_end].parse().ok()?;
    let unit = t[num_end..].trim();
    let scale: i64 = match unit {
        "ns" | "nano" | "nanos" | "nanosecond" | "nanoseconds" => 1,
        "us" | "µs" | "micro" | "micros" | "microsecond" | "microseconds" => 1_000,
        "ms" | "milli" | "millis" | "millisecond" | "milliseconds" => 1_000_000,
        "s" | "sec" | "secs" | "second" | "seconds" => 1_000_000_000,
        "m" | "min" | "mins" | "minute" | "minutes" => 60_000_000_000,
        "h" | "hr" | "hour" | "hours" => 3_600_000_000_000,
        "d" | "day" | "days" => 86_400_000_000_000,
        "w" | "wk" | "week" | "weeks" => 604_800_000_000_000,
        _ => return None,
    };
    n.checked_mul(scale).map(Duration)
}

/// `time.Parse("2006-01-02", s)`.
pub(crate) fn parse_full_date(s: &str) -> Option<Timestamp> {
    if s.len() != 10 {
        return None;
    }
    time::parse_rfc3339(&format!("{s}T00:00:00Z"))?.ok()
}

/// kube-openapi `strfmt.ParseDateTime`: RFC 3339 with `T`, `t` or a space, with or without
/// fractional seconds.
pub(crate) fn parse_strfmt_datetime(s: &str) -> Option<Timestamp> {
    let mut fixed = s.to_string();
    if fixed.len() > 10 && matches!(fixed.as_bytes()[10], b't' | b' ') {
        fixed.replace_range(10..11, "T");
    }
    if fixed.ends_with('z') {
        fixed.pop();
        fixed.push('Z');
    }
    time::parse_rfc3339(&fixed)?.ok()
}
