//! The behavior annotation: Go's internal `HorizontalPodAutoscalerBehavior` marshalled without
//! json tags (Go's field names, nil pointers as `null`) and read back as `encoding/json` matches
//! keys.

use serde_json::{Map, Value, json};

use super::json::get;

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
pub(super) fn behavior_to_annotation(b: &Value) -> Value {
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
pub(super) fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
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
pub(super) fn behavior_from_annotation(a: &Value) -> Option<Value> {
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
