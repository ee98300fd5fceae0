//! Persistent volume claims, alone and as templates.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go`
//! (`ValidatePersistentVolumeClaim`, `ValidatePersistentVolumeClaimSpec`,
//! `ValidatePersistentVolumeClaimUpdate`, `ValidateTemplateObjectMeta`) with a 1.35 API
//! server's options (recovery from expansion failure). Data sources are not checked; the
//! forbidden-update message does not carry Go's `cmp.Diff` of the specs.

use serde_json::Value;

use super::meta::{self, NameRule};
use super::read::{Obj, obj, obj_or_empty, opt_str, same, str_of, strs};
use super::resources;
use super::selector;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;

/// Fields of a template's `metadata` other than labels and annotations, as Go names them in
/// `validateFieldAllowList` (lower-cased first letter of the Go field).
pub(crate) const TEMPLATE_META_FORBIDDEN: [(&str, &str); 13] = [
    ("name", "name"),
    ("generateName", "generateName"),
    ("namespace", "namespace"),
    ("selfLink", "selfLink"),
    ("uid", "uID"),
    ("resourceVersion", "resourceVersion"),
    ("generation", "generation"),
    ("creationTimestamp", "creationTimestamp"),
    ("deletionTimestamp", "deletionTimestamp"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
    ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"),
    ("managedFields", "managedFields"),
];

/// `ValidateTemplateObjectMeta`: labels and annotations only.
pub(crate) fn template_meta(t: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let m = obj_or_empty(t, "metadata");
    meta::annotations(m, "annotations", &p.child("annotations"), errs);
    meta::labels(m, "labels", &p.child("labels"), errs);
    for (json, go) in TEMPLATE_META_FORBIDDEN {
        let set = match m.get(json) {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Number(n)) => n.as_f64() != Some(0.0),
            Some(Value::Array(a)) => !a.is_empty(),
            Some(_) => true,
        };
        if set {
            errs.push(FieldError::forbidden(&p.child(go), "cannot be set"));
        }
    }
}

/// The access modes a claim may ask for.
pub(crate) const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];

/// `ValidatePersistentVolumeClaimSpec`.
pub(crate) fn claim_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let modes: Vec<&str> = strs(spec, "accessModes").collect();
    if modes.is_empty() {
        errs.push(FieldError::required(
            &p.child("accessModes"),
            "at least 1 access mode is required",
        ));
    }
    if let Some(sel) = obj(spec, "selector") {
        selector::label_selector(sel, &p.child("selector"), errs);
    }
    let (mut rwop, mut other) = (false, false);
    for m in &modes {
        if !ACCESS_MODES.contains(m) {
            errs.push(FieldError::not_supported(
                &p.child("accessModes"),
                *m,
                &ACCESS_MODES,
            ));
        }
        if *m == "ReadWriteOncePod" {
            rwop = true;
        } else if ACCESS_MODES.contains(m) {
            other = true;
        }
    }
    if rwop && other {
        errs.push(FieldError::forbidden(
            &p.child("accessModes"),
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    let sp = p.child("resources").key("storage");
    let storage = obj(obj_or_empty(spec, "resources"), "requests").and_then(|r| r.get("storage"));
    match storage {
        None => errs.push(FieldError::required(&sp, "")),
        Some(v) => {
            if let Some(q) = resources::read(v, &sp, errs) {
                let before = errs.len();
                resources::positive(&q, &sp, errs);
                if errs.len() == before {
                    resources::quantity_value("storage", &q, &sp, errs);
                }
            }
        }
    }
    if let Some(class) = opt_str(spec, "storageClassName").filter(|c| !c.is_empty()) {
        for msg in names::dns1123_subdomain(class) {
            errs.push(FieldError::invalid(
                &p.child("storageClassName"),
                class,
                msg,
            ));
        }
    }
    if let Some(mode) = opt_str(spec, "volumeMode")
        && mode != "Block"
        && mode != "Filesystem"
    {
        errs.push(FieldError::not_supported(
            &p.child("volumeMode"),
            mode,
            &["Block", "Filesystem"],
        ));
    }
    if let Some(class) = opt_str(spec, "volumeAttributesClassName").filter(|c| !c.is_empty()) {
        for msg in names::dns1123_subdomain(class) {
            errs.push(FieldError::invalid(
                &p.child("volumeAttributesClassName"),
                class,
                msg,
            ));
        }
    }
}

/// `ValidatePersistentVolumeClaim`.
pub(crate) fn claim_create(pvc: &Obj, errs: &mut Vec<FieldError>) {
    // `ValidatePersistentVolumeName`: a path segment.
    meta::object_meta(pvc, true, NameRule::PathSegment, errs);
    claim_spec(obj_or_empty(pvc, "spec"), &FieldPath::new("spec"), errs);
}

/// `ValidatePersistentVolumeClaimUpdate`: the spec is immutable but for the volume name (once),
/// and the storage request and volume attributes class of bound claims; storage may not shrink
/// below the capacity.
pub(crate) fn claim_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    claim_create(new, errs);
    let (ns, os) = (obj_or_empty(new, "spec"), obj_or_empty(old, "spec"));
    let bound = str_of(obj_or_empty(new, "status"), "phase") == "Bound";
    let mut n = ns.clone();
    let mut o = os.clone();
    if str_of(os, "volumeName").is_empty() {
        match ns.get("volumeName") {
            Some(v) => o.insert("volumeName".to_owned(), v.clone()),
            None => o.remove("volumeName"),
        };
    }
    // A storage class set where only the beta annotation had it, or where none was, is allowed.
    let old_annotation = obj(obj_or_empty(old, "metadata"), "annotations")
        .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"))
        .and_then(Value::as_str);
    if opt_str(os, "storageClassName").is_none()
        && let Some(class) = opt_str(ns, "storageClassName")
        && old_annotation.is_none_or(|a| a == class)
    {
        n.remove("storageClassName");
        o.remove("storageClassName");
    }
    if bound {
        let old_storage = obj(obj_or_empty(os, "resources"), "requests")
            .and_then(|r| r.get("storage"))
            .cloned();
        if let Some(Value::Object(res)) = n.get_mut("resources")
            && let Some(Value::Object(req)) = res.get_mut("requests")
        {
            match old_storage {
                Some(v) => req.insert("storage".to_owned(), v),
                None => req.remove("storage"),
            };
        }
        match os.get("volumeAttributesClassName") {
            Some(v)
                if n.get("volumeAttributesClassName")
                    .is_some_and(|x| !x.is_null()) =>
            {
                n.insert("volumeAttributesClassName".to_owned(), v.clone());
            }
            None if n
                .get("volumeAttributesClassName")
                .is_some_and(|x| !x.is_null()) =>
            {
                n.remove("volumeAttributesClassName");
            }
            _ => {}
        }
    }
    let differs = n.keys().chain(o.keys()).any(|k| !same(n.get(k), o.get(k)));
    if differs {
        errs.push(FieldError::forbidden(
            &FieldPath::new("spec"),
            "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
        ));
    }
    let storage = |s: &Obj| {
        obj(obj_or_empty(s, "resources"), "requests")
            .and_then(|r| r.get("storage"))
            .and_then(|v| resources::quantity(v).ok())
    };
    let capacity = obj(obj_or_empty(old, "status"), "capacity")
        .and_then(|c| c.get("storage"))
        .and_then(|v| resources::quantity(v).ok())
        .unwrap_or_else(|| crdkit_apimachinery::quantity::Quantity::int(0));
    if let (Some(new_size), Some(old_size)) = (storage(ns), storage(os))
        && new_size < old_size
        && new_size <= capacity
    {
        errs.push(FieldError::forbidden(
            &FieldPath::new("spec")
                .child("resources")
                .child("requests")
                .child("storage"),
            "field can not be less than status.capacity",
        ));
    }
    meta::immutable(
        ns.get("volumeMode"),
        os.get("volumeMode"),
        &FieldPath::new("volumeMode"),
        errs,
    );
}
