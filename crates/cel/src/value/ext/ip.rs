//! `net.IP` and `net.CIDR`: mirrors apiserver `pkg/cel/ip.go` and `cidr.go`, with Go `net/netip`
//! semantics for parsing and containment.

use std::fmt;
use std::net::IpAddr;

/// A prefix as Go's `netip.Prefix`: the address as written (host bits kept) and a length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cidr {
    pub addr: IpAddr,
    pub bits: u8,
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

fn to_u128(ip: &IpAddr) -> (u128, u8) {
    match ip {
        IpAddr::V4(a) => (u128::from(u32::from(*a)), 32),
        IpAddr::V6(a) => (u128::from(*a), 128),
    }
}

fn mask(v: u128, width: u8, bits: u8) -> u128 {
    if bits == 0 {
        return 0;
    }
    let keep = u32::from(width - bits);
    if keep >= 128 { 0 } else { (v >> keep) << keep }
}

impl Cidr {
    /// `Prefix.Contains(ip)`: same family and equal leading bits.
    #[must_use]
    pub fn contains(&self, ip: &IpAddr) -> bool {
        let (a, wa) = to_u128(&self.addr);
        let (b, wb) = to_u128(ip);
        wa == wb && mask(a, wa, self.bits) == mask(b, wb, self.bits)
    }

    /// `Prefix.Masked()`.
    #[must_use]
    pub fn masked(&self) -> Cidr {
        let (a, w) = to_u128(&self.addr);
        let m = mask(a, w, self.bits);
        let addr = match self.addr {
            IpAddr::V4(_) => IpAddr::V4((m as u32).into()),
            IpAddr::V6(_) => IpAddr::V6(m.into()),
        };
        Cidr {
            addr,
            bits: self.bits,
        }
    }

    /// `p.Overlaps(o) && p.Bits() <= o.Bits()`.
    #[must_use]
    pub fn contains_cidr(&self, o: &Cidr) -> bool {
        let (a, wa) = to_u128(&self.addr);
        let (b, wb) = to_u128(&o.addr);
        if wa != wb {
            return false;
        }
        let min = self.bits.min(o.bits);
        mask(a, wa, min) == mask(b, wb, min) && self.bits <= o.bits
    }
}

/// apiserver `parseIPAddr`: Go's `netip.ParseAddr` without zones or IPv4-mapped addresses.
pub(crate) fn parse_ip(raw: &str) -> Result<IpAddr, String> {
    let p = super::netip::parse_addr(raw).map_err(|e| {
        format!("IP Address {raw:?} parse error during conversion from string: {e}")
    })?;
    if p.zone {
        return Err(format!("IP address {raw:?} with zone value is not allowed"));
    }
    if let IpAddr::V6(v6) = p.addr
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
    }
    Ok(p.addr)
}

/// apiserver `parseCIDR`: Go's `netip.ParsePrefix` without IPv4-mapped addresses.
pub(crate) fn parse_cidr(raw: &str) -> Result<Cidr, String> {
    let err = |detail: &str| {
        format!(
            "network address parse error during conversion from string: netip.ParsePrefix({raw:?}): {detail}"
        )
    };
    let Some((a, b)) = raw.rsplit_once('/') else {
        return Err(err("no '/'"));
    };
    let parsed = super::netip::parse_addr(a).map_err(|e| err(&e))?;
    if parsed.zone {
        return Err(err("IPv6 zones cannot be present in a prefix"));
    }
    let addr = parsed.addr;
    // strconv.Atoi without a sign or leading zeros.
    let bad = || err(&format!("bad bits after slash: {b:?}"));
    if b.len() > 1 && !(b'1'..=b'9').contains(&b.as_bytes()[0]) {
        return Err(bad());
    }
    if b.is_empty() || !b.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let max = if addr.is_ipv4() { 32 } else { 128 };
    let bits: u32 = b.parse().unwrap_or(u32::MAX);
    if bits > max {
        return Err(err("prefix length out of range"));
    }
    if let IpAddr::V6(v6) = addr
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
    }
    Ok(Cidr {
        addr,
        bits: bits as u8,
    })
}
