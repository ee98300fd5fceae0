//! `docs RELEASE SWAGGER`: `data/kubernetes-openapi-docs.json`, the words of each definition
//! (descriptions, patch strategies, merge keys, unions) at the places of its structure, the
//! definitions each group-version's paths refer to, and the definitions only v2 has.
//!
//! The words come from the v2 document; v2 and v3 are generated from the same Go definitions,
//! so every v2 node has a v3 node at the same place (a property, `items`,
//! `additionalProperties`): a v2 node without one is an error, not dropped.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Map, Value, json};

/// What an overlay node carries (crdkit-builtin `openapi/overlay.rs` `WORDS`).
const WORDS: &[&str] = &[
    "description",
    "example",
    "x-kubernetes-patch-merge-key",
    "x-kubernetes-patch-strategy",
    "x-kubernetes-unions",
];
const NESTED: &[&str] = &["items", "additionalProperties", "not"];

const V2_PREFIX: &str = "#/definitions/";
const V3_PREFIX: &str = "#/components/schemas/";

/// The structure of the 1.35 definitions in `structure_file`, by name.
pub fn structure_135(structure_file: &Path) -> Result<BTreeMap<String, Value>, String> {
    let text = std::fs::read_to_string(structure_file).map_err(|e| e.to_string())?;
    let data: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let defs = data["definitions"].as_array().ok_or("no definitions")?;
    let ids = data["versions"]["1.35"].as_array().ok_or("no 1.35")?;
    let mut out = BTreeMap::new();
    for id in ids {
        let i = usize::try_from(id.as_u64().ok_or("bad index")?).map_err(|e| e.to_string())?;
        let pair = defs.get(i).ok_or("index out of range")?;
        let name = pair[0].as_str().ok_or("bad name")?;
        out.insert(name.to_owned(), pair[1].clone());
    }
    Ok(out)
}

/// The words of `v2` at the places of `v3`; `None` when there are none.
fn words(v2: &Value, v3: &Value, at: &str) -> Result<Option<Value>, String> {
    let (Value::Object(w), Value::Object(s)) = (v2, v3) else {
        return Ok(None);
    };
    let mut out = Map::new();
    for &k in WORDS {
        if let Some(v) = w.get(k) {
            out.insert(k.to_owned(), v.clone());
        }
    }
    if let Some(Value::Object(props)) = w.get("properties") {
        let mut found = Map::new();
        for (p, schema) in props {
            let structure = s
                .get("properties")
                .and_then(|sp| sp.get(p))
                .ok_or_else(|| format!("{at}.{p}: in v2, not in the structure"))?;
            if let Some(w) = words(schema, structure, &format!("{at}.{p}"))? {
                found.insert(p.clone(), w);
            }
        }
        if !found.is_empty() {
            out.insert("properties".to_owned(), Value::Object(found));
        }
    }
    for &k in NESTED {
        if let Some(schema @ Value::Object(_)) = w.get(k) {
            let structure = s
                .get(k)
                .ok_or_else(|| format!("{at}/{k}: in v2, not in the structure"))?;
            if let Some(w) = words(schema, structure, &format!("{at}/{k}"))? {
                out.insert(k.to_owned(), w);
            }
        }
    }
    Ok((!out.is_empty()).then_some(Value::Object(out)))
}

/// `/apis/apps/v1/...` → `apps/v1`, `/api/v1/...` → `v1`, anything else `""`.
pub fn group_version_of(path: &str) -> String {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match parts.as_slice() {
        ["api", v, ..] if !v.is_empty() => (*v).to_owned(),
        ["apis", g, v, ..] if !g.is_empty() && !v.is_empty() => format!("{g}/{v}"),
        _ => String::new(),
    }
}

/// The definitions `v` refers to, through the shared `#/parameters/` (request bodies such as
/// `DeleteOptions` are there).
fn refs(v: &Value, parameters: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => {
                        if let Some(name) = r.strip_prefix(V2_PREFIX) {
                            out.insert(name.to_owned());
                        } else if let Some(p) = r.strip_prefix("#/parameters/") {
                            refs(&parameters[p], parameters, out);
                        }
                    }
                    _ => refs(v, parameters, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| refs(v, parameters, out)),
        _ => {}
    }
}

/// A v2 schema with its references in v3 form.
fn to_v3_refs(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => (
                        k.clone(),
                        Value::String(r.replacen(V2_PREFIX, V3_PREFIX, 1)),
                    ),
                    _ => (k.clone(), to_v3_refs(v)),
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(to_v3_refs).collect()),
        _ => v.clone(),
    }
}

/// The text of the overlay file.
pub fn build(release: &str, swagger: &Path, structure_file: &Path) -> Result<String, String> {
    let text =
        std::fs::read_to_string(swagger).map_err(|e| format!("{}: {e}", swagger.display()))?;
    let swagger: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let structure = structure_135(structure_file)?;
    let defs = swagger["definitions"].as_object().ok_or("no definitions")?;
    let mut lines = Vec::new();
    let mut v2_only = Map::new();
    for (name, v2) in defs {
        match structure.get(name) {
            Some(v3) => {
                if let Some(w) = words(v2, v3, name)? {
                    lines.push(json!([name, w]).to_string());
                }
            }
            None => {
                v2_only.insert(name.clone(), to_v3_refs(v2));
            }
        }
    }
    let mut roots: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, item) in swagger["paths"].as_object().ok_or("no paths")? {
        let gv = roots.entry(group_version_of(path)).or_default();
        refs(item, &swagger["parameters"], gv);
    }
    let header = json!({"kubernetes": release, "roots": roots, "v2Only": v2_only});
    let mut out = format!("{{\"header\":{header},\n\"definitions\":[\n");
    out.push_str(&lines.join(",\n"));
    out.push_str("\n]}\n");
    Ok(out)
}
