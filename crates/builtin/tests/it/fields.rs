//! Field selectors: the labels each kind accepts, the API server's refusals, the values matched.

use serde_json::json;

use crdkit_builtin::fields::{convert_label, selectable_fields};
use crdkit_builtin::resources;

#[test]
fn labels_accepted_and_refused_as_the_api_server_words_it() {
    let ok = |g: &str, v: &str, k: &str, l: &str| convert_label(g, v, k, l).unwrap();
    assert_eq!(ok("", "v1", "Pod", "status.phase"), "status.phase");
    assert_eq!(ok("", "v1", "Pod", "spec.host"), "spec.nodeName");
    assert_eq!(ok("", "v1", "Pod", "status.podIPs"), "status.podIPs");
    assert_eq!(
        ok("", "v1", "Event", "involvedObject.uid"),
        "involvedObject.uid"
    );
    assert_eq!(
        ok("events.k8s.io", "v1", "Event", "reportingComponent"),
        "reportingComponent"
    );
    assert_eq!(ok("", "v1", "Secret", "type"), "type");
    assert_eq!(ok("", "v1", "Namespace", "status.phase"), "status.phase");
    assert_eq!(ok("", "v1", "Service", "spec.clusterIP"), "spec.clusterIP");
    assert_eq!(
        ok("batch", "v1", "Job", "status.successful"),
        "status.successful"
    );
    assert_eq!(
        ok(
            "certificates.k8s.io",
            "v1",
            "CertificateSigningRequest",
            "spec.signerName"
        ),
        "spec.signerName"
    );
    assert_eq!(
        ok("apps", "v1", "Deployment", "metadata.namespace"),
        "metadata.namespace"
    );
    let err = |g: &str, v: &str, k: &str, l: &str| convert_label(g, v, k, l).unwrap_err();
    // kubectl prints these after `Unable to find "/v1, Resource=pods" that match ...: `.
    assert_eq!(
        err("", "v1", "Pod", "spec.containers"),
        "field label not supported: spec.containers"
    );
    // A Node and a Namespace have no namespace label.
    assert_eq!(
        err("", "v1", "Node", "metadata.namespace"),
        "field label not supported: metadata.namespace"
    );
    assert_eq!(
        err("", "v1", "ConfigMap", "data"),
        "\"data\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
    );
    assert_eq!(
        err("batch", "v1", "Job", "status.succeeded"),
        "field label \"status.succeeded\" not supported for batchv1.Job"
    );
    assert_eq!(
        err("batch", "v1", "CronJob", "spec.suspend"),
        "\"spec.suspend\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
    );
    assert_eq!(
        err("resource.k8s.io", "v1", "ResourceSlice", "spec.pool.name"),
        "field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: spec.pool.name"
    );
    // Every served kind accepts its name.
    for r in resources::all() {
        assert!(
            convert_label(r.group, r.version, r.kind, "metadata.name").is_ok(),
            "{}",
            r.kind
        );
    }
}

#[test]
fn values_as_the_registries_read_them() {
    let pod = json!({"metadata": {"name": "web-1", "namespace": "prod"},
        "spec": {"nodeName": "node-1", "restartPolicy": "Always", "schedulerName": "default-scheduler",
                 "serviceAccountName": "web", "hostNetwork": true},
        "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.5"}, {"ip": "fd00::5"}], "nominatedNodeName": ""}});
    let set = selectable_fields("", "Pod", &pod);
    assert_eq!(set["metadata.namespace"], "prod");
    assert_eq!(set["spec.hostNetwork"], "true");
    assert_eq!(set["status.podIP"], "10.0.0.5");
    assert_eq!(set["status.phase"], "Running");
    assert!(
        !set.contains_key("status.podIPs"),
        "matched against the empty string, as in Go"
    );
    assert_eq!(set.len(), 10);

    let node = selectable_fields("", "Node", &json!({"metadata": {"name": "n"}}));
    assert_eq!(
        node.get("spec.unschedulable").map(String::as_str),
        Some("false")
    );
    assert!(!node.contains_key("metadata.namespace"));

    let event = json!({"metadata": {"name": "e", "namespace": "prod"}, "involvedObject": {"kind": "Pod", "name": "web-1", "uid": "u1"},
        "reason": "Started", "type": "Normal", "reportingComponent": "", "reportingController": "kubelet"});
    let set = selectable_fields("", "Event", &event);
    assert_eq!(
        (
            set["involvedObject.name"].as_str(),
            set["involvedObject.uid"].as_str()
        ),
        ("web-1", "u1")
    );
    // No `source.component`: the reporting controller stands for it.
    assert_eq!(
        (set["source"].as_str(), set["reportingComponent"].as_str()),
        ("kubelet", "kubelet")
    );
    let new = json!({"metadata": {"name": "e", "namespace": "prod"}, "regarding": {"kind": "CronTab", "name": "c"},
        "reason": "Synced", "type": "Normal", "reportingController": "crontab-controller"});
    let set = selectable_fields("events.k8s.io", "Event", &new);
    assert_eq!(set["involvedObject.kind"], "CronTab");
    assert_eq!(set["source"], "crontab-controller");

    let job = selectable_fields(
        "batch",
        "Job",
        &json!({"metadata": {"name": "j", "namespace": "d"}, "status": {"succeeded": 2}}),
    );
    assert_eq!(job["status.successful"], "2");
    let rc = selectable_fields(
        "",
        "ReplicationController",
        &json!({"metadata": {"name": "r"}}),
    );
    assert_eq!(rc["status.replicas"], "0");
    let svc = selectable_fields(
        "",
        "Service",
        &json!({"metadata": {"name": "s"}, "spec": {"type": "NodePort", "clusterIP": "10.96.0.7"}}),
    );
    assert_eq!(
        (svc["spec.type"].as_str(), svc["spec.clusterIP"].as_str()),
        ("NodePort", "10.96.0.7")
    );
    let secret = selectable_fields(
        "",
        "Secret",
        &json!({"metadata": {"name": "s"}, "type": "kubernetes.io/tls"}),
    );
    assert_eq!(secret["type"], "kubernetes.io/tls");
    let cm = selectable_fields(
        "",
        "ConfigMap",
        &json!({"metadata": {"name": "c", "namespace": "d"}}),
    );
    assert_eq!(cm.len(), 2);
}

/// Every label a kind accepts has a value in its objects' field set (but `status.podIPs`, which
/// Go's pod registry does not fill either, and the renamed `spec.host`).
#[test]
fn accepted_labels_have_values() {
    let labels = [
        "metadata.name",
        "metadata.namespace",
        "spec.nodeName",
        "spec.restartPolicy",
        "spec.schedulerName",
        "spec.serviceAccountName",
        "spec.hostNetwork",
        "status.phase",
        "status.podIP",
        "status.nominatedNodeName",
        "spec.unschedulable",
        "status.replicas",
        "involvedObject.kind",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
        "spec.clusterIP",
        "spec.type",
        "status.successful",
        "spec.signerName",
        "spec.driver",
    ];
    for r in resources::all() {
        let set = selectable_fields(
            r.group,
            r.kind,
            &json!({"metadata": {"name": "x", "namespace": "y"}}),
        );
        for label in labels {
            let cluster_namespace = label == "metadata.namespace" && !r.namespaced;
            if convert_label(r.group, r.version, r.kind, label).is_ok() && !cluster_namespace {
                assert!(set.contains_key(label), "{} {label}", r.kind);
            }
        }
    }
}
