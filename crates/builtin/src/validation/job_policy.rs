//! A Job's pod failure policy.
//!
//! Mirrors kubernetes `pkg/apis/batch/validation/validation.go` (`validatePodFailurePolicy`,
//! `validatePodFailurePolicyRule`, `...OnPodConditions`, `...OnExitCodes`).

use serde_json::Value;

use super::meta;
use super::read::{Obj, arr, is_set, items, obj, obj_or_empty, opt_str, str_of};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// `validatePodFailurePolicy` and its rules.
pub(crate) fn pod_failure_policy(
    spec: &Obj,
    policy: &Obj,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let rules_path = p.child("rules");
    let rules = arr(policy, "rules");
    if rules.len() > 20 {
        errs.push(FieldError::too_many(&rules_path, rules.len() as i64, 20));
    }
    let t = obj_or_empty(obj_or_empty(spec, "template"), "spec");
    let containers: Vec<&str> = ["containers", "initContainers"]
        .iter()
        .flat_map(|l| items(t, l).map(|(_, c)| str_of(c, "name")))
        .collect();
    const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];
    for (i, rule) in items(policy, "rules") {
        let rp = rules_path.index(i);
        let action = str_of(rule, "action");
        if action.is_empty() {
            errs.push(FieldError::required(
                &rp.child("action"),
                "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]",
            ));
        } else if action == "FailIndex" {
            if !is_set(spec, "backoffLimitPerIndex") {
                errs.push(FieldError::invalid(
                    &rp.child("action"),
                    action,
                    "requires the backoffLimitPerIndex to be set",
                ));
            }
        } else if !ACTIONS.contains(&action) {
            errs.push(FieldError::not_supported(
                &rp.child("action"),
                action,
                &ACTIONS,
            ));
        }
        let exit_codes = obj(rule, "onExitCodes");
        if let Some(ec) = exit_codes {
            on_exit_codes(ec, &containers, &rp.child("onExitCodes"), errs);
        }
        let conditions = arr(rule, "onPodConditions");
        if !conditions.is_empty() {
            let cp = rp.child("onPodConditions");
            if conditions.len() > 20 {
                errs.push(FieldError::too_many(&cp, conditions.len() as i64, 20));
            }
            for (j, pattern) in items(rule, "onPodConditions") {
                let pp = cp.index(j);
                meta::qualified_name(str_of(pattern, "type"), &pp.child("type"), errs);
                match str_of(pattern, "status") {
                    "" => errs.push(FieldError::required(
                        &pp.child("status"),
                        "valid values: [\"False\" \"True\" \"Unknown\"]",
                    )),
                    "False" | "True" | "Unknown" => {}
                    other => errs.push(FieldError::not_supported(
                        &pp.child("status"),
                        other,
                        &["False", "True", "Unknown"],
                    )),
                }
            }
        }
        match (exit_codes.is_some(), !conditions.is_empty()) {
            (true, true) => errs.push(FieldError::invalid(
                &rp,
                BadValue::Omitted,
                "specifying both OnExitCodes and OnPodConditions is not supported",
            )),
            (false, false) => errs.push(FieldError::invalid(
                &rp,
                BadValue::Omitted,
                "specifying one of OnExitCodes and OnPodConditions is required",
            )),
            _ => {}
        }
    }
}

pub(crate) fn on_exit_codes(
    ec: &Obj,
    containers: &[&str],
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let op = str_of(ec, "operator");
    match op {
        "" => errs.push(FieldError::required(
            &p.child("operator"),
            "valid values: [\"In\" \"NotIn\"]",
        )),
        "In" | "NotIn" => {}
        other => errs.push(FieldError::not_supported(
            &p.child("operator"),
            other,
            &["In", "NotIn"],
        )),
    }
    if let Some(name) = opt_str(ec, "containerName")
        && !containers.contains(&name)
    {
        errs.push(FieldError::invalid(
            &p.child("containerName"),
            name,
            "must be one of the container or initContainer names in the pod template",
        ));
    }
    let vp = p.child("values");
    let values: Vec<i64> = arr(ec, "values")
        .iter()
        .map(|v| v.as_i64().unwrap_or(0))
        .collect();
    if values.is_empty() {
        errs.push(FieldError::invalid(
            &vp,
            BadValue::from(ec.get("values").unwrap_or(&Value::Null)),
            "at least one value is required",
        ));
    } else if values.len() > 255 {
        errs.push(FieldError::too_many(&vp, values.len() as i64, 255));
    }
    let mut seen = Vec::new();
    for (j, v) in values.iter().enumerate() {
        if op == "In" && *v == 0 {
            errs.push(FieldError::invalid(
                &vp.index(j),
                *v,
                "must not be 0 for the In operator",
            ));
        }
        if seen.contains(v) {
            errs.push(FieldError::duplicate(&vp.index(j), *v));
        } else {
            seen.push(*v);
        }
    }
    if values.windows(2).any(|w| w[0] > w[1]) {
        errs.push(FieldError::invalid(
            &vp,
            BadValue::from(&ec["values"]),
            "must be ordered",
        ));
    }
}
