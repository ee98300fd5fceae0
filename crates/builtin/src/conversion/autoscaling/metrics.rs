//! v2's `MetricSpec` and `MetricStatus` ⇄ v1's legacy shapes (`targetAverageUtilization`,
//! `metricName`, ...), which the round-trip annotations hold (`conversion.go`'s per-source
//! functions).

use serde_json::{Map, Value, json};

use super::json::{copy, get, or, quantity, reference, string};

/// A v2 `MetricSpec` in v1's legacy shape (the metrics annotation).
pub(super) fn spec_to_v1(m: &Value) -> Value {
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
pub(super) fn identifier(src: &Value, selector: &str) -> Value {
    let mut id = Map::new();
    id.insert("name".to_owned(), string(src, "metricName"));
    copy(&mut id, "selector", src, selector);
    Value::Object(id)
}

/// A v1 legacy `MetricSpec` (the metrics annotation) as v2's.
pub(super) fn spec_to_v2(m: &Value) -> Value {
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
pub(super) fn status_to_v1(m: &Value) -> Value {
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
pub(super) fn status_to_v2(m: &Value) -> Value {
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
