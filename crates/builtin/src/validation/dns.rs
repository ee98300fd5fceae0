//! A pod's DNS configuration.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validatePodDNSConfig`) and
//! apimachinery's `IsDNS1123SubdomainWithUnderscore`.

use serde_json::Value;

use super::net::valid_ip;
use super::read::{Obj, arr, items, obj, str_of, strs};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

/// `IsDNS1123SubdomainWithUnderscore` (relaxed DNS searches).
pub(crate) fn subdomain_with_underscore(v: &str) -> Vec<String> {
    let label = |l: &str| {
        let l = l.strip_prefix('_').unwrap_or(l);
        let b = l.as_bytes();
        let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        !b.is_empty()
            && alnum(&b[0])
            && alnum(&b[b.len() - 1])
            && b.iter().all(|c| alnum(c) || *c == b'-' || *c == b'_')
    };
    let mut errs = Vec::new();
    if v.len() > 253 {
        errs.push(names::max_len_error(253));
    }
    if !v.split('.').all(label) {
        errs.push(names::regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
            "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*",
            &["example.com"],
        ));
    }
    errs
}

/// `validatePodDNSConfig`.
pub(crate) fn dns_config(spec: &Obj, policy: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let cfg = obj(spec, "dnsConfig");
    if policy == "None" {
        match cfg {
            None => {
                errs.push(FieldError::required(
                    p,
                    "must provide `dnsConfig` when `dnsPolicy` is None",
                ));
                return;
            }
            Some(c) if arr(c, "nameservers").is_empty() => {
                errs.push(FieldError::required(
                    &p.child("nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                ));
                return;
            }
            Some(_) => {}
        }
    }
    let Some(cfg) = cfg else { return };
    let servers = arr(cfg, "nameservers");
    if servers.len() > 3 {
        errs.push(FieldError::invalid(
            &p.child("nameservers"),
            BadValue::Json(Value::from(servers)),
            "must not have more than 3 nameservers",
        ));
    }
    for (i, ns) in strs(cfg, "nameservers").enumerate() {
        valid_ip(&p.child("nameservers").index(i), ns, errs);
    }
    let searches: Vec<&str> = strs(cfg, "searches").collect();
    if searches.len() > 32 {
        errs.push(FieldError::invalid(
            &p.child("searches"),
            BadValue::Json(Value::from(arr(cfg, "searches"))),
            "must not have more than 32 search paths",
        ));
    }
    if searches.join(" ").len() > 2048 {
        errs.push(FieldError::invalid(
            &p.child("searches"),
            BadValue::Json(Value::from(arr(cfg, "searches"))),
            "must not have more than 2048 characters (including spaces) in the search list",
        ));
    }
    for (i, s) in searches.iter().enumerate() {
        if *s != "." {
            let trimmed = s.strip_suffix('.').unwrap_or(s);
            for msg in subdomain_with_underscore(trimmed) {
                errs.push(FieldError::invalid(
                    &p.child("searches").index(i),
                    trimmed,
                    msg,
                ));
            }
        }
    }
    for (i, o) in items(cfg, "options") {
        if str_of(o, "name").is_empty() {
            errs.push(FieldError::required(
                &p.child("options").index(i),
                "must not be empty",
            ));
        }
    }
}
