//! The `/scale` subresource of custom resources: `autoscaling/v1` `Scale` read from and written
//! to the paths of `subresources.scale`.
//!
//! Mirrors apiextensions-apiserver `pkg/registry/customresource/etcd.go` (`ScaleREST`,
//! `scaleFromCustomResource`: a missing spec or status replica count reads as 0, a missing
//! selector as empty; `Update`: `ValidateScale`, then the spec replica path set and the custom
//! resource updated, with the Scale's resourceVersion as precondition).

use serde_json::{Map, Value, json};

use crate::engine::{CustomResourceSubresourceScale, FieldError, FieldPath};
use crate::object;

/// The Scale of `obj` (its resourceVersion included).
#[must_use]
pub fn scale_of(obj: &Value, spec: &CustomResourceSubresourceScale) -> Value {
    let int = |path: &str| {
        object::at_path(obj, path)
            .and_then(Value::as_i64)
            .unwrap_or(0)
    };
    let spec_replicas = int(&spec.spec_replicas_path);
    let status_replicas = int(&spec.status_replicas_path);
    let selector = spec
        .label_selector_path
        .as_deref()
        .and_then(|p| object::at_path(obj, p))
        .map(selector_string)
        .unwrap_or_default();
    let selector = selector.as_str();
    let mut meta = Map::new();
    for k in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(v) = object::meta_str(obj, k).filter(|v| !v.is_empty()) {
            meta.insert(k.to_owned(), json!(v));
        }
    }
    let mut scale_spec = Map::new();
    if spec_replicas != 0 {
        scale_spec.insert("replicas".to_owned(), json!(spec_replicas));
    }
    let mut status = Map::new();
    status.insert("replicas".to_owned(), json!(status_replicas));
    if !selector.is_empty() {
        status.insert("selector".to_owned(), json!(selector));
    }
    json!({"kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": meta,
        "spec": scale_spec, "status": status})
}

/// A selector as Scale's `status.selector` carries it: a string as it is (custom resources'
/// `labelSelectorPath`); a `LabelSelector` (Deployments, ReplicaSets, StatefulSets) or a map
/// of labels (ReplicationControllers) printed as apimachinery's `labels.Selector.String()`
/// (`pkg/registry/apps/deployment/storage/storage.go` `scaleFromDeployment`: requirements
/// sorted by key, `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`).
fn selector_string(v: &Value) -> String {
    let strs = |v: Option<&Value>| -> Vec<String> {
        let mut s: Vec<String> = v
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        s.sort();
        s
    };
    let Value::Object(m) = v else {
        return v.as_str().unwrap_or("").to_owned();
    };
    let mut reqs: Vec<(String, String)> = Vec::new();
    let labels = match m.get("matchLabels") {
        Some(Value::Object(l)) => Some(l),
        _ if m.values().all(Value::is_string) => Some(m),
        _ => None,
    };
    for (k, v) in labels.into_iter().flatten() {
        reqs.push((k.clone(), format!("{k}={}", v.as_str().unwrap_or(""))));
    }
    for e in m
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = e.get("key").and_then(Value::as_str).unwrap_or("");
        let values = strs(e.get("values")).join(",");
        let r = match e.get("operator").and_then(Value::as_str).unwrap_or("") {
            "In" => format!("{key} in ({values})"),
            "NotIn" => format!("{key} notin ({values})"),
            "Exists" => key.to_owned(),
            "DoesNotExist" => format!("!{key}"),
            _ => continue,
        };
        reqs.push((key.to_owned(), r));
    }
    reqs.sort();
    reqs.into_iter()
        .map(|(_, r)| r)
        .collect::<Vec<_>>()
        .join(",")
}

/// The replica count a Scale asks for, validated (`ValidateScale`).
///
/// # Errors
/// The field errors of an invalid Scale (a negative or non-integer count), for a 422 of kind
/// `Scale.autoscaling`.
pub fn requested_replicas(scale: &Value) -> Result<i64, Vec<FieldError>> {
    let at = FieldPath::new("spec").child("replicas");
    match scale.get("spec").and_then(|s| s.get("replicas")) {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(r) if r < 0 => Err(vec![FieldError::invalid(
                &at,
                r,
                "must be greater than or equal to 0",
            )]),
            Some(r) if r > i64::from(i32::MAX) => Err(vec![FieldError::invalid(
                &at,
                r,
                "must be a 32-bit integer",
            )]),
            Some(r) => Ok(r),
            None => Err(vec![FieldError::invalid(
                &at,
                n.to_string().as_str(),
                "must be an integer",
            )]),
        },
        Some(v) => Err(vec![FieldError::invalid(&at, v, "must be an integer")]),
    }
}

/// Writes the replica count into the object at the spec replica path.
pub fn set_replicas(obj: &mut Value, spec: &CustomResourceSubresourceScale, replicas: i64) {
    object::set_path(obj, &spec.spec_replicas_path, json!(replicas));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> CustomResourceSubresourceScale {
        CustomResourceSubresourceScale {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: Some(".status.labelSelector".into()),
        }
    }

    #[test]
    fn scale_reads_the_paths() {
        let obj = json!({"metadata": {"name": "x", "namespace": "d", "resourceVersion": "7", "uid": "u"},
            "spec": {"replicas": 3}, "status": {"labelSelector": "app=x"}});
        let s = scale_of(&obj, &spec());
        assert_eq!(s["spec"]["replicas"], 3);
        assert_eq!(s["status"], json!({"replicas": 0, "selector": "app=x"}));
        assert_eq!(s["metadata"]["resourceVersion"], "7");
    }

    #[test]
    fn selectors_print_as_go_prints_them() {
        let sel = json!({"matchLabels": {"b": "2", "a": "1"},
            "matchExpressions": [{"key": "c", "operator": "In", "values": ["y", "x"]},
                                 {"key": "d", "operator": "DoesNotExist"}]});
        assert_eq!(selector_string(&sel), "a=1,b=2,c in (x,y),!d");
        assert_eq!(selector_string(&json!({"app": "web"})), "app=web");
        assert_eq!(selector_string(&json!("x=y")), "x=y");
    }

    #[test]
    fn replicas_are_validated() {
        assert_eq!(
            requested_replicas(&json!({"spec": {"replicas": 5}})).unwrap(),
            5
        );
        let e = requested_replicas(&json!({"spec": {"replicas": -1}})).unwrap_err();
        assert_eq!(
            e[0].to_string(),
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        let mut obj = json!({});
        set_replicas(&mut obj, &spec(), 5);
        assert_eq!(obj, json!({"spec": {"replicas": 5}}));
    }
}
