//! `PrepareForCreate`/`PrepareForUpdate` facts of kubernetes `pkg/registry/*/*/strategy_test.go`
//! and `pkg/apis/core/helper/qos/qos_test.go`.

use crdkit_builtin::defaults::{prepare_for_create, prepare_for_update};
use serde_json::{Value, json};

use crate::support::{container, defaulted, deployment, pod, stored, template};

fn created(api: &str, kind: &str, obj: Value) -> Value {
    let mut obj = defaulted(api, kind, obj);
    prepare_for_create(api, kind, &mut obj);
    obj
}

fn updated(api: &str, kind: &str, new: Value, old: &Value) -> Value {
    let mut new = defaulted(api, kind, new);
    prepare_for_update(api, kind, &mut new, old);
    new
}

#[test]
fn status_is_reset_and_generation_starts_at_one() {
    let d = created("apps/v1", "Deployment", {
        let mut d = deployment(json!({}));
        d["status"] = json!({"replicas": 5});
        d
    });
    assert_eq!(d["status"], json!({}));
    assert_eq!(d["metadata"]["generation"], 1);
    let sts = created(
        "apps/v1",
        "StatefulSet",
        json!({"metadata": {"name": "s"}, "spec": {"template": template(json!({"containers": [container("c")]}))}}),
    );
    assert_eq!(
        sts["status"],
        json!({"availableReplicas": 0, "replicas": 0})
    );
    let ds = created(
        "apps/v1",
        "DaemonSet",
        json!({"metadata": {"name": "d"}, "spec": {}}),
    );
    assert_eq!(
        ds["status"],
        json!({"currentNumberScheduled": 0, "desiredNumberScheduled": 0, "numberMisscheduled": 0, "numberReady": 0})
    );
    assert_eq!(
        ds["metadata"]["annotations"]["deprecated.daemonset.template.generation"],
        "1"
    );
    let svc = created(
        "v1",
        "Service",
        json!({"metadata": {"name": "s"}, "spec": {}, "status": {"conditions": [{"type": "x"}]}}),
    );
    assert_eq!(svc["status"], json!({"loadBalancer": {}}));
    assert!(svc["metadata"].get("generation").is_none());
    let pvc = created(
        "v1",
        "PersistentVolumeClaim",
        json!({"metadata": {"name": "c"}, "spec": {}, "status": {"phase": "Bound"}}),
    );
    assert_eq!(pvc["status"], json!({"phase": "Pending"}));
    let hpa = created(
        "autoscaling/v2",
        "HorizontalPodAutoscaler",
        json!({"spec": {"maxReplicas": 2}}),
    );
    assert_eq!(hpa["status"], json!({"desiredReplicas": 0}));
    let cm = created(
        "v1",
        "ConfigMap",
        json!({"metadata": {"name": "c"}, "data": {"a": "b"}}),
    );
    assert!(cm.get("status").is_none() && cm["metadata"].get("generation").is_none());
}

#[test]
fn pods_start_pending_with_their_qos_class() {
    // qos_test.go TestComputePodQOS facts.
    let res = |limits: Value, requests: Value| json!({"name": "c", "image": "i", "resources": {"limits": limits, "requests": requests}});
    let cases = [
        ("best-effort", json!([container("c")]), "BestEffort"),
        (
            "guaranteed",
            json!([res(json!({"cpu": "100m", "memory": "100Mi"}), json!({}))]),
            "Guaranteed",
        ),
        (
            "guaranteed-equal",
            json!([res(
                json!({"cpu": "1", "memory": "1Gi"}),
                json!({"cpu": "1000m", "memory": "1024Mi"})
            )]),
            "Guaranteed",
        ),
        (
            "burstable-requests",
            json!([res(json!({}), json!({"cpu": "100m"}))]),
            "Burstable",
        ),
        (
            "burstable-cpu-limit-only",
            json!([res(json!({"cpu": "100m"}), json!({}))]),
            "Burstable",
        ),
        (
            "burstable-lower-request",
            json!([res(
                json!({"cpu": "1", "memory": "1Gi"}),
                json!({"cpu": "500m", "memory": "1Gi"})
            )]),
            "Burstable",
        ),
        (
            "best-effort-extended",
            json!([res(json!({"example.com/gpu": "1"}), json!({}))]),
            "BestEffort",
        ),
        (
            "burstable-mixed",
            json!([
                container("a"),
                res(json!({"cpu": "1", "memory": "1Gi"}), json!({}))
            ]),
            "Burstable",
        ),
    ];
    for (name, containers, qos) in cases {
        let p = created("v1", "Pod", pod(json!({"containers": containers})));
        assert_eq!(
            p["status"],
            json!({"phase": "Pending", "qosClass": qos}),
            "{name}"
        );
        assert_eq!(p["metadata"]["generation"], 1, "{name}");
    }
}

#[test]
fn generation_follows_the_spec() {
    let old = stored("apps/v1", "Deployment", deployment(json!({})));
    let same = updated("apps/v1", "Deployment", old.clone(), &old);
    assert_eq!(same["metadata"]["generation"], 1);
    let mut scaled = old.clone();
    scaled["spec"]["replicas"] = json!(3);
    scaled["status"] = json!({"replicas": 99});
    let scaled = updated("apps/v1", "Deployment", scaled, &old);
    assert_eq!(scaled["metadata"]["generation"], 2);
    assert_eq!(
        scaled["status"],
        json!({}),
        "status comes from the stored object"
    );
    // Deployments also count annotation changes (copied to their ReplicaSets).
    let mut annotated = old.clone();
    annotated["metadata"]["annotations"] = json!({"a": "b"});
    assert_eq!(
        updated("apps/v1", "Deployment", annotated, &old)["metadata"]["generation"],
        2
    );
    let rs_old = stored("apps/v1", "ReplicaSet", {
        let mut d = deployment(json!({}));
        d["metadata"]["name"] = json!("rs");
        d
    });
    let mut rs = rs_old.clone();
    rs["metadata"]["annotations"] = json!({"a": "b"});
    assert_eq!(
        updated("apps/v1", "ReplicaSet", rs, &rs_old)["metadata"]["generation"],
        1
    );
}

#[test]
fn daemon_set_template_generation() {
    let old = stored(
        "apps/v1",
        "DaemonSet",
        json!({"metadata": {"name": "d", "namespace": "ns"},
        "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": template(json!({"containers": [container("c")]}))}}),
    );
    let mut changed = old.clone();
    changed["metadata"]["annotations"] = json!({});
    changed["spec"]["template"]["spec"]["containers"][0]["image"] = json!("other");
    let changed = updated("apps/v1", "DaemonSet", changed, &old);
    assert_eq!(
        changed["metadata"]["annotations"]["deprecated.daemonset.template.generation"],
        "2"
    );
    assert_eq!(changed["metadata"]["generation"], 2);
    let errs = crdkit_builtin::validation::validate_update("apps/v1", "DaemonSet", &changed, &old);
    assert!(errs.is_empty(), "{errs:?}");
}

#[test]
fn secret_string_data_is_merged() {
    let s = created(
        "v1",
        "Secret",
        json!({"metadata": {"name": "s"}, "data": {"a": "eA==", "b": "eQ=="}, "stringData": {"b": "new", "c": "hello"}}),
    );
    assert_eq!(
        s["data"],
        json!({"a": "eA==", "b": "bmV3", "c": "aGVsbG8="})
    );
    assert!(s.get("stringData").is_none());
    assert_eq!(s["type"], "Opaque");
    let old = s.clone();
    let u = updated(
        "v1",
        "Secret",
        json!({"metadata": {"name": "s"}, "stringData": {"d": ""}}),
        &old,
    );
    assert_eq!(u["data"], json!({"d": ""}));
}

#[test]
fn request_conversion_folds_string_data() {
    // What the field manager sees of an update: v1 → internal conversion has run.
    let mut s = json!({"kind": "Secret", "data": {"a": "eA=="}, "stringData": {"b": "new"}});
    crdkit_builtin::defaults::convert_request("v1", "Secret", &mut s);
    assert_eq!(
        s,
        json!({"kind": "Secret", "data": {"a": "eA==", "b": "bmV3"}})
    );
    let mut cm = json!({"kind": "ConfigMap", "stringData": {"b": "new"}});
    crdkit_builtin::defaults::convert_request("v1", "ConfigMap", &mut cm);
    assert_eq!(cm["stringData"]["b"], "new");
}

#[test]
fn job_selector_is_generated() {
    let j = created(
        "batch/v1",
        "Job",
        json!({"metadata": {"name": "pi", "uid": "1234"},
        "spec": {"template": {"spec": {"containers": [container("c")], "restartPolicy": "Never"}}}}),
    );
    let labels = json!({"batch.kubernetes.io/controller-uid": "1234", "batch.kubernetes.io/job-name": "pi",
                        "controller-uid": "1234", "job-name": "pi"});
    assert_eq!(j["spec"]["template"]["metadata"]["labels"], labels);
    assert_eq!(
        j["spec"]["selector"],
        json!({"matchLabels": {"batch.kubernetes.io/controller-uid": "1234"}})
    );
    let manual = created(
        "batch/v1",
        "Job",
        json!({"metadata": {"name": "pi", "uid": "1234"},
        "spec": {"manualSelector": true, "selector": {"matchLabels": {"a": "b"}},
                 "template": {"metadata": {"labels": {"a": "b"}}}}}),
    );
    assert_eq!(
        manual["spec"]["selector"],
        json!({"matchLabels": {"a": "b"}})
    );
    assert_eq!(
        manual["spec"]["template"]["metadata"]["labels"],
        json!({"a": "b"})
    );
}

#[test]
fn namespaces_get_the_kubernetes_finalizer() {
    let ns = created(
        "v1",
        "Namespace",
        json!({"metadata": {"name": "team"}, "status": {"phase": "Terminating"}}),
    );
    assert_eq!(ns["spec"]["finalizers"], json!(["kubernetes"]));
    assert_eq!(ns["status"], json!({"phase": "Active"}));
    let custom = created(
        "v1",
        "Namespace",
        json!({"metadata": {"name": "team"}, "spec": {"finalizers": ["example.com/x"]}}),
    );
    assert_eq!(
        custom["spec"]["finalizers"],
        json!(["example.com/x", "kubernetes"])
    );
}
