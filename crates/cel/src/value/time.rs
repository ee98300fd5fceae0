//! Timestamps and durations: mirrors cel-go `common/types/timestamp.go`, `duration.go`, the
//! checked arithmetic of `overflow.go` and the time-zone accessors of `common/stdlib`, with Go's
//! `time.Parse(time.RFC3339)`, `time.ParseDuration` and `Format(time.RFC3339Nano)` behaviour.
//!
//! A [`Duration`] is Go's `time.Duration` (int64 nanoseconds); a [`Timestamp`] keeps the UTC
//! offset it was parsed with, since `string(timestamp)` prints it, as Go's `time.Time` does.
//! Named time zones come from the IANA database bundled by `jiff` (cel-go uses Go's
//! `time.LoadLocation`). `jiff` with only `std` and `tzdb-bundle-always` adds 3.3 s to a clean
//! debug build and 6.3 s to a release build on the 2-core development machine (two small
//! crates, no system zoneinfo lookups, so results do not depend on the host).

use super::error::EvalError;
use crdkit_apimachinery::calendar::{civil_from_days, days_from_civil, days_in_month, weekday};

/// cel-go's earliest timestamp: 0001-01-01T00:00:00Z.
pub const MIN_UNIX: i64 = -62_135_596_800;
/// cel-go's latest timestamp: 9999-12-31T23:59:59Z.
pub const MAX_UNIX: i64 = 253_402_300_799;
const NANOS: i64 = 1_000_000_000;

/// A CEL duration: signed nanoseconds, as Go's `time.Duration`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub i64);

/// A CEL timestamp: seconds and nanoseconds since the Unix epoch, with the UTC offset (in
/// seconds east) of the zone it is displayed in.
#[derive(Clone, Copy, Debug)]
pub struct Timestamp {
    /// Whole seconds since 1970-01-01T00:00:00Z, within [`MIN_UNIX`]`..=`[`MAX_UNIX`].
    pub secs: i64,
    /// Nanoseconds past `secs`, below 1 000 000 000.
    pub nanos: u32,
    /// The UTC offset in seconds east, used only to print the timestamp; equality and order
    /// compare the instant.
    pub offset: i32,
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.secs == other.secs && self.nanos == other.nanos
    }
}

impl Timestamp {
    /// A UTC timestamp; `None` outside cel-go's range.
    #[must_use]
    pub fn new(secs: i64, nanos: u32) -> Option<Timestamp> {
        (MIN_UNIX..=MAX_UNIX).contains(&secs).then_some(Timestamp {
            secs,
            nanos,
            offset: 0,
        })
    }

    /// Orders two timestamps by instant.
    #[must_use]
    pub fn cmp_instant(&self, other: &Timestamp) -> std::cmp::Ordering {
        (self.secs, self.nanos).cmp(&(other.secs, other.nanos))
    }
}

pub(crate) fn timestamp_overflow() -> EvalError {
    EvalError::new(super::EvalErrorKind::Overflow, "timestamp overflow")
}

/// `timestamp + duration` (cel-go `addTimeDurationChecked`).
pub(crate) fn add(t: Timestamp, d: Duration) -> Result<Timestamp, EvalError> {
    let sec = t
        .secs
        .checked_add(d.0 / NANOS)
        .ok_or_else(EvalError::int_overflow)?;
    let mut nsec = i64::from(t.nanos) + d.0 % NANOS;
    let mut sec = sec;
    if !(0..NANOS).contains(&nsec) {
        sec = sec
            .checked_add(nsec / NANOS)
            .ok_or_else(EvalError::int_overflow)?;
        nsec -= (nsec / NANOS) * NANOS;
        if nsec < 0 {
            sec = sec.checked_sub(1).ok_or_else(EvalError::int_overflow)?;
            nsec += NANOS;
        }
    }
    if !(MIN_UNIX..=MAX_UNIX).contains(&sec) {
        return Err(timestamp_overflow());
    }
    Ok(Timestamp {
        secs: sec,
        nanos: nsec as u32,
        offset: t.offset,
    })
}

/// `timestamp - duration`.
pub(crate) fn sub(t: Timestamp, d: Duration) -> Result<Timestamp, EvalError> {
    let neg = d.0.checked_neg().ok_or_else(EvalError::int_overflow)?;
    add(t, Duration(neg))
}

/// `timestamp - timestamp` (cel-go `subtractTimeChecked`).
pub(crate) fn diff(a: Timestamp, b: Timestamp) -> Result<Duration, EvalError> {
    let sec = a
        .secs
        .checked_sub(b.secs)
        .ok_or_else(EvalError::int_overflow)?;
    let nsec = i64::from(a.nanos) - i64::from(b.nanos);
    let t = sec.checked_mul(NANOS).ok_or_else(EvalError::int_overflow)?;
    t.checked_add(nsec)
        .map(Duration)
        .ok_or_else(EvalError::int_overflow)
}

/// Parses like Go's `time.Parse(time.RFC3339, s)` (fractional seconds accepted), then checks
/// cel-go's range. `None` when the text does not parse.
pub(crate) fn parse_rfc3339(s: &str) -> Option<Result<Timestamp, EvalError>> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        part.iter().all(u8::is_ascii_digit).then(|| {
            part.iter()
                .fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0'))
        })
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' {
        return None;
    }
    if b[16] != b':' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, min, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || min > 59 || sec > 59 {
        return None;
    }
    let mut i = 19;
    let mut nanos = 0i64;
    if b[i] == b'.' || b[i] == b',' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if i - start < 9 {
                nanos = nanos * 10 + i64::from(b[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        for _ in (i - start)..9 {
            nanos *= 10;
        }
    }
    let offset = match b.get(i)? {
        b'Z' if i + 1 == b.len() => 0,
        c @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
            let (oh, om) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 3600 + om * 60;
            if *c == b'-' { -o } else { o }
        }
        _ => return None,
    };
    let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + min * 60 + sec;
    let secs = local - offset;
    Some(
        Timestamp::new(secs, nanos as u32)
            .map(|t| Timestamp {
                offset: offset as i32,
                ..t
            })
            .ok_or_else(timestamp_overflow),
    )
}

/// Formats like Go's `t.Format(time.RFC3339Nano)` in the timestamp's own offset.
#[must_use]
pub fn format_rfc3339_nano(t: &Timestamp) -> String {
    let local = t.secs + i64::from(t.offset);
    let (y, mo, d) = civil_from_days(local.div_euclid(86_400));
    let rem = local.rem_euclid(86_400);
    let mut out = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        y,
        mo,
        d,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    if t.nanos != 0 {
        let frac = format!("{:09}", t.nanos);
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    if t.offset == 0 {
        out.push('Z');
    } else {
        let o = t.offset.abs();
        let sign = if t.offset < 0 { '-' } else { '+' };
        out.push_str(&format!("{sign}{:02}:{:02}", o / 3600, o % 3600 / 60));
    }
    out
}

/// Go's `time.ParseDuration`; `None` on a syntax error or an out-of-range value.
pub(crate) fn parse_go_duration(s: &str) -> Option<Duration> {
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(Duration(0));
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let int_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (int_part, r) = rest.split_at(int_end);
        let (frac_part, r) = match r.strip_prefix('.') {
            Some(r) => {
                let e = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
                r.split_at(e)
            }
            None => ("", r),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        let unit_end = r
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(r.len());
        let (unit, r) = r.split_at(unit_end);
        let scale: u64 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        let mut v: u64 = 0;
        for d in int_part.bytes() {
            v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        }
        v = v.checked_mul(scale)?;
        let mut f = 0f64;
        let mut sc = 1f64;
        for d in frac_part.bytes() {
            f = f * 10.0 + f64::from(d - b'0');
            sc *= 10.0;
        }
        if !frac_part.is_empty() {
            v = v.checked_add((f * (scale as f64 / sc)) as u64)?;
        }
        total = total.checked_add(v)?;
        rest = r;
    }
    if neg {
        if total > 1u64 << 63 {
            return None;
        }
        Some(Duration((total as i64).wrapping_neg()))
    } else {
        i64::try_from(total).ok().map(Duration)
    }
}

/// Formats like cel-go's `string(duration)`: `strconv.FormatFloat(d.Seconds(), 'f', -1, 64)+"s"`.
#[must_use]
pub fn format_duration(d: Duration) -> String {
    let secs = d.0 / NANOS;
    let nanos = d.0 % NANOS;
    // Go computes Seconds() as sec + nsec/1e9 in float64; print the shortest float.
    let f = secs as f64 + nanos as f64 / 1e9;
    format!("{}s", format_float_f(f))
}

/// Civil fields of an instant in a zone: (year, month 1-12, day 1-31, hour, minute, second,
/// weekday 0=Sunday, year day 0-based).
pub(crate) struct Civil {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    pub weekday: i64,
    pub yday: i64,
}

pub(crate) fn civil(t: &Timestamp, offset: i64) -> Civil {
    let local = t.secs + offset;
    let days = local.div_euclid(86_400);
    let rem = local.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: rem / 3600,
        minute: rem % 3600 / 60,
        second: rem % 60,
        weekday: weekday(days),
        yday: days - days_from_civil(year, 1, 1),
    }
}

/// The offset (seconds east) of a CEL time-zone argument at the instant `t`: an IANA name, or
/// `[+-]HH:MM` as cel-go's `timeZone` parses it.
pub(crate) fn zone_offset(t: &Timestamp, tz: &str) -> Result<i64, EvalError> {
    let Some(ind) = tz.find(':') else {
        if tz.is_empty() || tz == "UTC" {
            return Ok(0);
        }
        let zone = jiff::tz::TimeZone::get(tz)
            .map_err(|_| EvalError::other(format!("unknown time zone {tz}")))?;
        let ts = jiff::Timestamp::new(t.secs, t.nanos as i32)
            .map_err(|e| EvalError::other(e.to_string()))?;
        return Ok(i64::from(zone.to_offset(ts).seconds()));
    };
    let atoi = |s: &str| -> Result<i64, EvalError> {
        go_atoi(s)
            .ok_or_else(|| EvalError::other(format!("strconv.Atoi: parsing {s:?}: invalid syntax")))
    };
    let hr = atoi(&tz[..ind])?;
    let min = atoi(&tz[ind + 1..])?;
    if !(0..=59).contains(&min) {
        return Err(EvalError::other(format!(
            "timezone offset minutes out of range [0, 59]: {tz}"
        )));
    }
    let offset = if tz.starts_with('-') {
        hr * 60 - min
    } else {
        hr * 60 + min
    };
    Ok(offset.saturating_mul(60))
}

fn go_atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 18 {
        return None;
    }
    s.parse().ok()
}

/// Go's `strconv.FormatFloat(f, 'f', -1, 64)`: shortest digits, never an exponent.
fn format_float_f(f: f64) -> String {
    if f.is_nan() {
        "NaN".to_owned()
    } else if f == f64::INFINITY {
        "+Inf".to_owned()
    } else if f == f64::NEG_INFINITY {
        "-Inf".to_owned()
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_round_trip() {
        let t = parse_rfc3339("2009-02-13T23:31:30Z").unwrap().unwrap();
        assert_eq!(t.secs, 1_234_567_890);
        assert_eq!(format_rfc3339_nano(&t), "2009-02-13T23:31:30Z");
        let t = parse_rfc3339("2011-08-18T19:03:37.010+01:00")
            .unwrap()
            .unwrap();
        assert_eq!(format_rfc3339_nano(&t), "2011-08-18T19:03:37.01+01:00");
        assert!(parse_rfc3339("0000-01-01T00:00:00Z").unwrap().is_err());
        assert!(parse_rfc3339("10000-01-01T00:00:00Z").is_none());
    }

    #[test]
    fn go_durations() {
        assert_eq!(
            parse_go_duration("1h2m3s4ms"),
            Some(Duration(3_723_004_000_000))
        );
        assert_eq!(parse_go_duration("-1.5s"), Some(Duration(-1_500_000_000)));
        assert_eq!(parse_go_duration("320000000000s"), None);
        assert_eq!(format_duration(Duration(1_000_000_000_000_000)), "1000000s");
        assert_eq!(format_duration(Duration(1_500_000_000)), "1.5s");
    }
}
