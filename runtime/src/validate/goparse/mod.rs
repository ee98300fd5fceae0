//! The Go standard-library parsers behind the formats: `net.ParseIP` (and apimachinery's sloppy
//! variant), `net.ParseCIDR`, `net.ParseMAC`, `net/url.ParseRequestURI`, `net/mail.ParseAddress`,
//! `time.Parse` of dates and RFC 3339 times, and `time.ParseDuration` with strfmt's fallback.

/// `net.ParseIP` (`sloppy`: apimachinery `ParseIPSloppy`, IPv4 parts may have leading zeros):
/// the 16 bytes and whether the text was IPv4.
pub(crate) fn parse_ip(s: &str, sloppy: bool) -> Option<([u8; 16], bool)> {
    if s.contains(':') {
        parse_ipv6(s, sloppy).map(|ip| (ip, false))
    } else {
        let v4 = parse_ipv4(s, sloppy)?;
        let mut ip = [0u8; 16];
        ip[10] = 0xff;
        ip[11] = 0xff;
        ip[12..].copy_from_slice(&v4);
        Some((ip, true))
    }
}

fn parse_ipv4(s: &str, sloppy: bool) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut parts = s.split('.');
    for o in &mut out {
        let p = parts.next()?;
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !sloppy && (p.len() > 3 || (p.len() > 1 && p.starts_with('0'))) {
            return None;
        }
        let digits = p.trim_start_matches('0');
        if digits.len() > 3 {
            return None;
        }
        let n: u32 = if digits.is_empty() {
            0
        } else {
            digits.parse().ok()?
        };
        *o = u8::try_from(n).ok()?;
    }
    parts.next().is_none().then_some(out)
}

fn parse_ipv6(s: &str, sloppy: bool) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    let mut i = 0usize;
    let mut rest = s;
    if let Some(r) = rest.strip_prefix("::") {
        ellipsis = Some(0);
        rest = r;
        if rest.is_empty() {
            return Some(ip);
        }
    }
    while i < 16 {
        // A hex group, or an embedded IPv4 address at the end.
        let end = rest.find(':').unwrap_or(rest.len());
        let group = &rest[..end];
        if end == rest.len() && group.contains('.') {
            if ellipsis.is_none() && i != 12 || i > 12 {
                return None;
            }
            let v4 = parse_ipv4(group, sloppy)?;
            ip[i..i + 4].copy_from_slice(&v4);
            i += 4;
            rest = "";
            break;
        }
        if group.is_empty() || group.len() > 4 || !group.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let n = u16::from_str_radix(group, 16).ok()?;
        ip[i..i + 2].copy_from_slice(&n.to_be_bytes());
        i += 2;
        rest = &rest[end..];
        if rest.is_empty() {
            break;
        }
        rest = &rest[1..];
        if let Some(r) = rest.strip_prefix(':') {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            rest = r;
            if rest.is_empty() {
                break;
            }
        } else if rest.is_empty() {
            return None;
        }
    }
    if !rest.is_empty() {
        return None;
    }
    match ellipsis {
        Some(e) => {
            if i == 16 {
                return None;
            }
            let n = 16 - i;
            ip.copy_within(e..i, e + n);
            ip[e..e + n].fill(0);
        }
        None if i != 16 => return None,
        None => {}
    }
    Some(ip)
}

/// apimachinery `ParseCIDRSloppy`.
pub(crate) fn parse_cidr_sloppy(s: &str) -> bool {
    let Some((addr, mask)) = s.split_once('/') else {
        return false;
    };
    let Some((_, v4)) = parse_ip(addr, true) else {
        return false;
    };
    if mask.is_empty() || !mask.bytes().all(|b| b.is_ascii_digit()) || mask.len() > 8 {
        return false;
    }
    let bits: u32 = mask.parse().unwrap_or(u32::MAX);
    bits <= if v4 { 32 } else { 128 }
}

/// `net.ParseMAC`: 6, 8 or 20 groups of two hex digits separated by `:` or `-`, or 3, 4 or 10
/// groups of four separated by `.`.
pub(crate) fn parse_mac(s: &str) -> bool {
    if s.len() < 14 {
        return false;
    }
    let hex = |g: &str, n: usize| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit());
    let b = s.as_bytes();
    if b[2] == b':' || b[2] == b'-' {
        let sep = char::from(b[2]);
        let groups: Vec<&str> = s.split(sep).collect();
        matches!(groups.len(), 6 | 8 | 20) && groups.iter().all(|g| hex(g, 2))
    } else if b[4] == b'.' {
        let groups: Vec<&str> = s.split('.').collect();
        matches!(groups.len(), 3 | 4 | 10) && groups.iter().all(|g| hex(g, 4))
    } else {
        false
    }
}

/// `url.ParseRequestURI` succeeds.
pub(crate) fn parse_request_uri(s: &str) -> bool {
    if s.bytes().any(|b| b < 0x20 || b == 0x7f) || s.is_empty() {
        return false;
    }
    if s == "*" {
        return true;
    }
    let (scheme, rest) = match scheme(s) {
        Err(()) => return false,
        Ok(x) => x,
    };
    let rest = match rest.strip_suffix('?') {
        Some(r) if rest.matches('?').count() == 1 => r,
        _ => rest.split_once('?').map_or(rest, |(p, _)| p),
    };
    if !rest.starts_with('/') {
        return !scheme.is_empty();
    }
    let mut path = rest;
    if !scheme.is_empty() && rest.starts_with("//") {
        let auth = &rest[2..];
        let (authority, p) = auth
            .find('/')
            .map_or((auth, ""), |i| (&auth[..i], &auth[i..]));
        if !parse_authority(authority) {
            return false;
        }
        path = p;
    }
    unescape_ok(path, false)
}

fn scheme(s: &str) -> Result<(&str, &str), ()> {
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err(()),
            b':' => return Ok((&s[..i], &s[i + 1..])),
            _ => return Ok(("", s)),
        }
    }
    Ok(("", s))
}

fn parse_authority(a: &str) -> bool {
    let (user, host) = a.rsplit_once('@').map_or((None, a), |(u, h)| (Some(u), h));
    if let Some(u) = user
        && !u
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&b))
    {
        return false;
    }
    if let Some(h) = host.strip_prefix('[') {
        let Some(end) = h.find(']') else { return false };
        let port = &h[end + 1..];
        if !port.is_empty() && !valid_port(port) {
            return false;
        }
        return unescape_ok(&h[..end], true);
    }
    if let Some(i) = host.rfind(':')
        && !valid_port(&host[i..])
    {
        return false;
    }
    unescape_ok(host, true)
}

fn valid_port(p: &str) -> bool {
    p.strip_prefix(':')
        .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

/// `url.unescape` succeeds: `%` escapes are well-formed and, in hosts, no byte needs escaping.
fn unescape_ok(s: &str, host: bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    return false;
                }
                i += 3;
                continue;
            }
            c if host && c < 0x80 => {
                let ok = c.is_ascii_alphanumeric() || b"-_.~!$&'()*+,;=:[]<>\"".contains(&c);
                if !ok {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}

/// `mail.ParseAddress` succeeds with a non-empty address: an addr-spec, or a display name and an
/// addr-spec in angle brackets.
pub(crate) fn parse_mail_address(s: &str) -> bool {
    let s = s.trim_matches(|c| c == ' ' || c == '\t');
    if let Some(inner) = s.strip_suffix('>') {
        let Some(lt) = inner.rfind('<') else {
            return false;
        };
        let name = inner[..lt].trim_matches(|c| c == ' ' || c == '\t');
        return phrase_ok(name) && addr_spec(inner[lt + 1..].trim());
    }
    addr_spec(s)
}

fn is_atext(c: char) -> bool {
    !c.is_ascii() || (c.is_ascii_graphic() && !"()<>[]:;@\\,\".".contains(c))
}

fn dot_atom(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|a| !a.is_empty() && a.chars().all(is_atext))
}

fn quoted(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return false;
    };
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.next().is_none() => return false,
            '"' => return false,
            c if c.is_ascii_control() && c != '\t' => return false,
            _ => {}
        }
    }
    true
}

fn phrase_ok(name: &str) -> bool {
    name.is_empty()
        || quoted(name)
        || name
            .split([' ', '\t'])
            .filter(|w| !w.is_empty())
            .all(|w| w.chars().all(|c| is_atext(c) || c == '.'))
}

fn addr_spec(s: &str) -> bool {
    let Some(at) = s.rfind('@') else { return false };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    (dot_atom(local) || quoted(local))
        && (dot_atom(domain)
            || domain.starts_with('[') && domain.ends_with(']') && domain.len() >= 2)
}

/// `time.Parse("2006-01-02", s)` succeeds.
pub(crate) fn parse_date(s: &str) -> bool {
    parse_ymd(s.as_bytes()).is_some_and(|(_, rest)| rest.is_empty())
}

/// A date and the text after it.
pub(crate) type Ymd<'a> = ((i64, u32, u32), &'a [u8]);

/// Year, month, day and what follows a `YYYY-MM-DD` prefix, with Go's range checks.
pub(crate) fn parse_ymd(b: &[u8]) -> Option<Ymd<'_>> {
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
    if !(1..=12).contains(&m) || d < 1 || d > days_in(m, y) {
        return None;
    }
    Some(((y, m, d), &b[10..]))
}

fn days_in(m: u32, y: i64) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a civil date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `time.Parse(time.RFC3339, s)` as Unix seconds (the fraction dropped), or Go's error text.
pub(crate) fn parse_rfc3339(s: &str) -> Result<i64, String> {
    let err = |elem: &str, rest: &str| {
        format!(
            "parsing time {} as \"2006-01-02T15:04:05Z07:00\": cannot parse {} as {}",
            crate::field::go_quote(s),
            crate::field::go_quote(rest),
            crate::field::go_quote(elem)
        )
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
    Ok(days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + sec - offset)
}

/// `t.UTC().Format(time.RFC3339)` of Unix seconds.
pub(crate) fn format_rfc3339(secs: i64) -> String {
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
pub(crate) fn parse_duration_strfmt(s: &str) -> bool {
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
            parse_rfc3339("a").unwrap_err(),
            r#"parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006""#
        );
    }
}
