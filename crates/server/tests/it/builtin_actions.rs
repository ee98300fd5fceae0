//! What real clients hit beyond CRUD of built-in kinds (each found by the Python client,
//! lightkube or kubectl in `tests/clients/`): `serviceaccounts/token`, `pods/binding` and
//! `bindings`, `componentstatuses`, `autoscaling/v1` HorizontalPodAutoscalers over the `v2`
//! storage, the deleted object in a Service's delete answer, a strategic merge patch of
//! `/scale`, and Service allocations given back when a create is not stored.

use base64::Engine as _;
use serde_json::{Value, json};

use super::common::{Http, server, server_with};
use crdkit_server::ApiConfig;

const NS: &str = "/api/v1/namespaces/default";
const SMP: &str = "application/strategic-merge-patch+json";

fn deployment(name: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
        "spec": {"selector": {"matchLabels": {"app": name}}, "template": {
            "metadata": {"labels": {"app": name}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}})
}

fn pod(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
        "spec": {"containers": [{"name": "c", "image": "busybox"}]}})
}

/// The Python client patches `/scale` with a strategic merge patch: `Scale` resolves in
/// `apps/v1`'s document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strategic_merge_patch_of_scale() {
    let s = server().await;
    let h = Http::of(&s);
    let d = "/apis/apps/v1/namespaces/default/deployments";
    h.post(d, &deployment("web")).await.expect(201);
    let scale = h
        .patch(
            &format!("{d}/web/scale"),
            SMP,
            &json!({"spec": {"replicas": 5}}),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(
        (scale["kind"].as_str(), scale["spec"]["replicas"].as_i64()),
        (Some("Scale"), Some(5))
    );
    let got = h.get(&format!("{d}/web")).await.expect(200).json();
    assert_eq!(got["spec"]["replicas"], 5);
    s.shutdown().await;
}

/// `ReturnDeletedObject`: a Service's delete answers the Service (the Python client decodes a
/// `V1Service`), a ConfigMap's a `Success` Status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletes_answer_the_object_where_the_store_returns_it() {
    let s = server().await;
    let h = Http::of(&s);
    let svc = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
        "spec": {"ports": [{"port": 80}]}});
    h.post(&format!("{NS}/services"), &svc).await.expect(201);
    let gone = h
        .delete(&format!("{NS}/services/web"))
        .await
        .expect(200)
        .json();
    assert_eq!(
        (gone["kind"].as_str(), gone["metadata"]["name"].as_str()),
        (Some("Service"), Some("web"))
    );
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}});
    h.post(&format!("{NS}/configmaps"), &cm).await.expect(201);
    let gone = h
        .delete(&format!("{NS}/configmaps/cm"))
        .await
        .expect(200)
        .json();
    assert_eq!(
        (gone["kind"].as_str(), gone["status"].as_str()),
        (Some("Status"), Some("Success"))
    );
    s.shutdown().await;
}

/// `kubectl create token`: a TokenRequest with a JWT carrying kube-apiserver's claims.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_requests_answer_a_token() {
    let s = server().await;
    let h = Http::of(&s);
    let sa = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "sa"}});
    h.post(&format!("{NS}/serviceaccounts"), &sa)
        .await
        .expect(201);
    let tr = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {}});
    let out = h
        .post(&format!("{NS}/serviceaccounts/sa/token"), &tr)
        .await
        .expect(201)
        .json();
    assert_eq!(out["spec"]["expirationSeconds"], 3600);
    assert_eq!(
        out["spec"]["audiences"],
        json!(["https://kubernetes.default.svc.cluster.local"])
    );
    let token = out["status"]["token"].as_str().unwrap();
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(parts.len(), 3, "{token}");
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(parts[1])
            .unwrap(),
    )
    .unwrap();
    assert_eq!(claims["sub"], "system:serviceaccount:default:sa");
    assert_eq!(
        claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(),
        3600
    );
    assert!(out["status"]["expirationTimestamp"].is_string());
    // ValidateTokenRequest.
    let short = json!({"spec": {"expirationSeconds": 60}});
    let e = h
        .post(&format!("{NS}/serviceaccounts/sa/token"), &short)
        .await
        .expect(422)
        .json();
    assert_eq!(
        e["message"],
        "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes"
    );
    let e = h
        .post(&format!("{NS}/serviceaccounts/nobody/token"), &tr)
        .await
        .expect(404)
        .json();
    assert_eq!(e["message"], "serviceaccounts \"nobody\" not found");
    s.shutdown().await;
}

/// The scheduler's write: `spec.nodeName`, the binding's annotations, `PodScheduled`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bindings_assign_pods_to_nodes() {
    let s = server().await;
    let h = Http::of(&s);
    h.post(&format!("{NS}/pods"), &pod("p")).await.expect(201);
    let b = json!({"apiVersion": "v1", "kind": "Binding",
        "metadata": {"name": "p", "annotations": {"scheduled-by": "test"}},
        "target": {"kind": "Node", "name": "n1"}});
    let st = h
        .post(&format!("{NS}/pods/p/binding"), &b)
        .await
        .expect(201)
        .json();
    assert_eq!(
        (st["status"].as_str(), st["code"].as_i64()),
        (Some("Success"), Some(201))
    );
    let p = h.get(&format!("{NS}/pods/p")).await.expect(200).json();
    assert_eq!(p["spec"]["nodeName"], "n1");
    assert_eq!(p["metadata"]["annotations"]["scheduled-by"], "test");
    let cond = p["status"]["conditions"].as_array().unwrap();
    assert!(
        cond.iter()
            .any(|c| c["type"] == "PodScheduled" && c["status"] == "True"),
        "{cond:?}"
    );
    let e = h
        .post(&format!("{NS}/pods/p/binding"), &b)
        .await
        .expect(409)
        .json();
    assert_eq!(
        e["message"],
        "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n1\""
    );
    // `POST .../bindings` names the pod in the body.
    h.post(&format!("{NS}/pods"), &pod("q")).await.expect(201);
    let mut b2 = b.clone();
    b2["metadata"]["name"] = json!("q");
    h.post(&format!("{NS}/bindings"), &b2).await.expect(201);
    h.post(&format!("{NS}/pods/q/binding"), &b)
        .await
        .expect(400);
    // ValidatePodBinding's errors come back as a plain error (500).
    h.post(&format!("{NS}/pods"), &pod("r")).await.expect(201);
    let bad = json!({"metadata": {"name": "r"}, "target": {"kind": "Pod"}});
    let e = h
        .post(&format!("{NS}/pods/r/binding"), &bad)
        .await
        .expect(500)
        .json();
    assert_eq!(
        e["message"],
        "[target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\", target.name: Required value]"
    );
    let none = json!({"metadata": {"name": "none"}, "target": {"name": "n1"}});
    h.post(&format!("{NS}/pods/none/binding"), &none)
        .await
        .expect(404);
    s.shutdown().await;
}

/// No scheduler, controller-manager or etcd runs as a server to probe: an empty list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn component_statuses_are_an_empty_list() {
    let s = server().await;
    let h = Http::of(&s);
    let r = h.get("/api/v1/componentstatuses").await.expect(200);
    assert_eq!(
        r.warnings(),
        ["299 - \"v1 ComponentStatus is deprecated in v1.19+\""]
    );
    let l = r.json();
    assert_eq!(
        (l["kind"].as_str(), l["items"].as_array().map(Vec::len)),
        (Some("ComponentStatusList"), Some(0))
    );
    h.get("/api/v1/componentstatuses/etcd-0").await.expect(404);
    s.shutdown().await;
}

/// `autoscaling/v1` (kubectl 1.27–1.32 `autoscale`) stored as `v2`, and what v1 cannot say kept
/// in the `autoscaling.alpha.kubernetes.io/metrics` annotation through a v1 round trip.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn horizontal_pod_autoscalers_convert_between_v1_and_v2() {
    let s = server().await;
    let h = Http::of(&s);
    let v1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
    let v2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";
    let hpa = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "cpu"}, "spec": {"maxReplicas": 3, "targetCPUUtilizationPercentage": 50,
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}}});
    let created = h.post(v1, &hpa).await.expect(201).json();
    assert_eq!(
        (
            created["apiVersion"].as_str(),
            created["spec"]["minReplicas"].as_i64()
        ),
        (Some("autoscaling/v1"), Some(1))
    );
    let as_v2 = h.get(&format!("{v2}/cpu")).await.expect(200).json();
    assert_eq!(
        as_v2["spec"]["metrics"],
        json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}}])
    );
    let memory = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "mem"}, "spec": {"maxReplicas": 3,
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
        "metrics": [{"type": "Resource", "resource": {"name": "memory",
            "target": {"type": "Utilization", "averageUtilization": 70}}}]}});
    h.post(v2, &memory).await.expect(201);
    let mut as_v1 = h.get(&format!("{v1}/mem")).await.expect(200).json();
    assert!(
        as_v1["spec"]
            .get("targetCPUUtilizationPercentage")
            .is_none(),
        "{as_v1}"
    );
    let annotation = as_v1["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/metrics"]
        .as_str()
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(annotation).unwrap(),
        json!([{"type": "Resource", "resource": {"name": "memory", "targetAverageUtilization": 70}}])
    );
    let list = h.get(v1).await.expect(200).json();
    assert_eq!(list["items"].as_array().map(Vec::len), Some(2));
    // A v1 client writes it back with a new maximum: the memory metric stays.
    as_v1["spec"]["maxReplicas"] = json!(5);
    h.put(&format!("{v1}/mem"), &as_v1).await.expect(200);
    let back = h.get(&format!("{v2}/mem")).await.expect(200).json();
    assert_eq!(back["spec"]["maxReplicas"], 5);
    assert_eq!(back["spec"]["metrics"], memory["spec"]["metrics"]);
    assert!(back["metadata"].get("annotations").is_none(), "{back}");
    s.shutdown().await;
}

/// alloc.go's transaction: what a create allocated is given back when it is not stored (dry
/// run, the name taken).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn service_creates_that_are_not_stored_give_their_node_ports_back() {
    let s = server_with(ApiConfig {
        service_node_port_range: "30000-30001".to_owned(),
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    let svc = |name: &str| {
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"type": "NodePort", "ports": [{"port": 80}]}})
    };
    let services = format!("{NS}/services");
    for _ in 0..3 {
        h.post(&format!("{services}?dryRun=All"), &svc("dry"))
            .await
            .expect(201);
    }
    h.post(&services, &svc("a")).await.expect(201);
    h.post(&services, &svc("a")).await.expect(409);
    h.post(&services, &svc("b")).await.expect(201);
    let e = h.post(&services, &svc("c")).await.expect(500).json();
    assert_eq!(
        e["message"],
        "Internal error occurred: failed to allocate a nodePort: range is full"
    );
    s.shutdown().await;
}

/// Updates are transactional too: a dry run that changes the type takes nothing and frees
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn service_updates_that_are_not_stored_keep_allocations_as_they_were() {
    let s = server_with(ApiConfig {
        service_node_port_range: "30000-30001".to_owned(),
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    let services = format!("{NS}/services");
    let svc = |name: &str, ty: &str| {
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"type": ty, "ports": [{"port": 80}]}})
    };
    const MERGE: &str = "application/merge-patch+json";
    h.post(&services, &svc("a", "ClusterIP")).await.expect(201);
    for _ in 0..3 {
        h.patch(
            &format!("{services}/a?dryRun=All"),
            MERGE,
            &json!({"spec": {"type": "NodePort"}}),
        )
        .await
        .expect(200);
    }
    h.post(&services, &svc("n", "NodePort")).await.expect(201);
    // `n` holds a port: a dry run back to ClusterIP does not free it.
    h.patch(
        &format!("{services}/n?dryRun=All"),
        MERGE,
        &json!({"spec": {"type": "ClusterIP"}}),
    )
    .await
    .expect(200);
    h.post(&services, &svc("m", "NodePort")).await.expect(201);
    h.post(&services, &svc("full", "NodePort"))
        .await
        .expect(500);
    // Stored, the change frees the port for the next one.
    h.patch(
        &format!("{services}/n"),
        MERGE,
        &json!({"spec": {"type": "ClusterIP"}}),
    )
    .await
    .expect(200);
    h.post(&services, &svc("full", "NodePort"))
        .await
        .expect(201);
    s.shutdown().await;
}

/// The decoder's 400 for a value of the wrong JSON type, with Go's `UnmarshalTypeError` text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_of_the_wrong_types_do_not_decode() {
    let s = server().await;
    let h = Http::of(&s);
    let mut d = deployment("web");
    d["spec"]["replicas"] = json!("3");
    let e = h
        .post("/apis/apps/v1/namespaces/default/deployments", &d)
        .await
        .expect(400)
        .json();
    assert_eq!(e["reason"], "BadRequest");
    assert_eq!(
        e["message"],
        "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
    );
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"a": 1}});
    let e = h
        .post(&format!("{NS}/configmaps"), &cm)
        .await
        .expect(400)
        .json();
    assert_eq!(
        e["message"],
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string"
    );
    let mut p = pod("p");
    p["spec"]["containers"][0]["ports"] = json!([{"containerPort": 1.5}]);
    let e = h.post(&format!("{NS}/pods"), &p).await.expect(400).json();
    assert_eq!(
        e["message"],
        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"
    );
    // Quantities and int-or-strings decode from numbers and strings alike.
    let mut q = pod("q");
    q["spec"]["containers"][0]["resources"] = json!({"limits": {"cpu": 1, "memory": "1Gi"}});
    q["spec"]["containers"][0]["ports"] = json!([{"containerPort": 80}]);
    h.post(&format!("{NS}/pods"), &q).await.expect(201);
    s.shutdown().await;
}

/// Built-in kinds' v3 paths list strategic merge patch among the patch types (custom
/// resources do not take it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_v3_paths_of_built_in_kinds_take_strategic_merge_patches() {
    let s = server().await;
    let h = Http::of(&s);
    let doc = h.get("/openapi/v3/apis/apps/v1").await.expect(200).json();
    for path in [
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}",
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale",
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status",
    ] {
        let content = &doc["paths"][path]["patch"]["requestBody"]["content"];
        let types: Vec<&String> = content.as_object().unwrap().keys().collect();
        assert_eq!(
            types,
            [
                "application/apply-patch+yaml",
                "application/json-patch+json",
                "application/merge-patch+json",
                "application/strategic-merge-patch+json"
            ],
            "{path}"
        );
    }
    s.shutdown().await;
}
