//! PodDisruptionBudgets.
//!
//! Mirrors kubernetes `pkg/apis/policy/validation/validation.go`
//! (`ValidatePodDisruptionBudget`, `ValidatePodDisruptionBudgetSpec`); the spec may change on
//! update.

use serde_json::Value;

use super::meta::{self, NameRule};
use super::read::{Obj, is_set, obj, obj_or_empty, opt_str};
use super::selector::label_selector;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

pub(crate) fn int_or_percent(v: &Value, p: &FieldPath, errs: &mut Vec<FieldError>) {
    match v {
        Value::String(s) => {
            let n = s
                .strip_suffix('%')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            match n {
                None => errs.push(FieldError::invalid(
                    p,
                    s.as_str(),
                    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
                )),
                Some(d) if d.parse::<u64>().unwrap_or(u64::MAX) > 100 => {
                    errs.push(FieldError::invalid(p, s.as_str(), "must not be greater than 100%"));
                }
                Some(_) => {}
            }
        }
        Value::Number(n) => meta::nonnegative(n.as_i64().unwrap_or(0), p, errs),
        _ => {}
    }
}

/// `ValidatePodDisruptionBudget` (`old` on update).
pub(crate) fn pdb(o: &Obj, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    match old {
        None => meta::object_meta(o, true, NameRule::DnsSubdomain, errs),
        Some(x) => meta::object_meta_update(o, x, errs),
    }
    let spec = obj_or_empty(o, "spec");
    let p = FieldPath::new("spec");
    if is_set(spec, "minAvailable") && is_set(spec, "maxUnavailable") {
        errs.push(FieldError::invalid(
            &p,
            BadValue::Json(Value::Object(spec.clone())),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for k in ["minAvailable", "maxUnavailable"] {
        if let Some(v) = spec.get(k).filter(|v| !v.is_null()) {
            int_or_percent(v, &p.child(k), errs);
        }
    }
    if let Some(sel) = obj(spec, "selector") {
        label_selector(sel, &p.child("selector"), errs);
    }
    if let Some(policy) = opt_str(spec, "unhealthyPodEvictionPolicy")
        && policy != "IfHealthyBudget"
        && policy != "AlwaysAllow"
    {
        errs.push(FieldError::not_supported(
            &p.child("unhealthyPodEvictionPolicy"),
            policy,
            &["AlwaysAllow", "IfHealthyBudget"],
        ));
    }
}
