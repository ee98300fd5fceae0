//! The request side: apply-patch bodies, `fieldManager` validation, user-agent managers, the
//! checks of the patched object, and no-op timestamp reversion.

use serde_json::json;

use crdkit_apply::ApplyError;
use crdkit_apply::request::{
    check_patched_object, decode_apply_patch, decode_apply_patch_with,
    ignore_managed_fields_timestamps, manager_or_user_agent, validate_field_manager,
};

#[test]
fn apply_patch_bodies() {
    let yaml = b"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  replicas: 3\n  image: \"x\"\n";
    let v = decode_apply_patch(yaml).unwrap();
    assert_eq!(
        v,
        json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "a"}, "spec": {"replicas": 3, "image": "x"}})
    );
    let json_body = br#"{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"}}"#;
    assert_eq!(
        decode_apply_patch(json_body).unwrap(),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1"}})
    );
    // Empty and null bodies are an empty object (then rejected as `invalid object type: /, Kind=`).
    assert_eq!(decode_apply_patch(b"").unwrap(), json!({}));
    assert_eq!(decode_apply_patch(b"null").unwrap(), json!({}));
    let err = decode_apply_patch(b"[1, 2]").unwrap_err();
    assert_eq!(
        err.to_string(),
        "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"
    );
    assert_eq!(err.code(), 400);
    let err = decode_apply_patch(b"a: [").unwrap_err();
    assert!(
        err.to_string().starts_with("error decoding patch: "),
        "{err}"
    );
    assert_eq!(err.status()["reason"], "BadRequest");
    // The reader's limits are worded as go-yaml words its own.
    let mut options = serde_saphyr::Options::default();
    options.alias_limits.max_total_replayed_events = 1_000;
    let lol = b"a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n\
                c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n";
    assert_eq!(
        decode_apply_patch_with(lol, options)
            .unwrap_err()
            .to_string(),
        "error decoding patch: yaml: document contains excessive aliasing"
    );
    let mut options = serde_saphyr::Options::default();
    if let Some(b) = options.budget.as_mut() {
        b.max_depth = 5;
    }
    assert_eq!(
        decode_apply_patch_with(b"a: [[[[[[[1]]]]]]]", options)
            .unwrap_err()
            .to_string(),
        "error decoding patch: yaml: exceeded max depth of 5"
    );
}

#[test]
fn field_manager_option() {
    validate_field_manager("kubectl", true, "PatchOptions").unwrap();
    validate_field_manager("", false, "PatchOptions").unwrap();
    let err = validate_field_manager("", true, "PatchOptions").unwrap_err();
    assert_eq!(err.code(), 422);
    assert_eq!(
        err.to_string(),
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
    assert_eq!(
        err.status(),
        json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
            "reason": "Invalid",
            "details": {"group": "meta.k8s.io", "kind": "PatchOptions", "causes": [{
                "reason": "FieldValueRequired",
                "message": "Required value: is required for apply patch",
                "field": "fieldManager"
            }]},
            "code": 422
        })
    );
    let long = "x".repeat(129);
    let err = validate_field_manager(&long, false, "UpdateOptions").unwrap_err();
    assert_eq!(
        err.to_string(),
        "UpdateOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: may not be more than 128 bytes"
    );
    let err = validate_field_manager("a\u{7}b", false, "CreateOptions").unwrap_err();
    assert_eq!(
        err.to_string(),
        "CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Invalid value: \"a\\ab\": invalid character U+0007 (at position 1)"
    );
}

#[test]
fn managers_from_user_agents() {
    assert_eq!(
        manager_or_user_agent("mine", "kubectl/v1.32.4 (linux/amd64)"),
        "mine"
    );
    assert_eq!(
        manager_or_user_agent("", "kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07"),
        "kubectl"
    );
    assert_eq!(manager_or_user_agent("", "kube-rs"), "kube-rs");
    assert_eq!(manager_or_user_agent("", "a\u{1}b/1"), "ab");
    assert_eq!(manager_or_user_agent("", &"é".repeat(100)).len(), 128);
}

#[test]
fn patched_object_checks() {
    let gr = "crontabs.stable.example.com";
    let mut obj = json!({"metadata": {"name": "a"}});
    check_patched_object(&mut obj, "a", Some("default"), true, gr).unwrap();
    assert_eq!(obj["metadata"]["namespace"], "default");
    let mut obj = json!({"metadata": {"name": "b", "namespace": "default"}});
    let err = check_patched_object(&mut obj, "a", Some("default"), false, gr).unwrap_err();
    assert_eq!(
        err,
        ApplyError::BadRequest(
            "the name of the object (b) does not match the name on the URL (a)".into()
        )
    );
    let mut obj = json!({"metadata": {"name": "a", "namespace": "other"}});
    let err = check_patched_object(&mut obj, "a", Some("default"), false, gr).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the namespace of the provided object does not match the namespace sent on the request"
    );
    // Cluster-scoped: the namespace is cleared.
    let mut obj = json!({"metadata": {"name": "a", "namespace": "x"}});
    check_patched_object(&mut obj, "a", None, false, gr).unwrap();
    assert!(obj["metadata"].get("namespace").is_none());
    let mut obj = json!({"metadata": {"name": "a", "uid": "123"}});
    let err = check_patched_object(&mut obj, "a", Some("default"), true, gr).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Operation cannot be fulfilled on crontabs.stable.example.com \"a\": uid mismatch: the provided object specified uid 123, and no existing object was found"
    );
    assert_eq!(
        err.status()["details"],
        json!({"name": "a", "group": "stable.example.com", "kind": "crontabs"})
    );
    assert_eq!(err.code(), 409);
}

#[test]
fn no_op_writes_keep_old_timestamps() {
    let old = json!({"spec": {"a": 1}, "metadata": {"managedFields": [
        {"manager": "m", "operation": "Apply", "time": "2024-01-01T00:00:00Z", "fieldsV1": {"f:spec": {}}}
    ]}});
    let mut new = old.clone();
    new["metadata"]["managedFields"][0]["time"] = json!("2024-02-02T00:00:00Z");
    assert_eq!(ignore_managed_fields_timestamps(new.clone(), &old), old);
    // A real change keeps the new time.
    let mut changed = new.clone();
    changed["spec"]["a"] = json!(2);
    assert_eq!(
        ignore_managed_fields_timestamps(changed.clone(), &old),
        changed
    );
    // So does a change of ownership.
    let mut owners = new.clone();
    owners["metadata"]["managedFields"][0]["fieldsV1"] = json!({});
    assert_eq!(
        ignore_managed_fields_timestamps(owners.clone(), &old),
        owners
    );
}
