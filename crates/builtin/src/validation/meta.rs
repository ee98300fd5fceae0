//! Object metadata, labels and annotations.
//!
//! Mirrors apimachinery `pkg/api/validation/objectmeta.go` and `generic.go`
//! (`ValidateObjectMetaAccessor`, `ValidateObjectMetaAccessorUpdate`, the name functions),
//! `pkg/apis/meta/v1/validation/validation.go` (`ValidateLabels`), and kubernetes
//! `pkg/apis/core/validation/validation.go` (`ValidateObjectMeta` adds the check of legacy
//! finalizer names). Managed fields are not checked.

use serde_json::Value;

use super::read::{Obj, arr, bool_of, int_of, obj_or_empty, same, str_map, str_of, strs};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

/// `FieldImmutableErrorMsg`.
pub(crate) const IMMUTABLE: &str = "field is immutable";
/// `IsNegativeErrorMsg`.
pub(crate) const NEGATIVE: &str = "must be greater than or equal to 0";

pub(crate) use crate::names::NameRule;

/// `ValidateNonnegativeField`.
pub(crate) fn nonnegative(v: i64, path: &FieldPath, errs: &mut Vec<FieldError>) {
    if v < 0 {
        errs.push(FieldError::invalid(path, v, NEGATIVE));
    }
}

/// `ValidateImmutableField` on JSON values (`null` and absent are the same).
pub(crate) fn immutable(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    if !same(new, old) {
        let v = new.cloned().unwrap_or(Value::Null);
        errs.push(FieldError::invalid(path, BadValue::from(&v), IMMUTABLE));
    }
}

/// `ValidateLabels`: each key a qualified name, each value a label value; errors name the map.
pub(crate) fn labels(m: &Obj, k: &str, path: &FieldPath, errs: &mut Vec<FieldError>) {
    for (key, v) in str_map(m, k) {
        label_name(key, path, errs);
        for msg in names::label_value(v) {
            errs.push(FieldError::invalid(path, v, msg));
        }
    }
}

/// `ValidateLabelName`: a qualified name.
pub(crate) fn label_name(key: &str, path: &FieldPath, errs: &mut Vec<FieldError>) {
    for msg in names::label_key(key) {
        errs.push(FieldError::invalid(path, key, msg));
    }
}

/// `ValidateQualifiedName`.
pub(crate) fn qualified_name(v: &str, path: &FieldPath, errs: &mut Vec<FieldError>) {
    label_name(v, path, errs);
}

/// The most bytes all annotations may take together (`TotalAnnotationSizeLimitB`).
pub(crate) const ANNOTATIONS_MAX: usize = 256 * 1024;

/// `ValidateAnnotations`: keys are qualified names once lowercased; 256 KiB in all.
pub(crate) fn annotations(m: &Obj, k: &str, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let mut size = 0;
    for (key, v) in str_map(m, k) {
        for msg in names::label_key(&key.to_lowercase()) {
            errs.push(FieldError::invalid(path, key, msg));
        }
        size += key.len() + v.len();
    }
    if size > ANNOTATIONS_MAX {
        errs.push(FieldError::too_long(path, ANNOTATIONS_MAX as i64));
    }
}

/// Finalizers Kubernetes knows without a domain (`IsStandardFinalizerName`).
pub(crate) const STANDARD_FINALIZERS: [&str; 3] = ["kubernetes", "orphan", "foregroundDeletion"];

/// `ValidateFinalizerName` plus `validateKubeFinalizerName`, as the core `ValidateObjectMeta`
/// runs them (the second with the item's index).
pub(crate) fn finalizers(meta: &Obj, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let fpath = path.child("finalizers");
    let list: Vec<&str> = strs(meta, "finalizers").collect();
    for f in &list {
        for msg in names::label_key(f) {
            errs.push(FieldError::invalid(&fpath, *f, msg));
        }
    }
    if list.contains(&"orphan") && list.contains(&"foregroundDeletion") {
        errs.push(FieldError::invalid(
            &fpath,
            BadValue::Json(meta.get("finalizers").cloned().unwrap_or(Value::Null)),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    for (i, f) in list.iter().enumerate() {
        kube_finalizer(f, &fpath.index(i), errs);
    }
}

/// `validateKubeFinalizerName`: a name without a domain must be a standard one.
pub(crate) fn kube_finalizer(f: &str, path: &FieldPath, errs: &mut Vec<FieldError>) {
    if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f) {
        errs.push(FieldError::invalid(
            path,
            f,
            "name is neither a standard finalizer name nor is it fully qualified",
        ));
    }
}

/// `ValidateOwnerReferences`.
pub(crate) fn owner_references(meta: &Obj, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let path = path.child("ownerReferences");
    let mut first_controller: Option<String> = None;
    for r in arr(meta, "ownerReferences") {
        let r = r.as_object().cloned().unwrap_or_default();
        let api_version = str_of(&r, "apiVersion");
        let version = api_version.rsplit('/').next().unwrap_or("");
        if version.is_empty() {
            errs.push(FieldError::invalid(
                &path.child("apiVersion"),
                api_version,
                "version must not be empty",
            ));
        }
        for k in ["kind", "name", "uid"] {
            if str_of(&r, k).is_empty() {
                errs.push(FieldError::invalid(
                    &path.child(k),
                    str_of(&r, k),
                    "must not be empty",
                ));
            }
        }
        if api_version == "v1" && str_of(&r, "kind") == "Event" {
            errs.push(FieldError::invalid(
                &path,
                BadValue::Json(Value::Object(r.clone())),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
        if bool_of(&r, "controller") {
            let cur = format!("{}/{}", str_of(&r, "kind"), str_of(&r, "name"));
            match &first_controller {
                Some(first) => errs.push(FieldError::invalid(
                    &path,
                    BadValue::Json(meta.get("ownerReferences").cloned().unwrap_or(Value::Null)),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {cur}"
                    ),
                )),
                None => first_controller = Some(cur),
            }
        }
    }
}

/// The checks create and update share (`validateObjectMetaAccessorWithOptsCommon` without the
/// namespace).
pub(crate) fn common(meta: &Obj, path: &FieldPath, errs: &mut Vec<FieldError>) {
    labels(meta, "labels", &path.child("labels"), errs);
    annotations(meta, "annotations", &path.child("annotations"), errs);
    owner_references(meta, path, errs);
}

/// `ValidateObjectMeta` of a created object (`metadata`, with its name generated already).
pub(crate) fn object_meta(
    obj_: &Obj,
    namespaced: bool,
    rule: NameRule,
    errs: &mut Vec<FieldError>,
) {
    let path = FieldPath::new("metadata");
    let meta = obj_or_empty(obj_, "metadata");
    let generate = str_of(meta, "generateName");
    if !generate.is_empty() {
        for msg in rule.check(generate, true) {
            errs.push(FieldError::invalid(
                &path.child("generateName"),
                generate,
                msg,
            ));
        }
    }
    let name = str_of(meta, "name");
    if name.is_empty() {
        errs.push(FieldError::required(
            &path.child("name"),
            "name or generateName is required",
        ));
    } else {
        for msg in rule.check(name, false) {
            errs.push(FieldError::invalid(&path.child("name"), name, msg));
        }
    }
    let ns = str_of(meta, "namespace");
    if namespaced {
        if ns.is_empty() {
            errs.push(FieldError::required(&path.child("namespace"), ""));
        } else {
            for msg in names::dns1123_label(ns) {
                errs.push(FieldError::invalid(&path.child("namespace"), ns, msg));
            }
        }
    } else if !ns.is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("namespace"),
            "not allowed on this type",
        ));
    }
    nonnegative(int_of(meta, "generation"), &path.child("generation"), errs);
    common(meta, &path, errs);
    finalizers(meta, &path, errs);
}

/// `ValidateObjectMetaUpdate`: identity fields are immutable, the generation never decreases,
/// a resource version is given, and no finalizer is added once deletion started.
pub(crate) fn object_meta_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    let path = FieldPath::new("metadata");
    let (n, o) = (obj_or_empty(new, "metadata"), obj_or_empty(old, "metadata"));
    if o.get("deletionTimestamp").is_some_and(|t| !t.is_null()) {
        let old_f: Vec<&str> = strs(o, "finalizers").collect();
        let mut extra: Vec<&str> = strs(n, "finalizers")
            .filter(|f| !old_f.contains(f))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        if !extra.is_empty() {
            let quoted: Vec<String> = extra.iter().map(|f| format!("{f:?}")).collect();
            errs.push(FieldError::forbidden(
                &path.child("finalizers"),
                format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                    quoted.join(", ")
                ),
            ));
        }
    }
    if str_of(n, "resourceVersion").is_empty() {
        errs.push(FieldError::invalid(
            &path.child("resourceVersion"),
            "",
            "must be specified for an update",
        ));
    }
    let (ng, og) = (int_of(n, "generation"), int_of(o, "generation"));
    if ng < og {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            ng,
            "must not be decremented",
        ));
    }
    for k in [
        "name",
        "namespace",
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ] {
        let (nv, ov) = (n.get(k), o.get(k));
        if !same(nv, ov) {
            let v = match nv {
                Some(Value::String(s)) => BadValue::from(s.as_str()),
                Some(v) if !v.is_null() => BadValue::from(v),
                // Go prints the zero value: "" for strings, null for times and pointers.
                _ if matches!(k, "name" | "namespace" | "uid") => BadValue::from(""),
                _ => BadValue::Json(Value::Null),
            };
            errs.push(FieldError::invalid(&path.child(k), v, IMMUTABLE));
        }
    }
    common(n, &path, errs);
    for (i, f) in strs(n, "finalizers").enumerate() {
        kube_finalizer(f, &path.child("finalizers").index(i), errs);
    }
}
