//! Go's time texts for `metav1.Time`, `MicroTime` and `Duration`: `Format(time.RFC3339)` (from
//! crdkit-apimachinery), `Format(RFC3339Micro)`, `time.Duration.String` and
//! `time.ParseDuration` (Go `src/time/format.go`, `time.go`).

use std::fmt::Write as _;

use crdkit_apimachinery::goparse::{format_rfc3339, parse_rfc3339};

const NANOS: i64 = 1_000_000_000;

/// Go's zero `time.Time` (`0001-01-01T00:00:00Z`) in Unix seconds: `IsZero`, so JSON `null`
/// and no protobuf bytes.
pub(crate) const GO_ZERO_TIME: i64 = -62_135_596_800;

/// `time.Unix(secs, nanos)` normalized: nanos in `0..1e9` (`None` past i64 seconds).
fn normalize(secs: i64, nanos: i64) -> Option<(i64, i64)> {
    Some((
        secs.checked_add(nanos.div_euclid(NANOS))?,
        nanos.rem_euclid(NANOS),
    ))
}

/// `t.UTC().Format(time.RFC3339)`.
pub(crate) fn format_time(secs: i64) -> String {
    format_rfc3339(secs)
}

/// `MicroTime.Unmarshal`: `time.Unix(secs, Duration(nanos).Truncate(Microsecond))`, so the
/// nanoseconds go toward zero before they carry into the seconds.
pub(crate) fn micro_time(secs: i64, nanos: i64) -> (i64, i64) {
    normalize(secs, nanos - nanos % 1000).unwrap_or((secs, 0))
}

/// `t.UTC().Format("2006-01-02T15:04:05.000000Z07:00")` of a [`micro_time`].
pub(crate) fn format_micro_time(secs: i64, nanos: i64) -> String {
    let mut s = format_rfc3339(secs);
    s.pop();
    let _ = write!(s, ".{:06}Z", nanos / 1000);
    s
}

/// An RFC 3339 time as (Unix seconds, nanoseconds of its fraction). `time.Parse` takes the
/// fraction after `.` or `,`, up to nine digits counted.
pub(crate) fn parse_time(s: &str) -> Option<(i64, i32)> {
    let secs = parse_rfc3339(s).ok()?;
    let b = s.as_bytes();
    let mut nanos = 0i32;
    if let Some(&sep) = b.get(19)
        && (sep == b'.' || sep == b',')
    {
        let digits = b[20..].iter().take_while(|c| c.is_ascii_digit());
        let mut scale = 100_000_000;
        for d in digits {
            nanos += i32::from(d - b'0') * scale;
            scale /= 10;
        }
    }
    Some((secs, nanos))
}

/// `time.Duration(nanos).String()`.
pub(crate) fn format_duration(nanos: i64) -> String {
    let neg = nanos < 0;
    let mut u = nanos.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        if u == 0 {
            return "0s".to_owned();
        }
        let (prec, unit) = match u {
            0..1_000 => (0, "ns"),
            1_000..1_000_000 => (3, "\u{b5}s"),
            _ => (6, "ms"),
        };
        let (int, frac) = split_frac(u, prec);
        out.push_str(&int.to_string());
        out.push_str(&frac);
        out.push_str(unit);
    } else {
        let (secs, frac) = split_frac(u, 9);
        u = secs;
        let s = u % 60;
        u /= 60;
        if u > 0 {
            let m = u % 60;
            u /= 60;
            if u > 0 {
                let _ = write!(out, "{u}h");
            }
            let _ = write!(out, "{m}m");
        }
        let _ = write!(out, "{s}{frac}s");
    }
    if neg {
        out.insert(0, '-');
    }
    out
}

/// `fmtFrac`: v / 10^prec and the fraction's text without trailing zeros (`.5`, or empty).
fn split_frac(v: u64, prec: u32) -> (u64, String) {
    let p = 10u64.pow(prec);
    let frac = v % p;
    if frac == 0 {
        return (v / p, String::new());
    }
    let digits = format!("{frac:0width$}", width = prec as usize);
    (v / p, format!(".{}", digits.trim_end_matches('0')))
}

/// `time.ParseDuration`.
pub(crate) fn parse_duration(s: &str) -> Option<i64> {
    const LIMIT: u64 = 1 << 63;
    let (neg, mut s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if s == "0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return None;
        }
        let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &b[..n] {
            if v > LIMIT / 10 {
                return None;
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return None;
            }
        }
        s = &s[n..];
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let m = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in rest[..m].bytes() {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = m > 0;
            s = &rest[m..];
        }
        if n == 0 && !post {
            return None;
        }
        let u = s
            .bytes()
            .take_while(|c| *c != b'.' && !c.is_ascii_digit())
            .count();
        if u == 0 {
            return None;
        }
        let unit: u64 = match &s[..u] {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[u..];
        if v > LIMIT / unit {
            return None;
        }
        v *= unit;
        if f > 0 {
            // Go computes the fraction in float64, nanosecond-accurate up to hours.
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let add = (f as f64 * (unit as f64 / scale)) as u64;
            v += add;
            if v > LIMIT {
                return None;
            }
        }
        total += v;
        if total > LIMIT {
            return None;
        }
    }
    if neg {
        return Some((total as i64).wrapping_neg());
    }
    i64::try_from(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_as_go_prints_them() {
        // Go's time_test.go durationTests.
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (1, "1ns"),
            (1100, "1.1\u{b5}s"),
            (2_200_000, "2.2ms"),
            (3_300_000_000, "3.3s"),
            (4 * 60 * NANOS + 5 * NANOS, "4m5s"),
            (4 * 60 * NANOS + 5_001_000_000, "4m5.001s"),
            (
                5 * 3600 * NANOS + 6 * 60 * NANOS + 7_001_000_000,
                "5h6m7.001s",
            ),
            (8 * 60 * NANOS + 1, "8m0.000000001s"),
            (i64::MAX, "2562047h47m16.854775807s"),
            (i64::MIN, "-2562047h47m16.854775808s"),
        ];
        for (d, want) in cases {
            assert_eq!(format_duration(*d), *want);
            assert_eq!(parse_duration(want), Some(*d), "{want}");
        }
    }

    #[test]
    fn durations_go_parses() {
        assert_eq!(parse_duration("1.5h"), Some(5400 * NANOS));
        assert_eq!(parse_duration("-1m30s"), Some(-90 * NANOS));
        assert_eq!(parse_duration(".5s"), Some(NANOS / 2));
        assert_eq!(parse_duration("1us"), Some(1000));
        for bad in [
            "",
            "1",
            "1x",
            ".s",
            "-",
            "9223372036854775808ns",
            "3000000h",
        ] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn micro_times() {
        let micro = |s, n| {
            let (s, n) = micro_time(s, n);
            format_micro_time(s, n)
        };
        assert_eq!(micro(0, 123_456_789), "1970-01-01T00:00:00.123456Z");
        // Truncated toward zero first: -1ns is no time at all.
        assert_eq!(micro(1, -1), "1970-01-01T00:00:01.000000Z");
        assert_eq!(micro(1, -1_000), "1970-01-01T00:00:00.999999Z");
        assert_eq!(
            parse_time("2024-05-06T07:08:09.5Z"),
            Some((1_714_979_289, 500_000_000))
        );
        assert_eq!(
            parse_time("2024-05-06T09:08:09+02:00"),
            Some((1_714_979_289, 0))
        );
        assert_eq!(parse_time("2024-05-06"), None);
    }
}
