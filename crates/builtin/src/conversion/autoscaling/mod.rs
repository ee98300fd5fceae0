//! `autoscaling/v1` ⇄ `autoscaling/v2` HorizontalPodAutoscalers, as kube-apiserver converts them
//! through its internal (v2-shaped) type: kubernetes `pkg/apis/autoscaling/v1/conversion.go`
//! (`Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler` and back) and
//! `pkg/apis/autoscaling/annotations.go`, `helpers.go` (`DropRoundTripHorizontalPodAutoscalerAnnotations`).
//!
//! v1 has one CPU utilization target; what else v2 holds travels in annotations so that a v1
//! client writing an object back loses nothing: the other metrics and the current metrics (in
//! v1's legacy `MetricSpec`/`MetricStatus` shapes), the behavior (Go's internal struct marshalled
//! without json tags: `ScaleUp`, `StabilizationWindowSeconds`, ...) and the conditions.

mod behavior;
mod json;
mod metrics;

use serde_json::{Map, Value, json};

use self::behavior::{behavior_from_annotation, behavior_to_annotation};
use self::json::{copy, get, or, reference};
use self::metrics::{spec_to_v1, spec_to_v2, status_to_v1, status_to_v2};

/// `autoscaling.MetricSpecsAnnotation`.
pub const METRIC_SPECS: &str = "autoscaling.alpha.kubernetes.io/metrics";
/// `autoscaling.MetricStatusesAnnotation`.
pub const METRIC_STATUSES: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
/// `autoscaling.HorizontalPodAutoscalerConditionsAnnotation`.
pub const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
/// `autoscaling.BehaviorSpecsAnnotation`.
pub const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";
const ROUND_TRIP: [&str; 6] = [
    METRIC_SPECS,
    BEHAVIOR,
    "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
    "autoscaling.alpha.kubernetes.io/scale-up-tolerance",
    METRIC_STATUSES,
    CONDITIONS,
];

fn is_cpu_utilization(m: &Value) -> bool {
    m.get("type").and_then(Value::as_str) == Some("Resource")
        && m.pointer("/resource/name").and_then(Value::as_str) == Some("cpu")
        && m.pointer("/resource/target/averageUtilization")
            .is_some_and(|v| !v.is_null())
}

fn annotations_mut(obj: &mut Value) -> Option<&mut Map<String, Value>> {
    obj.get_mut("metadata")?
        .get_mut("annotations")?
        .as_object_mut()
}

fn annotation(obj: &Value, key: &str) -> Option<Value> {
    let raw = obj.pointer("/metadata/annotations")?.get(key)?.as_str()?;
    serde_json::from_str(raw).ok()
}

fn set_annotation(obj: &mut Value, key: &str, value: &Value) {
    let Value::Object(o) = obj else { return };
    let meta = o.entry("metadata").or_insert_with(|| json!({}));
    let Value::Object(meta) = meta else { return };
    let a = meta.entry("annotations").or_insert_with(|| json!({}));
    if !a.is_object() {
        *a = json!({});
    }
    if let Value::Object(a) = a {
        a.insert(key.to_owned(), Value::String(value.to_string()));
    }
}

/// `DropRoundTripHorizontalPodAutoscalerAnnotations`: an emptied map goes (`omitempty`).
fn drop_round_trip(obj: &mut Value) {
    let Some(a) = annotations_mut(obj) else {
        return;
    };
    for k in ROUND_TRIP {
        a.remove(k);
    }
    if a.is_empty()
        && let Some(Value::Object(meta)) = obj.get_mut("metadata")
    {
        meta.remove("annotations");
    }
}

/// An `autoscaling/v2` HorizontalPodAutoscaler (as stored) as `autoscaling/v1` serves it.
#[must_use]
pub fn hpa_v2_to_v1(v2: &Value) -> Value {
    let mut out = v2.clone();
    drop_round_trip(&mut out);
    let empty = json!({});
    let spec = or(v2, "spec", &empty);
    let status = or(v2, "status", &empty);
    let metrics = get(spec, "metrics")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let current = get(status, "currentMetrics")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);

    let mut s = scale_spec(spec);
    // The first CPU metric decides, with or without a utilization (Go `break`s on it).
    if let Some(m) = metrics.iter().find(|m| {
        m.get("type").and_then(Value::as_str) == Some("Resource")
            && m.pointer("/resource/name").and_then(Value::as_str) == Some("cpu")
    }) && let Some(u) = m
        .pointer("/resource/target/averageUtilization")
        .filter(|v| !v.is_null())
    {
        s.insert("targetCPUUtilizationPercentage".to_owned(), u.clone());
    }

    let mut st = Map::new();
    copy(&mut st, "observedGeneration", status, "observedGeneration");
    copy(&mut st, "lastScaleTime", status, "lastScaleTime");
    for k in ["currentReplicas", "desiredReplicas"] {
        st.insert(k.to_owned(), get(status, k).cloned().unwrap_or(json!(0)));
    }
    // No `break` here: the last CPU utilization wins.
    for m in current {
        if m.get("type").and_then(Value::as_str) == Some("Resource")
            && m.pointer("/resource/name").and_then(Value::as_str) == Some("cpu")
            && let Some(u) = m
                .pointer("/resource/current/averageUtilization")
                .filter(|v| !v.is_null())
        {
            st.insert("currentCPUUtilizationPercentage".to_owned(), u.clone());
        }
    }
    if let Value::Object(o) = &mut out {
        o.insert("apiVersion".to_owned(), json!("autoscaling/v1"));
        o.insert("spec".to_owned(), Value::Object(s));
        o.insert("status".to_owned(), Value::Object(st));
    }

    let other: Vec<Value> = metrics
        .iter()
        .filter(|m| !is_cpu_utilization(m))
        .map(spec_to_v1)
        .collect();
    if !other.is_empty() {
        set_annotation(&mut out, METRIC_SPECS, &Value::Array(other));
    }
    if !current.is_empty() {
        let c = current.iter().map(status_to_v1).collect();
        set_annotation(&mut out, METRIC_STATUSES, &Value::Array(c));
    }
    if let Some(b) = get(spec, "behavior") {
        set_annotation(&mut out, BEHAVIOR, &behavior_to_annotation(b));
    }
    if let Some(c) =
        get(status, "conditions").filter(|c| c.as_array().is_some_and(|c| !c.is_empty()))
    {
        set_annotation(&mut out, CONDITIONS, c);
    }
    out
}

/// An `autoscaling/v1` HorizontalPodAutoscaler (defaulted) as `autoscaling/v2` stores it.
#[must_use]
pub fn hpa_v1_to_v2(v1: &Value) -> Value {
    let mut out = v1.clone();
    let empty = json!({});
    let spec = or(v1, "spec", &empty);
    let status = or(v1, "status", &empty);

    let mut s = scale_spec(spec);
    let mut metrics: Vec<Value> = Vec::new();
    if let Some(Value::Array(other)) = annotation(v1, METRIC_SPECS) {
        metrics.extend(other.iter().map(spec_to_v2));
    }
    if let Some(u) = get(spec, "targetCPUUtilizationPercentage") {
        metrics.push(json!({"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": u}}}));
    }
    // v1's implicit default, made explicit: 80% CPU (`autoscaling.DefaultCPUUtilization`).
    if metrics.is_empty() {
        metrics.push(json!({"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": 80}}}));
    }
    s.insert("metrics".to_owned(), Value::Array(metrics));
    if let Some(b) = annotation(v1, BEHAVIOR)
        .as_ref()
        .and_then(behavior_from_annotation)
    {
        s.insert("behavior".to_owned(), b);
    }

    let mut st = Map::new();
    copy(&mut st, "observedGeneration", status, "observedGeneration");
    copy(&mut st, "lastScaleTime", status, "lastScaleTime");
    for k in ["currentReplicas", "desiredReplicas"] {
        st.insert(k.to_owned(), get(status, k).cloned().unwrap_or(json!(0)));
    }
    if let Some(u) = get(status, "currentCPUUtilizationPercentage") {
        st.insert(
            "currentMetrics".to_owned(),
            json!([{"type": "Resource", "resource": {"name": "cpu",
                "current": {"averageUtilization": u}}}]),
        );
    }
    // "the ones here have more information"
    if let Some(Value::Array(c)) = annotation(v1, METRIC_STATUSES) {
        st.insert(
            "currentMetrics".to_owned(),
            Value::Array(c.iter().map(status_to_v2).collect()),
        );
    }
    if let Some(c @ Value::Array(_)) = annotation(v1, CONDITIONS) {
        st.insert("conditions".to_owned(), c);
    }
    if let Value::Object(o) = &mut out {
        o.insert("apiVersion".to_owned(), json!("autoscaling/v2"));
        o.insert("spec".to_owned(), Value::Object(s));
        o.insert("status".to_owned(), Value::Object(st));
    }
    drop_round_trip(&mut out);
    out
}

/// The fields both versions' specs share: the target and the replica bounds.
fn scale_spec(spec: &Value) -> Map<String, Value> {
    let empty = json!({});
    let mut s = Map::new();
    s.insert(
        "scaleTargetRef".to_owned(),
        reference(or(spec, "scaleTargetRef", &empty)),
    );
    copy(&mut s, "minReplicas", spec, "minReplicas");
    s.insert(
        "maxReplicas".to_owned(),
        get(spec, "maxReplicas").cloned().unwrap_or(json!(0)),
    );
    s
}
