//! Environment variables.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`ValidateEnv` with the relaxed
//! names of Kubernetes 1.35, `validateEnvVarValueFrom`, `ValidateEnvFrom`,
//! `validateConfigMapKeySelector`) and apimachinery's
//! `IsConfigMapKey`.

use super::downward::{object_field_selector, resource_field_selector};

use super::read::{Obj, is_set, items, obj, str_of};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;

/// `IsRelaxedEnvVarName`: printable ASCII but `=`.
pub(crate) fn env_var_name(name: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if name.is_empty() {
        errs.push("environment variable name must be non-empty".to_owned());
    }
    if name.chars().any(|c| !(' '..='~').contains(&c) || c == '=') {
        errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='".to_owned());
    }
    errs
}

/// The field paths an environment variable may read (`validEnvDownwardAPIFieldPathExpressions`).
pub(crate) const ENV_FIELD_PATHS: [&str; 9] = [
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// `ValidateEnv`.
pub(crate) fn env(c: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    for (i, e) in items(c, "env") {
        let ip = p.index(i);
        let name = str_of(e, "name");
        if name.is_empty() {
            errs.push(FieldError::required(&ip.child("name"), ""));
        } else {
            for msg in env_var_name(name) {
                errs.push(FieldError::invalid(&ip.child("name"), name, msg));
            }
        }
        let Some(from) = obj(e, "valueFrom") else {
            continue;
        };
        let fp = ip.child("valueFrom");
        let mut n = 0;
        if let Some(f) = obj(from, "fieldRef") {
            n += 1;
            object_field_selector(f, &ENV_FIELD_PATHS, &fp.child("fieldRef"), errs);
        }
        if let Some(r) = obj(from, "resourceFieldRef") {
            n += 1;
            resource_field_selector(r, &fp.child("resourceFieldRef"), false, errs);
        }
        for k in ["configMapKeyRef", "secretKeyRef"] {
            if let Some(s) = obj(from, k) {
                n += 1;
                key_selector(s, &fp.child(k), errs);
            }
        }
        if is_set(from, "fileKeyRef") {
            n += 1;
        }
        if n == 0 {
            errs.push(FieldError::invalid(
                &fp,
                "",
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
            ));
        } else if !str_of(e, "value").is_empty() {
            errs.push(FieldError::invalid(
                &fp,
                "",
                "may not be specified when `value` is not empty",
            ));
        } else if n > 1 {
            errs.push(FieldError::invalid(
                &fp,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

/// `validateConfigMapKeySelector` and `validateSecretKeySelector`.
pub(crate) fn key_selector(s: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let name = str_of(s, "name");
    for msg in names::dns1123_subdomain(name) {
        errs.push(FieldError::invalid(&p.child("name"), name, msg));
    }
    let key = str_of(s, "key");
    if key.is_empty() {
        errs.push(FieldError::required(&p.child("key"), ""));
    } else {
        for msg in config_map_key(key) {
            errs.push(FieldError::invalid(&p.child("key"), key, msg));
        }
    }
}

/// `IsConfigMapKey`.
pub(crate) fn config_map_key(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if key.len() > 253 {
        errs.push(names::max_len_error(253));
    }
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))
    {
        errs.push(names::regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    match key {
        "." => errs.push("must not be '.'".to_owned()),
        ".." => errs.push("must not be '..'".to_owned()),
        k if k.starts_with("..") => errs.push("must not start with '..'".to_owned()),
        _ => {}
    }
    errs
}

/// `ValidateEnvFrom`.
pub(crate) fn env_from(c: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    for (i, e) in items(c, "envFrom") {
        let ip = p.index(i);
        let prefix = str_of(e, "prefix");
        if !prefix.is_empty() {
            for msg in env_var_name(prefix) {
                errs.push(FieldError::invalid(&ip.child("prefix"), prefix, msg));
            }
        }
        let mut n = 0;
        for k in ["configMapRef", "secretRef"] {
            if let Some(r) = obj(e, k) {
                n += 1;
                let name = str_of(r, "name");
                if name.is_empty() {
                    errs.push(FieldError::required(&ip.child(k).child("name"), ""));
                } else {
                    // Checked as a prefix, as Go does (a trailing dash passes).
                    let masked = if name.len() > 1 && name.ends_with('-') {
                        format!("{}a", &name[..name.len() - 2])
                    } else {
                        name.to_owned()
                    };
                    for msg in names::dns1123_subdomain(&masked) {
                        errs.push(FieldError::invalid(&ip.child(k).child("name"), name, msg));
                    }
                }
            }
        }
        if n == 0 {
            errs.push(FieldError::invalid(
                p,
                "",
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if n > 1 {
            errs.push(FieldError::invalid(
                p,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}
