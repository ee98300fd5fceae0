//! StatefulSets.
//!
//! Mirrors kubernetes `pkg/apis/apps/validation/validation.go` (`ValidateStatefulSetSpec`,
//! `ValidateStatefulSetUpdate`). As in Go, the pod template is checked for labels and
//! annotations only.

use serde_json::Value;

use super::meta::{self, labels};
use super::pod::nonneg;
use super::read::{Obj, int_of, is_set, obj, obj_or_empty, same, str_of};
use super::selector::{as_selector, selector_bad_value};
use super::workload::{
    int_or_percent, int_or_percent_value, not_over_100, restart_always_no_deadline,
    selector_checks, selector_matches,
};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// `ValidateStatefulSetSpec`.
pub(crate) fn stateful_set_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    match str_of(spec, "podManagementPolicy") {
        "" => errs.push(FieldError::required(&p.child("podManagementPolicy"), "")),
        "OrderedReady" | "Parallel" => {}
        other => errs.push(FieldError::invalid(
            &p.child("podManagementPolicy"),
            other,
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    let up = p.child("updateStrategy");
    let strategy = obj_or_empty(spec, "updateStrategy");
    match str_of(strategy, "type") {
        "" => errs.push(FieldError::required(&up, "")),
        "OnDelete" => {
            if is_set(strategy, "rollingUpdate") {
                errs.push(FieldError::invalid(
                    &up.child("rollingUpdate"),
                    BadValue::from(&strategy["rollingUpdate"]),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if let Some(ru) = obj(strategy, "rollingUpdate") {
                let rp = up.child("rollingUpdate");
                meta::nonnegative(int_of(ru, "partition"), &rp.child("partition"), errs);
                if let Some(mu) = ru.get("maxUnavailable").filter(|v| !v.is_null()) {
                    let mp = rp.child("maxUnavailable");
                    int_or_percent(Some(mu), &mp, errs);
                    if int_or_percent_value(Some(mu)) == 0 {
                        errs.push(FieldError::invalid(&mp, BadValue::from(mu), "cannot be 0"));
                    }
                    not_over_100(Some(mu), &mp, errs);
                }
            }
        }
        _ => errs.push(FieldError::invalid(
            &up,
            BadValue::Json(Value::Object(strategy.clone())),
            "must be 'RollingUpdate' or 'OnDelete'",
        )),
    }
    if let Some(policy) = obj(spec, "persistentVolumeClaimRetentionPolicy") {
        for k in ["whenDeleted", "whenScaled"] {
            let v = str_of(policy, k);
            if v != "Retain" && v != "Delete" {
                errs.push(FieldError::not_supported(
                    &p.child("persistentVolumeClaimRetentionPolicy").child(k),
                    v,
                    &["Retain", "Delete"],
                ));
            }
        }
    }
    nonneg(spec, "replicas", p, errs);
    nonneg(spec, "minReadySeconds", p, errs);
    if let Some(ord) = obj(spec, "ordinals") {
        meta::nonnegative(int_of(ord, "start"), &p.child("ordinals.start"), errs);
    }
    selector_checks(spec, "statefulset", p, errs);
    if let Some(None) = obj(spec, "selector").map(as_selector) {
        errs.push(FieldError::invalid(
            &p.child("selector"),
            selector_bad_value(spec.get("selector")),
            "",
        ));
    } else {
        selector_matches(spec, false, p, errs);
        let tp = p.child("template");
        let t = obj_or_empty(spec, "template");
        let m = obj_or_empty(t, "metadata");
        labels(m, "labels", &tp.child("labels"), errs);
        meta::annotations(m, "annotations", &tp.child("annotations"), errs);
    }
    let t = obj_or_empty(spec, "template");
    restart_always_no_deadline(t, "StatefulSet", &p.child("template"), errs);
    for (i, claim) in super::read::items(spec, "volumeClaimTemplates") {
        let cp = p.child("volumeClaimTemplates").index(i);
        super::storage::claim_spec(obj_or_empty(claim, "spec"), &cp.child("spec"), errs);
    }
}

/// The StatefulSet fields an update may change.
pub(crate) const STS_MUTABLE: [&str; 7] = [
    "replicas",
    "ordinals",
    "template",
    "updateStrategy",
    "revisionHistoryLimit",
    "persistentVolumeClaimRetentionPolicy",
    "minReadySeconds",
];

/// `ValidateStatefulSetUpdate`: only some spec fields may change.
pub(crate) fn stateful_set_spec_update(
    new: &Obj,
    old: &Obj,
    sp: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let changed = new
        .keys()
        .chain(old.keys())
        .filter(|k| !STS_MUTABLE.contains(&k.as_str()))
        .any(|k| !same(new.get(k), old.get(k)));
    if changed {
        errs.push(FieldError::forbidden(
            sp,
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ));
    }
}
