//! Builders and runners shared by the tests.

use crdkit_builtin::{defaults, validation};
use serde_json::{Value, json};

/// `obj` defaulted as decoding a request of `api_version` does.
pub fn defaulted(api_version: &str, kind: &str, mut obj: Value) -> Value {
    assert!(
        defaults::apply(api_version, kind, &mut obj),
        "{kind} is known"
    );
    obj
}

/// The errors of creating `obj` (defaulted and prepared first), as Go prints them.
pub fn create_errors(api_version: &str, kind: &str, obj: Value) -> Vec<String> {
    let mut obj = defaulted(api_version, kind, obj);
    defaults::prepare_for_create(api_version, kind, &mut obj);
    validation::validate_create(api_version, kind, &obj)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The errors of updating `old` (as stored) to `new`.
pub fn update_errors(api_version: &str, kind: &str, new: Value, old: &Value) -> Vec<String> {
    let mut new = defaulted(api_version, kind, new);
    defaults::prepare_for_update(api_version, kind, &mut new, old);
    validation::validate_update(api_version, kind, &new, old)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// `obj` as the API server stores it on create.
pub fn stored(api_version: &str, kind: &str, obj: Value) -> Value {
    let mut obj = defaulted(api_version, kind, obj);
    defaults::prepare_for_create(api_version, kind, &mut obj);
    let errs = validation::validate_create(api_version, kind, &obj);
    assert!(errs.is_empty(), "{kind} is valid: {errs:?}");
    obj["metadata"]["resourceVersion"] = json!("1");
    obj
}

/// A valid container.
pub fn container(name: &str) -> Value {
    json!({"name": name, "image": "registry.k8s.io/pause:3.10"})
}

/// A valid pod spec with one container.
pub fn pod_spec() -> Value {
    json!({"containers": [container("ctr")]})
}

/// A Pod named `name` with `spec`.
pub fn pod(spec: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "p", "namespace": "ns", "uid": "u"}, "spec": spec})
}

/// A workload's template labelled `app: web`.
pub fn template(spec: Value) -> Value {
    json!({"metadata": {"labels": {"app": "web"}}, "spec": spec})
}

/// A Deployment with `spec` (selector and template given by the caller or these defaults).
pub fn deployment(spec: Value) -> Value {
    let mut base =
        json!({"selector": {"matchLabels": {"app": "web"}}, "template": template(pod_spec())});
    merge(&mut base, spec);
    json!({"metadata": {"name": "web", "namespace": "ns", "uid": "u"}, "spec": base})
}

/// Shallow-merges the fields of `patch` into `base`.
pub fn merge(base: &mut Value, patch: Value) {
    if let (Some(b), Value::Object(p)) = (base.as_object_mut(), patch) {
        for (k, v) in p {
            b.insert(k, v);
        }
    }
}
