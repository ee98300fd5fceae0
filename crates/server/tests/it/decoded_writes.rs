//! A custom resource's body is decoded (pruned, defaulted) before the field manager records
//! the write, as apiextensions-apiserver's codec does before apiserver's handlers/create.go,
//! update.go and patch.go call `UpdateNoErrors`: the writer owns the defaults it got, never a
//! pruned field, and an apply of another value for a defaulted field conflicts with it.

use serde_json::{Value, json};

use crate::common::*;

fn crontab(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": name}, "spec": spec})
}

/// The `fieldsV1` of `manager`'s entry with `operation`.
fn fields_of(obj: &Value, manager: &str, operation: &str) -> Option<Value> {
    obj["metadata"]["managedFields"]
        .as_array()?
        .iter()
        .find(|m| m["manager"] == manager && m["operation"] == operation)
        .map(|m| m["fieldsV1"].clone())
}

async fn apply(h: &Http, path: &str, body: &Value) -> Reply {
    h.send(
        "PATCH",
        path,
        &[("content-type", "application/apply-patch+yaml")],
        Some(body.to_string().into_bytes()),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_records_defaults_and_never_a_pruned_field() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-defaulting.yaml").await;
    let r = h
        .post(
            &format!("{CT}?fieldManager=creator&fieldValidation=Warn"),
            &crontab("a", json!({"image": "x", "bogus": 1})),
        )
        .await
        .expect(201);
    // The unknown field is still reported, once.
    assert_eq!(r.warnings(), [r#"299 - "unknown field \"spec.bogus\"""#]);
    let r = r.json();
    assert_eq!(
        r["spec"],
        json!({"cronSpec": "5 0 * * *", "image": "x", "replicas": 1})
    );
    assert_eq!(
        fields_of(&r, "creator", "Update"),
        Some(json!({"f:spec": {".": {}, "f:cronSpec": {}, "f:image": {}, "f:replicas": {}}})),
        "{r}"
    );
    // What is stored says the same.
    let got = h.get(&format!("{CT}/a")).await.expect(200).json();
    assert_eq!(
        got["metadata"]["managedFields"],
        r["metadata"]["managedFields"]
    );
    // Strict: rejected as before, nothing created.
    let e = h
        .post(
            &format!("{CT}?fieldManager=creator&fieldValidation=Strict"),
            &crontab("b", json!({"image": "x", "bogus": 1})),
        )
        .await
        .expect(400)
        .json();
    assert_eq!(
        e["message"],
        "strict decoding error: unknown field \"spec.bogus\""
    );
    h.get(&format!("{CT}/b")).await.expect(404);
    // A defaulted value that fails validation is still rejected (defaults before validation).
    let e = h
        .post(CT, &crontab("c", json!({"replicas": 0})))
        .await
        .expect(422)
        .json();
    assert_eq!(e["details"]["causes"][0]["field"], "spec.replicas");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_of_a_defaulted_field_conflicts_with_the_creator() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-defaulting.yaml").await;
    h.post(
        &format!("{CT}?fieldManager=creator"),
        &crontab("a", json!({"image": "x"})),
    )
    .await
    .expect(201);
    let e = apply(
        &h,
        &format!("{CT}/a?fieldManager=applier"),
        &crontab("a", json!({"replicas": 3})),
    )
    .await
    .expect(409)
    .json();
    assert_eq!(e["reason"], "Conflict");
    assert_eq!(
        e["message"],
        r#"Apply failed with 1 conflict: conflict with "creator" using stable.example.com/v1: .spec.replicas"#
    );
    assert_eq!(e["details"]["causes"][0]["field"], ".spec.replicas");
    // Forced, the applier takes the field over; its entry names what it applied only (Go
    // defaults the merged object after the field manager computed the applier's set).
    let r = apply(
        &h,
        &format!("{CT}/a?fieldManager=applier&force=true"),
        &crontab("a", json!({"replicas": 3})),
    )
    .await
    .expect(200)
    .json();
    assert_eq!(r["spec"]["replicas"], 3);
    assert_eq!(
        fields_of(&r, "applier", "Apply"),
        Some(json!({"f:spec": {"f:replicas": {}}})),
        "{r}"
    );
    assert_eq!(
        fields_of(&r, "creator", "Update"),
        Some(json!({"f:spec": {".": {}, "f:cronSpec": {}, "f:image": {}}})),
        "{r}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn merge_patch_result_is_decoded_before_the_field_manager() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-defaulting.yaml").await;
    h.post(
        &format!("{CT}?fieldManager=creator"),
        &crontab("a", json!({"image": "x", "replicas": 2})),
    )
    .await
    .expect(201);
    // Removing a defaulted field brings its default back; the unknown field is pruned and
    // reported; the patcher owns only what it changed.
    let r = h
        .patch(
            &format!("{CT}/a?fieldManager=patcher&fieldValidation=Warn"),
            "application/merge-patch+json",
            &json!({"spec": {"replicas": null, "image": "y", "bogus": 2}}),
        )
        .await
        .expect(200);
    assert_eq!(r.warnings(), [r#"299 - "unknown field \"spec.bogus\"""#]);
    let r = r.json();
    assert_eq!(
        r["spec"],
        json!({"cronSpec": "5 0 * * *", "image": "y", "replicas": 1})
    );
    assert_eq!(
        fields_of(&r, "patcher", "Update"),
        Some(json!({"f:spec": {"f:image": {}, "f:replicas": {}}})),
        "{r}"
    );
    assert_eq!(
        fields_of(&r, "creator", "Update"),
        Some(json!({"f:spec": {".": {}, "f:cronSpec": {}}})),
        "{r}"
    );
    // A patch whose decoded result is the stored object writes nothing.
    let rv = r["metadata"]["resourceVersion"].clone();
    let again = h
        .merge(
            &format!("{CT}/a?fieldManager=patcher"),
            &json!({"spec": {"replicas": null}}),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(again["metadata"]["resourceVersion"], rv);
    // A JSON patch adding an unknown field under Strict is rejected, the field named (the
    // decoding before the field manager found it).
    let e = h
        .patch(
            &format!("{CT}/a?fieldManager=patcher&fieldValidation=Strict"),
            "application/json-patch+json",
            &json!([{"op": "add", "path": "/spec/bogus", "value": 1}]),
        )
        .await;
    assert!(e.status >= 400, "{}", e.status);
    let msg = e.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        msg.contains(r#"strict decoding error: unknown field "spec.bogus""#),
        "{msg}"
    );
    // A PUT is decoded the same way.
    let mut put = again.clone();
    put["spec"] = json!({"image": "z"});
    let r = h
        .put(&format!("{CT}/a?fieldManager=putter"), &put)
        .await
        .expect(200)
        .json();
    assert_eq!(
        r["spec"],
        json!({"cronSpec": "5 0 * * *", "image": "z", "replicas": 1})
    );
    assert_eq!(
        fields_of(&r, "putter", "Update"),
        Some(json!({"f:spec": {"f:image": {}}})),
        "{r}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_writes_record_status_defaults_only() {
    let s = server().await;
    let h = Http::of(&s);
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "size": {"type": "integer", "default": 1}}},
                    "status": {"type": "object", "properties": {
                        "phase": {"type": "string", "default": "Pending"},
                        "ready": {"type": "boolean"}}}}}}}]}
    });
    h.post(CRDS, &crd).await.expect(201);
    let w = "/apis/example.com/v1/namespaces/default/widgets";
    let created = h
        .post(
            &format!("{w}?fieldManager=creator"),
            &json!({"apiVersion": "example.com/v1", "kind": "Widget",
                    "metadata": {"name": "a"}, "spec": {}, "status": {"ready": true}}),
        )
        .await
        .expect(201)
        .json();
    // status is dropped on create under the status subresource (and so not owned).
    assert_eq!(
        fields_of(&created, "creator", "Update"),
        Some(json!({"f:spec": {".": {}, "f:size": {}}})),
        "{created}"
    );
    let mut body = created.clone();
    body["status"] = json!({"ready": true});
    let r = h
        .put(&format!("{w}/a/status?fieldManager=controller"), &body)
        .await
        .expect(200)
        .json();
    assert_eq!(r["status"], json!({"phase": "Pending", "ready": true}));
    assert_eq!(
        r["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["manager"] == "controller")
            .map(|m| (m["subresource"].clone(), m["fieldsV1"].clone())),
        Some((
            json!("status"),
            json!({"f:status": {".": {}, "f:phase": {}, "f:ready": {}}})
        )),
        "{r}"
    );
}
