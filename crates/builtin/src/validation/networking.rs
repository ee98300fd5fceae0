//! NetworkPolicies.
//!
//! Mirrors kubernetes `pkg/apis/networking/validation/validation.go`
//! (`ValidateNetworkPolicySpec`, `ValidateNetworkPolicyPort`, `ValidateNetworkPolicyPeer`,
//! `ValidateIPBlock`). CIDRs are checked with the sloppy parser (not for canonical form).

use serde_json::Value;

use super::meta::{self, NameRule};
use super::net::{parse, port_name, port_num};
use super::read::{Obj, arr, is_set, items, obj, obj_or_empty, opt_int, opt_str, str_of, strs};
use super::selector::label_selector;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::goparse::parse_cidr_sloppy;

/// `ValidateNetworkPolicyPort`.
pub(crate) fn policy_port(port: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if let Some(proto) = opt_str(port, "protocol")
        && !matches!(proto, "TCP" | "UDP" | "SCTP")
    {
        errs.push(FieldError::not_supported(
            &p.child("protocol"),
            proto,
            &["TCP", "UDP", "SCTP"],
        ));
    }
    let end = opt_int(port, "endPort");
    match port.get("port") {
        Some(Value::Number(n)) => {
            let n = n.as_i64().unwrap_or(0);
            if let Some(msg) = port_num(n) {
                errs.push(FieldError::invalid(&p.child("port"), n, msg));
            }
            if let Some(e) = end {
                if e < n {
                    errs.push(FieldError::invalid(
                        &p.child("endPort"),
                        n,
                        "must be greater than or equal to `port`",
                    ));
                }
                if let Some(msg) = port_num(e) {
                    errs.push(FieldError::invalid(&p.child("endPort"), e, msg));
                }
            }
        }
        Some(Value::String(s)) => {
            if let Some(e) = end {
                errs.push(FieldError::invalid(
                    &p.child("endPort"),
                    e,
                    "may not be specified when `port` is non-numeric",
                ));
            }
            for msg in port_name(s) {
                errs.push(FieldError::invalid(&p.child("port"), s.as_str(), msg));
            }
        }
        _ => {
            if let Some(e) = end {
                errs.push(FieldError::invalid(
                    &p.child("endPort"),
                    e,
                    "may not be specified when `port` is not specified",
                ));
            }
        }
    }
}

/// A CIDR's network and prefix length, both over 128 bits (IPv4 as IPv4-mapped IPv6).
pub(crate) fn cidr(s: &str) -> Option<(u128, u32, bool)> {
    let (addr, bits) = s.split_once('/')?;
    let (ip, v4) = parse(addr)?;
    let bits: u32 = bits.parse().ok()?;
    let len = if v4 { bits + 96 } else { bits };
    if len > 128 {
        return None;
    }
    let mask = if len == 0 { 0 } else { !0u128 << (128 - len) };
    Some((u128::from_be_bytes(ip) & mask, len, v4))
}

/// `ValidateIPBlock`.
pub(crate) fn ip_block(b: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    const CIDR: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
    let c = str_of(b, "cidr");
    if c.is_empty() {
        errs.push(FieldError::required(&p.child("cidr"), ""));
        return;
    }
    if !parse_cidr_sloppy(c) {
        errs.push(FieldError::invalid(&p.child("cidr"), c, CIDR));
        return;
    }
    let Some((net, len, v4)) = cidr(c) else {
        return;
    };
    for (i, e) in strs(b, "except").enumerate() {
        let ep = p.child("except").index(i);
        if !parse_cidr_sloppy(e) {
            errs.push(FieldError::invalid(&ep, e, CIDR));
            continue;
        }
        let Some((enet, elen, ev4)) = cidr(e) else {
            continue;
        };
        let mask = if len == 0 { 0 } else { !0u128 << (128 - len) };
        let contained = v4 == ev4 && enet & mask == net;
        if !contained || len >= elen {
            errs.push(FieldError::invalid(
                &ep,
                e,
                "must be a strict subset of `cidr`",
            ));
        }
    }
}

/// `ValidateNetworkPolicyPeer`.
pub(crate) fn peer(peer: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let mut n = 0;
    for k in ["podSelector", "namespaceSelector"] {
        if let Some(s) = obj(peer, k) {
            n += 1;
            label_selector(s, &p.child(k), errs);
        }
    }
    if let Some(b) = obj(peer, "ipBlock") {
        n += 1;
        ip_block(b, &p.child("ipBlock"), errs);
    }
    if n == 0 {
        errs.push(FieldError::required(p, "must specify a peer"));
    } else if n > 1 && is_set(peer, "ipBlock") {
        errs.push(FieldError::forbidden(
            p,
            "may not specify both ipBlock and another peer",
        ));
    }
}

/// `ValidateNetworkPolicySpec`.
pub(crate) fn network_policy_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    label_selector(
        obj_or_empty(spec, "podSelector"),
        &p.child("podSelector"),
        errs,
    );
    for (dir, peers) in [("ingress", "from"), ("egress", "to")] {
        for (i, rule) in items(spec, dir) {
            let rp = p.child(dir).index(i);
            for (j, port) in items(rule, "ports") {
                policy_port(port, &rp.child("ports").index(j), errs);
            }
            for (j, x) in items(rule, peers) {
                peer(x, &rp.child(peers).index(j), errs);
            }
        }
    }
    let types = arr(spec, "policyTypes");
    if types.len() > 2 {
        errs.push(FieldError::invalid(
            &p.child("policyTypes"),
            BadValue::Json(Value::from(types)),
            "may not specify more than two policyTypes",
        ));
        return;
    }
    for (i, t) in strs(spec, "policyTypes").enumerate() {
        if t != "Ingress" && t != "Egress" {
            errs.push(FieldError::not_supported(
                &p.child("policyTypes").index(i),
                t,
                &["Ingress", "Egress"],
            ));
        }
    }
}

/// `ValidateNetworkPolicy` (create and update: nothing is immutable).
pub(crate) fn network_policy(np: &Obj, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    match old {
        None => meta::object_meta(np, true, NameRule::DnsSubdomain, errs),
        Some(o) => meta::object_meta_update(np, o, errs),
    }
    network_policy_spec(obj_or_empty(np, "spec"), &FieldPath::new("spec"), errs);
}
