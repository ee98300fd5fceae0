//! Server-side apply of custom objects end to end through [`FieldManager::for_crd`]: what a
//! client sees in `metadata.managedFields`, in the merged object and in the errors.

use serde_json::{Value, json};

use crdkit_apply::managed_fields::object_managed_fields;
use crdkit_apply::{ApplyError, FieldManager};
use crdkit_schema::crd::CustomResourceDefinition;

use super::common::yaml;

const T0: &str = "2024-05-01T10:00:00Z";
const T1: &str = "2024-05-01T10:00:01Z";
const T2: &str = "2024-05-01T10:00:02Z";

pub fn crontab_crd() -> CustomResourceDefinition {
    let schema = yaml(
        r"
type: object
properties:
  spec:
    type: object
    properties:
      cronSpec: {type: string}
      image: {type: string}
      replicas: {type: integer}
      port: {x-kubernetes-int-or-string: true}
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          properties:
            name: {type: string}
            port: {type: integer}
            protocol: {type: string, default: TCP}
      tags:
        type: array
        x-kubernetes-list-type: set
        items: {type: string}
      args:
        type: array
        items: {type: string}
      env:
        type: object
        additionalProperties: {type: string}
      selector:
        type: object
        x-kubernetes-map-type: atomic
        additionalProperties: {type: string}
      config:
        type: object
        x-kubernetes-preserve-unknown-fields: true
      template:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          spec:
            type: object
            properties:
              image: {type: string}
  status:
    type: object
    properties:
      replicas: {type: integer}
      labelSelector: {type: string}
",
    );
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {
            "group": "stable.example.com",
            "scope": "Namespaced",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "listKind": "CronTabList"},
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema},
                 "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}},
                {"name": "v1beta1", "served": true, "storage": false, "schema": {"openAPIV3Schema": schema},
                 "subresources": {"status": {}}}
            ]
        }
    });
    serde_json::from_value(crd).expect("crd")
}

fn fm() -> FieldManager {
    FieldManager::for_crd(&crontab_crd(), "v1")
}

fn crontab(spec: Value) -> Value {
    json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object", "namespace": "default"},
        "spec": spec
    })
}

fn entries(obj: &Value) -> Vec<Value> {
    obj["metadata"]["managedFields"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn fields_of(obj: &Value, manager: &str, operation: &str) -> Value {
    entries(obj)
        .into_iter()
        .find(|e| e["manager"] == manager && e["operation"] == operation)
        .map(|e| e["fieldsV1"].clone())
        .unwrap_or(Value::Null)
}

#[test]
fn apply_creates_the_object() {
    let config = crontab(
        json!({"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 1}),
    );
    let out = fm()
        .apply(None, &config, "kubectl", false, None, T0)
        .unwrap();
    assert_eq!(out["spec"], config["spec"]);
    assert_eq!(out["metadata"]["name"], "my-new-cron-object");
    assert_eq!(
        out["metadata"]["managedFields"],
        json!([{
            "apiVersion": "stable.example.com/v1",
            "fieldsType": "FieldsV1",
            "fieldsV1": {"f:spec": {"f:cronSpec": {}, "f:image": {}, "f:replicas": {}}},
            "manager": "kubectl",
            "operation": "Apply",
            "time": T0
        }])
    );
}

#[test]
fn create_is_tracked_as_an_update() {
    let mut obj = crontab(json!({"cronSpec": "* * * * */5", "image": "my-awesome-cron-image"}));
    obj["metadata"]["labels"] = json!({"app": "cron"});
    let out = fm().update(None, &obj, "kubectl-create", None, T0);
    // Containers added by an update are owned with their contents (`.`).
    assert_eq!(
        out["metadata"]["managedFields"],
        json!([{
            "apiVersion": "stable.example.com/v1",
            "fieldsType": "FieldsV1",
            "fieldsV1": {
                "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                "f:spec": {".": {}, "f:cronSpec": {}, "f:image": {}}
            },
            "manager": "kubectl-create",
            "operation": "Update",
            "time": T0
        }])
    );
    // The byte form of the API server.
    let set =
        crdkit_apply::fieldpath::Set::from_value(&out["metadata"]["managedFields"][0]["fieldsV1"])
            .unwrap();
    assert_eq!(
        set.to_json_string(),
        r#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{".":{},"f:cronSpec":{},"f:image":{}}}"#
    );
}

#[test]
fn conflict_with_client_side_apply() {
    let fm = fm();
    let obj = crontab(json!({"cronSpec": "* * * * */5", "replicas": 1}));
    let live = fm.update(None, &obj, "kubectl-client-side-apply", None, T0);
    let config = crontab(json!({"replicas": 3}));
    let err = fm
        .apply(Some(&live), &config, "kubectl", false, None, T1)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using stable.example.com/v1: .spec.replicas"#
    );
    assert_eq!(err.status()["code"], 409);
    assert_eq!(
        err.causes()[0].message,
        r#"conflict with "kubectl-client-side-apply" using stable.example.com/v1"#
    );
    // Same value: no conflict, shared ownership.
    let same = crontab(json!({"replicas": 1}));
    let out = fm
        .apply(Some(&live), &same, "kubectl", false, None, T1)
        .unwrap();
    assert_eq!(
        fields_of(&out, "kubectl", "Apply"),
        json!({"f:spec": {"f:replicas": {}}})
    );
    assert_eq!(
        fields_of(&out, "kubectl-client-side-apply", "Update"),
        json!({"f:spec": {".": {}, "f:cronSpec": {}, "f:replicas": {}}})
    );
    // Forced: taken over.
    let out = fm
        .apply(Some(&live), &config, "kubectl", true, None, T1)
        .unwrap();
    assert_eq!(out["spec"]["replicas"], 3);
    assert_eq!(
        fields_of(&out, "kubectl-client-side-apply", "Update"),
        json!({"f:spec": {".": {}, "f:cronSpec": {}}})
    );
}

#[test]
fn several_conflicts() {
    let fm = fm();
    let live = fm.update(
        None,
        &crontab(json!({"image": "a", "replicas": 1})),
        "ctl-a",
        None,
        T0,
    );
    let live = fm
        .apply(
            Some(&live),
            &crontab(json!({"cronSpec": "x"})),
            "ctl-b",
            false,
            None,
            T1,
        )
        .unwrap();
    let err = fm
        .apply(
            Some(&live),
            &crontab(json!({"image": "b", "replicas": 2, "cronSpec": "y"})),
            "me",
            false,
            None,
            T2,
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 3 conflicts: conflicts with \"ctl-a\" using stable.example.com/v1:\n- .spec.image\n- .spec.replicas\nconflicts with \"ctl-b\":\n- .spec.cronSpec"
    );
    let fields: Vec<String> = err.causes().into_iter().map(|c| c.field).collect();
    assert_eq!(fields.len(), 3);
}

#[test]
fn removal_of_fields_an_applier_stops_sending() {
    let fm = fm();
    let a = crontab(
        json!({"image": "i", "replicas": 1, "env": {"A": "1", "B": "2"}, "tags": ["x", "y"]}),
    );
    let live = fm.apply(None, &a, "applier-a", false, None, T0).unwrap();
    // Another applier shares env.A and tag y.
    let b = crontab(json!({"env": {"A": "1"}, "tags": ["y"]}));
    let live = fm
        .apply(Some(&live), &b, "applier-b", false, None, T1)
        .unwrap();
    let a2 = crontab(json!({"image": "i"}));
    let out = fm
        .apply(Some(&live), &a2, "applier-a", false, None, T2)
        .unwrap();
    // Owned by a alone: removed; shared with b: kept.
    assert_eq!(
        out["spec"],
        json!({"image": "i", "env": {"A": "1"}, "tags": ["y"]})
    );
    assert_eq!(
        fields_of(&out, "applier-a", "Apply"),
        json!({"f:spec": {"f:image": {}}})
    );
}

#[test]
fn fields_of_updaters_stay_when_an_applier_drops_them() {
    let fm = fm();
    let live = fm
        .apply(
            None,
            &crontab(json!({"image": "i", "replicas": 1})),
            "applier",
            false,
            None,
            T0,
        )
        .unwrap();
    let mut scaled = live.clone();
    scaled["spec"]["replicas"] = json!(5);
    let live = fm.update(Some(&live), &scaled, "hpa", Some("scale"), T1);
    assert_eq!(
        fields_of(&live, "hpa", "Update"),
        json!({"f:spec": {"f:replicas": {}}})
    );
    assert_eq!(
        entries(&live)
            .iter()
            .find(|e| e["manager"] == "hpa")
            .unwrap()["subresource"],
        "scale"
    );
    let out = fm
        .apply(
            Some(&live),
            &crontab(json!({"image": "i"})),
            "applier",
            false,
            None,
            T2,
        )
        .unwrap();
    assert_eq!(out["spec"]["replicas"], 5);
}

#[test]
fn merge_by_list_and_map_types() {
    let fm = fm();
    let a = crontab(json!({
        "ports": [{"name": "http", "port": 80}, {"name": "metrics", "port": 9090}],
        "tags": ["a"],
        "args": ["--one"],
        "env": {"A": "1"},
        "selector": {"app": "x"}
    }));
    let live = fm.apply(None, &a, "a", false, None, T0).unwrap();
    let b = crontab(json!({
        "ports": [{"name": "grpc", "port": 9000}],
        "tags": ["b"],
        "env": {"B": "2"}
    }));
    let live = fm.apply(Some(&live), &b, "b", false, None, T1).unwrap();
    assert_eq!(
        live["spec"],
        json!({
            "ports": [{"name": "http", "port": 80}, {"name": "metrics", "port": 9090}, {"name": "grpc", "port": 9000}],
            "tags": ["a", "b"],
            "args": ["--one"],
            "env": {"A": "1", "B": "2"},
            "selector": {"app": "x"}
        })
    );
    assert_eq!(
        fields_of(&live, "b", "Apply"),
        json!({"f:spec": {
            "f:env": {"f:B": {}},
            "f:ports": {"k:{\"name\":\"grpc\"}": {".": {}, "f:name": {}, "f:port": {}}},
            "f:tags": {"v:\"b\"": {}}
        }})
    );
    // Atomic list and map: one value, owned whole; another applier conflicts on it.
    let c = crontab(json!({"args": ["--two"], "selector": {"tier": "y"}}));
    let err = fm.apply(Some(&live), &c, "c", false, None, T2).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 2 conflicts: conflicts with \"a\":\n- .spec.args\n- .spec.selector"
    );
    let out = fm.apply(Some(&live), &c, "c", true, None, T2).unwrap();
    assert_eq!(out["spec"]["args"], json!(["--two"]));
    assert_eq!(out["spec"]["selector"], json!({"tier": "y"}));
}

#[test]
fn list_map_key_defaults() {
    // An item without its `protocol` key is keyed by the schema's default.
    let fm = fm();
    let out = fm
        .apply(
            None,
            &crontab(json!({"ports": [{"name": "http", "port": 80}]})),
            "a",
            false,
            None,
            T0,
        )
        .unwrap();
    assert_eq!(
        fields_of(&out, "a", "Apply")["f:spec"]["f:ports"],
        json!({"k:{\"name\":\"http\"}": {".": {}, "f:name": {}, "f:port": {}}})
    );
}

#[test]
fn status_subresource() {
    let fm = fm();
    // On the main resource, status is nobody's.
    let mut config = crontab(json!({"replicas": 1}));
    config["status"] = json!({"replicas": 7});
    let live = fm.apply(None, &config, "kubectl", false, None, T0).unwrap();
    assert_eq!(
        fields_of(&live, "kubectl", "Apply"),
        json!({"f:spec": {"f:replicas": {}}})
    );
    // On /status, spec and metadata are nobody's.
    let mut status = crontab(json!({"replicas": 99}));
    status["status"] = json!({"replicas": 1, "labelSelector": "app=x"});
    status["metadata"]["labels"] = json!({"x": "y"});
    let out = fm
        .apply(
            Some(&live),
            &status,
            "controller",
            false,
            Some("status"),
            T1,
        )
        .unwrap();
    let e = entries(&out)
        .into_iter()
        .find(|e| e["manager"] == "controller")
        .unwrap();
    assert_eq!(e["subresource"], "status");
    assert_eq!(e["operation"], "Apply");
    assert_eq!(
        e["fieldsV1"],
        json!({"f:status": {"f:labelSelector": {}, "f:replicas": {}}})
    );
    // No conflict with kubectl on spec.replicas from /status: the registry resets spec there.
    let mut st2 = status.clone();
    st2["status"]["replicas"] = json!(2);
    let out2 = fm.apply(Some(&out), &st2, "other", false, Some("status"), T2);
    let err = out2.unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 1 conflict: conflict with \"controller\" with subresource \"status\": .status.replicas"
    );
    // Status updates through /status keep the managed fields of the live object.
    let mut upd = out.clone();
    upd["status"]["replicas"] = json!(3);
    upd["metadata"]["managedFields"] = json!([]);
    let after = fm.update(Some(&out), &upd, "status-writer", Some("status"), T2);
    let e = entries(&after)
        .into_iter()
        .find(|e| e["manager"] == "status-writer")
        .unwrap();
    assert_eq!(e["fieldsV1"], json!({"f:status": {"f:replicas": {}}}));
    assert_eq!(e["subresource"], "status");
    assert!(entries(&after).iter().any(|e| e["manager"] == "kubectl"));
}

#[test]
fn typed_errors() {
    let fm = fm();
    let err = fm
        .apply(
            None,
            &crontab(json!({"replicas": "three"})),
            "kubectl",
            false,
            None,
            T0,
        )
        .unwrap_err();
    assert_eq!(err.code(), 500);
    assert_eq!(
        err.to_string(),
        "failed to create typed patch object (default/my-new-cron-object; stable.example.com/v1, Kind=CronTab): .spec.replicas: expected numeric (int or float), got string"
    );
    assert_eq!(
        err.status(),
        json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "failed to create typed patch object (default/my-new-cron-object; stable.example.com/v1, Kind=CronTab): .spec.replicas: expected numeric (int or float), got string",
            "code": 500
        })
    );
    let cases = [
        (
            json!({"image": 5}),
            ".spec.image: expected string, got &value.valueUnstructured{Value:5}",
        ),
        (json!({"foo": 1}), ".spec.foo: field not declared in schema"),
        (json!({"tags": "x"}), ".spec.tags: expected list, got &{x}"),
        (json!({"env": ["x"]}), ".spec.env: expected map, got &{[x]}"),
        (
            json!({"ports": [{"name": "a"}, {"name": "a"}]}),
            ".spec.ports: duplicate entries for key [name=\"a\"]",
        ),
        (
            json!({"ports": [{"port": 1}]}),
            ".spec.ports: element 0: associative list with keys has an element that omits all key fields [\"name\"] (and doesn't have default values for any key fields)",
        ),
        (
            json!({"tags": ["a", "a"]}),
            ".spec.tags: duplicate entries for key [=\"a\"]",
        ),
    ];
    for (spec, want) in cases {
        let err = fm
            .apply(None, &crontab(spec.clone()), "kubectl", false, None, T0)
            .unwrap_err();
        let msg = err.to_string();
        let got = msg.split_once("): ").map(|x| x.1).unwrap_or(&msg);
        assert_eq!(got, want, "{spec}");
    }
    // Several problems: Go's list of errors.
    let err = fm
        .apply(
            None,
            &crontab(json!({"image": 5, "replicas": "x"})),
            "kubectl",
            false,
            None,
            T0,
        )
        .unwrap_err();
    assert!(err.to_string().ends_with(
        "errors:\n  .spec.image: expected string, got &value.valueUnstructured{Value:5}\n  .spec.replicas: expected numeric (int or float), got string"
    ), "{err}");
    // Unknown metadata fields are ObjectMeta's business.
    let mut bad = crontab(json!({}));
    bad["metadata"]["foo"] = json!("bar");
    let err = fm
        .apply(None, &bad, "kubectl", false, None, T0)
        .unwrap_err();
    assert!(
        err.to_string()
            .ends_with(".metadata.foo: field not declared in schema"),
        "{err}"
    );
}

#[test]
fn schemaless_parts() {
    let fm = fm();
    // int-or-string takes both; preserved fields are owned by key; embedded resources carry
    // ObjectMeta (labels merge granularly).
    let a = crontab(json!({
        "port": 8080,
        "config": {"a": {"b": 1}, "list": [1, 2]},
        "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"app": "x"}}, "spec": {"image": "i"}}
    }));
    let live = fm.apply(None, &a, "a", false, None, T0).unwrap();
    assert_eq!(
        fields_of(&live, "a", "Apply"),
        json!({"f:spec": {
            // Keys of schemaless maps are owned themselves.
            "f:config": {"f:a": {".": {}, "f:b": {}}, "f:list": {}},
            "f:port": {},
            "f:template": {
                "f:apiVersion": {}, "f:kind": {},
                "f:metadata": {"f:labels": {"f:app": {}}},
                "f:spec": {"f:image": {}}
            }
        }})
    );
    let b = crontab(json!({"port": "http", "template": {"metadata": {"labels": {"tier": "y"}}}}));
    let out = fm.apply(Some(&live), &b, "b", true, None, T1).unwrap();
    assert_eq!(out["spec"]["port"], "http");
    assert_eq!(
        out["spec"]["template"]["metadata"]["labels"],
        json!({"app": "x", "tier": "y"})
    );
}

#[test]
fn before_first_apply_for_untracked_objects() {
    let fm = fm();
    let mut live = crontab(json!({"image": "old", "replicas": 1}));
    live["metadata"]["uid"] = json!("6e1a2b3c");
    live["metadata"]["resourceVersion"] = json!("12");
    let out = fm
        .apply(
            Some(&live),
            &crontab(json!({"replicas": 2})),
            "kubectl",
            false,
            None,
            T0,
        )
        .unwrap_err();
    // What the object held belongs to before-first-apply, which the apply conflicts with.
    assert_eq!(
        out.to_string(),
        "Apply failed with 1 conflict: conflict with \"before-first-apply\" using stable.example.com/v1: .spec.replicas"
    );
    let ok = fm
        .apply(
            Some(&live),
            &crontab(json!({"replicas": 1})),
            "kubectl",
            false,
            None,
            T0,
        )
        .unwrap();
    assert_eq!(
        fields_of(&ok, "before-first-apply", "Update"),
        json!({"f:spec": {".": {}, "f:image": {}, "f:replicas": {}}})
    );
}

#[test]
fn managers_of_other_versions() {
    let fm = fm();
    // A manager of v1beta1 keeps its fields; its conflicts are compared in its version.
    let mut beta = crontab(json!({"image": "a"}));
    beta["apiVersion"] = json!("stable.example.com/v1beta1");
    let beta_fm = FieldManager::for_crd(&crontab_crd(), "v1beta1");
    let live = beta_fm
        .apply(None, &beta, "old-client", false, None, T0)
        .unwrap();
    assert_eq!(live["apiVersion"], "stable.example.com/v1beta1");
    let mut live_v1 = live.clone();
    live_v1["apiVersion"] = json!("stable.example.com/v1");
    let err = fm
        .apply(
            Some(&live_v1),
            &crontab(json!({"image": "b"})),
            "new-client",
            false,
            None,
            T1,
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 1 conflict: conflict with \"old-client\": .spec.image"
    );
    // A version the CRD no longer has: its managers are dropped.
    let mut gone = live_v1.clone();
    gone["metadata"]["managedFields"][0]["apiVersion"] = json!("stable.example.com/v0");
    let out = fm
        .apply(
            Some(&gone),
            &crontab(json!({"image": "b"})),
            "new-client",
            false,
            None,
            T1,
        )
        .unwrap();
    let managers: Vec<String> = object_managed_fields(&out)
        .unwrap()
        .into_iter()
        .map(|e| e.manager)
        .collect();
    assert_eq!(managers, ["new-client"]);
}

#[test]
fn invalid_managed_fields_in_requests_are_ignored() {
    let fm = fm();
    let live = fm
        .apply(
            None,
            &crontab(json!({"image": "a", "replicas": 1})),
            "a",
            false,
            None,
            T0,
        )
        .unwrap();
    let mut new = live.clone();
    new["spec"]["image"] = json!("b");
    new["metadata"]["managedFields"] = json!([{"manager": "x", "operation": "Delete", "apiVersion": "v1", "fieldsType": "FieldsV1"}]);
    let out = fm.update(Some(&live), &new, "editor", None, T1);
    let managers: Vec<String> = object_managed_fields(&out)
        .unwrap()
        .into_iter()
        .map(|e| e.manager)
        .collect();
    assert_eq!(managers, ["a", "editor"]);
    // Managed fields that do not read at all (an entry not an object) are ignored too.
    new["metadata"]["managedFields"] = json!([5]);
    let out = fm.update(Some(&live), &new, "editor", None, T1);
    assert_eq!(object_managed_fields(&out).unwrap().len(), 2);
    // Apply with managed fields in the live object that do not decode: 500.
    let mut broken = live.clone();
    broken["metadata"]["managedFields"][0]["operation"] = json!("Delete");
    let err = fm
        .apply(
            Some(&broken),
            &crontab(json!({"image": "c"})),
            "a",
            false,
            None,
            T1,
        )
        .unwrap_err();
    assert_eq!(
        err,
        ApplyError::Internal(
            "failed to decode managed fields: operation must be `Apply` or `Update`".into()
        )
    );
}

#[test]
fn update_takes_changed_fields_from_appliers() {
    let fm = fm();
    let live = fm
        .apply(
            None,
            &crontab(json!({"image": "a", "replicas": 1})),
            "kubectl",
            false,
            None,
            T0,
        )
        .unwrap();
    let mut edited = live.clone();
    edited["spec"]["image"] = json!("b");
    let out = fm.update(Some(&live), &edited, "kubectl-edit", None, T1);
    assert_eq!(
        fields_of(&out, "kubectl", "Apply"),
        json!({"f:spec": {"f:replicas": {}}})
    );
    assert_eq!(
        fields_of(&out, "kubectl-edit", "Update"),
        json!({"f:spec": {"f:image": {}}})
    );
    // Removing a field in an update takes it from everyone.
    let mut removed = out.clone();
    removed["spec"].as_object_mut().unwrap().remove("replicas");
    let out = fm.update(Some(&out), &removed, "kubectl-edit", None, T2);
    assert!(entries(&out).iter().all(|e| e["manager"] != "kubectl"));
}

#[test]
fn kubectl_last_applied_annotation_follows_server_side_apply() {
    let fm = fm();
    let mut csa = crontab(json!({"image": "a"}));
    let encoded = csa.to_string();
    csa["metadata"]["annotations"] =
        json!({"kubectl.kubernetes.io/last-applied-configuration": encoded});
    let live = fm.update(None, &csa, "kubectl-client-side-apply", None, T0);
    let out = fm
        .apply(
            Some(&live),
            &crontab(json!({"image": "b"})),
            "kubectl",
            false,
            None,
            T1,
        )
        .unwrap();
    assert_eq!(out["spec"]["image"], "b");
    assert_eq!(
        out["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
        "{\"apiVersion\":\"stable.example.com/v1\",\"kind\":\"CronTab\",\"metadata\":{\"name\":\"my-new-cron-object\",\"namespace\":\"default\"},\"spec\":{\"image\":\"b\"}}\n"
    );
}

#[test]
fn kubectl_scale_through_the_scale_subresource() {
    use crdkit_apply::manager::scale::{ScaleHandler, crd_replicas_paths, scale_field_manager};
    let crd = crontab_crd();
    let fm = FieldManager::for_crd(&crd, "v1");
    let live = fm
        .apply(
            None,
            &crontab(json!({"image": "i", "replicas": 1})),
            "kubectl",
            false,
            None,
            T0,
        )
        .unwrap();
    let handler = ScaleHandler::new(
        object_managed_fields(&live).unwrap(),
        "stable.example.com/v1",
        crd_replicas_paths(&crd),
    );
    let scale_entries: Vec<Value> = handler
        .to_subresource()
        .unwrap()
        .iter()
        .map(crdkit_apply::manager::ManagedFieldsEntry::to_value)
        .collect();
    let scale = json!({
        "apiVersion": "autoscaling/v1", "kind": "Scale",
        "metadata": {"name": "my-new-cron-object", "namespace": "default", "uid": "u1", "managedFields": scale_entries},
        "spec": {"replicas": 1},
        "status": {"replicas": 1}
    });
    let mut scaled = scale.clone();
    scaled["spec"]["replicas"] = json!(5);
    scaled["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("managedFields");
    let out = scale_field_manager().update(Some(&scale), &scaled, "kubectl", Some("scale"), T1);
    let parent = handler
        .to_parent(&object_managed_fields(&out).unwrap())
        .unwrap();
    let parent: Vec<Value> = parent
        .iter()
        .map(crdkit_apply::manager::ManagedFieldsEntry::to_value)
        .collect();
    assert_eq!(
        parent,
        vec![
            json!({"manager": "kubectl", "operation": "Apply", "apiVersion": "stable.example.com/v1",
                   "time": T0, "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:image": {}}}}),
            json!({"manager": "kubectl", "operation": "Update", "apiVersion": "stable.example.com/v1",
                   "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}, "subresource": "scale"}),
        ]
    );
}

/// A small deterministic generator for the randomized checks below.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((self.0 >> 33) % n as u64).unwrap_or(0)
    }

    fn pick<'a>(&mut self, items: &'a [Value]) -> &'a Value {
        &items[self.next(items.len())]
    }
}

/// A random spec: some of the CronTab's fields, now and then a value of the wrong type.
fn random_spec(r: &mut Lcg) -> Value {
    let scalars = [
        json!("a"),
        json!("b"),
        json!(1),
        json!(2),
        json!(true),
        json!(null),
    ];
    let mut spec = serde_json::Map::new();
    let names = ["a", "b", "c"];
    if r.next(2) == 0 {
        spec.insert(
            "image".into(),
            if r.next(8) == 0 {
                json!(5)
            } else {
                json!(names[r.next(3)])
            },
        );
    }
    if r.next(2) == 0 {
        spec.insert("replicas".into(), json!(r.next(4)));
    }
    if r.next(2) == 0 {
        // Lists and maps are never empty: an empty container applied after the applier owned
        // items of it is pruned (to nothing, or null) and put back by the next apply, in
        // structured-merge-diff too, which the idempotence check below would take for a failure.
        let ports: Vec<Value> = (0..=r.next(2))
            .map(|i| json!({"name": names[i], "port": r.next(3)}))
            .collect();
        spec.insert("ports".into(), json!(ports));
    }
    if r.next(2) == 0 {
        let tags: Vec<Value> = (0..=r.next(2)).map(|i| json!(names[i])).collect();
        spec.insert("tags".into(), json!(tags));
    }
    if r.next(2) == 0 {
        let env: serde_json::Map<String, Value> = (0..=r.next(2))
            .map(|i| (names[i].to_owned(), json!(names[r.next(3)])))
            .collect();
        spec.insert("env".into(), Value::Object(env));
    }
    if r.next(3) == 0 {
        spec.insert("args".into(), json!([names[r.next(3)]]));
    }
    if r.next(3) == 0 {
        spec.insert(
            "config".into(),
            json!({names[r.next(3)]: r.pick(&scalars).clone()}),
        );
    }
    if r.next(4) == 0 {
        spec.insert("port".into(), r.pick(&scalars).clone());
    }
    Value::Object(spec)
}

#[test]
fn randomized_applies_are_idempotent_and_own_their_config() {
    let fm = fm();
    let schema_fm = &fm;
    let mut r = Lcg(7);
    let managers = ["alpha", "beta", "gamma"];
    let mut live: Option<Value> = None;
    let (mut applied, mut conflicts, mut invalid) = (0, 0, 0);
    for step in 0..300 {
        let manager = managers[r.next(3)];
        let config = crontab(random_spec(&mut r));
        let force = r.next(2) == 0;
        let now = crdkit_apimachinery::goparse::format_rfc3339(1_700_000_000 + step);
        match schema_fm.apply(live.as_ref(), &config, manager, force, None, &now) {
            Ok(out) => {
                applied += 1;
                // The applier owns what it applied (the config's fields).
                let entry = entries(&out)
                    .into_iter()
                    .find(|e| e["manager"] == manager && e["operation"] == "Apply");
                // An empty granular list sets nothing (structured-merge-diff owns no field for
                // it), unlike an empty map.
                let owned: Vec<&String> = config["spec"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(k, v)| !(v.as_array().is_some_and(Vec::is_empty) && *k != "args"))
                    .map(|(k, _)| k)
                    .collect();
                if !owned.is_empty() {
                    let e = entry.expect("applier entry");
                    for k in owned {
                        assert!(
                            e["fieldsV1"]["f:spec"].get(format!("f:{k}")).is_some(),
                            "step {step}: {manager} does not own .spec.{k}: {e}"
                        );
                    }
                }
                // Applying the same again changes nothing.
                let later = crdkit_apimachinery::goparse::format_rfc3339(1_800_000_000 + step);
                let again = schema_fm
                    .apply(Some(&out), &config, manager, false, None, &later)
                    .unwrap_or_else(|e| panic!("step {step}: re-apply failed: {e}"));
                assert_eq!(again, out, "step {step}: re-apply is not a no-op");
                live = Some(out);
            }
            Err(ApplyError::Conflicts(c)) => {
                assert!(!force, "step {step}: forced apply conflicted");
                assert!(!c.0.is_empty());
                conflicts += 1;
            }
            Err(ApplyError::Internal(m)) => {
                assert!(
                    m.starts_with("failed to create typed patch object"),
                    "step {step}: {m}"
                );
                invalid += 1;
            }
            Err(e) => panic!("step {step}: {e}"),
        }
    }
    assert!(
        applied > 100 && conflicts > 10 && invalid > 5,
        "{applied} {conflicts} {invalid}"
    );
}

#[test]
fn field_managers_are_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<FieldManager>();
    assert_send_sync::<ApplyError>();
}
