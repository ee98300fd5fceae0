//! Documents of several CRD versions merged into one: apiextensions-apiserver
//! `pkg/controller/openapi/builder/merge.go` (`MergeSpecsV3`: the `info` of the first, paths
//! and schemas together, the shared `meta/v1` and `autoscaling/v1` definitions once, any other
//! conflict an error; `MergeSpecs` for v2, whose parameters and definitions are named so that
//! equal ones merge).

use serde_json::{Value, json};

use super::OpenApiError;
use super::v3doc::info;

const SHARED: &[&str] = &[
    "io.k8s.apimachinery.pkg.apis.meta.v1",
    "io.k8s.api.autoscaling.v1",
];

/// A v3 document with nothing in it.
pub(crate) fn empty_v3() -> Value {
    json!({"openapi": "3.0.0", "info": info(), "paths": {}, "components": {"schemas": {}}})
}

/// `MergeSpecsV3`. With `strict`, a definition of another group-version defined twice
/// differently, or a path published twice, is an error; without, the first stays.
pub(crate) fn v3(docs: Vec<Value>, strict: bool) -> Result<Value, OpenApiError> {
    let mut out = empty_v3();
    let mut first = true;
    for doc in docs {
        if first {
            out["openapi"] = doc["openapi"].clone();
            out["info"] = doc["info"].clone();
            first = false;
        }
        union(&mut out["paths"], &doc["paths"], strict, &|_| false)?;
        union(
            &mut out["components"]["schemas"],
            &doc["components"]["schemas"],
            strict,
            &|k| SHARED.iter().any(|p| k.starts_with(p)),
        )?;
    }
    Ok(out)
}

/// `MergeSpecs` over the CRDs' documents: paths, definitions and shared parameters together.
pub(crate) fn v2(docs: Vec<Value>) -> Result<Value, OpenApiError> {
    let mut out = json!({"swagger": "2.0", "info": info(), "paths": {}, "definitions": {}});
    let mut parameters = json!({});
    for doc in docs {
        union(&mut out["paths"], &doc["paths"], true, &|_| false)?;
        union(&mut out["definitions"], &doc["definitions"], true, &|_| {
            false
        })?;
        if let Some(p) = doc.get("parameters") {
            union(&mut parameters, p, true, &|_| false)?;
        }
    }
    if parameters.as_object().is_some_and(|p| !p.is_empty()) {
        out["parameters"] = parameters;
    }
    Ok(out)
}

/// Adds `from`'s entries to `into`. An entry already there is kept when equal or `shared`;
/// otherwise it is a conflict when `strict`.
fn union(
    into: &mut Value,
    from: &Value,
    strict: bool,
    shared: &dyn Fn(&str) -> bool,
) -> Result<(), OpenApiError> {
    let (Value::Object(into), Value::Object(from)) = (into, from) else {
        return Ok(());
    };
    for (k, v) in from {
        match into.get(k) {
            None => {
                into.insert(k.clone(), v.clone());
            }
            Some(existing) if existing == v || shared(k) || !strict => {}
            Some(_) => return Err(OpenApiError::Conflict { what: k.clone() }),
        }
    }
    Ok(())
}
