//! Pod updates.
//!
//! Mirrors `ValidatePodUpdate` of kubernetes `pkg/apis/core/validation/validation.go`: only
//! images, the active deadline (downwards), added tolerations and removed scheduling gates may
//! change. The forbidden-update message lists what may change but, unlike Go, not the
//! `cmp.Diff` of the specs.

use super::pod::metadata_and_spec;
use serde_json::Value;

use super::meta;
use super::net::range_error;
use super::read::{Obj, arr, items, obj_or_empty, opt_int, str_of};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// What a Pod update may change (`updatablePodSpecFields`).
pub(crate) const UPDATABLE: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidatePodUpdate`.
pub(crate) fn pod_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    metadata_and_spec(new, errs);
    let (ns, os) = (obj_or_empty(new, "spec"), obj_or_empty(old, "spec"));
    let sp = FieldPath::new("spec");
    for list in ["containers", "initContainers"] {
        if arr(ns, list).len() != arr(os, list).len() {
            errs.push(FieldError::forbidden(
                &sp.child(list),
                "pod updates may not add or remove containers",
            ));
            return;
        }
        for (i, c) in items(ns, list) {
            let image = str_of(c, "image");
            if image.is_empty() {
                errs.push(FieldError::required(
                    &sp.child(list).index(i).child("image"),
                    "",
                ));
            }
            if image.trim().len() != image.len() {
                errs.push(FieldError::invalid(
                    &sp.child(list).index(i).child("image"),
                    image,
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    let adp = sp.child("activeDeadlineSeconds");
    match (
        opt_int(ns, "activeDeadlineSeconds"),
        opt_int(os, "activeDeadlineSeconds"),
    ) {
        (Some(n), old_ads) => {
            if !(0..=i64::from(i32::MAX)).contains(&n) {
                errs.push(FieldError::invalid(
                    &adp,
                    n,
                    range_error(0, i64::from(i32::MAX)),
                ));
                return;
            }
            if old_ads.is_some_and(|o| o < n) {
                errs.push(FieldError::invalid(
                    &adp,
                    n,
                    "must be less than or equal to previous value",
                ));
                return;
            }
        }
        (None, Some(_)) => errs.push(FieldError::invalid(
            &adp,
            BadValue::Json(Value::Null),
            "must not update from a positive integer to nil value",
        )),
        (None, None) => {}
    }
    let old_tol = arr(os, "tolerations");
    for t in old_tol {
        let mut t = t.clone();
        let found = arr(ns, "tolerations").iter().any(|n| {
            if let (Some(to), Some(nn)) = (t.as_object_mut(), n.as_object()) {
                match nn.get("tolerationSeconds") {
                    Some(v) => to.insert("tolerationSeconds".to_owned(), v.clone()),
                    None => to.remove("tolerationSeconds"),
                };
            }
            &t == n
        });
        if !found {
            errs.push(FieldError::forbidden(
                &sp.child("tolerations"),
                "existing toleration can not be modified except its tolerationSeconds",
            ));
            break;
        }
    }
    let old_gates: Vec<&str> = items(os, "schedulingGates")
        .map(|(_, g)| str_of(g, "name"))
        .collect();
    for (i, g) in items(ns, "schedulingGates") {
        let name = str_of(g, "name");
        if !old_gates.contains(&name) {
            errs.push(FieldError::forbidden(
                &sp.child("schedulingGates").index(i).child("name"),
                format!("only deletion is allowed, but found new scheduling gate '{name}'"),
            ));
        }
    }
    if ns == os {
        return;
    }
    let mut munged = ns.clone();
    for list in ["containers", "initContainers"] {
        if let Some(Value::Array(cs)) = munged.get_mut(list) {
            for (c, o) in cs.iter_mut().zip(arr(os, list)) {
                if let (Some(c), Some(image)) = (c.as_object_mut(), o.get("image")) {
                    c.insert("image".to_owned(), image.clone());
                }
            }
        }
    }
    for k in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
        match os.get(k) {
            Some(v) => munged.insert(k.to_owned(), v.clone()),
            None => munged.remove(k),
        };
    }
    if os
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64)
        .is_some_and(|g| g < 0)
        && munged
            .get("terminationGracePeriodSeconds")
            .and_then(Value::as_i64)
            == Some(1)
    {
        munged.insert(
            "terminationGracePeriodSeconds".to_owned(),
            os["terminationGracePeriodSeconds"].clone(),
        );
    }
    if &munged != os {
        errs.push(FieldError::forbidden(
            &sp,
            format!("pod updates may not change fields other than {UPDATABLE}"),
        ));
    }
}
