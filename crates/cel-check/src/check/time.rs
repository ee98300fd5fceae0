//! Go's time parsing as cel-go's literal validators evaluate it: `time.ParseDuration` and
//! `time.Parse(time.RFC3339, _)`.

use crdkit_apimachinery::calendar::{days_from_civil, days_in_month};

/// Go `time.ParseDuration`, in nanoseconds.
pub(crate) fn parse_go_duration(s: &str) -> Option<i64> {
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
        let b = s.as_bytes()[0];
        if !(b == b'.' || b.is_ascii_digit()) {
            return None;
        }
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let mut v: u64 = 0;
        for d in s[..digits].bytes() {
            v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            if v > 1 << 63 {
                return None;
            }
        }
        s = &s[digits..];
        let (mut frac, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let n = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for d in rest[..n].bytes() {
                if overflow {
                    continue;
                }
                match frac
                    .checked_mul(10)
                    .and_then(|x| x.checked_add(u64::from(d - b'0')))
                {
                    Some(x) if x <= 1 << 63 => {
                        frac = x;
                        scale *= 10.0;
                    }
                    _ => overflow = true,
                }
            }
            post = n > 0;
            s = &rest[n..];
        }
        if digits == 0 && !post {
            return None;
        }
        let unit_len = s
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(s.len(), |(i, _)| i);
        if unit_len == 0 {
            return None;
        }
        let unit: u64 = match &s[..unit_len] {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[unit_len..];
        if v > (1u64 << 63) / unit {
            return None;
        }
        v *= unit;
        if frac > 0 {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let f = (frac as f64 * (unit as f64 / scale)) as u64;
            v = v.checked_add(f)?;
            if v > 1 << 63 {
                return None;
            }
        }
        total = total.checked_add(v)?;
        if total > 1 << 63 {
            return None;
        }
    }
    if neg {
        return i64::try_from(-i128::from(total)).ok();
    }
    i64::try_from(total).ok()
}

/// Go `time.Parse(time.RFC3339, s)`, in Unix seconds.
pub(crate) fn parse_rfc3339_seconds(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        part.iter().all(u8::is_ascii_digit).then(|| {
            part.iter()
                .fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0'))
        })
    };
    let sep = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(sep(4, b'-') && sep(7, b'-') && sep(10, b'T') && sep(13, b':') && sep(16, b':')) {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut i = 19;
    if sep(i, b'.') || sep(i, b',') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        i += 1 + n;
    }
    let offset = match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => 0,
        Some(&c @ (b'+' | b'-')) if i + 6 == b.len() && sep(i + 3, b':') => {
            let (h, m) = (num(i + 1, 2)?, num(i + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let o = h * 3600 + m * 60;
            if c == b'-' { -o } else { o }
        }
        _ => return None,
    };
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("1h30m"), Some(5_400_000_000_000));
        assert_eq!(parse_go_duration("-1.5s"), Some(-1_500_000_000));
        assert_eq!(parse_go_duration(".5ms"), Some(500_000));
        assert_eq!(parse_go_duration("0"), Some(0));
        assert_eq!(parse_go_duration("1"), None);
        assert_eq!(parse_go_duration("1d"), None);
        assert_eq!(parse_go_duration(""), None);
        assert_eq!(parse_go_duration("."), None);
        assert_eq!(parse_go_duration("3000000h"), None);
        assert_eq!(
            parse_go_duration("2562047h"),
            Some(2_562_047 * 3_600_000_000_000)
        );
    }

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339_seconds("2009-02-13T23:31:30.5Z"),
            Some(1_234_567_890)
        );
        assert_eq!(parse_rfc3339_seconds("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse_rfc3339_seconds("2023-02-29T00:00:00Z"), None);
        assert_eq!(parse_rfc3339_seconds("2023-01-01"), None);
        assert_eq!(
            parse_rfc3339_seconds("0001-01-01T00:00:00Z"),
            Some(-62_135_596_800)
        );
    }
}
