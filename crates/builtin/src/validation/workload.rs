//! What the workload kinds share: selectors against template labels, the template's restart
//! policy, int-or-percent values.
//!
//! Mirrors kubernetes `pkg/apis/apps/validation/validation.go` (`ValidatePodTemplateSpecForReplicaSet`,
//! `ValidatePositiveIntOrPercent`, `getPercentValue`, `getIntOrPercentValue`,
//! `IsNotMoreThan100Percent`) and the selector parts of the workload specs.

use serde_json::Value;

use super::meta;
use super::pod;
use super::read::{Obj, is_set, obj, obj_or_empty, str_of};
use super::selector::{as_selector, label_selector, selector_bad_value};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// Where the selector check of a spec stops when the selector is absent or empty.
pub(crate) fn selector_checks(spec: &Obj, kind: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    match obj(spec, "selector") {
        None => errs.push(FieldError::required(&p.child("selector"), "")),
        Some(sel) => {
            label_selector(sel, &p.child("selector"), errs);
            let empty = sel
                .get("matchLabels")
                .and_then(Value::as_object)
                .is_none_or(serde_json::Map::is_empty)
                && sel
                    .get("matchExpressions")
                    .and_then(Value::as_array)
                    .is_none_or(Vec::is_empty);
            if empty {
                errs.push(FieldError::invalid(
                    &p.child("selector"),
                    selector_bad_value(spec.get("selector")),
                    format!("empty selector is invalid for {kind}"),
                ));
            }
        }
    }
}

/// The template's labels as Go prints the `map[string]string`.
pub(crate) fn labels_bad(t: &Obj) -> BadValue {
    let labels = obj(t, "metadata")
        .and_then(|m| m.get("labels"))
        .cloned()
        .unwrap_or(Value::Null);
    BadValue::Json(labels)
}

/// `` `selector` does not match template `labels` ``: a nil selector matches nothing
/// (`LabelSelectorAsSelector(nil)` is `labels.Nothing()`); an empty one is not checked for
/// ReplicaSets and StatefulSets (`Empty()`) but matches everything for DaemonSets.
pub(crate) fn selector_matches(
    spec: &Obj,
    check_empty: bool,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let t = obj_or_empty(spec, "template");
    let template_labels = obj(obj_or_empty(t, "metadata"), "labels")
        .cloned()
        .unwrap_or_default();
    let mismatch = match obj(spec, "selector") {
        None => true,
        Some(sel) => match as_selector(sel) {
            None => false,
            Some(sel) => (check_empty || !sel.is_empty()) && !sel.matches(&template_labels),
        },
    };
    if mismatch {
        errs.push(FieldError::invalid(
            &p.child("template").child("metadata").child("labels"),
            labels_bad(t),
            "`selector` does not match template `labels`",
        ));
    }
}

/// `ValidatePodTemplateSpecForReplicaSet` after the selector check: the template, `Always`
/// restarts, no active deadline.
pub(crate) fn replica_template(spec: &Obj, kind: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let tp = p.child("template");
    let t = obj_or_empty(spec, "template");
    pod::template(t, &tp, errs);
    restart_always_no_deadline(t, kind, &tp, errs);
}

pub(crate) fn restart_always_no_deadline(
    t: &Obj,
    kind: &str,
    tp: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let ts = obj_or_empty(t, "spec");
    let rp = str_of(ts, "restartPolicy");
    if rp != "Always" {
        errs.push(FieldError::not_supported(
            &tp.child("spec").child("restartPolicy"),
            rp,
            &["Always"],
        ));
    }
    if is_set(ts, "activeDeadlineSeconds") {
        errs.push(FieldError::forbidden(
            &tp.child("spec").child("activeDeadlineSeconds"),
            format!("activeDeadlineSeconds in {kind} is not Supported"),
        ));
    }
}

/// The selector, its match with the template's labels, and the template.
pub(crate) fn selector_and_template(
    spec: &Obj,
    kind: &str,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    selector_checks(spec, "deployment", p, errs);
    if let Some(None) = obj(spec, "selector").map(as_selector) {
        errs.push(FieldError::invalid(
            &p.child("selector"),
            selector_bad_value(spec.get("selector")),
            "invalid label selector",
        ));
    } else {
        selector_matches(spec, false, p, errs);
        replica_template(spec, kind, p, errs);
    }
}

/// `ValidatePositiveIntOrPercent`.
pub(crate) fn int_or_percent(v: Option<&Value>, p: &FieldPath, errs: &mut Vec<FieldError>) {
    match v {
        Some(Value::String(s)) if percent(s).is_none() => {
            errs.push(FieldError::invalid(
                    p,
                    s.as_str(),
                    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
                ));
        }
        Some(Value::Number(n)) => meta::nonnegative(n.as_i64().unwrap_or(0), p, errs),
        _ => {}
    }
}

/// `getPercentValue`.
pub(crate) fn percent(s: &str) -> Option<i64> {
    let digits = s.strip_suffix('%')?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().unwrap_or(i64::MAX))
}

/// `getIntOrPercentValue`.
pub(crate) fn int_or_percent_value(v: Option<&Value>) -> i64 {
    match v {
        Some(Value::String(s)) => percent(s).unwrap_or_else(|| s.parse().unwrap_or(0)),
        Some(v) => v.as_i64().unwrap_or(0),
        None => 0,
    }
}

/// `IsNotMoreThan100Percent`.
pub(crate) fn not_over_100(v: Option<&Value>, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if let Some(Value::String(s)) = v
        && percent(s).is_some_and(|n| n > 100)
    {
        errs.push(FieldError::invalid(
            p,
            s.as_str(),
            "must not be greater than 100%",
        ));
    }
}
