//! `time.Parse` of dates and RFC 3339 times, `Time.Format` back, and `time.ParseDuration` (alone
//! and with strfmt's fallback): the one home of these for CEL, the CEL checker, protobuf and the
//! formats.

use crate::calendar::{civil_from_days, days_from_civil, days_in_month};

/// `time.Parse("2006-01-02", s)` succeeds.
pub fn parse_date(s: &str) -> bool {
    parse_ymd(s.as_bytes()).is_some_and(|(_, rest)| rest.is_empty())
}

/// A date and the text after it.
pub type Ymd<'a> = ((i64, u32, u32), &'a [u8]);

/// Year, month, day and what follows a `YYYY-MM-DD` prefix, with Go's range checks.
pub fn parse_ymd(b: &[u8]) -> Option<Ymd<'_>> {
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: &[u8]| -> Option<u32> {
        r.iter()
            .all(u8::is_ascii_digit)
            .then(|| r.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    let y = i64::from(num(&b[0..4])?);
    let m = num(&b[5..7])?;
    let d = num(&b[8..10])?;
    if !(1..=12).contains(&m) || d < 1 || i64::from(d) > days_in_month(y, i64::from(m)) {
        return None;
    }
    Some(((y, m, d), &b[10..]))
}

/// Go's `*time.ParseError` of `time.Parse(time.RFC3339, value)`; `Display` is Go's text
/// (`parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeParseError {
    /// The whole input.
    pub value: String,
    /// The part of the input that did not parse.
    pub value_elem: String,
    /// The element of the layout it was parsed as (`2006`, `T`, `Z07:00`, ...).
    pub layout_elem: &'static str,
}

impl std::fmt::Display for TimeParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "parsing time {} as \"2006-01-02T15:04:05Z07:00\": cannot parse {} as {}",
            crate::gofmt::quote(&self.value),
            crate::gofmt::quote(&self.value_elem),
            crate::gofmt::quote(self.layout_elem)
        )
    }
}

impl std::error::Error for TimeParseError {}

/// An instant read from RFC 3339 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rfc3339 {
    /// Unix seconds.
    pub secs: i64,
    /// Nanoseconds of the fraction: Go reads its first nine digits and ignores the rest.
    pub nanos: u32,
    /// The text's UTC offset in seconds (`Z` is 0).
    pub offset: i32,
}

/// `time.Parse(time.RFC3339, s)` as Unix seconds (the fraction dropped).
///
/// # Errors
/// Go's parse error, naming the part that did not parse.
pub fn parse_rfc3339(s: &str) -> Result<i64, TimeParseError> {
    parse_rfc3339_instant(s).map(|t| t.secs)
}

/// `time.Parse(time.RFC3339, s)` with its fraction and offset. Go's general parser, which
/// `Parse` falls back to when its RFC 3339 fast path refuses the text (src/time/format.go), takes
/// a fraction after `.` or `,` when a digit follows and offsets up to `24:60`.
///
/// # Errors
/// Go's parse error, naming the part that did not parse.
pub fn parse_rfc3339_instant(s: &str) -> Result<Rfc3339, TimeParseError> {
    let err = |elem: &'static str, rest: &str| TimeParseError {
        value: s.to_owned(),
        value_elem: rest.to_owned(),
        layout_elem: elem,
    };
    let b = s.as_bytes();
    let Some(((y, mo, d), rest)) = parse_ymd(b) else {
        return Err(err("2006", s));
    };
    let num2 = |r: &[u8]| {
        (r.len() >= 2 && r[0].is_ascii_digit() && r[1].is_ascii_digit())
            .then(|| i64::from(r[0] - b'0') * 10 + i64::from(r[1] - b'0'))
    };
    let tail = |r: &[u8]| String::from_utf8_lossy(r).into_owned();
    let rest = rest
        .strip_prefix(b"T")
        .ok_or_else(|| err("T", &tail(rest)))?;
    let h = num2(rest)
        .filter(|h| *h < 24)
        .ok_or_else(|| err("15", &tail(rest)))?;
    let rest = rest[2..]
        .strip_prefix(b":")
        .ok_or_else(|| err(":", &tail(&rest[2..])))?;
    let mi = num2(rest)
        .filter(|m| *m < 60)
        .ok_or_else(|| err("04", &tail(rest)))?;
    let rest = rest[2..]
        .strip_prefix(b":")
        .ok_or_else(|| err(":", &tail(&rest[2..])))?;
    let sec = num2(rest)
        .filter(|s| *s < 60)
        .ok_or_else(|| err("05", &tail(rest)))?;
    let mut rest = &rest[2..];
    let mut nanos = 0u32;
    if let [b'.' | b',', digits @ ..] = rest
        && digits.first().is_some_and(u8::is_ascii_digit)
    {
        let n = digits.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut scale = 100_000_000;
        for d in &digits[..n.min(9)] {
            nanos += u32::from(d - b'0') * scale;
            scale /= 10;
        }
        rest = &digits[n..];
    }
    let offset = match rest {
        b"Z" => 0,
        [sign @ (b'+' | b'-'), r @ ..] if r.len() == 5 && r[2] == b':' => {
            let (oh, om) = (
                num2(r)
                    .filter(|h| *h <= 24)
                    .ok_or_else(|| err("Z07:00", &tail(rest)))?,
                num2(&r[3..])
                    .filter(|m| *m <= 60)
                    .ok_or_else(|| err("Z07:00", &tail(rest)))?,
            );
            let o = oh * 3600 + om * 60;
            if *sign == b'-' { -o } else { o }
        }
        _ => return Err(err("Z07:00", &tail(rest))),
    };
    let local = days_from_civil(y, i64::from(mo), i64::from(d)) * 86_400 + h * 3600 + mi * 60 + sec;
    Ok(Rfc3339 {
        secs: local - offset,
        nanos,
        offset: i32::try_from(offset).expect("at most 24:60"),
    })
}

/// `t.UTC().Format(time.RFC3339)` of Unix seconds.
pub fn format_rfc3339(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let (h, mi, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    if !(0..=9999).contains(&y) {
        return format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z");
    }
    // Written digit by digit: every write stamps times, and `format!` is most of the cost.
    let mut out = *b"0000-00-00T00:00:00Z";
    let mut put = |at: usize, width: usize, mut v: i64| {
        for i in (at..at + width).rev() {
            out[i] = b'0' + u8::try_from(v % 10).unwrap_or(0);
            v /= 10;
        }
    };
    put(0, 4, y);
    put(5, 2, m);
    put(8, 2, d);
    put(11, 2, h);
    put(14, 2, mi);
    put(17, 2, s);
    out.iter().map(|b| char::from(*b)).collect()
}

/// strfmt `ParseDuration`: Go's `time.ParseDuration`, else `<int> <unit>` pairs (`3 days`).
pub fn parse_duration_strfmt(s: &str) -> bool {
    parse_duration(s).is_some() || strfmt_duration(s)
}

/// Go's `time.ParseDuration` in nanoseconds; `None` where Go returns an error
/// (src/time/format.go: `leadingInt`, `leadingFraction` and the `1<<63` bounds).
#[must_use]
pub fn parse_duration(s: &str) -> Option<i64> {
    const LIMIT: u64 = 1 << 63;
    let (neg, mut s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s.as_bytes()[1..]),
        Some(b'+') => (false, &s.as_bytes()[1..]),
        _ => (false, s.as_bytes()),
    };
    if s == b"0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return None;
        }
        let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &s[..n] {
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
        if let Some(r) = s.strip_prefix(b".") {
            let m = r.iter().take_while(|c| c.is_ascii_digit()).count();
            let mut overflow = false;
            for &c in &r[..m] {
                if overflow || f > (LIMIT - 1) / 10 {
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
            s = &r[m..];
        }
        if n == 0 && !post {
            return None;
        }
        let u = s
            .iter()
            .take_while(|c| **c != b'.' && !c.is_ascii_digit())
            .count();
        let unit: u64 = match &s[..u] {
            b"ns" => 1,
            // `µs` as U+00B5 and U+03BC.
            b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[u..];
        if v > LIMIT / unit {
            return None;
        }
        v *= unit;
        if f > 0 {
            // Go adds the fraction through float64, exact to the nanosecond up to hours.
            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss
            )]
            let frac = (f as f64 * (unit as f64 / scale)) as u64;
            v += frac;
            if v > LIMIT {
                return None;
            }
        }
        // Go's uint64 sum wraps when two terms are both 1<<63 (`9223372036854775808ns` twice is
        // 0s there); wrapping keeps that answer.
        total = total.wrapping_add(v);
        if total > LIMIT {
            return None;
        }
    }
    if neg {
        // -Duration(1<<63) is the minimum; anything smaller is negated exactly.
        return Some(if total == LIMIT {
            i64::MIN
        } else {
            -i64::try_from(total).ok()?
        });
    }
    i64::try_from(total).ok()
}

fn strfmt_duration(s: &str) -> bool {
    const UNITS: [&[&str]; 8] = [
        &["ns", "nano"],
        &["us", "\u{b5}s", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    let mut ok = false;
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    // ((\d+)\s*([A-Za-zµ]+)), leftmost matches without overlap.
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits: String = b[start..i].iter().collect();
        let mut j = i;
        while j < b.len() && matches!(b[j], '\t' | '\n' | '\x0c' | '\r' | ' ') {
            j += 1;
        }
        let u0 = j;
        while j < b.len() && (b[j].is_ascii_alphabetic() || b[j] == '\u{b5}') {
            j += 1;
        }
        if j == u0 {
            continue;
        }
        if digits.parse::<i64>().is_err() {
            return false;
        }
        let unit: String = b[u0..j].iter().collect::<String>().to_lowercase();
        for variants in UNITS {
            let last = variants.len() - 1;
            for (k, v) in variants.iter().enumerate() {
                if (k == last && unit.starts_with(v)) || v.eq_ignore_ascii_case(&unit) {
                    ok = true;
                }
            }
        }
        i = j;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(
            format_rfc3339(parse_rfc3339("2017-05-31T12:56:35.123+02:00").unwrap()),
            "2017-05-31T10:56:35Z"
        );
        assert_eq!(format_rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        // Digit by digit inside years 0..=9999, `format!` outside; both as Go prints them.
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(253_402_300_799), "9999-12-31T23:59:59Z");
        assert_eq!(format_rfc3339(253_402_300_800), "10000-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(-62_167_219_200), "0000-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(-62_167_219_201), "-001-12-31T23:59:59Z");
        for secs in [1_700_000_000, 86_399, 1_234_567_890] {
            assert_eq!(parse_rfc3339(&format_rfc3339(secs)), Ok(secs));
        }
        assert_eq!(
            parse_rfc3339("a").unwrap_err().to_string(),
            r#"parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006""#
        );
        let t = parse_rfc3339_instant("2011-08-18T19:03:37,0123456789-01:30").unwrap();
        assert_eq!((t.nanos, t.offset), (12_345_678, -5_400));
        assert_eq!(t.secs, parse_rfc3339("2011-08-18T20:33:37Z").unwrap());
        // A separator without a digit is not a fraction; Go then fails on the zone.
        assert_eq!(
            parse_rfc3339("2020-01-01T00:00:00.Z")
                .unwrap_err()
                .layout_elem,
            "Z07:00"
        );
        // The general parser's offset range (`> 24`, `> 60` are out of range).
        assert!(parse_rfc3339("2020-01-01T00:00:00+24:00").is_ok());
        assert!(parse_rfc3339("2020-01-01T00:00:00+25:00").is_err());
        assert!(parse_rfc3339("2020-01-01T00:00:00+00:61").is_err());
        assert!(parse_rfc3339("2023-02-29T00:00:00Z").is_err());
        assert_eq!(parse_rfc3339("0001-01-01T00:00:00Z"), Ok(-62_135_596_800));
    }

    #[test]
    fn go_durations() {
        // Cases of Go's time_test.go parseDurationTests.
        for (text, nanos) in [
            ("0", 0),
            ("5s", 5_000_000_000),
            ("+5s", 5_000_000_000),
            ("-5s", -5_000_000_000),
            ("1.004s", 1_004_000_000),
            (".5ms", 500_000),
            ("1h30m", 5_400_000_000_000),
            ("1h2m3s4ms", 3_723_004_000_000),
            ("10\u{b5}s", 10_000),
            ("10\u{3bc}s", 10_000),
            ("9223372036854775807ns", i64::MAX),
            ("9223372036854775.807us", i64::MAX),
            ("-9223372036854775808ns", i64::MIN),
            ("0.100000000000000000000h", 360_000_000_000),
            ("0.9223372036854775807h", 3_320_413_933_267),
            ("2562047h", 2_562_047 * 3_600_000_000_000),
            ("9223372036854775808ns9223372036854775808ns", 0),
        ] {
            assert_eq!(parse_duration(text), Some(nanos), "{text}");
        }
        for text in [
            "",
            "3",
            "-",
            "s",
            ".",
            "-.",
            ".s",
            "+.s",
            "1d",
            "\u{0}",
            "3000000h",
            "9223372036854775808ns",
            "9223372036854775.808us",
            "-9223372036854775809ns",
        ] {
            assert_eq!(parse_duration(text), None, "{text}");
        }
        assert!(parse_duration_strfmt("3 days") && !parse_duration_strfmt("three"));
    }
}
