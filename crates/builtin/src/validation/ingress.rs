//! Ingresses and IngressClasses.
//!
//! Mirrors kubernetes `pkg/apis/networking/validation/validation.go` (`ValidateIngressSpec`,
//! `validateIngressRules`, `validateHTTPIngressPath`, `validateIngressBackend`,
//! `ValidateIngressClass`). IngressClass parameters are checked for their required fields only.

use serde_json::Value;

use super::meta::{self, NameRule};
use super::net::{parse, port_name, port_num};
use super::read::{Obj, arr, int_of, items, obj, obj_or_empty, opt_str, str_of, strs};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

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
                    errs.push(FieldError::required(&pp, "port name or number is required"));
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
