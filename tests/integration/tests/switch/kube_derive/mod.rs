//! kube-rs's derive examples (`examples/crd_derive*.rs`) and its schema test
//! (`kube-derive/tests/crd_schema_test.rs`) ported to crdkit: each spec is transcribed twice,
//! with kube-derive's attributes and with crdkit's, and the two CRDs are compared field by field.
//! Every difference is listed with the reason, so a new one (or one that goes away) fails here.
//!
//! Differences that recur, explained once:
//! - **`title`**: kube-derive writes the root type's name as the root schema's `title`; crdkit
//!   writes no title (it is not validated, and `kubectl explain` does not show it).
//! - **`nullable`**: kube-derive marks every `Option` (and `status`) `nullable: true`; crdkit only
//!   where serde can write `null`: not under `skip_serializing_if`, not for `status` (which the
//!   generated root never writes as `null`). A client that sends `null` there has it pruned
//!   instead of stored (docs/migrating-from-kube-derive.md).
//! - **`required` order**: compared as sets; kube-derive sorts them, crdkit keeps field order.
//! - **numbers**: compared by value (`0` and `0.0` are one number in JSON).
//! - **integer ranges**: crdkit bounds unsigned and narrow integers as Kubernetes' own types do
//!   (`u32` → `minimum: 0, maximum: 4294967295`, no `format`; `i32` → `format: int32`); schemars
//!   writes `format: uint32`/`uint`, which the API server ignores, and `minimum: 0` only.

mod crd_derive;
mod crd_derive_cel;
mod crd_derive_custom_schema;
mod crd_derive_multi;
mod crd_derive_schema;
mod crd_schema_test;

use serde_json::Value;

/// A difference between the two CRDs at a path (`spec.versions[0].schema...`): the value on
/// each side, `None` where the side has no such key.
#[derive(Debug, PartialEq)]
pub struct Diff {
    pub path: String,
    pub kube: Option<Value>,
    pub crdkit: Option<Value>,
}

/// An expected difference: one value (`kube`, `crdkit`), or everything under a path (`subtree`),
/// and why.
pub struct Known {
    path: String,
    values: Option<(Option<Value>, Option<Value>)>,
    why: &'static str,
}

/// The two sides differ at `path` as given (`None`: the side has no such key).
pub fn at(
    path: impl Into<String>,
    kube: Option<Value>,
    crdkit: Option<Value>,
    why: &'static str,
) -> Known {
    Known {
        path: path.into(),
        values: Some((kube, crdkit)),
        why,
    }
}

/// The two sides differ somewhere under `path`.
pub fn under(path: impl Into<String>, why: &'static str) -> Known {
    Known {
        path: path.into(),
        values: None,
        why,
    }
}

/// Compares the CRDs and checks that they differ exactly as `known` says.
pub fn compare(kube: &Value, crdkit: &Value, known: &[Known]) {
    let mut diffs = Vec::new();
    walk(kube, crdkit, "", &mut diffs);
    let mut unexplained = Vec::new();
    let mut used = vec![false; known.len()];
    for d in &diffs {
        let hit = known.iter().position(|k| {
            assert!(!k.why.is_empty(), "{}: say why", k.path);
            match &k.values {
                Some((kube, crdkit)) => {
                    k.path == d.path && same(kube, &d.kube) && same(crdkit, &d.crdkit)
                }
                None => d.path == k.path || d.path.starts_with(&format!("{}.", k.path)),
            }
        });
        match hit {
            Some(i) => used[i] = true,
            None => unexplained.push(d),
        }
    }
    let stale: Vec<&str> = known
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(k, _)| k.path.as_str())
        .collect();
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "unexplained differences: {unexplained:#?}\nexpected differences not found: {stale:?}"
    );
}

fn same(a: &Option<Value>, b: &Option<Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => equal(a, b),
        _ => false,
    }
}

/// JSON equality with numbers by value and `required` as a set.
fn equal(a: &Value, b: &Value) -> bool {
    let mut diffs = Vec::new();
    walk(a, b, "", &mut diffs);
    diffs.is_empty()
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(kube: &Value, crdkit: &Value, path: &str, out: &mut Vec<Diff>) {
    match (kube, crdkit) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = child(path, k);
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) if k == "required" => {
                        let set = |v: &Value| {
                            let mut s: Vec<String> = v
                                .as_array()
                                .into_iter()
                                .flatten()
                                .map(ToString::to_string)
                                .collect();
                            s.sort();
                            s
                        };
                        if set(x) != set(y) {
                            out.push(diff(p, Some(x), Some(y)));
                        }
                    }
                    (Some(x), Some(y)) => walk(x, y, &p, out),
                    (x, y) => out.push(diff(p, x, y)),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                walk(x, y, &format!("{path}[{i}]"), out);
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        (a, b) if a == b => {}
        (a, b) => out.push(diff(path.to_owned(), Some(a), Some(b))),
    }
}

fn diff(path: String, kube: Option<&Value>, crdkit: Option<&Value>) -> Diff {
    Diff {
        path,
        kube: kube.cloned(),
        crdkit: crdkit.cloned(),
    }
}

/// The path of the first version's schema, for `at` and `under`.
pub const V0: &str = "spec.versions[0].schema.openAPIV3Schema";

/// The CRD kube-derive writes, as JSON.
pub fn kube_crd<T: kube::CustomResourceExt>() -> Value {
    serde_json::to_value(T::crd()).unwrap()
}

/// The CRD crdkit writes, as JSON.
pub fn crdkit_crd<T: crdkit::__private::CustomResource>() -> Value {
    T::crd().expect("builds").to_value()
}
