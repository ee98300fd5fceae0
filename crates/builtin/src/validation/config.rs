//! ConfigMaps, Secrets, ServiceAccounts and Namespaces.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`ValidateConfigMap`/`Update`,
//! `ValidateSecret`/`Update`, `ValidateServiceAccount`, `ValidateNamespace`/`Update`). What
//! differs: a malformed `.dockercfg` or `.dockerconfigjson` is reported with serde_json's
//! message, not Go's `encoding/json` one.

use serde_json::Value;

use super::env::config_map_key;
use super::meta::{self, IMMUTABLE, NameRule};
use super::read::{Obj, obj, obj_or_empty, str_of, strs};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::gobase64::decode as base64_decode;

/// `MaxSecretSize`: 1 MiB, for Secrets and ConfigMaps.
pub(crate) const MAX_SIZE: usize = 1024 * 1024;

/// `ValidateConfigMap`.
pub(crate) fn config_map(cm: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(cm, true, NameRule::DnsSubdomain, errs);
    let binary = obj_or_empty(cm, "binaryData");
    let mut size = 0;
    for (k, v) in obj_or_empty(cm, "data") {
        let p = FieldPath::new("data").key(k);
        for msg in config_map_key(k) {
            errs.push(FieldError::invalid(&p, k.as_str(), msg));
        }
        if binary.contains_key(k) {
            errs.push(FieldError::invalid(
                &p,
                k.as_str(),
                "duplicate of key present in binaryData",
            ));
        }
        size += v.as_str().map_or(0, str::len);
    }
    for (k, v) in binary {
        for msg in config_map_key(k) {
            errs.push(FieldError::invalid(
                &FieldPath::new("binaryData").key(k),
                k.as_str(),
                msg,
            ));
        }
        size += bytes_len(v);
    }
    if size > MAX_SIZE {
        errs.push(FieldError::too_long(&FieldPath::new(""), MAX_SIZE as i64));
    }
}

/// The length of a `[]byte` field (base64 in JSON).
pub(crate) fn bytes_len(v: &Value) -> usize {
    v.as_str()
        .and_then(|s| base64_decode(s).ok())
        .map_or(0, |b| b.len())
}

/// `immutable: true` freezes `immutable` itself and the data.
pub(crate) fn frozen(new: &Obj, old: &Obj, fields: &[&str], errs: &mut Vec<FieldError>) {
    if old.get("immutable") != Some(&Value::Bool(true)) {
        return;
    }
    const MSG: &str = "field is immutable when `immutable` is set";
    if new.get("immutable") != Some(&Value::Bool(true)) {
        errs.push(FieldError::forbidden(&FieldPath::new("immutable"), MSG));
    }
    for f in fields {
        let empty = |o: &Obj| o.get(*f).filter(|v| !v.is_null()).cloned();
        if empty(new) != empty(old) {
            errs.push(FieldError::forbidden(&FieldPath::new(f), MSG));
        }
    }
}

/// `ValidateConfigMapUpdate`.
pub(crate) fn config_map_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    frozen(new, old, &["data", "binaryData"], errs);
    config_map(new, errs);
}

/// `ValidateSecret`: keys, the 1 MiB limit, and the keys each type requires.
pub(crate) fn secret(s: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(s, true, NameRule::DnsSubdomain, errs);
    let dp = FieldPath::new("data");
    let data = obj_or_empty(s, "data");
    let mut size = 0;
    for (k, v) in data {
        for msg in config_map_key(k) {
            errs.push(FieldError::invalid(&dp.key(k), k.as_str(), msg));
        }
        size += bytes_len(v);
    }
    if size > MAX_SIZE {
        errs.push(FieldError::too_long(&dp, MAX_SIZE as i64));
    }
    let annotations = obj(obj_or_empty(s, "metadata"), "annotations");
    let decoded = |k: &str| {
        data.get(k)
            .and_then(Value::as_str)
            .and_then(|v| base64_decode(v).ok())
    };
    match str_of(s, "type") {
        "kubernetes.io/service-account-token" => {
            let name = annotations
                .and_then(|a| a.get("kubernetes.io/service-account.name"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if name.is_empty() {
                errs.push(FieldError::required(
                    &FieldPath::new("metadata")
                        .child("annotations")
                        .key("kubernetes.io/service-account.name"),
                    "",
                ));
            }
        }
        t @ ("kubernetes.io/dockercfg" | "kubernetes.io/dockerconfigjson") => {
            let key = if t == "kubernetes.io/dockercfg" {
                ".dockercfg"
            } else {
                ".dockerconfigjson"
            };
            match decoded(key) {
                None if !data.contains_key(key) => {
                    errs.push(FieldError::required(&dp.key(key), ""));
                }
                bytes => {
                    let bytes = bytes.unwrap_or_default();
                    if let Err(e) = serde_json::from_slice::<serde_json::Map<String, Value>>(&bytes)
                    {
                        errs.push(FieldError::invalid(
                            &dp.key(key),
                            "<secret contents redacted>",
                            e.to_string(),
                        ));
                    }
                }
            }
        }
        "kubernetes.io/basic-auth"
            if !data.contains_key("username") && !data.contains_key("password") =>
        {
            errs.push(FieldError::required(&dp.key("username"), ""));
            errs.push(FieldError::required(&dp.key("password"), ""));
        }
        "kubernetes.io/ssh-auth" if decoded("ssh-privatekey").is_none_or(|b| b.is_empty()) => {
            errs.push(FieldError::required(&dp.key("ssh-privatekey"), ""));
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !data.contains_key(key) {
                    errs.push(FieldError::required(&dp.key(key), ""));
                }
            }
        }
        _ => {}
    }
}

/// `ValidateSecretUpdate`: the type is immutable, and so is an `immutable` Secret's data.
pub(crate) fn secret_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    let (nt, ot) = (str_of(new, "type"), str_of(old, "type"));
    if nt != ot {
        errs.push(FieldError::invalid(&FieldPath::new("type"), nt, IMMUTABLE));
    }
    frozen(new, old, &["data"], errs);
    secret(new, errs);
}

/// `ValidateServiceAccount`.
pub(crate) fn service_account(sa: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(sa, true, NameRule::DnsSubdomain, errs);
}

/// `ValidateServiceAccountUpdate`.
pub(crate) fn service_account_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    service_account(new, errs);
}

/// `ValidateNamespace`: a DNS label, not namespaced; finalizers are qualified names.
pub(crate) fn namespace(ns: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(ns, false, NameRule::DnsLabel, errs);
    let p = FieldPath::new("spec").child("finalizers");
    for f in strs(obj_or_empty(ns, "spec"), "finalizers") {
        meta::qualified_name(f, &p, errs);
        meta::kube_finalizer(f, &p, errs);
    }
}
