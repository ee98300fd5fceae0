//! Go's `net/netip.ParseAddr`, for its exact error messages (`ParseAddr("1.2.3.4.5"): IPv4
//! address too long`), which the Kubernetes IP library puts in its errors.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// A parsed address and whether it carried a zone (`fe80::1%eth0`).
pub(crate) struct Parsed {
    pub addr: IpAddr,
    pub zone: bool,
}

fn err(input: &str, msg: &str, at: Option<&str>) -> String {
    match at {
        Some(at) if !at.is_empty() => format!("ParseAddr({input:?}): {msg} (at {at:?})"),
        _ => format!("ParseAddr({input:?}): {msg}"),
    }
}

/// `netip.ParseAddr`.
pub(crate) fn parse_addr(s: &str) -> Result<Parsed, String> {
    for b in s.bytes() {
        match b {
            b'.' => {
                let f = parse_ipv4_fields(s, 0, s.len())?;
                return Ok(Parsed {
                    addr: IpAddr::V4(Ipv4Addr::from(f)),
                    zone: false,
                });
            }
            b':' => return parse_ipv6(s),
            b'%' => return Err(err(s, "missing IPv6 address", None)),
            _ => {}
        }
    }
    Err(err(s, "unable to parse IP", None))
}

fn parse_ipv4_fields(input: &str, off: usize, end: usize) -> Result<[u8; 4], String> {
    let s = &input[off..end];
    let b = s.as_bytes();
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut dig_len) = (0u32, 0usize, 0);
    for i in 0..b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            if dig_len == 1 && val == 0 {
                return Err(err(input, "IPv4 field has octet with leading zero", None));
            }
            val = val * 10 + u32::from(c - b'0');
            dig_len += 1;
            if val > 255 {
                return Err(err(input, "IPv4 field has value >255", None));
            }
        } else if c == b'.' {
            if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                return Err(err(
                    input,
                    "IPv4 field must have at least one digit",
                    Some(&s[i..]),
                ));
            }
            if pos == 3 {
                return Err(err(input, "IPv4 address too long", None));
            }
            fields[pos] = val as u8;
            pos += 1;
            val = 0;
            dig_len = 0;
        } else {
            return Err(err(input, "unexpected character", Some(&s[i..])));
        }
    }
    if pos < 3 {
        return Err(err(input, "IPv4 address too short", None));
    }
    fields[3] = val as u8;
    Ok(fields)
}

fn parse_ipv6(input: &str) -> Result<Parsed, String> {
    let (mut s, zone) = match input.find('%') {
        Some(i) => {
            if i + 1 == input.len() {
                return Err(err(input, "zone must be a non-empty string", None));
            }
            (&input[..i], Some(&input[i + 1..]))
        }
        None => (input, None),
    };
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with("::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(Parsed {
                addr: IpAddr::V6(Ipv6Addr::UNSPECIFIED),
                zone: zone.is_some(),
            });
        }
    }
    let mut i = 0usize;
    while i < 16 {
        let b = s.as_bytes();
        let mut off = 0;
        let mut acc = 0u32;
        while off < b.len() {
            let c = b[off];
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => break,
            };
            acc = (acc << 4) + u32::from(d);
            if off > 3 {
                return Err(err(input, "each group must have 4 or less digits", Some(s)));
            }
            if acc > 0xffff {
                return Err(err(input, "IPv6 field has value >=2^16", Some(s)));
            }
            off += 1;
        }
        if off == 0 {
            return Err(err(
                input,
                "each colon-separated field must have at least one digit",
                Some(s),
            ));
        }
        if off < b.len() && b[off] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return Err(err(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    Some(s),
                ));
            }
            if i + 4 > 16 {
                return Err(err(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    Some(s),
                ));
            }
            let end = input.len() - zone.map_or(0, |z| z.len() + 1);
            let f = parse_ipv4_fields(input, end - s.len(), end)?;
            ip[i..i + 4].copy_from_slice(&f);
            i += 4;
            s = "";
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(err(input, "unexpected character, want colon", Some(s)));
        } else if s.len() == 1 {
            return Err(err(
                input,
                "colon must be followed by more characters",
                Some(s),
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(err(input, "multiple :: in address", Some(s)));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(err(input, "trailing garbage after address", Some(s)));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(err(input, "address string too short", None));
        };
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(err(
            input,
            "the :: must expand to at least one field of zeros",
            Some(s),
        ));
    }
    Ok(Parsed {
        addr: IpAddr::V6(Ipv6Addr::from(ip)),
        zone: zone.is_some(),
    })
}
