//! CRDs compared as the API server keeps them: decoded and encoded as its Go types do
//! (`omitempty` fields dropped when empty, map keys in order), with the defaults it fills in
//! (apiextensions-apiserver `pkg/apis/apiextensions/v1/defaults.go`: `singular`, `listKind`,
//! `conversion: {strategy: None}`, a service port of 443), and without what it does not take
//! from a create request (`status`, the server-set `metadata`). Nothing else is normalized.

use crdkit::CustomResourceDefinition;
use serde_json::Value;

/// `crd` as the API server would store it.
pub fn normalize(crd: &Value) -> Value {
    let crd = CustomResourceDefinition::from_value(crd.clone())
        .unwrap_or_else(|e| panic!("not a CRD: {e}"));
    let mut v = crd.to_value();
    let obj = v.as_object_mut().expect("an object");
    obj.remove("status");
    if let Some(Value::Object(meta)) = obj.get_mut("metadata") {
        meta.retain(|k, v| {
            matches!(k.as_str(), "name" | "labels" | "annotations")
                && !matches!(v, Value::Object(m) if m.is_empty())
        });
    }
    let spec = obj
        .get_mut("spec")
        .and_then(Value::as_object_mut)
        .expect("a spec");
    let kind = spec["names"]["kind"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let names = spec["names"].as_object_mut().expect("names");
    if names
        .get("singular")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        names.insert("singular".into(), kind.to_lowercase().into());
    }
    if names
        .get("listKind")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        names.insert("listKind".into(), format!("{kind}List").into());
    }
    let conversion = spec
        .entry("conversion")
        .or_insert_with(|| serde_json::json!({"strategy": "None"}));
    if let Some(service) = conversion.pointer_mut("/webhook/clientConfig/service")
        && let Some(s) = service.as_object_mut()
    {
        s.entry("port").or_insert(443.into());
    }
    v
}

/// The differences between `want` and `got`, one line each with its JSON path, at most `max`.
pub fn diff(want: &Value, got: &Value, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    walk("", want, got, &mut out, max);
    out
}

fn walk(path: &str, want: &Value, got: &Value, out: &mut Vec<String>, max: usize) {
    if out.len() >= max || want == got {
        return;
    }
    match (want, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a {
                let p = format!("{path}.{k}");
                match b.get(k) {
                    Some(vb) => walk(&p, va, vb, out, max),
                    None => out.push(format!("{p}: missing (want {})", short(va))),
                }
            }
            for (k, vb) in b {
                if !a.contains_key(k) && out.len() < max {
                    out.push(format!("{path}.{k}: unexpected {}", short(vb)));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                walk(&format!("{path}[{i}]"), va, vb, out, max);
            }
        }
        _ => out.push(format!("{path}: want {}, got {}", short(want), short(got))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 200 {
        let cut = (0..=200)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}...", &s[..cut])
    } else {
        s
    }
}
