//! Built-in kinds over HTTP: protobuf bodies and watches (and JSON for custom resources),
//! `/openapi/v2`, paged lists, the `NamespaceTerminating` cause, Service allocation from the
//! configured ranges, self reviews, strategic merge patch errors.

use serde_json::{Value, json};

use super::common::{CT, Http, server, server_with};
use crdkit_server::ApiConfig;

const PB: &str = "application/vnd.kubernetes.protobuf";
const CM: &str = "/api/v1/namespaces/default/configmaps";

fn config_map(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"a": "1"}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protobuf_bodies_for_built_in_kinds_json_for_custom_resources() {
    let s = server().await;
    let h = Http::of(&s);
    let body = crdkit_protobuf::encode(&config_map("pb")).unwrap();
    let r = h
        .send(
            "POST",
            CM,
            &[
                ("content-type", PB),
                (
                    "accept",
                    "application/vnd.kubernetes.protobuf,application/json",
                ),
            ],
            Some(body),
        )
        .await
        .expect(201);
    assert_eq!(r.header("content-type"), Some(PB));
    let created = crdkit_protobuf::decode(&r.body).unwrap();
    assert_eq!(created["metadata"]["name"], "pb");
    assert_eq!(created["data"]["a"], "1");
    // A list in protobuf.
    let r = h.send("GET", CM, &[("accept", PB)], None).await.expect(200);
    let list = crdkit_protobuf::decode(&r.body).unwrap();
    assert_eq!(list["kind"], "ConfigMapList");
    assert_eq!(list["items"][0]["metadata"]["name"], "pb");
    // Custom resources: JSON when the client offers it after protobuf, 415 for a protobuf body.
    h.crd("resourcedefinition.yaml").await;
    let r = h
        .send(
            "GET",
            CT,
            &[(
                "accept",
                "application/vnd.kubernetes.protobuf,application/json",
            )],
            None,
        )
        .await
        .expect(200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    h.send("POST", CT, &[("content-type", PB)], Some(b"k8s\0".to_vec()))
        .await
        .expect(415);
    // Strategic merge patch stays refused for custom resources.
    h.patch(
        &format!("{CT}/x"),
        "application/strategic-merge-patch+json",
        &json!({}),
    )
    .await
    .expect(415);
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protobuf_watch_frames() {
    let s = server().await;
    let h = Http::of(&s);
    h.post(CM, &config_map("w1")).await.expect(201);
    let mut w = h
        .watch_as(&format!("{CM}?watch=true&timeoutSeconds=5"), PB)
        .await;
    assert_eq!(w.status, 200);
    assert_eq!(
        w.content_type.as_deref(),
        Some("application/vnd.kubernetes.protobuf;stream=watch")
    );
    let mut buf = Vec::new();
    let event = loop {
        if let Some((event, _)) = crdkit_protobuf::split_frame(&buf, 1 << 20).unwrap() {
            break crdkit_protobuf::Codec::default()
                .decode_watch_event(event)
                .unwrap();
        }
        let chunk = w.raw_within(5).await.expect("a frame within 5 s");
        buf.extend_from_slice(&chunk);
    };
    assert_eq!(event.event_type, "ADDED");
    assert_eq!(event.object["metadata"]["name"], "w1");
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_v2_in_json_and_protobuf() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let v2 = h.get("/openapi/v2").await.expect(200).json();
    assert_eq!(v2["swagger"], "2.0");
    let defs = &v2["definitions"];
    assert!(defs["io.k8s.api.apps.v1.Deployment"].is_object());
    assert!(defs["com.example.stable.v1.CronTab"].is_object());
    let pb = h
        .get_as("/openapi/v2", crdkit_protobuf::OPENAPI_V2_ACCEPT)
        .await
        .expect(200);
    assert_eq!(
        pb.header("content-type"),
        Some(crdkit_protobuf::OPENAPI_V2_CONTENT_TYPE)
    );
    assert!(pb.body.len() > 100_000);
    // The v3 documents of built-in group-versions: paths and the published schemas.
    let apps = h.get("/openapi/v3/apis/apps/v1").await.expect(200).json();
    assert!(
        apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"].is_object()
    );
    assert!(apps["components"]["schemas"]["io.k8s.api.apps.v1.DeploymentSpec"].is_object());
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paged_lists_count_what_remains() {
    let s = server().await;
    let h = Http::of(&s);
    for i in 0..5 {
        h.post(CM, &config_map(&format!("c{i}"))).await.expect(201);
    }
    let page = h.get(&format!("{CM}?limit=2")).await.expect(200).json();
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert_eq!(page["metadata"]["remainingItemCount"], 3);
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_in_a_terminating_namespace_carry_the_cause() {
    let s = server().await;
    let h = Http::of(&s);
    h.post(
        "/api/v1/namespaces",
        &json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "going"}}),
    )
    .await
    .expect(201);
    let held = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "held", "finalizers": ["example.com/hold"]}});
    h.post("/api/v1/namespaces/going/configmaps", &held)
        .await
        .expect(201);
    h.delete("/api/v1/namespaces/going").await.expect(200);
    let e = h
        .post("/api/v1/namespaces/going/configmaps", &config_map("late"))
        .await
        .expect(403)
        .json();
    assert_eq!(
        e["message"],
        "configmaps \"late\" is forbidden: unable to create new content in namespace going because it is being terminated"
    );
    assert_eq!(
        e["details"]["causes"],
        json!([{"reason": "NamespaceTerminating", "message": "namespace going is being terminated",
            "field": "metadata.namespace"}])
    );
    h.merge(
        "/api/v1/namespaces/going/configmaps/held",
        &json!({"metadata": {"finalizers": null}}),
    )
    .await
    .expect(200);
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn services_get_addresses_and_node_ports_from_the_configured_ranges() {
    let s = server_with(ApiConfig {
        service_cluster_ip_ranges: vec!["10.1.0.0/24".to_owned()],
        service_node_port_range: "31000-31100".to_owned(),
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    let k = h
        .get("/api/v1/namespaces/default/services/kubernetes")
        .await
        .expect(200)
        .json();
    assert_eq!(k["spec"]["clusterIP"], "10.1.0.1");
    let svc = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "np"},
        "spec": {"type": "NodePort", "selector": {"app": "x"}, "ports": [{"port": 80}]}});
    let created = h
        .post("/api/v1/namespaces/default/services", &svc)
        .await
        .expect(201)
        .json();
    let ip = created["spec"]["clusterIP"].as_str().unwrap();
    assert!(ip.starts_with("10.1.0."), "{ip}");
    let port = created["spec"]["ports"][0]["nodePort"].as_i64().unwrap();
    assert!((31000..=31100).contains(&port), "{port}");
    // A port taken twice: Go's allocator error.
    let mut again = svc.clone();
    again["metadata"]["name"] = json!("np2");
    again["spec"]["ports"][0]["nodePort"] = json!(port);
    let e = h
        .post("/api/v1/namespaces/default/services", &again)
        .await
        .expect(422)
        .json();
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("provided port is already allocated"),
        "{e}"
    );
    // Deleting the Service gives its port back.
    h.delete("/api/v1/namespaces/default/services/np")
        .await
        .expect(200);
    h.post("/api/v1/namespaces/default/services", &again)
        .await
        .expect(201);
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verbs_a_resource_does_not_have_are_not_allowed() {
    let s = server().await;
    let h = Http::of(&s);
    h.send("DELETE", "/api/v1/namespaces", &[], None)
        .await
        .expect(405);
    h.send("DELETE", CM, &[], None).await.expect(200);
    h.get("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
        .await
        .expect(405);
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn self_reviews_are_allowed() {
    let s = server().await;
    let h = Http::of(&s);
    let r = h
        .post(
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            &json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
                "spec": {"resourceAttributes": {"verb": "create", "resource": "pods"}}}),
        )
        .await
        .expect(201)
        .json();
    assert_eq!(r["status"]["allowed"], true);
    let e = h
        .post(
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            &json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview", "spec": {}}),
        )
        .await
        .expect(422)
        .json();
    assert_eq!(
        e["message"],
        "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes: Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified"
    );
    let who = h
        .post(
            "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            &json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}),
        )
        .await
        .expect(201)
        .json();
    assert_eq!(who["status"]["userInfo"]["username"], "admin");
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strategic_merge_patch_errors_as_the_api_server_answers_them() {
    let s = server().await;
    let h = Http::of(&s);
    h.post(CM, &config_map("p")).await.expect(201);
    let smp = "application/strategic-merge-patch+json";
    let e = h
        .patch(&format!("{CM}/p"), smp, &json!({"$patch": "merge"}))
        .await
        .expect(500)
        .json();
    assert_eq!(
        e["message"],
        "unknown patch type: merge in map: map[$patch:merge]"
    );
    assert!(e.get("reason").is_none());
    let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
        "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}},
            "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
    let path = "/apis/apps/v1/namespaces/default/deployments";
    h.post(path, &d).await.expect(201);
    // Go panics comparing two maps as merge keys: a plain-text 500.
    let r = h
        .patch(
            &format!("{path}/d"),
            smp,
            &json!({"spec": {"template": {"spec": {"containers": [{"name": {}}]}}}}),
        )
        .await
        .expect(500);
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    s.shutdown().await;
}

/// A client-side `kubectl apply` followed by `kubectl apply --server-side` of the same
/// manifests: the update's managed fields are those of the converted, defaulted object (a
/// Secret's `data`, never `stringData`; a service account subject without the empty
/// `apiGroup` Go leaves out), so the apply co-owns them instead of conflicting. A default the
/// creator got is its own: an apply of another value conflicts, as with Go's API server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_apply_after_an_update_of_the_same_values_does_not_conflict() {
    let s = server().await;
    let h = Http::of(&s);
    let secret = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "tok"},
        "stringData": {"token": "hunter2"}});
    let created = h
        .post(
            "/api/v1/namespaces/default/secrets?fieldManager=csa",
            &secret,
        )
        .await
        .expect(201)
        .json();
    let fields = &created["metadata"]["managedFields"][0]["fieldsV1"];
    assert_eq!(
        fields["f:data"],
        json!({".": {}, "f:token": {}}),
        "{fields}"
    );
    assert_eq!(fields.get("f:stringData"), None, "{fields}");
    // The defaulted `type` is the creator's too, as in Go (defaults precede the manager).
    assert_eq!(fields["f:type"], json!({}), "{fields}");
    let apply = "application/apply-patch+yaml";
    h.patch(
        "/api/v1/namespaces/default/secrets/tok?fieldManager=ssa",
        apply,
        &secret,
    )
    .await
    .expect(200);
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": "rb"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"},
        "subjects": [{"kind": "ServiceAccount", "name": "sa", "namespace": "default"}]});
    let path = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings";
    let created = h
        .post(&format!("{path}?fieldManager=csa"), &binding)
        .await
        .expect(201)
        .json();
    assert_eq!(created["subjects"], binding["subjects"]);
    h.patch(&format!("{path}/rb?fieldManager=ssa"), apply, &binding)
        .await
        .expect(200);
    let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "d"}, "spec": {"selector": {"matchLabels": {"app": "d"}},
        "template": {"metadata": {"labels": {"app": "d"}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}});
    let path = "/apis/apps/v1/namespaces/default/deployments";
    let created = h
        .post(&format!("{path}?fieldManager=kubectl-create"), &deployment)
        .await
        .expect(201)
        .json();
    let fields = &created["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"];
    assert_eq!(fields["f:revisionHistoryLimit"], json!({}), "{fields}");
    let mut recreate = deployment.clone();
    recreate["spec"]["strategy"] = json!({"type": "Recreate"});
    let e = h
        .patch(&format!("{path}/d?fieldManager=ssa"), apply, &recreate)
        .await
        .expect(409)
        .json();
    assert_eq!(
        e["message"],
        r#"Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.strategy.type"#
    );
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn percent_encoded_paths_name_what_they_decode_to() {
    let s = server().await;
    let h = Http::of(&s);
    let roles = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "system:test-role"}, "rules": []});
    h.post(roles, &role).await.expect(201);
    // The Python client escapes `:` in path parameters.
    let got = h
        .get(&format!("{roles}/system%3Atest-role"))
        .await
        .expect(200)
        .json();
    assert_eq!(got["metadata"]["name"], "system:test-role");
    h.post(CM, &config_map("in-default")).await.expect(201);
    let list = h
        .get("/api/v1/namespaces/d%65fault/configmaps")
        .await
        .expect(200)
        .json();
    assert_eq!(list["items"][0]["metadata"]["name"], "in-default");
    h.delete(&format!("{roles}/system%3atest-role"))
        .await
        .expect(200);
    h.get(&format!("{roles}/system:test-role"))
        .await
        .expect(404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_options_are_decoded_as_their_content_type_says() {
    let s = server().await;
    let h = Http::of(&s);
    for name in ["yaml", "pb", "plain"] {
        h.post(CM, &config_map(name)).await.expect(201);
    }
    let yaml = b"apiVersion: v1\nkind: DeleteOptions\ndryRun: [All]\n".to_vec();
    h.send(
        "DELETE",
        &format!("{CM}/yaml"),
        &[("content-type", "application/yaml")],
        Some(yaml),
    )
    .await
    .expect(200);
    // dryRun: still there.
    h.get(&format!("{CM}/yaml")).await.expect(200);
    let pb = crdkit_protobuf::encode(
        &json!({"apiVersion": "v1", "kind": "DeleteOptions", "propagationPolicy": "Orphan"}),
    )
    .unwrap();
    let r = h
        .send(
            "DELETE",
            &format!("{CM}/pb"),
            &[("content-type", PB)],
            Some(pb),
        )
        .await
        .expect(200)
        .json();
    // Orphan was read from the protobuf body: the object waits for the
    // garbage collector, which removes it asynchronously.
    assert_eq!(r["metadata"]["finalizers"], json!(["orphan"]), "{r}");
    super::api::wait_gone(&h, &format!("{CM}/pb")).await;
    let e = h
        .send(
            "DELETE",
            &format!("{CM}/plain"),
            &[("content-type", "text/plain")],
            Some(b"{}".to_vec()),
        )
        .await
        .expect(415)
        .json();
    assert_eq!(e["reason"], "UnsupportedMediaType");
    h.get(&format!("{CM}/plain")).await.expect(200);
}
