//! Files a volume projects: key-to-path items, downward API files, projected sources, and the
//! paths they may use.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validateKeyToPath`,
//! `ValidateLocalNonReservedPath`, `validateDownwardAPIVolumeFile`, `validateProjectionSources`). Cluster trust bundle and
//! pod certificate projections are counted but not checked.

use super::downward::{object_field_selector, resource_field_selector};
use super::read::{Obj, int_of, is_set, items, obj, opt_int, str_of};
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// The mode message of `fileModeErrorMsg`.
pub(crate) const FILE_MODE: &str = "must be a number between 0 and 0777 (octal), both inclusive";

pub(crate) fn file_mode(s: &Obj, k: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if let Some(m) = opt_int(s, k)
        && !(0..=0o777).contains(&m)
    {
        errs.push(FieldError::invalid(&p.child(k), m, FILE_MODE));
    }
}

/// `validateKeyToPath`.
pub(crate) fn key_to_path(kp: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if str_of(kp, "key").is_empty() {
        errs.push(FieldError::required(&p.child("key"), ""));
    }
    if str_of(kp, "path").is_empty() {
        errs.push(FieldError::required(&p.child("path"), ""));
    }
    local_non_reserved_path(str_of(kp, "path"), &p.child("path"), errs);
    file_mode(kp, "mode", p, errs);
}

/// `validatePathNoBacksteps`: no `..` element.
pub(crate) fn no_backsteps(target: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if target.split('/').any(|e| e == "..") {
        errs.push(FieldError::invalid(p, target, "must not contain '..'"));
    }
}

/// `validateLocalDescendingPath`: relative, without `..`.
pub(crate) fn local_descending_path(target: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if target.starts_with('/') {
        errs.push(FieldError::invalid(p, target, "must be a relative path"));
    }
    no_backsteps(target, p, errs);
}

/// `ValidateLocalNonReservedPath`: also not starting with `..`.
pub(crate) fn local_non_reserved_path(target: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    local_descending_path(target, p, errs);
    if target.starts_with("..") && !target.starts_with("../") {
        errs.push(FieldError::invalid(p, target, "must not start with '..'"));
    }
}

/// The field paths a downward API volume may expose.
pub(crate) const VOLUME_FIELD_PATHS: [&str; 5] = [
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];

/// `validateDownwardAPIVolumeFile`.
pub(crate) fn downward_api_file(f: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let fp = str_of(f, "path");
    if fp.is_empty() {
        errs.push(FieldError::required(&p.child("path"), ""));
    }
    local_non_reserved_path(fp, &p.child("path"), errs);
    if let Some(field_ref) = obj(f, "fieldRef") {
        object_field_selector(field_ref, &VOLUME_FIELD_PATHS, &p.child("fieldRef"), errs);
        if is_set(f, "resourceFieldRef") {
            errs.push(FieldError::invalid(
                p,
                "resource",
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            ));
        }
    } else if let Some(r) = obj(f, "resourceFieldRef") {
        resource_field_selector(r, &p.child("resourceFieldRef"), true, errs);
    } else {
        errs.push(FieldError::required(
            p,
            "one of fieldRef and resourceFieldRef is required",
        ));
    }
    file_mode(f, "mode", p, errs);
}

/// `validateProjectionSources`: one source per item, paths unique across items.
pub(crate) fn projection_sources(s: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let mut paths: Vec<String> = Vec::new();
    let mut seen = |path: &str, bad: &str, errs: &mut Vec<FieldError>| {
        if paths.iter().any(|x| x == path) {
            errs.push(FieldError::invalid(p, bad, "conflicting duplicate paths"));
        } else {
            paths.push(path.to_owned());
        }
    };
    for (i, src) in items(s, "sources") {
        let sp = p.child("sources").index(i);
        let mut n = 0;
        for key in ["secret", "configMap"] {
            let Some(o) = obj(src, key) else { continue };
            n += 1;
            let pp = sp.child(key);
            if str_of(o, "name").is_empty() {
                errs.push(FieldError::required(&pp.child("name"), ""));
            }
            for (j, kp) in items(o, "items") {
                key_to_path(kp, &pp.child("items").index(j), errs);
                let kpath = str_of(kp, "path");
                if !kpath.is_empty() {
                    seen(kpath, str_of(o, "name"), errs);
                }
            }
        }
        if let Some(d) = obj(src, "downwardAPI") {
            n += 1;
            let pp = sp.child("downwardAPI");
            for (_, f) in items(d, "items") {
                downward_api_file(f, &pp, errs);
                let fpath = str_of(f, "path");
                if !fpath.is_empty() {
                    seen(fpath, fpath, errs);
                }
            }
        }
        if let Some(t) = obj(src, "serviceAccountToken") {
            n += 1;
            let pp = sp.child("serviceAccountToken");
            let exp = int_of(t, "expirationSeconds");
            if exp < 600 {
                errs.push(FieldError::invalid(
                    &pp.child("expirationSeconds"),
                    exp,
                    "may not specify a duration less than 10 minutes",
                ));
            }
            if exp > 1 << 32 {
                errs.push(FieldError::invalid(
                    &pp.child("expirationSeconds"),
                    exp,
                    "may not specify a duration larger than 2^32 seconds",
                ));
            }
            if str_of(t, "path").is_empty() {
                errs.push(FieldError::required(&p.child("path"), ""));
            } else {
                local_non_reserved_path(str_of(t, "path"), &p.child("path"), errs);
            }
        }
        for key in ["clusterTrustBundle", "podCertificate"] {
            if is_set(src, key) {
                n += 1;
            }
        }
        if n > 1 {
            errs.push(FieldError::forbidden(
                &sp,
                "may not specify more than 1 volume type per source",
            ));
        }
    }
}
