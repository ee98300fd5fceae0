//! The address and port ranges allocation draws from, and their state.

use std::collections::BTreeSet;

use crdkit_apimachinery::goparse::parse_ip;

/// A Service IP range of one family (`--service-cluster-ip-range`).
#[derive(Clone, Debug)]
pub(super) struct IpRange {
    pub(super) cidr: String,
    pub(super) v4: bool,
    /// The first and last usable address (network and, for IPv4, broadcast excluded).
    pub(super) first: u128,
    pub(super) last: u128,
    /// Where dynamic allocation starts (above the static band).
    pub(super) dynamic: u128,
    pub(super) used: BTreeSet<u128>,
}

impl IpRange {
    pub(super) fn parse(cidr: &str) -> Result<IpRange, String> {
        let bad = || format!("invalid CIDR {cidr:?}");
        let (addr, bits) = cidr.split_once('/').ok_or_else(bad)?;
        let (ip, v4) = parse_ip(addr, false).ok_or_else(bad)?;
        let bits: u32 = bits.parse().map_err(|_| bad())?;
        let len = if v4 { bits + 96 } else { bits };
        if len > 126 || (v4 && bits > 30) {
            return Err(format!("the range {cidr} is too small"));
        }
        let mask = !0u128 << (128 - len);
        let net = u128::from_be_bytes(ip) & mask;
        let host = 128 - len;
        let size = if host >= 127 {
            u128::MAX / 2
        } else {
            1u128 << host
        };
        let first = net + 1;
        let last = if v4 { net + size - 2 } else { net + size - 1 };
        // KEP-3070: the lower band (1/16th, at least 16, at most 256) is kept for static IPs.
        let band = (size / 16).clamp(16, 256);
        let dynamic = (net + band).min(last);
        Ok(IpRange {
            cidr: cidr.to_owned(),
            v4,
            first,
            last,
            dynamic,
            used: BTreeSet::new(),
        })
    }

    pub(super) fn family(&self) -> &'static str {
        if self.v4 { "IPv4" } else { "IPv6" }
    }

    pub(super) fn format(&self, n: u128) -> String {
        let b = n.to_be_bytes();
        let mut ip = [0u8; 16];
        ip.copy_from_slice(&b);
        crate::validation::net::ip_string(&ip, self.v4)
    }

    pub(super) fn allocate(&mut self, ip: &str) -> Result<u128, String> {
        let n = parse_ip(ip, true).map(|(b, _)| u128::from_be_bytes(b));
        match n {
            Some(n) if (self.first..=self.last).contains(&n) => {
                if self.used.insert(n) {
                    Ok(n)
                } else {
                    Err("provided IP is already allocated".to_owned())
                }
            }
            _ => Err(format!(
                "the provided IP ({ip}) is not in the valid range. The range of valid IPs is {}",
                self.cidr
            )),
        }
    }

    pub(super) fn allocate_next(&mut self) -> Option<u128> {
        let upper = self.dynamic..=self.last;
        let lower = self.first..=self.dynamic.saturating_sub(1);
        for range in [upper, lower] {
            let mut n = *range.start();
            // Each step skips one allocated address: bounded by the number allocated.
            for used in self.used.range(range.clone()) {
                if *used != n {
                    break;
                }
                n += 1;
            }
            if range.contains(&n) {
                self.used.insert(n);
                return Some(n);
            }
        }
        None
    }
}

/// The node port range (`--service-node-port-range`).
#[derive(Clone, Debug)]
pub(super) struct PortRange {
    pub(super) base: u16,
    pub(super) last: u16,
    pub(super) dynamic: u16,
    pub(super) used: BTreeSet<u16>,
}

impl PortRange {
    pub(super) fn describe(&self) -> String {
        format!("{}-{}", self.base, self.last)
    }

    pub(super) fn allocate(&mut self, p: i64) -> Result<(), String> {
        match u16::try_from(p) {
            Ok(p) if (self.base..=self.last).contains(&p) => {
                if self.used.insert(p) {
                    Ok(())
                } else {
                    Err("provided port is already allocated".to_owned())
                }
            }
            _ => Err(format!(
                "provided port is not in the valid range. The range of valid ports is {}",
                self.describe()
            )),
        }
    }

    pub(super) fn allocate_next(&mut self) -> Option<u16> {
        let upper = self.dynamic..=self.last;
        let lower = self.base..=self.dynamic.saturating_sub(1).max(self.base);
        for range in [upper, lower] {
            if let Some(p) = range.clone().find(|p| !self.used.contains(p)) {
                self.used.insert(p);
                return Some(p);
            }
        }
        None
    }
}
