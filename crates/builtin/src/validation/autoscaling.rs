//! HorizontalPodAutoscalers, autoscaling/v2 and autoscaling/v1.
//!
//! Mirrors kubernetes `pkg/apis/autoscaling/validation/validation.go`
//! (`validateHorizontalPodAutoscalerSpec`, `ValidateCrossVersionObjectReference`,
//! `validateMetricSpec` and the sources, `validateMetricTarget`, `validateBehavior`,
//! `validateScalingRules`, `validateScalingPolicy`). Go validates the internal type, so an
//! autoscaling/v1 object's errors name the v2 fields it converts to
//! (`spec.metrics[0].resource.target.averageUtilization` for `targetCPUUtilizationPercentage`).
//! Metric selectors and container names are not checked.

use serde_json::json;

use super::meta::{self, NameRule};
use super::read::{Obj, arr, int_of, is_set, items, obj, obj_or_empty, opt_int, opt_str, str_of};
use super::resources;
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// `IsValidPathSegmentName`.
pub(crate) fn path_segment(v: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    for msg in NameRule::PathSegment.check(v, false) {
        errs.push(FieldError::invalid(p, v, msg));
    }
}

/// `validateMetricTarget`.
pub(crate) fn target(t: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let ty = str_of(t, "type");
    if ty.is_empty() {
        errs.push(FieldError::required(
            &p.child("type"),
            "must specify a metric target type",
        ));
    }
    if !matches!(ty, "Utilization" | "Value" | "AverageValue") {
        errs.push(FieldError::invalid(
            &p.child("type"),
            ty,
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    for k in ["value", "averageValue"] {
        if let Some(v) = t.get(k).filter(|v| !v.is_null())
            && let Some(q) = resources::read(v, &p.child(k), errs)
            && q.sign() != 1
        {
            errs.push(FieldError::invalid(
                &p.child(k),
                q.to_string(),
                "must be positive",
            ));
        }
    }
    if let Some(u) = opt_int(t, "averageUtilization").filter(|u| *u < 1) {
        errs.push(FieldError::invalid(
            &p.child("averageUtilization"),
            u,
            "must be greater than 0",
        ));
    }
}

/// The sources a metric names, in Go's order, and the type each goes with.
pub(crate) const SOURCES: [(&str, &str); 5] = [
    ("object", "Object"),
    ("pods", "Pods"),
    ("resource", "Resource"),
    ("containerResource", "ContainerResource"),
    ("external", "External"),
];

/// `validateMetricSpec`.
pub(crate) fn metric(m: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let ty = str_of(m, "type");
    if ty.is_empty() {
        errs.push(FieldError::required(
            &p.child("type"),
            "must specify a metric source type",
        ));
    }
    if !SOURCES.iter().any(|(_, t)| *t == ty) {
        errs.push(FieldError::not_supported(
            &p.child("type"),
            ty,
            &[
                "Object",
                "Pods",
                "Resource",
                "External",
                "ContainerResource",
            ],
        ));
    }
    let present: Vec<&str> = SOURCES
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| is_set(m, k))
        .collect();
    if let Some(first) = present.first() {
        source(first, obj_or_empty(m, first), &p.child(first), errs);
    }
    let expected = SOURCES.iter().find(|(_, t)| *t == ty).map(|(k, _)| *k);
    if let Some(k) = expected
        && !is_set(m, k)
    {
        errs.push(FieldError::required(
            &p.child(k),
            "must populate information for the given metric source",
        ));
    }
    if present.len() != 1 {
        for k in present.iter().filter(|k| Some(**k) != expected) {
            errs.push(FieldError::forbidden(
                &p.child(k),
                "must populate the given metric source only",
            ));
        }
    }
}

pub(crate) fn source(kind: &str, s: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let tp = p.child("target");
    let t = obj_or_empty(s, "target");
    match kind {
        "resource" | "containerResource" => {
            if str_of(s, "name").is_empty() {
                errs.push(FieldError::required(
                    &p.child("name"),
                    "must specify a resource name",
                ));
            }
            if kind == "containerResource" && str_of(s, "container").is_empty() {
                errs.push(FieldError::required(
                    &p.child("container"),
                    "must specify a container",
                ));
            }
            target(t, &tp, errs);
            let (util, avg) = (is_set(t, "averageUtilization"), is_set(t, "averageValue"));
            if !util && !avg {
                errs.push(FieldError::required(
                    &tp.child("averageUtilization"),
                    "must set either a target raw value or a target utilization",
                ));
            }
            if util && avg {
                errs.push(FieldError::forbidden(
                    &tp.child("averageValue"),
                    "may not set both a target raw value and a target utilization",
                ));
            }
        }
        _ => {
            let metric = obj_or_empty(s, "metric");
            if str_of(metric, "name").is_empty() {
                errs.push(FieldError::required(
                    &p.child("metric").child("name"),
                    "must specify a metric name",
                ));
            }
            if kind == "object" {
                let dp = p.child("describedObject");
                let d = obj_or_empty(s, "describedObject");
                for k in ["kind", "name"] {
                    let v = str_of(d, k);
                    if v.is_empty() {
                        errs.push(FieldError::required(&dp.child(k), ""));
                    } else {
                        path_segment(v, &dp.child(k), errs);
                    }
                }
            }
            target(t, &tp, errs);
        }
    }
}

/// `validateScalingRules`.
pub(crate) fn scaling_rules(r: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if let Some(w) = opt_int(r, "stabilizationWindowSeconds") {
        let wp = p.child("stabilizationWindowSeconds");
        if w < 0 {
            errs.push(FieldError::invalid(
                &wp,
                w,
                "must be greater than or equal to zero",
            ));
        }
        if w > 3600 {
            errs.push(FieldError::invalid(
                &wp,
                w,
                "must be less than or equal to 3600",
            ));
        }
    }
    if let Some(sp) = opt_str(r, "selectPolicy")
        && !matches!(sp, "Max" | "Min" | "Disabled")
    {
        errs.push(FieldError::not_supported(
            &p.child("selectPolicy"),
            sp,
            &["Max", "Min", "Disabled"],
        ));
    }
    let pp = p.child("policies");
    if arr(r, "policies").is_empty() {
        errs.push(FieldError::required(
            &pp,
            "must specify at least one Policy",
        ));
    }
    for (i, policy) in items(r, "policies") {
        let ip = pp.index(i);
        let ty = str_of(policy, "type");
        if ty != "Pods" && ty != "Percent" {
            errs.push(FieldError::not_supported(
                &ip.child("type"),
                ty,
                &["Pods", "Percent"],
            ));
        }
        let v = int_of(policy, "value");
        if v <= 0 {
            errs.push(FieldError::invalid(
                &ip.child("value"),
                v,
                "must be greater than zero",
            ));
        }
        let period = int_of(policy, "periodSeconds");
        if period <= 0 {
            errs.push(FieldError::invalid(
                &ip.child("periodSeconds"),
                period,
                "must be greater than zero",
            ));
        }
        if period > 1800 {
            errs.push(FieldError::invalid(
                &ip.child("periodSeconds"),
                period,
                "must be less than or equal to 1800",
            ));
        }
    }
}

/// `validateHorizontalPodAutoscalerSpec` over a v2-shaped spec.
pub(crate) fn spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let min = opt_int(spec, "minReplicas");
    if let Some(m) = min.filter(|m| *m < 1) {
        errs.push(FieldError::invalid(
            &p.child("minReplicas"),
            m,
            "must be greater than or equal to 1",
        ));
    }
    let max = int_of(spec, "maxReplicas");
    if max < 1 {
        errs.push(FieldError::invalid(
            &p.child("maxReplicas"),
            max,
            "must be greater than 0",
        ));
    }
    if min.is_some_and(|m| max < m) {
        errs.push(FieldError::invalid(
            &p.child("maxReplicas"),
            max,
            "must be greater than or equal to `minReplicas`",
        ));
    }
    let rp = p.child("scaleTargetRef");
    let r = obj_or_empty(spec, "scaleTargetRef");
    for k in ["kind", "name"] {
        let v = str_of(r, k);
        if v.is_empty() {
            errs.push(FieldError::required(&rp.child(k), ""));
        } else {
            path_segment(v, &rp.child(k), errs);
        }
    }
    for (i, m) in items(spec, "metrics") {
        metric(m, &p.child("metrics").index(i), errs);
    }
    if let Some(b) = obj(spec, "behavior") {
        for k in ["scaleUp", "scaleDown"] {
            if let Some(r) = obj(b, k) {
                scaling_rules(r, &p.child("behavior").child(k), errs);
            }
        }
    }
}

/// The v2 spec an autoscaling/v1 spec converts to.
pub(crate) fn v1_as_v2(spec: &Obj) -> Obj {
    let mut out = Obj::new();
    for k in ["scaleTargetRef", "minReplicas", "maxReplicas"] {
        if let Some(v) = spec.get(k) {
            out.insert(k.to_owned(), v.clone());
        }
    }
    if let Some(t) = spec
        .get("targetCPUUtilizationPercentage")
        .filter(|v| !v.is_null())
    {
        out.insert(
            "metrics".to_owned(),
            json!([{"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": t}}}]),
        );
    }
    out
}

/// `ValidateHorizontalPodAutoscaler` (`version`: `v1` or `v2`; `old` on update).
pub(crate) fn hpa(h: &Obj, version: &str, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    match old {
        None => meta::object_meta(h, true, NameRule::DnsSubdomain, errs),
        Some(o) => meta::object_meta_update(h, o, errs),
    }
    let s = obj_or_empty(h, "spec");
    let converted;
    let s = if version == "v1" {
        converted = v1_as_v2(s);
        &converted
    } else {
        s
    };
    spec(s, &FieldPath::new("spec"), errs);
}
