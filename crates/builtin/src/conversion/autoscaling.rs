//! `autoscaling/v1` ⇄ `autoscaling/v2` HorizontalPodAutoscalers, as kube-apiserver converts them
//! through its internal (v2-shaped) type: kubernetes `pkg/apis/autoscaling/v1/conversion.go`
//! (`Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler` and back) and
//! `pkg/apis/autoscaling/annotations.go`, `helpers.go` (`DropRoundTripHorizontalPodAutoscalerAnnotations`).
//!
//! v1 has one CPU utilization target; what else v2 holds travels in annotations so that a v1
//! client writing an object back loses nothing: the other metrics and the current metrics (in
//! v1's legacy `MetricSpec`/`MetricStatus` shapes), the behavior (Go's internal struct marshalled
//! without json tags: `ScaleUp`, `StabilizationWindowSeconds`, ...) and the conditions.

use serde_json::{Map, Value, json};

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

fn get<'a>(v: &'a Value, k: &str) -> Option<&'a Value> {
    v.get(k).filter(|v| !v.is_null())
}

fn or<'a>(v: &'a Value, k: &str, default: &'a Value) -> &'a Value {
    get(v, k).unwrap_or(default)
}

/// Copies `from[src]` to `to[dst]` when set.
fn copy(to: &mut Map<String, Value>, dst: &str, from: &Value, src: &str) {
    if let Some(v) = get(from, src) {
        to.insert(dst.to_owned(), v.clone());
    }
}

/// A Go non-pointer `resource.Quantity`: the zero value marshals as `"0"`.
fn quantity(from: &Value, k: &str) -> Value {
    get(from, k).cloned().unwrap_or_else(|| json!("0"))
}

fn string(from: &Value, k: &str) -> Value {
    get(from, k).cloned().unwrap_or_else(|| json!(""))
}

/// `CrossVersionObjectReference`: kind, name, apiVersion (omitted when empty).
fn reference(r: &Value) -> Value {
    let mut out = Map::new();
    out.insert("kind".to_owned(), string(r, "kind"));
    out.insert("name".to_owned(), string(r, "name"));
    copy(&mut out, "apiVersion", r, "apiVersion");
    Value::Object(out)
}

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

/// A v2 `MetricSpec` in v1's legacy shape (the metrics annotation).
fn spec_to_v1(m: &Value) -> Value {
    let mut out = Map::new();
    out.insert("type".to_owned(), string(m, "type"));
    let empty = json!({});
    if let Some(o) = get(m, "object") {
        let t = or(o, "target", &empty);
        let mut v = Map::new();
        v.insert(
            "target".to_owned(),
            reference(or(o, "describedObject", &empty)),
        );
        v.insert(
            "metricName".to_owned(),
            string(or(o, "metric", &empty), "name"),
        );
        v.insert("targetValue".to_owned(), quantity(t, "value"));
        copy(&mut v, "selector", or(o, "metric", &empty), "selector");
        copy(&mut v, "averageValue", t, "averageValue");
        out.insert("object".to_owned(), Value::Object(v));
    }
    if let Some(p) = get(m, "pods") {
        let mut v = Map::new();
        v.insert(
            "metricName".to_owned(),
            string(or(p, "metric", &empty), "name"),
        );
        v.insert(
            "targetAverageValue".to_owned(),
            quantity(or(p, "target", &empty), "averageValue"),
        );
        copy(&mut v, "selector", or(p, "metric", &empty), "selector");
        out.insert("pods".to_owned(), Value::Object(v));
    }
    for key in ["resource", "containerResource"] {
        if let Some(r) = get(m, key) {
            let t = or(r, "target", &empty);
            let mut v = Map::new();
            v.insert("name".to_owned(), string(r, "name"));
            copy(&mut v, "targetAverageUtilization", t, "averageUtilization");
            copy(&mut v, "targetAverageValue", t, "averageValue");
            if key == "containerResource" {
                v.insert("container".to_owned(), string(r, "container"));
            }
            out.insert(key.to_owned(), Value::Object(v));
        }
    }
    if let Some(e) = get(m, "external") {
        let t = or(e, "target", &empty);
        let mut v = Map::new();
        v.insert(
            "metricName".to_owned(),
            string(or(e, "metric", &empty), "name"),
        );
        copy(
            &mut v,
            "metricSelector",
            or(e, "metric", &empty),
            "selector",
        );
        copy(&mut v, "targetValue", t, "value");
        copy(&mut v, "targetAverageValue", t, "averageValue");
        out.insert("external".to_owned(), Value::Object(v));
    }
    Value::Object(out)
}

/// `MetricIdentifier` from a legacy source's `metricName` and selector.
fn identifier(src: &Value, selector: &str) -> Value {
    let mut id = Map::new();
    id.insert("name".to_owned(), string(src, "metricName"));
    copy(&mut id, "selector", src, selector);
    Value::Object(id)
}

/// A v1 legacy `MetricSpec` (the metrics annotation) as v2's.
fn spec_to_v2(m: &Value) -> Value {
    let mut out = Map::new();
    out.insert("type".to_owned(), string(m, "type"));
    let empty = json!({});
    if let Some(o) = get(m, "object") {
        let kind = if get(o, "averageValue").is_some() {
            "AverageValue"
        } else {
            "Value"
        };
        let mut t = Map::new();
        t.insert("type".to_owned(), json!(kind));
        t.insert("value".to_owned(), quantity(o, "targetValue"));
        copy(&mut t, "averageValue", o, "averageValue");
        out.insert(
            "object".to_owned(),
            json!({"describedObject": reference(or(o, "target", &empty)),
                "metric": identifier(o, "selector"), "target": t}),
        );
    }
    if let Some(p) = get(m, "pods") {
        out.insert(
            "pods".to_owned(),
            json!({"metric": identifier(p, "selector"), "target": {"type": "AverageValue",
                "averageValue": quantity(p, "targetAverageValue")}}),
        );
    }
    for key in ["resource", "containerResource"] {
        if let Some(r) = get(m, key) {
            let utilization = get(r, "targetAverageUtilization").is_some();
            let mut t = Map::new();
            t.insert(
                "type".to_owned(),
                json!(if utilization {
                    "Utilization"
                } else {
                    "AverageValue"
                }),
            );
            copy(&mut t, "averageValue", r, "targetAverageValue");
            copy(&mut t, "averageUtilization", r, "targetAverageUtilization");
            let mut v = Map::new();
            v.insert("name".to_owned(), string(r, "name"));
            if key == "containerResource" {
                v.insert("container".to_owned(), string(r, "container"));
            }
            v.insert("target".to_owned(), Value::Object(t));
            out.insert(key.to_owned(), Value::Object(v));
        }
    }
    if let Some(e) = get(m, "external") {
        let kind = if get(e, "targetValue").is_some() {
            "Value"
        } else {
            "AverageValue"
        };
        let mut t = Map::new();
        t.insert("type".to_owned(), json!(kind));
        copy(&mut t, "value", e, "targetValue");
        copy(&mut t, "averageValue", e, "targetAverageValue");
        out.insert(
            "external".to_owned(),
            json!({"metric": identifier(e, "metricSelector"), "target": t}),
        );
    }
    Value::Object(out)
}

/// A v2 `MetricStatus` in v1's legacy shape (the current-metrics annotation).
fn status_to_v1(m: &Value) -> Value {
    let mut out = Map::new();
    out.insert("type".to_owned(), string(m, "type"));
    let empty = json!({});
    if let Some(o) = get(m, "object") {
        let c = or(o, "current", &empty);
        let mut v = Map::new();
        v.insert(
            "target".to_owned(),
            reference(or(o, "describedObject", &empty)),
        );
        v.insert(
            "metricName".to_owned(),
            string(or(o, "metric", &empty), "name"),
        );
        v.insert("currentValue".to_owned(), quantity(c, "value"));
        copy(&mut v, "selector", or(o, "metric", &empty), "selector");
        copy(&mut v, "averageValue", c, "averageValue");
        out.insert("object".to_owned(), Value::Object(v));
    }
    if let Some(p) = get(m, "pods") {
        let mut v = Map::new();
        v.insert(
            "metricName".to_owned(),
            string(or(p, "metric", &empty), "name"),
        );
        v.insert(
            "currentAverageValue".to_owned(),
            quantity(or(p, "current", &empty), "averageValue"),
        );
        copy(&mut v, "selector", or(p, "metric", &empty), "selector");
        out.insert("pods".to_owned(), Value::Object(v));
    }
    for key in ["resource", "containerResource"] {
        if let Some(r) = get(m, key) {
            let c = or(r, "current", &empty);
            let mut v = Map::new();
            v.insert("name".to_owned(), string(r, "name"));
            copy(&mut v, "currentAverageUtilization", c, "averageUtilization");
            v.insert(
                "currentAverageValue".to_owned(),
                quantity(c, "averageValue"),
            );
            if key == "containerResource" {
                v.insert("container".to_owned(), string(r, "container"));
            }
            out.insert(key.to_owned(), Value::Object(v));
        }
    }
    if let Some(e) = get(m, "external") {
        let c = or(e, "current", &empty);
        let mut v = Map::new();
        v.insert(
            "metricName".to_owned(),
            string(or(e, "metric", &empty), "name"),
        );
        copy(
            &mut v,
            "metricSelector",
            or(e, "metric", &empty),
            "selector",
        );
        v.insert("currentValue".to_owned(), quantity(c, "value"));
        copy(&mut v, "currentAverageValue", c, "averageValue");
        out.insert("external".to_owned(), Value::Object(v));
    }
    Value::Object(out)
}

/// A v1 legacy `MetricStatus` (the current-metrics annotation) as v2's.
fn status_to_v2(m: &Value) -> Value {
    let mut out = Map::new();
    out.insert("type".to_owned(), string(m, "type"));
    let empty = json!({});
    if let Some(o) = get(m, "object") {
        let mut c = Map::new();
        c.insert("value".to_owned(), quantity(o, "currentValue"));
        copy(&mut c, "averageValue", o, "averageValue");
        out.insert(
            "object".to_owned(),
            json!({"metric": identifier(o, "selector"), "current": c,
                "describedObject": reference(or(o, "target", &empty))}),
        );
    }
    if let Some(p) = get(m, "pods") {
        out.insert(
            "pods".to_owned(),
            json!({"metric": identifier(p, "selector"),
                "current": {"averageValue": quantity(p, "currentAverageValue")}}),
        );
    }
    for key in ["resource", "containerResource"] {
        if let Some(r) = get(m, key) {
            let mut c = Map::new();
            c.insert(
                "averageValue".to_owned(),
                quantity(r, "currentAverageValue"),
            );
            copy(&mut c, "averageUtilization", r, "currentAverageUtilization");
            let mut v = Map::new();
            v.insert("name".to_owned(), string(r, "name"));
            if key == "containerResource" {
                v.insert("container".to_owned(), string(r, "container"));
            }
            v.insert("current".to_owned(), Value::Object(c));
            out.insert(key.to_owned(), Value::Object(v));
        }
    }
    if let Some(e) = get(m, "external") {
        let mut c = Map::new();
        c.insert("value".to_owned(), quantity(e, "currentValue"));
        copy(&mut c, "averageValue", e, "currentAverageValue");
        out.insert(
            "external".to_owned(),
            json!({"metric": identifier(e, "metricSelector"), "current": c}),
        );
    }
    Value::Object(out)
}

/// Go field name ⇄ json name of `HPAScalingRules` and `HPAScalingPolicy`.
const RULE_FIELDS: [(&str, &str); 4] = [
    ("StabilizationWindowSeconds", "stabilizationWindowSeconds"),
    ("SelectPolicy", "selectPolicy"),
    ("Policies", "policies"),
    ("Tolerance", "tolerance"),
];
const POLICY_FIELDS: [(&str, &str); 3] = [
    ("Type", "type"),
    ("Value", "value"),
    ("PeriodSeconds", "periodSeconds"),
];

/// `json.Marshal` of the internal behavior: Go's field names, nil pointers as `null`.
fn behavior_to_annotation(b: &Value) -> Value {
    let rules = |r: Option<&Value>| -> Value {
        let Some(r) = r else { return Value::Null };
        let mut out = Map::new();
        for (go, js) in RULE_FIELDS {
            let v = match (js, get(r, js)) {
                ("policies", Some(Value::Array(ps))) => Value::Array(
                    ps.iter()
                        .map(|p| {
                            let mut m = Map::new();
                            for (go, js) in POLICY_FIELDS {
                                let zero = if js == "type" { json!("") } else { json!(0) };
                                m.insert(go.to_owned(), get(p, js).cloned().unwrap_or(zero));
                            }
                            Value::Object(m)
                        })
                        .collect(),
                ),
                (_, v) => v.cloned().unwrap_or(Value::Null),
            };
            out.insert(go.to_owned(), v);
        }
        Value::Object(out)
    };
    json!({"ScaleUp": rules(get(b, "scaleUp")), "ScaleDown": rules(get(b, "scaleDown"))})
}

/// `encoding/json`'s key match: exact, else ASCII case-insensitive.
fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    let m = v.as_object()?;
    m.get(name)
        .or_else(|| {
            m.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v)
        })
        .filter(|v| !v.is_null())
}

/// The behavior annotation back; `None` when it is not well-formed or is the zero behavior
/// (Go moves only well-formed, non-empty data to the field).
fn behavior_from_annotation(a: &Value) -> Option<Value> {
    let rules = |r: &Value| -> Option<Value> {
        let r = r.as_object().map(|_| r)?;
        let mut out = Map::new();
        for (go, js) in RULE_FIELDS {
            let Some(v) = field(r, go) else { continue };
            let v = match v {
                Value::Array(ps) if js == "policies" => Value::Array(
                    ps.iter()
                        .map(|p| {
                            let mut m = Map::new();
                            for (go, js) in POLICY_FIELDS {
                                let zero = if js == "type" { json!("") } else { json!(0) };
                                m.insert(js.to_owned(), field(p, go).cloned().unwrap_or(zero));
                            }
                            Value::Object(m)
                        })
                        .collect(),
                ),
                v => v.clone(),
            };
            out.insert(js.to_owned(), v);
        }
        Some(Value::Object(out))
    };
    let mut out = Map::new();
    for (go, js) in [("ScaleUp", "scaleUp"), ("ScaleDown", "scaleDown")] {
        if let Some(r) = field(a, go).and_then(rules) {
            out.insert(js.to_owned(), r);
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
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
