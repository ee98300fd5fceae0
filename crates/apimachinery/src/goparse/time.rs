//! `time.Parse` of dates and RFC 3339 times, `Time.Format` back, and `time.ParseDuration` with
//! strfmt's fallback.

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

/// `time.Parse(time.RFC3339, s)` as Unix seconds (the fraction dropped).
///
/// # Errors
/// Go's parse error, naming the part that did not parse.
pub fn parse_rfc3339(s: &str) -> Result<i64, TimeParseError> {
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
    if rest.first() == Some(&b'.') || rest.first() == Some(&b',') {
        let n = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        rest = &rest[1 + n..];
    }
    let offset = match rest {
        b"Z" => 0,
        [sign @ (b'+' | b'-'), r @ ..] if r.len() == 5 && r[2] == b':' => {
            let (oh, om) = (
                num2(r).ok_or_else(|| err("Z07:00", &tail(rest)))?,
                num2(&r[3..]).ok_or_else(|| err("Z07:00", &tail(rest)))?,
            );
            let o = oh * 3600 + om * 60;
            if *sign == b'-' { -o } else { o }
        }
        _ => return Err(err("Z07:00", &tail(rest))),
    };
    Ok(
        days_from_civil(y, i64::from(mo), i64::from(d)) * 86_400 + h * 3600 + mi * 60 + sec
            - offset,
    )
}

/// `t.UTC().Format(time.RFC3339)` of Unix seconds.
pub fn format_rfc3339(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// strfmt `ParseDuration`: Go's `time.ParseDuration`, else `<int> <unit>` pairs (`3 days`).
pub fn parse_duration_strfmt(s: &str) -> bool {
    go_parse_duration(s) || strfmt_duration(s)
}

/// `time.ParseDuration` succeeds.
fn go_parse_duration(s: &str) -> bool {
    const UNITS: [(&str, u64); 9] = [
        ("ns", 1),
        ("us", 1_000),
        ("\u{b5}s", 1_000),
        ("\u{3bc}s", 1_000),
        ("ms", 1_000_000),
        ("s", 1_000_000_000),
        ("m", 60_000_000_000),
        ("h", 3_600_000_000_000),
        ("", 0),
    ];
    let mut s = s.strip_prefix(['-', '+']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    if s.is_empty() {
        return false;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return false;
        }
        let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &b[..n] {
            if v > (1 << 63) / 10 {
                return false;
            }
            v = v * 10 + u64::from(c - b'0');
            if v > 1 << 63 {
                return false;
            }
        }
        s = &s[n..];
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(r) = s.strip_prefix('.') {
            let m = r.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in r[..m].bytes() {
                if overflow || f > (1 << 63) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > 1 << 63 {
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
            return false;
        }
        let u = s
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if u == 0 {
            return false;
        }
        let Some(&(_, unit)) = UNITS.iter().find(|(name, _)| *name == &s[..u]) else {
            return false;
        };
        s = &s[u..];
        if v > (1 << 63) / unit {
            return false;
        }
        v *= unit;
        if f > 0 {
            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss
            )]
            let frac = (f as f64 * (unit as f64 / scale)) as u64;
            v += frac;
            if v > 1 << 63 {
                return false;
            }
        }
        total += v;
        if total > 1 << 63 {
            return false;
        }
    }
    true
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
        assert_eq!(
            parse_rfc3339("a").unwrap_err().to_string(),
            r#"parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006""#
        );
    }
}
