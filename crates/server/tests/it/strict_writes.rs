//! Unknown fields in writes of built-in kinds, and strict field validation of patches.
//!
//! A built-in body is decoded into its Go struct before the field manager records the write
//! (apiserver handlers/create.go, update.go, patch.go), so an unknown field never reaches it:
//! the writer's entry is recorded, without the field. Under `fieldValidation=Strict` a merge or
//! JSON patch whose result has an unknown field is patch.go `jsonPatcher.applyPatchToCurrentObject`'s
//! 422 `patch: Invalid value: "<patched JSON>": strict decoding error: …`; a strategic merge
//! patch's (`applyPatchToObject`) names Go's `%+v` of the patch instead.

use serde_json::{Value, json};

use crate::common::*;

const CM: &str = "/api/v1/namespaces/default/configmaps";
const DEPLOY: &str = "/apis/apps/v1/namespaces/default/deployments";

/// The `fieldsV1` of `manager`'s entry.
fn fields_of(obj: &Value, manager: &str) -> Option<Value> {
    obj["metadata"]["managedFields"]
        .as_array()?
        .iter()
        .find(|m| m["manager"] == manager)
        .map(|m| m["fieldsV1"].clone())
}

fn deployment(name: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
        "spec": {"bogus": 1, "selector": {"matchLabels": {"app": "a"}},
            "template": {"metadata": {"labels": {"app": "a"}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}})
}

/// Go's `json.Marshal` of a decoded object: compact, keys sorted (no `<>&` here).
fn go_json(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let items: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), go_json(&m[k])))
                .collect();
            format!("{{{}}}", items.join(","))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(go_json).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// Go's `%q` of ASCII text without control characters.
fn go_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The 422 patch.go answers, its cause naming `text`.
fn assert_patch_invalid(e: &Value, text: &str, why: &str) {
    let body = format!("Invalid value: {}: {why}", go_quote(text));
    assert_eq!(e["code"], 422, "{e}");
    assert_eq!(e["reason"], "Invalid");
    assert_eq!(e["message"], format!(" \"\" is invalid: patch: {body}"));
    assert_eq!(
        e["details"],
        json!({"causes": [{"reason": "FieldValueInvalid", "message": body, "field": "patch"}]})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn builtin_writes_with_unknown_fields_are_recorded_without_them() {
    let s = server().await;
    let h = Http::of(&s);
    for (fv, warned) in [("Warn", true), ("Ignore", false)] {
        let name = format!("cm-{}", fv.to_lowercase());
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name},
            "data": {"a": "1"}, "bogus": 1});
        let r = h
            .post(
                &format!("{CM}?fieldManager=creator&fieldValidation={fv}"),
                &cm,
            )
            .await
            .expect(201);
        let want: &[&str] = if warned {
            &[r#"299 - "unknown field \"bogus\"""#]
        } else {
            &[]
        };
        assert_eq!(r.warnings(), want, "{fv}");
        let r = r.json();
        assert!(r.get("bogus").is_none(), "{r}");
        assert_eq!(
            fields_of(&r, "creator"),
            Some(json!({"f:data": {".": {}, "f:a": {}}})),
            "{fv}: {r}"
        );
        // A PUT and a merge patch with unknown fields: their writers recorded too.
        let mut put = r.clone();
        put["data"]["b"] = json!("2");
        put["bogus"] = json!(2);
        let r = h
            .put(
                &format!("{CM}/{name}?fieldManager=putter&fieldValidation={fv}"),
                &put,
            )
            .await
            .expect(200);
        assert_eq!(r.warnings().len(), usize::from(warned), "{fv}");
        let r = r.json();
        assert_eq!(
            fields_of(&r, "putter"),
            Some(json!({"f:data": {"f:b": {}}}))
        );
        let r = h
            .patch(
                &format!("{CM}/{name}?fieldManager=patcher&fieldValidation={fv}"),
                "application/merge-patch+json",
                &json!({"data": {"c": "3"}, "bogus": 3}),
            )
            .await
            .expect(200);
        assert_eq!(r.warnings().len(), usize::from(warned), "{fv}");
        let r = r.json();
        assert_eq!(
            fields_of(&r, "patcher"),
            Some(json!({"f:data": {"f:c": {}}}))
        );
        assert!(r.get("bogus").is_none(), "{r}");
    }
    // A Deployment's `spec.bogus`: the creator owns its (defaulted) spec, never the field.
    let r = h
        .post(
            &format!("{DEPLOY}?fieldManager=creator&fieldValidation=Warn"),
            &deployment("d"),
        )
        .await
        .expect(201);
    assert_eq!(r.warnings(), [r#"299 - "unknown field \"spec.bogus\"""#]);
    let r = r.json();
    let fields = fields_of(&r, "creator").expect("the creator's entry");
    assert!(fields["f:spec"]["f:replicas"].is_object(), "{fields}");
    assert!(fields["f:spec"]["f:template"].is_object(), "{fields}");
    assert!(!fields.to_string().contains("bogus"), "{fields}");
    // Strict: refused as a body's strict decoding error, nothing created.
    let e = h
        .post(
            &format!("{DEPLOY}?fieldManager=creator&fieldValidation=Strict"),
            &deployment("e"),
        )
        .await
        .expect(400)
        .json();
    assert_eq!(
        e["message"],
        "strict decoding error: unknown field \"spec.bogus\""
    );
    h.get(&format!("{DEPLOY}/e")).await.expect(404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strict_patches_are_refused_as_patch_go_refuses_them() {
    let s = server().await;
    let h = Http::of(&s);
    let d = h.post(DEPLOY, &deployment("d")).await.expect(201).json();
    let path = format!("{DEPLOY}/d?fieldValidation=Strict");
    // Merge patch: the cause names the patched object (Go's JSON: sorted keys).
    let e = h
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"spec": {"bogus": 2}}),
        )
        .await
        .json();
    let mut patched = d.clone();
    patched["spec"]["bogus"] = json!(2);
    let why = "strict decoding error: unknown field \"spec.bogus\"";
    assert_patch_invalid(&e, &go_json(&patched), why);
    // JSON patch: the same.
    let e = h
        .patch(
            &path,
            "application/json-patch+json",
            &json!([{"op": "add", "path": "/spec/bogus", "value": 2}]),
        )
        .await
        .json();
    assert_patch_invalid(&e, &go_json(&patched), why);
    // A JSON patch's own unknown and duplicate fields come first, as `json patch …`.
    let ops = br#"[{"op":"add","path":"/spec/bogus","value":2,"foo":1},{"op":"test","path":"/x","path":"/kind","value":"Deployment"}]"#;
    let e = h
        .send(
            "PATCH",
            &path,
            &[("content-type", "application/json-patch+json")],
            Some(ops.to_vec()),
        )
        .await
        .json();
    let ops_why = concat!(
        r#"strict decoding error: json patch unknown field "[0].foo", "#,
        r#"json patch duplicate field "[1].path", unknown field "spec.bogus""#
    );
    assert_patch_invalid(&e, &go_json(&patched), ops_why);
    let r = h
        .send(
            "PATCH",
            &format!("{DEPLOY}/d?fieldValidation=Warn&dryRun=All"),
            &[("content-type", "application/json-patch+json")],
            Some(ops.to_vec()),
        )
        .await
        .expect(200);
    assert_eq!(
        r.warnings(),
        [
            r#"299 - "json patch unknown field \"[0].foo\"""#,
            r#"299 - "json patch duplicate field \"[1].path\"""#,
            r#"299 - "unknown field \"spec.bogus\"""#,
        ]
    );
    // Strategic merge patch: Go's `%+v` of the patch map.
    let e = h
        .patch(
            &path,
            "application/strategic-merge-patch+json",
            &json!({"spec": {"bogus": 2, "replicas": 3}}),
        )
        .await
        .json();
    assert_patch_invalid(&e, "map[spec:map[bogus:2 replicas:3]]", why);
    // A duplicate field of the patch alone is refused the same way.
    let body = br#"{"metadata":{"labels":{"x":"1","x":"2"}}}"#;
    let e = h
        .send(
            "PATCH",
            &path,
            &[("content-type", "application/merge-patch+json")],
            Some(body.to_vec()),
        )
        .await
        .json();
    let mut patched = d.clone();
    patched["metadata"]["labels"] = json!({"x": "2"});
    let why = "strict decoding error: duplicate field \"metadata.labels.x\"";
    assert_patch_invalid(&e, &go_json(&patched), why);
    // Nothing was written; Warn and Ignore still patch.
    let got = h.get(&format!("{DEPLOY}/d")).await.expect(200).json();
    assert_eq!(
        got["metadata"]["resourceVersion"],
        d["metadata"]["resourceVersion"]
    );
    let r = h
        .patch(
            &format!("{DEPLOY}/d?fieldValidation=Warn"),
            "application/strategic-merge-patch+json",
            &json!({"spec": {"bogus": 2, "replicas": 3}}),
        )
        .await
        .expect(200);
    assert_eq!(r.warnings(), [r#"299 - "unknown field \"spec.bogus\"""#]);
    assert_eq!(r.json()["spec"]["replicas"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strict_patches_of_custom_resources_are_refused_the_same_way() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let ct = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "a"}, "spec": {"image": "x"}});
    let c = h.post(CT, &ct).await.expect(201).json();
    let e = h
        .patch(
            &format!("{CT}/a?fieldValidation=Strict"),
            "application/merge-patch+json",
            &json!({"spec": {"bogus": 1}}),
        )
        .await
        .json();
    let mut patched = c.clone();
    patched["spec"]["bogus"] = json!(1);
    let why = "strict decoding error: unknown field \"spec.bogus\"";
    assert_patch_invalid(&e, &go_json(&patched), why);
}
