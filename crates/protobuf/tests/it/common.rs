//! Samples and the comparison the round trips use.

use serde_json::Value;

/// Objects of many kinds, as a real API server returns them (`tests/data/<name>.json`).
pub const SAMPLES: &[&str] = &[
    "configmap",
    "controllerrevision",
    "cronjob",
    "crd",
    "deployment",
    "deploymentlist",
    "discovery",
    "event",
    "events-event",
    "hpa",
    "ingress",
    "lease",
    "namespace",
    "partialmetadatalist",
    "pdb",
    "pod",
    "role",
    "sar",
    "secret",
    "service",
    "status",
    "tokenreview",
];

pub fn load(name: &str) -> Value {
    let path = format!("{}/tests/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Go's zero values, which `omitempty` leaves out.
fn is_go_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_go_zero),
    }
}

/// Everything the input says, the output says too (Go may add zero values and drop them).
pub fn assert_subset(input: &Value, output: &Value, path: &str) {
    match (input, output) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let p = format!("{path}.{k}");
                match b.get(k) {
                    Some(w) => assert_subset(v, w, &p),
                    None => assert!(is_go_zero(v), "{p}: {v} lost"),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{path}: length");
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                assert_subset(v, w, &format!("{path}[{i}]"));
            }
        }
        (Value::Null, _) => {}
        (a, b) => assert_eq!(a, b, "{path}"),
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
