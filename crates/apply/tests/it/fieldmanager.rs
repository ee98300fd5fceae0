//! The API server's field manager, as apimachinery's `pkg/util/managedfields/fieldmanager_test.go`
//! drives it (`managedfieldstest.NewTestFieldManager`): a live object, applies and updates in
//! turn. The Go tests use the built-in Deployment and Pod schemas; here a CRD schema with the same
//! shape for the fields the tests touch stands in for them.

use serde_json::{Value, json};

use crdkit_apply::manager::ManagedFieldsEntry;
use crdkit_apply::{ApplyError, FieldManager};

use super::common::{Draws, structural, workload_schema, yaml};

/// A Deployment-shaped CRD schema (apps/v1 Deployment for the fields these tests touch).
pub fn deployment_schema() -> Value {
    yaml(
        r"
type: object
properties:
  spec:
    type: object
    properties:
      replicas: {type: integer}
      selector:
        type: object
        properties:
          matchLabels: {type: object, additionalProperties: {type: string}}
      template:
        type: object
        properties:
          metadata:
            type: object
            properties:
              labels: {type: object, additionalProperties: {type: string}}
          spec:
            type: object
            properties:
              containers:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  properties:
                    name: {type: string}
                    image: {type: string}
  status:
    type: object
    properties:
      replicas: {type: integer}
",
    )
}

/// `TestFieldManagerImpl`: a live object and a clock giving each operation the next second.
pub struct TestFieldManager {
    pub fm: FieldManager,
    pub live: Value,
    pub subresource: Option<&'static str>,
    clock: i64,
}

impl TestFieldManager {
    pub fn new(api_version: &str, kind: &str) -> TestFieldManager {
        Self::with_schema(&deployment_schema(), api_version, kind)
    }

    pub fn with_schema(schema: &Value, api_version: &str, kind: &str) -> TestFieldManager {
        let schema = structural(schema);
        Self::with(FieldManager::new(Some(&schema), api_version, kind))
    }

    pub fn with(fm: FieldManager) -> TestFieldManager {
        let live = fm.new_object();
        TestFieldManager {
            fm,
            live,
            subresource: None,
            clock: 0,
        }
    }

    pub fn now(&mut self) -> String {
        self.clock += 1;
        crdkit_apimachinery::goparse::format_rfc3339(1_700_000_000 + self.clock)
    }

    pub fn apply(&mut self, obj: &Value, manager: &str, force: bool) -> Result<(), ApplyError> {
        let now = self.now();
        let out = self.fm.apply(
            Some(&self.live),
            obj,
            manager,
            force,
            self.subresource,
            &now,
        )?;
        self.live = out;
        Ok(())
    }

    pub fn update(&mut self, obj: &Value, manager: &str) -> Result<(), ApplyError> {
        let now = self.now();
        let out = self
            .fm
            .try_update(Some(&self.live), obj, manager, self.subresource, &now)?;
        self.live = out;
        Ok(())
    }

    pub fn managed_fields(&self) -> Vec<ManagedFieldsEntry> {
        crdkit_apply::managed_fields::object_managed_fields(&self.live).unwrap_or_default()
    }

    pub fn managed_json(&self) -> Value {
        self.live["metadata"]["managedFields"].clone()
    }
}

fn deployment() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "deployment", "labels": {"app": "nginx"}},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "nginx"}},
            "template": {
                "metadata": {"labels": {"app": "nginx"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}
            }
        }
    })
}

#[test]
fn update_apply_conflict() {
    // TestUpdateApplyConflict
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    f.update(&deployment(), "fieldmanager_test").unwrap();
    let applied = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "deployment"},
        "spec": {"replicas": 101}
    });
    let err = f
        .apply(&applied, "fieldmanager_conflict", false)
        .unwrap_err();
    assert_eq!(err.code(), 409);
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "fieldmanager_test" using apps/v1: .spec.replicas"#
    );
    assert_eq!(
        err.status(),
        json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "Apply failed with 1 conflict: conflict with \"fieldmanager_test\" using apps/v1: .spec.replicas",
            "reason": "Conflict",
            "details": {"causes": [{
                "reason": "FieldManagerConflict",
                "message": "conflict with \"fieldmanager_test\" using apps/v1",
                "field": ".spec.replicas"
            }]},
            "code": 409
        })
    );
    // Forced, the applier takes the field over.
    f.apply(&applied, "fieldmanager_conflict", true).unwrap();
    assert_eq!(f.live["spec"]["replicas"], json!(101));
    let m = f.managed_fields();
    assert_eq!(m[0].manager, "fieldmanager_conflict");
    assert_eq!(m[0].operation, "Apply");
    assert_eq!(m[0].fields_v1, Some(json!({"f:spec": {"f:replicas": {}}})));
    assert_eq!(m[1].manager, "fieldmanager_test");
    assert!(
        m[1].fields_v1.as_ref().unwrap()["f:spec"]
            .get("f:replicas")
            .is_none()
    );
}

#[test]
fn apply_strips_fields() {
    // TestApplyStripsFields: an update setting only server-owned metadata owns nothing.
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    let obj = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {
            "name": "b", "namespace": "b", "uid": "b", "generation": 0,
            "resourceVersion": "b", "creationTimestamp": "2020-01-01T00:00:00Z",
            "managedFields": [{"manager": "update", "operation": "Apply", "apiVersion": "apps/v1"}]
        }
    });
    f.update(&obj, "fieldmanager_test").unwrap();
    assert!(f.managed_fields().is_empty(), "{}", f.live);
    assert!(f.live["metadata"].get("managedFields").is_none());
}

#[test]
fn version_check() {
    // TestVersionCheck, TestVersionCheckDoesNotPanic
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    f.apply(
        &json!({"apiVersion": "apps/v1", "kind": "Deployment"}),
        "fieldmanager_test",
        false,
    )
    .unwrap();
    let err = f
        .apply(
            &json!({"apiVersion": "apps/v1beta1", "kind": "Deployment"}),
            "fieldmanager_test",
            false,
        )
        .unwrap_err();
    assert_eq!(err.code(), 400);
    assert_eq!(
        err.to_string(),
        "invalid object type: apps/v1beta1, Kind=Deployment"
    );
    let err = f.apply(&json!({}), "fieldmanager_test", false).unwrap_err();
    assert_eq!(err.code(), 400);
    assert_eq!(err.to_string(), "invalid object type: /, Kind=");
    assert_eq!(err.status()["reason"], "BadRequest");
}

#[test]
fn apply_does_not_strip_labels() {
    // TestApplyDoesNotStripLabels
    let mut f = TestFieldManager::new("v1", "Pod");
    f.apply(
        &json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "b"}}}),
        "fieldmanager_test",
        false,
    )
    .unwrap();
    let m = f.managed_fields();
    assert_eq!(m.len(), 1);
    assert_eq!(
        m[0].fields_v1,
        Some(json!({"f:metadata": {"f:labels": {"f:a": {}}}}))
    );
}

#[test]
fn apply_fails_with_managed_fields() {
    // TestApplyFailsWithManagedFields, TestApplySuccessWithNoManagedFields
    let mut f = TestFieldManager::new("v1", "Pod");
    let err = f
        .apply(
            &json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"managedFields": [{"manager": "test"}]}}),
            "fieldmanager_test",
            false,
        )
        .unwrap_err();
    assert_eq!(
        err,
        ApplyError::BadRequest("metadata.managedFields must be nil".into())
    );
    f.apply(
        &json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "b"}}}),
        "fieldmanager_test",
        false,
    )
    .unwrap();
}

#[test]
fn no_op_changes() {
    // TestNoOpChanges
    let mut f = TestFieldManager::new("v1", "Pod");
    let obj = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"labels": {"a": "b"}, "creationTimestamp": null}
    });
    f.apply(&obj, "fieldmanager_test_apply", false).unwrap();
    let before = f.live.clone();
    // Applying with a different field manager creates an entry.
    f.apply(&obj, "fieldmanager_test_apply_other", false)
        .unwrap();
    assert_ne!(before, f.live);
    assert_eq!(f.managed_fields().len(), 2);
    // A no-op update changes nothing, not even a time.
    let before = f.live.clone();
    f.update(&obj, "fieldmanager_test_update").unwrap();
    assert_eq!(before, f.live);
    // Nor does a no-op (forced) apply.
    f.apply(&obj, "fieldmanager_test_apply", true).unwrap();
    assert_eq!(before, f.live);
}

#[test]
fn reset_managed_fields() {
    // TestResetManagedFieldsEmptyList, TestResetManagedFieldsEmptyItem
    for reset in [json!([]), json!([{}])] {
        let mut f = TestFieldManager::new("v1", "Pod");
        let obj = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "b"}}});
        f.apply(&obj, "fieldmanager_test_apply", false).unwrap();
        let mut obj = obj;
        obj["metadata"]["managedFields"] = reset.clone();
        f.update(&obj, "update_manager").unwrap();
        assert!(f.managed_fields().is_empty(), "{reset}: {}", f.live);
    }
}

fn last_applied(live: &Value) -> Option<String> {
    live["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
        .as_str()
        .map(str::to_owned)
}

#[test]
fn server_side_apply_with_invalid_last_applied() {
    // TestServerSideApplyWithInvalidLastApplied
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    let obj = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {
            "name": "my-deployment", "labels": {"app": "my-app-v1"},
            "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "invalid-object"}
        },
        "spec": {"replicas": 1}
    });
    f.update(&obj, "kubectl-client-side-apply-test").unwrap();
    assert_eq!(last_applied(&f.live).as_deref(), Some("invalid-object"));
    let applied = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "my-deployment", "labels": {"app": "my-app-v2"}},
        "spec": {"replicas": 100}
    });
    let err = f.apply(&applied, "kubectl", false).unwrap_err();
    assert_eq!(err.code(), 409);
    assert_eq!(last_applied(&f.live).as_deref(), Some("invalid-object"));
    f.apply(&applied, "kubectl", true).unwrap();
    let la = last_applied(&f.live).unwrap();
    assert!(la.contains("my-app-v2"), "{la}");
    assert!(la.ends_with('\n'));
}

#[test]
fn interop_client_side_and_server_side_apply() {
    // TestInteropForClientSideApplyAndServerSideApply
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    let mut obj = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "my-deployment", "labels": {"app": "my-app"}},
        "spec": {
            "replicas": 100,
            "selector": {"matchLabels": {"app": "my-app"}},
            "template": {
                "metadata": {"labels": {"app": "my-app"}},
                "spec": {"containers": [{"name": "my-c", "image": "my-image-v1"}]}
            }
        }
    });
    let encoded = obj.to_string();
    obj["metadata"]["annotations"] =
        json!({"kubectl.kubernetes.io/last-applied-configuration": encoded});
    f.update(&obj, "kubectl-client-side-apply-test").unwrap();
    assert!(last_applied(&f.live).unwrap().contains("my-image-v1"));
    let applied = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "my-deployment", "labels": {"app": "my-app-v2"}},
        "spec": {
            "replicas": 8,
            "selector": {"matchLabels": {"app": "my-app-v2"}},
            "template": {
                "metadata": {"labels": {"app": "my-app-v2"}},
                "spec": {"containers": [{"name": "my-c", "image": "my-image-v2"}]}
            }
        }
    });
    // Every conflict is a field of the last applied configuration still at its value: kubectl
    // takes them over without force.
    f.apply(&applied, "kubectl", false).unwrap();
    assert!(last_applied(&f.live).unwrap().contains("my-image-v2"));
    assert_eq!(f.live["spec"]["replicas"], json!(8));
    // Another manager gets no such favour.
    let mut other = applied.clone();
    other["spec"]["replicas"] = json!(9);
    let err = f.apply(&other, "someone-else", false).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas"#
    );
}

#[test]
fn no_track_managed_fields_for_client_side_apply() {
    // TestNoTrackManagedFieldsForClientSideApply
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    let base = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "my-deployment", "labels": {"app": "my-app"}},
        "spec": {"replicas": 100}
    });
    f.update(&base, "test_kubectl_create").unwrap();
    assert!(!f.managed_fields().is_empty());
    // Stop tracking.
    let mut obj = base.clone();
    obj["metadata"]["managedFields"] = json!([]);
    obj["metadata"]["uid"] = json!("nonempty");
    f.update(&obj, "test_kubectl_replace").unwrap();
    assert!(f.managed_fields().is_empty());
    // Still not tracked.
    let mut obj = base.clone();
    obj["metadata"]["annotations"] =
        json!({"kubectl.kubernetes.io/last-applied-configuration": base.to_string()});
    f.update(&obj, "test_k_client_side_apply").unwrap();
    assert!(f.managed_fields().is_empty());
    assert!(last_applied(&f.live).unwrap().contains("my-app"));
    // Tracking starts with an apply, existing fields going to before-first-apply.
    f.apply(&base, "test_server_side_apply_without_upgrade", false)
        .unwrap();
    let m = f.managed_fields();
    assert!(m.len() >= 2, "{m:?}");
    assert_eq!(m[0].manager, "test_server_side_apply_without_upgrade");
    assert_eq!(m[1].manager, "before-first-apply");
    assert_eq!(m[1].operation, "Update");
    // kubectl takes over from before-first-apply where the last applied configuration agrees.
    let applied = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "my-deployment", "labels": {"app": "my-app-v2"}},
        "spec": {"replicas": 8}
    });
    f.apply(&applied, "kubectl", false).unwrap();
    assert!(!f.managed_fields().is_empty());
    assert!(last_applied(&f.live).unwrap().contains("my-app-v2"));
}

#[test]
fn update_via_subresources() {
    // TestUpdateViaSubresources: managed fields cannot be set or reset through a subresource.
    let mut f = TestFieldManager::new("v1", "Pod");
    f.subresource = Some("scale");
    let obj = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "labels": {"a": "b"},
            "managedFields": [{
                "manager": "test", "operation": "Apply", "apiVersion": "apps/v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {"f:labels": {"f:another_field": {}}}}
            }]
        }
    });
    f.update(&obj, "fieldmanager_test_subresource").unwrap();
    let m = f.managed_fields();
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].manager, "fieldmanager_test_subresource");
    assert_eq!(m[0].subresource, "scale");
    let mut obj = obj;
    obj["metadata"]["managedFields"] = json!([]);
    f.update(&obj, "fieldmanager_test_subresource").unwrap();
    assert_eq!(f.managed_fields().len(), 1);
}

fn nginx() -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "deployment", "labels": {"app": "nginx"}},
        "spec": {
            "selector": {"matchLabels": {"app": "nginx"}},
            "template": {
                "metadata": {"labels": {"app": "nginx"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}
            }
        }
    })
}

#[test]
fn apply_does_not_change_managed_fields() {
    // TestApplyDoesNotChangeManagedFields
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    f.apply(&nginx(), "fieldmanager_z", false).unwrap();
    let applied = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "deployment"},
        "spec": {"replicas": 101}
    });
    f.apply(&applied, "fieldmanager_b", false).unwrap();
    let original = f.managed_json();
    f.apply(&nginx(), "fieldmanager_z", false).unwrap();
    assert_eq!(original, f.managed_json());
}

#[test]
fn update_does_not_change_managed_fields() {
    // TestUpdateDoesNotChangeManagedFields
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    f.update(&nginx(), "fieldmanager_z").unwrap();
    let original = f.managed_json();
    f.update(&nginx(), "fieldmanager_z").unwrap();
    assert_eq!(original, f.managed_json());
}

#[test]
fn live_object_managed_fields_not_removed() {
    // TestLiveObjectManagedFieldsNotRemoved
    let mut f = TestFieldManager::new("apps/v1", "Deployment");
    f.apply(&nginx(), "fieldmanager_z", false).unwrap();
    let original = f.live.clone();
    assert!(!f.managed_fields().is_empty());
    let applied = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "deployment"},
        "spec": {"replicas": 101}
    });
    f.apply(&applied, "fieldmanager_z", false).unwrap();
    assert!(
        !original["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

/// A create takes a one-walk path (what the comparison with the empty object would find added);
/// an update from a copy of that empty object takes the comparison. On generated objects, with
/// and without a status subresource (whose fields are reset) and without a schema, both must
/// give the same object and managed fields, or the same error.
#[test]
fn creates_own_what_an_update_from_the_empty_object_owns() {
    let schema = structural(&workload_schema());
    let managers = [
        FieldManager::new(Some(&schema), "example.com/v1", "Widget"),
        FieldManager::new(Some(&schema), "example.com/v1", "Widget").with_status_subresource(),
        FieldManager::new(None, "example.com/v1", "Widget"),
        // A root replaced as a whole: the comparison finds it modified.
        FieldManager::new(
            Some(&structural(
                &json!({"type": "object", "x-kubernetes-map-type": "atomic",
                "x-kubernetes-preserve-unknown-fields": true}),
            )),
            "example.com/v1",
            "Widget",
        ),
    ];
    let mut draws = Draws(0x9e37_79b9_7f4a_7c15);
    let (mut owned, mut failed) = (0, 0);
    for i in 0..1_500 {
        let mut obj = json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": format!("w{i}"), "namespace": "ns"}});
        if draws.below(2) == 0 {
            obj["metadata"]["labels"] = json!({"a": "b", "c": "d"});
        }
        let spec = draws.spec(true);
        if draws.below(8) != 0 {
            obj["spec"] = spec.into();
        }
        match draws.below(4) {
            0 => obj["status"] = json!({"free": [{"x": 1}, [2, {}]], "n": null}),
            1 => obj["extra"] = json!(null),
            _ => {}
        }
        // Managed fields sent with the object: a reset (nothing owned yet), another manager's
        // (the comparison runs), entries that do not decode (dropped).
        match draws.below(6) {
            0 => obj["metadata"]["managedFields"] = json!([]),
            1 => {
                obj["metadata"]["managedFields"] = json!([{"manager": "other",
                    "operation": "Update", "apiVersion": "example.com/v1",
                    "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]);
            }
            2 => obj["metadata"]["managedFields"] = json!([{"manager": 5}]),
            _ => {}
        }
        for fm in &managers {
            let now = "2024-01-01T00:00:00Z";
            let created = fm.try_update(None, &obj, "m", None, now);
            let updated = fm.try_update(Some(&fm.new_object()), &obj, "m", None, now);
            match (created, updated) {
                (Ok(c), Ok(u)) => {
                    assert_eq!(c, u, "{obj}");
                    owned += 1;
                }
                (Err(c), Err(u)) => {
                    assert_eq!(c.to_string(), u.to_string(), "{obj}");
                    failed += 1;
                }
                (c, u) => panic!("{obj}: created {c:?} but updated {u:?}"),
            }
        }
    }
    // Both outcomes were generated.
    assert!(owned > 3_500 && failed > 300, "{owned} {failed}");
}
