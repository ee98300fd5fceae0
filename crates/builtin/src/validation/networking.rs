//! NetworkPolicies, Ingresses and IngressClasses.
//!
//! Mirrors kubernetes `pkg/apis/networking/validation/validation.go`
//! (`ValidateNetworkPolicySpec`, `ValidateNetworkPolicyPort`, `ValidateNetworkPolicyPeer`,
//! `ValidateIPBlock`, `ValidateIngressSpec`, `validateIngressRules`, `validateHTTPIngressPath`,
//! `validateIngressBackend`, `ValidateIngressClass`). CIDRs are checked with the sloppy parser
//! (not for canonical form); IngressClass parameters are checked for their required fields only.

use serde_json::Value;

use super::meta::{self, NameRule, label_selector};
use super::net::{parse, port_name, port_num};
use super::read::{
    Obj, arr, int_of, is_set, items, obj, obj_or_empty, opt_int, opt_str, str_of, strs,
};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::goparse::parse_cidr_sloppy;
use crdkit_apimachinery::names;

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

/// A host rule: a (wildcard) DNS subdomain, not an IP.
pub(crate) fn host(h: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if parse(h).is_some() {
        errs.push(FieldError::invalid(
            p,
            h,
            "must be a DNS name, not an IP address",
        ));
    }
    if let Some(rest) = h.strip_prefix("*.") {
        if !names::dns1123_subdomain(rest).is_empty() {
            errs.push(FieldError::invalid(
                p,
                h,
                names::regex_error(
                    "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
                    "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
                    &["*.example.com"],
                ),
            ));
        }
    } else {
        for msg in names::dns1123_subdomain(h) {
            errs.push(FieldError::invalid(p, h, msg));
        }
    }
}

/// `validateIngressBackend`.
pub(crate) fn backend(b: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let (svc, res) = (obj(b, "service"), obj(b, "resource"));
    match (svc, res) {
        (Some(_), Some(_)) => errs.push(FieldError::invalid(
            p,
            BadValue::Omitted,
            "cannot set both service and resource backends",
        )),
        (None, None) => errs.push(FieldError::invalid(
            p,
            BadValue::Omitted,
            "one of `service` or `resource` must be specified",
        )),
        (Some(s), None) => {
            let sp = p.child("service");
            let name = str_of(s, "name");
            if name.is_empty() {
                errs.push(FieldError::required(&sp.child("name"), ""));
            } else {
                for msg in names::dns1035_label(name) {
                    errs.push(FieldError::invalid(&sp.child("name"), name, msg));
                }
            }
            let port = obj_or_empty(s, "port");
            let pp = sp.child("port");
            let (pname, number) = (str_of(port, "name"), int_of(port, "number"));
            match (pname.is_empty(), number == 0) {
                (false, false) => errs.push(FieldError::invalid(
                    &pp,
                    BadValue::Json(Value::Object(port.clone())),
                    "cannot set both port name & port number",
                )),
                (false, true) => {
                    for msg in port_name(pname) {
                        errs.push(FieldError::invalid(&pp.child("name"), pname, msg));
                    }
                }
                (true, false) => {
                    if let Some(msg) = port_num(number) {
                        errs.push(FieldError::invalid(&pp.child("number"), number, msg));
                    }
                }
                (true, true) => {
                    errs.push(FieldError::required(&pp, "port name or number is required"))
                }
            }
        }
        (None, Some(r)) => {
            let rp = p.child("resource");
            for k in ["kind", "name"] {
                if str_of(r, k).is_empty() {
                    errs.push(FieldError::required(&rp.child(k), ""));
                }
            }
        }
    }
}

/// `validateHTTPIngressPath`.
pub(crate) fn http_path(path: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let v = str_of(path, "path");
    match opt_str(path, "pathType") {
        None => errs.push(FieldError::required(
            &p.child("pathType"),
            "pathType must be specified",
        )),
        Some("Exact" | "Prefix") => {
            if !v.starts_with('/') {
                errs.push(FieldError::invalid(
                    &p.child("path"),
                    v,
                    "must be an absolute path",
                ));
            }
            for seq in ["//", "/./", "/../", "%2f", "%2F"] {
                if v.contains(seq) {
                    errs.push(FieldError::invalid(
                        &p.child("path"),
                        v,
                        format!("must not contain '{seq}'"),
                    ));
                }
            }
            for suffix in ["/..", "/."] {
                if v.ends_with(suffix) {
                    errs.push(FieldError::invalid(
                        &p.child("path"),
                        v,
                        format!("cannot end with '{suffix}'"),
                    ));
                }
            }
        }
        Some("ImplementationSpecific") => {
            if !v.is_empty() && !v.starts_with('/') {
                errs.push(FieldError::invalid(
                    &p.child("path"),
                    v,
                    "must be an absolute path",
                ));
            }
        }
        Some(other) => errs.push(FieldError::not_supported(
            &p.child("pathType"),
            other,
            &["Exact", "ImplementationSpecific", "Prefix"],
        )),
    }
    backend(obj_or_empty(path, "backend"), &p.child("backend"), errs);
}

/// `ValidateIngressSpec`.
pub(crate) fn ingress_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let rules = arr(spec, "rules");
    match obj(spec, "defaultBackend") {
        Some(b) => backend(b, &p.child("defaultBackend"), errs),
        None if rules.is_empty() => errs.push(FieldError::invalid(
            &p.child("rules"),
            BadValue::Json(Value::Array(Vec::new())),
            "either `defaultBackend` or `rules` must be specified",
        )),
        None => {}
    }
    for (i, rule) in items(spec, "rules") {
        let rp = p.child("rules").index(i);
        let h = str_of(rule, "host");
        if !h.is_empty() {
            host(h, &rp.child("host"), errs);
        }
        if let Some(http) = obj(rule, "http") {
            let hp = rp.child("http").child("paths");
            if arr(http, "paths").is_empty() {
                errs.push(FieldError::required(&hp, ""));
            }
            for (j, path) in items(http, "paths") {
                http_path(path, &hp.index(j), errs);
            }
        }
    }
    for (i, tls) in items(spec, "tls") {
        for (j, h) in strs(tls, "hosts").enumerate() {
            host(h, &p.child("tls").index(i).child("hosts").index(j), errs);
        }
    }
    if let Some(class) = opt_str(spec, "ingressClassName") {
        for msg in names::dns1123_subdomain(class) {
            errs.push(FieldError::invalid(
                &p.child("ingressClassName"),
                class,
                msg,
            ));
        }
    }
}

/// `ValidateIngressCreate`/`Update`.
pub(crate) fn ingress(ing: &Obj, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    match old {
        None => meta::object_meta(ing, true, NameRule::DnsSubdomain, errs),
        Some(o) => meta::object_meta_update(ing, o, errs),
    }
    ingress_spec(obj_or_empty(ing, "spec"), &FieldPath::new("spec"), errs);
}

/// `ValidateIngressClass`: a domain-prefixed controller, immutable on update.
pub(crate) fn ingress_class(ic: &Obj, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    match old {
        None => meta::object_meta(ic, false, NameRule::DnsSubdomain, errs),
        Some(o) => meta::object_meta_update(ic, o, errs),
    }
    let spec = obj_or_empty(ic, "spec");
    let cp = FieldPath::new("spec").child("controller");
    let controller = str_of(spec, "controller");
    if controller.len() > 250 {
        errs.push(FieldError::too_long(&cp, 250));
    }
    match controller.split_once('/') {
        Some((h, rest)) if !h.is_empty() && !rest.is_empty() => {
            for msg in names::dns1123_subdomain(h) {
                errs.push(FieldError::invalid(&cp, h, msg));
            }
        }
        _ if controller.is_empty() => errs.push(FieldError::required(&cp, "")),
        _ => errs.push(FieldError::invalid(
            &cp,
            controller,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        )),
    }
    if let Some(params) = obj(spec, "parameters") {
        let pp = FieldPath::new("spec").child("parameters");
        for k in ["kind", "name"] {
            if str_of(params, k).is_empty() {
                errs.push(FieldError::required(&pp.child(k), ""));
            }
        }
    }
    if let Some(o) = old {
        meta::immutable(
            spec.get("controller"),
            obj_or_empty(o, "spec").get("controller"),
            &cp,
            errs,
        );
    }
}
