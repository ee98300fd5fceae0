//! `net.ParseIP` (and apimachinery's sloppy variant), `net.ParseCIDR` and `net.ParseMAC`.

/// `net.ParseIP` (`sloppy`: apimachinery `ParseIPSloppy`, IPv4 parts may have leading zeros):
/// the 16 bytes and whether the text was IPv4.
pub fn parse_ip(s: &str, sloppy: bool) -> Option<([u8; 16], bool)> {
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
pub fn parse_cidr_sloppy(s: &str) -> bool {
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
pub fn parse_mac(s: &str) -> bool {
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
