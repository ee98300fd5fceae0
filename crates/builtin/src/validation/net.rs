//! IP addresses and ports as Kubernetes validates them.
//!
//! Mirrors apimachinery `pkg/util/validation/ip.go` (`IsValidIP`: sloppy parse, then no
//! leading zeros, no IPv4-mapped IPv6, canonical form) and `validation.go` (`IsValidPortNum`,
//! `IsValidPortName`, `InclusiveRangeError`), and kubernetes `pkg/apis/core/validation/validation.go`
//! (`ValidatePortNumOrName`, `supportedPortProtocols`).

use serde_json::Value;

use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::goparse::parse_ip;

/// `InclusiveRangeError`.
pub(crate) fn range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

/// `IsValidPortNum`.
pub(crate) fn port_num(p: i64) -> Option<String> {
    (!(1..=65535).contains(&p)).then(|| range_error(1, 65535))
}

/// `IsValidPortName`: at most 15 of `[-a-z0-9]`, at least one letter, no `--`, no dash at
/// either end.
pub(crate) fn port_name(p: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if p.len() > 15 {
        errs.push("must be no more than 15 characters".to_owned());
    }
    if p.is_empty()
        || !p
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_owned(),
        );
    }
    if !p.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_owned());
    }
    if p.contains("--") {
        errs.push("must not contain consecutive hyphens".to_owned());
    }
    if p.starts_with('-') || p.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_owned());
    }
    errs
}

/// A parsed IP: 16 bytes, and whether it is IPv4 (or IPv4-mapped).
pub(crate) fn parse(s: &str) -> Option<([u8; 16], bool)> {
    parse_ip(s, true)
}

/// Whether `s` is an IPv6 address (`netutils.IsIPv6String`).
pub(crate) fn is_ipv6(s: &str) -> bool {
    parse(s).is_some_and(|(_, v4)| !v4)
}

/// Go's `net.IP.String()`: dotted IPv4 (also for IPv4-mapped), RFC 5952 IPv6.
pub(crate) fn ip_string(ip: &[u8; 16], v4: bool) -> String {
    let mapped = ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff;
    if v4 || mapped {
        return format!("{}.{}.{}.{}", ip[12], ip[13], ip[14], ip[15]);
    }
    let groups: Vec<u16> = ip
        .chunks(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]))
        .collect();
    // The longest run of two or more zero groups is written `::` (the first such run).
    let (mut best, mut best_len) = (usize::MAX, 1);
    let mut i = 0;
    while i < 8 {
        if groups[i] == 0 {
            let start = i;
            while i < 8 && groups[i] == 0 {
                i += 1;
            }
            if i - start > best_len {
                best = start;
                best_len = i - start;
            }
        } else {
            i += 1;
        }
    }
    let hex = |g: &[u16]| {
        g.iter()
            .map(|g| format!("{g:x}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    if best == usize::MAX {
        hex(&groups)
    } else {
        format!(
            "{}::{}",
            hex(&groups[..best]),
            hex(&groups[best + best_len..])
        )
    }
}

/// `IsValidIP`.
pub(crate) fn valid_ip(path: &FieldPath, s: &str, errs: &mut Vec<FieldError>) {
    let Some((ip, v4)) = parse(s) else {
        errs.push(FieldError::invalid(
            path,
            s,
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
        ));
        return;
    };
    let before = errs.len();
    // `netip.ParseAddr` refuses what the sloppy parse allows: leading zeros in IPv4 parts.
    if parse_ip(s, false).is_none() {
        errs.push(FieldError::invalid(path, s, "must not have leading 0s"));
    }
    if !v4 && ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff {
        errs.push(FieldError::invalid(
            path,
            s,
            "must not be an IPv4-mapped IPv6 address",
        ));
    }
    if errs.len() == before {
        let canonical = ip_string(&ip, v4);
        if canonical != s {
            errs.push(FieldError::invalid(
                path,
                s,
                format!("must be in canonical form ({canonical:?})"),
            ));
        }
    }
}

/// `ValidatePortNumOrName`.
pub(crate) fn port_num_or_name(port: Option<&Value>, p: &FieldPath, errs: &mut Vec<FieldError>) {
    match port {
        Some(Value::String(s)) => {
            for msg in port_name(s) {
                errs.push(FieldError::invalid(p, s.as_str(), msg));
            }
        }
        other => {
            let n = other.and_then(Value::as_i64).unwrap_or(0);
            if let Some(msg) = port_num(n) {
                errs.push(FieldError::invalid(p, n, msg));
            }
        }
    }
}

/// `supportedPortProtocols`: TCP, UDP, SCTP; required.
pub(crate) fn protocol(proto: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    match proto {
        "TCP" | "UDP" | "SCTP" => {}
        "" => errs.push(FieldError::required(p, "")),
        other => errs.push(FieldError::not_supported(p, other, &["SCTP", "TCP", "UDP"])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_validation_as_apimachinery() {
        let p = FieldPath::new("ip");
        let check = |s: &str| {
            let mut errs = Vec::new();
            valid_ip(&p, s, &mut errs);
            errs.iter().map(ToString::to_string).collect::<Vec<_>>()
        };
        assert!(check("10.96.0.1").is_empty());
        assert!(check("2001:db8::1").is_empty());
        assert!(check("::").is_empty());
        assert_eq!(
            check("10.96.0.01"),
            [r#"ip: Invalid value: "10.96.0.01": must not have leading 0s"#]
        );
        assert_eq!(
            check("2001:DB8::1"),
            [r#"ip: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")"#]
        );
        assert_eq!(
            check("::ffff:1.2.3.4"),
            [r#"ip: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address"#]
        );
        assert_eq!(
            check("nope"),
            [
                r#"ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"#
            ]
        );
        assert_eq!(
            ip_string(&parse("2001:0:0:1:0:0:0:1").unwrap().0, false),
            "2001:0:0:1::1"
        );
    }

    #[test]
    fn port_names() {
        assert!(port_name("http").is_empty());
        assert_eq!(port_name("80"), ["must contain at least one letter (a-z)"]);
        assert_eq!(
            port_name("-a--b-"),
            [
                "must not contain consecutive hyphens",
                "must not begin or end with a hyphen"
            ]
        );
        assert_eq!(port_name("a-very-long-port-name").len(), 1);
    }
}
