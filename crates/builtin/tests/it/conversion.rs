//! `autoscaling/v1` ⇄ `v2` HorizontalPodAutoscalers (kubernetes
//! `pkg/apis/autoscaling/v1/conversion_test.go`: the CPU target, the round-trip annotations)
//! and the decoder's type errors.

use crdkit_builtin::conversion::autoscaling::{
    BEHAVIOR, CONDITIONS, METRIC_SPECS, METRIC_STATUSES, hpa_v1_to_v2, hpa_v2_to_v1,
};
use crdkit_builtin::decode::type_error;
use serde_json::{Value, json};

fn target() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"})
}

fn annotation(v: &Value, key: &str) -> Value {
    serde_json::from_str(v["metadata"]["annotations"][key].as_str().unwrap()).unwrap()
}

#[test]
fn the_cpu_target_is_the_utilization_metric() {
    let v1 = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "h"}, "spec": {"scaleTargetRef": target(), "minReplicas": 2,
        "maxReplicas": 5, "targetCPUUtilizationPercentage": 55},
        "status": {"currentReplicas": 1, "desiredReplicas": 2, "currentCPUUtilizationPercentage": 40}});
    let v2 = hpa_v1_to_v2(&v1);
    assert_eq!(v2["apiVersion"], "autoscaling/v2");
    assert_eq!(
        v2["spec"]["metrics"],
        json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 55}}}])
    );
    assert_eq!(
        v2["status"]["currentMetrics"][0]["resource"]["current"]["averageUtilization"],
        40
    );
    assert!(v2["metadata"].get("annotations").is_none());
    // Back to v1: the current metrics are kept raw in their annotation even when they are the
    // CPU utilization ("in order to save the raw value as well").
    let back = hpa_v2_to_v1(&v2);
    assert_eq!(
        annotation(&back, METRIC_STATUSES),
        json!([{"type": "Resource", "resource": {"name": "cpu", "currentAverageUtilization": 40,
            "currentAverageValue": "0"}}])
    );
    let mut without = back.clone();
    without["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("annotations");
    assert_eq!(without, v1);
    assert_eq!(hpa_v2_to_v1(&hpa_v1_to_v2(&back)), back, "stable");
}

#[test]
fn no_metric_is_the_implicit_80_percent() {
    let v1 = json!({"spec": {"scaleTargetRef": target(), "maxReplicas": 3}});
    let v2 = hpa_v1_to_v2(&v1);
    assert_eq!(
        v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
        80
    );
    assert_eq!(
        hpa_v2_to_v1(&v2)["spec"]["targetCPUUtilizationPercentage"],
        80
    );
}

#[test]
fn what_v1_cannot_hold_travels_in_annotations() {
    let v2 = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "h", "annotations": {"keep": "me"}},
        "spec": {"scaleTargetRef": target(), "minReplicas": 1, "maxReplicas": 4,
            "metrics": [
                {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 60}}},
                {"type": "Pods", "pods": {"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "10"}}},
                {"type": "External", "external": {"metric": {"name": "queue", "selector": {"matchLabels": {"q": "a"}}},
                    "target": {"type": "Value", "value": "30"}}}],
            "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60, "selectPolicy": "Max",
                "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}}},
        "status": {"currentReplicas": 2, "desiredReplicas": 2,
            "currentMetrics": [{"type": "Pods", "pods": {"metric": {"name": "qps"}, "current": {"averageValue": "7"}}}],
            "conditions": [{"type": "AbleToScale", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z"}]}});
    let v1 = hpa_v2_to_v1(&v2);
    assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 60);
    assert_eq!(v1["metadata"]["annotations"]["keep"], "me");
    assert_eq!(
        annotation(&v1, METRIC_SPECS),
        json!([{"type": "Pods", "pods": {"metricName": "qps", "targetAverageValue": "10"}},
               {"type": "External", "external": {"metricName": "queue",
                   "metricSelector": {"matchLabels": {"q": "a"}}, "targetValue": "30"}}])
    );
    assert_eq!(
        annotation(&v1, METRIC_STATUSES),
        json!([{"type": "Pods", "pods": {"metricName": "qps", "currentAverageValue": "7"}}])
    );
    // The internal struct marshalled without json tags: Go's field names, nil as null.
    assert_eq!(
        annotation(&v1, BEHAVIOR),
        json!({"ScaleUp": null, "ScaleDown": {"StabilizationWindowSeconds": 60, "SelectPolicy": "Max",
            "Policies": [{"Type": "Percent", "Value": 100, "PeriodSeconds": 15}], "Tolerance": null}})
    );
    assert_eq!(annotation(&v1, CONDITIONS), v2["status"]["conditions"]);
    // Back: the annotations' metrics first, then the CPU target; the annotations dropped.
    let back = hpa_v1_to_v2(&v1);
    let mut want = v2["spec"]["metrics"].as_array().unwrap().clone();
    want.rotate_left(1);
    assert_eq!(back["spec"]["metrics"], Value::Array(want));
    assert_eq!(back["spec"]["behavior"], v2["spec"]["behavior"]);
    assert_eq!(back["status"], v2["status"]);
    assert_eq!(back["metadata"]["annotations"], json!({"keep": "me"}));
}

#[test]
fn annotations_that_do_not_decode_are_dropped() {
    let v1 = json!({"metadata": {"annotations": {METRIC_SPECS: "abc", BEHAVIOR: "{}", CONDITIONS: "[]"}},
        "spec": {"scaleTargetRef": target(), "maxReplicas": 3, "targetCPUUtilizationPercentage": 50}});
    let v2 = hpa_v1_to_v2(&v1);
    assert_eq!(v2["spec"]["metrics"].as_array().map(Vec::len), Some(1));
    assert!(v2["spec"].get("behavior").is_none());
    assert!(v2["metadata"].get("annotations").is_none(), "{v2}");
}

#[test]
fn type_errors_in_go_words() {
    let cases = [
        (
            "apps",
            "v1",
            "Deployment",
            json!({"spec": {"replicas": true}}),
            Some(
                "json: cannot unmarshal bool into Go struct field DeploymentSpec.spec.replicas of type int32",
            ),
        ),
        (
            "apps",
            "v1",
            "Deployment",
            json!({"spec": {"replicas": 4_294_967_296_i64}}),
            Some(
                "json: cannot unmarshal number 4294967296 into Go struct field DeploymentSpec.spec.replicas of type int32",
            ),
        ),
        (
            "",
            "v1",
            "ConfigMap",
            json!({"metadata": {"labels": {"a": 1}}}),
            Some(
                "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
            ),
        ),
        (
            "",
            "v1",
            "ConfigMap",
            json!({"immutable": "true"}),
            Some(
                "json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool",
            ),
        ),
        (
            "",
            "v1",
            "Pod",
            json!({"spec": {"containers": [{"name": "c", "args": ["a", {}]}]}}),
            Some(
                "json: cannot unmarshal object into Go struct field Container.spec.containers.args of type string",
            ),
        ),
        // Quantities, int-or-strings, base64 bytes and nulls decode their own way.
        (
            "",
            "v1",
            "Pod",
            json!({"spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": 1}},
            "ports": [{"containerPort": 80}], "livenessProbe": {"httpGet": {"port": "http"}}}],
            "nodeName": null}}),
            None,
        ),
        (
            "",
            "v1",
            "Secret",
            json!({"data": {"a": "YQ=="}, "stringData": {"b": "c"}}),
            None,
        ),
        (
            "",
            "v1",
            "Service",
            json!({"spec": {"ports": [{"port": 80, "targetPort": 8080}]}}),
            None,
        ),
    ];
    for (group, version, kind, obj, want) in cases {
        assert_eq!(
            type_error(group, version, kind, &obj).as_deref(),
            want,
            "{kind} {obj}"
        );
    }
}
