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
            for k in ["openapi", "info"] {
                if let Some(v) = doc.get(k) {
                    out[k] = v.clone();
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(paths: &[&str], schemas: &[&str]) -> Value {
        let paths: serde_json::Map<String, Value> =
            paths.iter().map(|p| ((*p).to_owned(), json!({}))).collect();
        let schemas: serde_json::Map<String, Value> = schemas
            .iter()
            .map(|s| ((*s).to_owned(), json!({})))
            .collect();
        json!({"paths": paths, "components": {"schemas": schemas}})
    }

    const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";

    /// `TestMergeSpecV3` of merge_test.go.
    #[test]
    fn merge_spec_v3() {
        let cases = [
            (
                "oneCRD",
                vec![spec(&["/apis/stable.example.com/v1/crd1"], &[META])],
                spec(&["/apis/stable.example.com/v1/crd1"], &[META]),
            ),
            (
                "two CRDs same gv",
                vec![
                    spec(
                        &["/apis/stable.example.com/v1/crd1"],
                        &["com.example.stable.v1.CRD1", META],
                    ),
                    spec(
                        &["/apis/stable.example.com/v1/crd2"],
                        &["com.example.stable.v1.CRD2", META],
                    ),
                ],
                spec(
                    &[
                        "/apis/stable.example.com/v1/crd1",
                        "/apis/stable.example.com/v1/crd2",
                    ],
                    &[
                        META,
                        "com.example.stable.v1.CRD1",
                        "com.example.stable.v1.CRD2",
                    ],
                ),
            ),
            (
                "two CRDs with scale",
                vec![
                    spec(
                        &["/apis/stable.example.com/v1/crd1"],
                        &["com.example.stable.v1.CRD1", META, SCALE],
                    ),
                    spec(
                        &["/apis/stable.example.com/v1/crd2"],
                        &["com.example.stable.v1.CRD2", META, SCALE],
                    ),
                ],
                spec(
                    &[
                        "/apis/stable.example.com/v1/crd1",
                        "/apis/stable.example.com/v1/crd2",
                    ],
                    &[
                        META,
                        "com.example.stable.v1.CRD1",
                        "com.example.stable.v1.CRD2",
                        SCALE,
                    ],
                ),
            ),
        ];
        for (name, specs, want) in cases {
            let got = v3(specs, true).unwrap();
            assert_eq!(got["paths"], want["paths"], "{name}");
            assert_eq!(got["components"], want["components"], "{name}");
        }
    }

    #[test]
    fn a_kind_defined_twice_differently_conflicts() {
        let mut a = spec(&["/a"], &["com.example.v1.X"]);
        let b = spec(&["/b"], &["com.example.v1.X"]);
        a["components"]["schemas"]["com.example.v1.X"] = json!({"type": "object"});
        assert_eq!(
            v3(vec![a.clone(), b.clone()], true),
            Err(OpenApiError::Conflict {
                what: "com.example.v1.X".into()
            })
        );
        // A server keeps the first.
        let kept = v3(vec![a, b], false).unwrap();
        assert_eq!(
            kept["components"]["schemas"]["com.example.v1.X"],
            json!({"type": "object"})
        );
        // The shared definitions never conflict.
        let mut c = spec(&["/c"], &[META]);
        c["components"]["schemas"][META] = json!({"type": "object"});
        assert!(v3(vec![c, spec(&["/d"], &[META])], true).is_ok());
    }
}
