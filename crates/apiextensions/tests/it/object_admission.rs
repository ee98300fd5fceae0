//! `Admission`: a CRD version admitting objects on create and update in the API server's order
//! (decode, status subresource, validation).

use crdkit_apiextensions::admission::{Admission, AdmissionError};
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::{Value, json};

fn crd(status: bool) -> CustomResourceDefinition {
    let mut version = json!({
        "name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer", "minimum": 1, "default": 1},
                "name": {"type": "string", "x-kubernetes-validations": [
                    {"rule": "self == oldSelf", "message": "name is immutable"}]}}},
            "status": {"type": "object", "properties": {
                "ready": {"type": "integer", "maximum": 3}}}}}}
    });
    if status {
        version["subresources"] = json!({"status": {}});
    }
    CustomResourceDefinition::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget"},
            "versions": [version, {"name": "v0", "served": false, "storage": false,
                "schema": {"openAPIV3Schema": {"type": "object"}}}]}
    }))
    .unwrap()
}

fn widget(spec: Value, status: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": spec, "status": status})
}

fn messages(a: &crdkit_apiextensions::admission::Admitted) -> Vec<String> {
    a.errors.iter().map(ToString::to_string).collect()
}

#[test]
fn create_prunes_defaults_and_validates() {
    let a = Admission::new(&crd(false), "v1").unwrap();
    assert_eq!((a.api_version(), a.kind()), ("example.com/v1", "Widget"));
    let mut obj = widget(json!({"name": "x", "extra": 1}), json!({"ready": 5}));
    let r = a.create(&mut obj);
    assert_eq!(r.unknown_fields, vec!["spec.extra"]);
    assert_eq!(obj["spec"], json!({"name": "x", "replicas": 1}));
    // Without the status subresource, status is the main resource's to set.
    assert_eq!(
        messages(&r),
        vec![
            "status.ready: Invalid value: 5: status.ready in body should be less than or equal to 3"
        ]
    );
    assert!(!r.is_valid());
}

#[test]
fn status_subresource_drops_status_on_create_and_keeps_it_on_update() {
    let a = Admission::new(&crd(true), "v1").unwrap();
    assert!(a.has_status_subresource());
    let mut obj = widget(json!({"name": "x"}), json!({"ready": 5}));
    let r = a.create(&mut obj);
    assert!(r.is_valid(), "{:?}", messages(&r));
    assert!(obj.get("status").is_none());

    let old = widget(json!({"name": "x"}), json!({"ready": 2}));
    let mut new = widget(json!({"name": "x"}), json!({"ready": 9}));
    let r = a.update(&mut new, &old);
    assert!(r.is_valid(), "{:?}", messages(&r));
    assert_eq!(new["status"], json!({"ready": 2}));
}

#[test]
fn status_updates_change_status_only() {
    let a = Admission::new(&crd(true), "v1").unwrap();
    let old = widget(json!({"name": "x"}), json!({"ready": 1}));
    let mut new = widget(json!({"name": "changed"}), json!({"ready": 9}));
    let r = a.update_status(&mut new, &old).unwrap();
    assert_eq!(new["spec"], json!({"name": "x", "replicas": 1}));
    // The status schema is validated on its own: kube-openapi names the field relative to it.
    assert_eq!(
        messages(&r),
        vec!["status.ready: Invalid value: 9: ready in body should be less than or equal to 3"]
    );
    let without = Admission::new(&crd(false), "v1").unwrap();
    assert_eq!(
        without.update_status(&mut new, &old).unwrap_err(),
        AdmissionError::NoStatusSubresource
    );
}

#[test]
fn update_runs_transition_rules() {
    let a = Admission::new(&crd(false), "v1").unwrap();
    let old = widget(json!({"name": "x"}), json!({}));
    let mut new = widget(json!({"name": "y"}), json!({}));
    let r = a.update(&mut new, &old);
    // A failed rule shows a scalar's value (objects and arrays omit it).
    assert_eq!(
        messages(&r),
        vec!["spec.name: Invalid value: \"y\": name is immutable"]
    );
    // The same object as a create has no old value: the rule does not run.
    let mut new = widget(json!({"name": "y"}), json!({}));
    assert!(a.create(&mut new).is_valid());
}

/// An object of another kind (or group) sent to this resource is not decoded against its schema
/// (`unstructuredSchemaCoercer.apply` and `unstructuredDefaulter` skip other group-kinds); only
/// its `metadata` is, and validation rejects its type meta alone (test/integration/
/// validation_test.go TestForProperValidationErrors "bad kind").
#[test]
fn another_kind_is_rejected_undecoded() {
    let a = Admission::new(&crd(false), "v1").unwrap();
    let mut obj = widget(json!({"name": "x", "extra": 1}), json!({"ready": 5}));
    obj["kind"] = json!("SomethingElse");
    obj["metadata"]["bogus"] = json!(1);
    let r = a.create(&mut obj);
    assert_eq!(r.unknown_fields, vec!["metadata.bogus"]);
    assert_eq!(obj["spec"], json!({"name": "x", "extra": 1}));
    assert_eq!(obj["metadata"], json!({"name": "w"}));
    assert_eq!(
        messages(&r),
        vec![r#"kind: Invalid value: "SomethingElse": must be Widget"#]
    );
    let mut obj = widget(json!({}), json!({}));
    obj["apiVersion"] = json!("other.example.com/v1");
    let r = a.create(&mut obj);
    assert_eq!(obj["spec"], json!({}));
    assert_eq!(
        messages(&r),
        vec![r#"apiVersion: Invalid value: "other.example.com/v1": must be example.com/v1"#]
    );
    let stored = widget(json!({"name": "x"}), json!({}));
    let mut obj = widget(json!({"name": "x"}), json!({}));
    obj["kind"] = json!("SomethingElse");
    let r = a.update(&mut obj, &stored);
    assert_eq!(obj["spec"], json!({"name": "x"}));
    assert_eq!(
        messages(&r),
        vec![r#"kind: Invalid value: "SomethingElse": must be Widget"#]
    );
}

#[test]
fn decoding_errors_stand_alone() {
    let a = Admission::new(&crd(false), "v1").unwrap();
    let mut obj = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": 7}, "spec": {"replicas": 0}});
    let r = a.create(&mut obj);
    assert_eq!(r.errors.len(), 1, "{:?}", messages(&r));
    assert!(r.unknown_fields.is_empty());
}

#[test]
fn versions_that_cannot_admit() {
    let c = crd(false);
    assert_eq!(
        Admission::new(&c, "v2").unwrap_err(),
        AdmissionError::NoSuchVersion("v2".into())
    );
    assert_eq!(
        Admission::new(&c, "v0").unwrap_err(),
        AdmissionError::NotServed("v0".into())
    );
    assert_eq!(
        AdmissionError::NotServed("v0".into()).to_string(),
        "version v0 is not served"
    );
}
