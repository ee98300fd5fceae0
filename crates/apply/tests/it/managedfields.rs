//! apimachinery `pkg/util/managedfields/internal` tests: entries (`managedfields_test.go`),
//! conflicts (`conflict_test.go`), capped update managers (`capmanagers_test.go`), entry times
//! (`managedfieldsupdater_test.go`), tracking from the first apply (`skipnonapplied_test.go`).

use serde_json::{Value, json};

use crdkit_apply::fieldpath::{Path, PathElement, Set};
use crdkit_apply::managed_fields::{
    self as entries, ManagedFieldsEntry, decode, encode, sort_entries,
};
use crdkit_apply::merge::{Conflict, Conflicts};
use crdkit_apply::{ApplyError, FieldManager};

use crdkit_schema::crd::CustomResourceDefinition;

use super::common::yaml;
use super::fieldmanager::TestFieldManager;

fn entries_of(text: &str) -> Vec<ManagedFieldsEntry> {
    match yaml(text) {
        Value::Null => Vec::new(),
        Value::Array(items) => items
            .iter()
            .map(|e| ManagedFieldsEntry::from_value(e).expect("entry"))
            .collect(),
        other => panic!("{other}"),
    }
}

#[test]
fn round_trip_managed_fields() {
    // TestRoundTripManagedFields
    let tests = [
        r#"
- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    v:3:
      f:alsoPi: {}
    v:3.1415:
      f:pi: {}
    v:false:
      f:notTrue: {}
  manager: foo
  operation: Update
  time: "2001-02-03T04:05:06Z"
- apiVersion: v1beta1
  fieldsType: FieldsV1
  fieldsV1:
    i:5:
      f:i: {}
  manager: foo
  operation: Update
  time: "2011-12-13T14:15:16Z"
"#,
        r#"
- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:containers:
        k:{"name":"c"}:
          f:image: {}
          f:name: {}
  manager: foo
  operation: Apply
"#,
        r#"
- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:apiVersion: {}
    f:kind: {}
    f:metadata:
      f:labels:
        f:app: {}
      f:name: {}
    f:spec:
      f:replicas: {}
      f:selector:
        f:matchLabels:
          f:app: {}
      f:template:
        f:medatada:
          f:labels:
            f:app: {}
        f:spec:
          f:containers:
            k:{"name":"nginx"}:
              .: {}
              f:image: {}
              f:name: {}
              f:ports:
                i:0:
                  f:containerPort: {}
  manager: foo
  operation: Update
"#,
        r#"
- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:group: {}
      f:names:
        f:kind: {}
        f:plural: {}
        f:shortNames:
          i:0: {}
        f:singular: {}
      f:scope: {}
      f:versions:
        k:{"name":"v1"}:
          f:name: {}
          f:served: {}
          f:storage: {}
  manager: foo
  operation: Update
"#,
        r#"
- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:replicas: {}
  manager: foo
  operation: Update
  subresource: scale
"#,
    ];
    assert_eq!(encode(&decode(&[]).unwrap()).unwrap(), None, "null");
    for t in tests {
        let input = entries_of(t);
        let decoded = decode(&input).unwrap();
        let encoded = encode(&decoded).unwrap().unwrap();
        assert_eq!(encoded, input, "{t}");
    }
}

#[test]
fn build_manager_identifier() {
    // TestBuildManagerIdentifier
    let cases = [
        (
            "apiVersion: v1\nfieldsV1: {f:apiVersion: {}}\nmanager: foo\noperation: Update\ntime: \"2001-02-03T04:05:06Z\"",
            r#"{"manager":"foo","operation":"Update","apiVersion":"v1"}"#,
        ),
        (
            "apiVersion: v1\nfieldsV1: {f:apiVersion: {}}\nmanager: foo\noperation: Apply\ntime: \"2001-02-03T04:05:06Z\"",
            r#"{"manager":"foo","operation":"Apply"}"#,
        ),
        (
            "apiVersion: v1\nfieldsV1: {f:apiVersion: {}}\nmanager: foo\noperation: Apply\nsubresource: scale\ntime: \"2001-02-03T04:05:06Z\"",
            r#"{"manager":"foo","operation":"Apply","subresource":"scale"}"#,
        ),
    ];
    for (entry, want) in cases {
        let e = ManagedFieldsEntry::from_value(&yaml(entry)).unwrap();
        assert_eq!(e.identifier(), want);
    }
}

#[test]
fn identifiers_parse_back() {
    // Identifiers are written without a `Value` and read back into their four strings; what
    // they read must be what an entry's JSON reads.
    let written = [
        entries::identifier("kubectl", "Update", "v1", ""),
        entries::identifier("a\"<b>&\u{2028}\n", "Apply", "", "status"),
        entries::identifier("", "", "", ""),
    ];
    assert_eq!(
        written[0],
        r#"{"manager":"kubectl","operation":"Update","apiVersion":"v1"}"#
    );
    assert_eq!(
        written[1],
        r#"{"manager":"a\"\u003cb\u003e\u0026\u2028\n","operation":"Apply","subresource":"status"}"#
    );
    assert_eq!(written[2], "{}");
    let others = [
        r#"{"manager":"m","time":"2001-02-03T04:05:06+01:00"}"#,
        r#"{"manager":null,"operation":"Update"}"#,
        r#"{"manager":"m","manager":"n"}"#,
        r#"{"manager":1}"#,
        r#"{"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}}}"#,
        "[]",
        r#"["m"]"#,
        " [] ",
        "x",
    ];
    for id in written.iter().map(String::as_str).chain(others) {
        let generic = serde_json::from_str::<Value>(id)
            .ok()
            .and_then(|v| ManagedFieldsEntry::from_value(&v));
        assert_eq!(entries::parse_identifier(id), generic, "{id}");
    }
    let e = entries::parse_identifier(&written[1]).unwrap();
    assert_eq!(e.manager, "a\"<b>&\u{2028}\n");
    assert_eq!(e.identifier(), written[1]);
}

fn e(manager: &str, operation: &str, time: Option<&str>) -> ManagedFieldsEntry {
    ManagedFieldsEntry {
        manager: manager.into(),
        operation: operation.into(),
        time: time.map(str::to_owned),
        ..ManagedFieldsEntry::default()
    }
}

#[test]
fn sort_encoded_managed_fields() {
    // TestSortEncodedManagedFields
    let t1 = Some("2001-01-01T01:00:00Z");
    let t2 = Some("2002-01-01T01:00:00Z");
    let t3 = Some("2003-01-01T01:00:00Z");
    let cases: Vec<(&str, Vec<ManagedFieldsEntry>, Vec<ManagedFieldsEntry>)> = vec![
        ("empty", vec![], vec![]),
        (
            "remains untouched",
            vec![e("a", "Apply", None), e("a", "Update", t1)],
            vec![e("a", "Apply", None), e("a", "Update", t1)],
        ),
        (
            "manager without time first",
            vec![e("a", "Apply", None), e("a", "Apply", t1)],
            vec![e("a", "Apply", None), e("a", "Apply", t1)],
        ),
        (
            "manager without time first name last",
            vec![
                e("a", "Apply", t1),
                e("b", "Apply", None),
                e("a", "Apply", None),
            ],
            vec![
                e("a", "Apply", None),
                e("b", "Apply", None),
                e("a", "Apply", t1),
            ],
        ),
        (
            "apply first",
            vec![e("a", "Update", t1), e("a", "Apply", None)],
            vec![e("a", "Apply", None), e("a", "Update", t1)],
        ),
        (
            "newest last",
            vec![
                e("c", "Update", t1),
                e("a", "Apply", None),
                e("c", "Update", t2),
                e("b", "Apply", None),
            ],
            vec![
                e("a", "Apply", None),
                e("b", "Apply", None),
                e("c", "Update", t1),
                e("c", "Update", t2),
            ],
        ),
        (
            "manager last",
            vec![
                e("c", "Update", t1),
                e("a", "Apply", None),
                e("d", "Update", t1),
                e("b", "Apply", None),
            ],
            vec![
                e("a", "Apply", None),
                e("b", "Apply", None),
                e("c", "Update", t1),
                e("d", "Update", t1),
            ],
        ),
        (
            "manager sorted",
            vec![
                e("c", "Update", t1),
                e("a", "Apply", None),
                e("g", "Apply", None),
                e("f", "Update", t2),
                e("i", "Apply", None),
                e("d", "Update", t2),
                e("h", "Apply", None),
                e("e", "Update", t3),
                e("b", "Apply", None),
            ],
            vec![
                e("a", "Apply", None),
                e("b", "Apply", None),
                e("g", "Apply", None),
                e("h", "Apply", None),
                e("i", "Apply", None),
                e("c", "Update", t1),
                e("d", "Update", t2),
                e("f", "Update", t2),
                e("e", "Update", t3),
            ],
        ),
        (
            // Times within one second sort by manager.
            "sort drops nanoseconds",
            vec![
                e("c", "Update", Some("1999-12-31T00:00:00Z")),
                e("a", "Update", Some("1999-12-31T00:00:00Z")),
                e("b", "Update", Some("1999-12-31T00:00:00Z")),
            ],
            vec![
                e("a", "Update", Some("1999-12-31T00:00:00Z")),
                e("b", "Update", Some("1999-12-31T00:00:00Z")),
                e("c", "Update", Some("1999-12-31T00:00:00Z")),
            ],
        ),
        (
            "entries with subresource field",
            vec![
                ManagedFieldsEntry {
                    subresource: "status".into(),
                    ..e("a", "Apply", None)
                },
                ManagedFieldsEntry {
                    subresource: "scale".into(),
                    ..e("a", "Apply", None)
                },
                e("a", "Apply", None),
            ],
            vec![
                e("a", "Apply", None),
                ManagedFieldsEntry {
                    subresource: "scale".into(),
                    ..e("a", "Apply", None)
                },
                ManagedFieldsEntry {
                    subresource: "status".into(),
                    ..e("a", "Apply", None)
                },
            ],
        ),
    ];
    for (name, mut input, want) in cases {
        sort_entries(&mut input);
        assert_eq!(input, want, "{name}");
    }
}

#[test]
fn decode_errors() {
    // TestHasFieldsType, TestHasAPIVersion, TestHasOperation: what DecodeManagedFields rejects.
    let cases = [
        (
            "operation: Apply\napiVersion: v1\nfieldsType: FieldsV1",
            None,
        ),
        (
            "operation: Apply\napiVersion: v1",
            Some("missing fieldsType in managed fields entry 0"),
        ),
        (
            "operation: Apply\napiVersion: v1\nfieldsType: FieldsV2",
            Some(r#"invalid fieldsType "FieldsV2" in managed fields entry 0"#),
        ),
        (
            "operation: Apply\nfieldsType: FieldsV1",
            Some("apiVersion must not be empty"),
        ),
        (
            "operation: Update\napiVersion: v1\nfieldsType: FieldsV1",
            None,
        ),
        (
            "apiVersion: v1\nfieldsType: FieldsV1",
            Some("operation must be `Apply` or `Update`"),
        ),
        (
            "operation: Invalid\napiVersion: v1\nfieldsType: FieldsV1",
            Some("operation must be `Apply` or `Update`"),
        ),
    ];
    for (entry, want) in cases {
        let e = ManagedFieldsEntry::from_value(&yaml(entry)).unwrap();
        assert_eq!(decode(&[e]).err().as_deref(), want, "{entry}");
    }
}

#[test]
fn new_conflict_error() {
    // TestNewConflictError
    let c = |manager: &str, path: &[&str]| Conflict {
        manager: manager.into(),
        path: Path(path.iter().map(|f| PathElement::field(*f)).collect()),
    };
    let foo =
        r#"{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#;
    let err = ApplyError::Conflicts(Conflicts(vec![c(foo, &["spec", "replicas"])]));
    assert_eq!(
        err.status(),
        json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "Apply failed with 1 conflict: conflict with \"foo\" using v1 at 2001-02-03T04:05:06Z: .spec.replicas",
            "reason": "Conflict",
            "details": {"causes": [{
                "reason": "FieldManagerConflict",
                "message": "conflict with \"foo\" using v1 at 2001-02-03T04:05:06Z",
                "field": ".spec.replicas"
            }]},
            "code": 409
        })
    );
    let err = ApplyError::Conflicts(Conflicts(vec![
        c(foo, &["spec", "replicas"]),
        c(
            r#"{"manager":"bar","operation":"Apply"}"#,
            &["metadata", "labels", "app"],
        ),
    ]));
    assert_eq!(
        err.to_string(),
        "Apply failed with 2 conflicts: conflicts with \"bar\":\n- .metadata.labels.app\nconflicts with \"foo\" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas"
    );
    assert_eq!(
        err.status()["details"]["causes"],
        json!([
            {"reason": "FieldManagerConflict", "message": "conflict with \"foo\" using v1 at 2001-02-03T04:05:06Z", "field": ".spec.replicas"},
            {"reason": "FieldManagerConflict", "message": "conflict with \"bar\"", "field": ".metadata.labels.app"}
        ])
    );
    let err = ApplyError::Conflicts(Conflicts(vec![c(
        r#"{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#,
        &["spec", "replicas"],
    )]));
    assert_eq!(
        err.to_string(),
        "Apply failed with 1 conflict: conflict with \"foo\" with subresource \"scale\" using v1 at 2001-02-03T04:05:06Z: .spec.replicas"
    );
}

fn pod_schema() -> Value {
    yaml("type: object\nproperties:\n  data: {type: object, additionalProperties: {type: string}}")
}

fn pod_with_labels(labels: &[&str]) -> Value {
    let labels: serde_json::Map<String, Value> = labels
        .iter()
        .map(|l| ((*l).to_owned(), json!("true")))
        .collect();
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": labels}})
}

/// A field manager of a kind served in v1 to v4 (managers of every version are kept, as the Go
/// test's pass-through converter keeps them).
fn capped(n: usize) -> TestFieldManager {
    let versions: Vec<Value> = ["v1", "v2", "v3", "v4"]
        .iter()
        .map(|v| json!({"name": v, "served": true, "storage": *v == "v1", "schema": {"openAPIV3Schema": pod_schema()}}))
        .collect();
    let crd: CustomResourceDefinition = serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "pods"},
        "spec": {"group": "", "scope": "Namespaced", "versions": versions,
                 "names": {"plural": "pods", "singular": "pod", "kind": "Pod", "listKind": "PodList"}}
    }))
    .expect("crd");
    TestFieldManager::with(FieldManager::for_crd(&crd, "v1").with_max_update_managers(n))
}

fn expect_idempotence(f: &mut TestFieldManager) {
    let before = f.managed_json();
    let live = f.live.clone();
    f.update(&live, "no-op-update").unwrap();
    assert_eq!(before, f.managed_json());
}

fn manages(f: &TestFieldManager, manager: &str, path: &[&str]) -> bool {
    let p = Path(path.iter().map(|s| PathElement::field(*s)).collect());
    f.managed_fields()
        .iter()
        .find(|e| e.manager == manager)
        .is_some_and(|e| {
            Set::from_value(e.fields_v1.as_ref().unwrap())
                .unwrap()
                .has(&p)
        })
}

#[test]
fn cap_managers_manager_merges_entries() {
    // TestCapManagersManagerMergesEntries
    let mut f = capped(3);
    for (i, labels) in [
        &["one"][..],
        &["one", "two"],
        &["one", "two", "three"],
        &["one", "two", "three", "four"],
    ]
    .iter()
    .enumerate()
    {
        f.update(
            &pod_with_labels(labels),
            &format!("fieldmanager_test_update_{}", i + 1),
        )
        .unwrap();
        expect_idempotence(&mut f);
    }
    let m = f.managed_fields();
    assert_eq!(m.len(), 3, "{m:?}");
    assert_eq!(m[0].manager, "ancient-changes");
    assert_eq!(m[1].manager, "fieldmanager_test_update_3");
    assert_eq!(m[2].manager, "fieldmanager_test_update_4");
    assert!(manages(
        &f,
        "ancient-changes",
        &["metadata", "labels", "one"]
    ));
    assert!(manages(
        &f,
        "ancient-changes",
        &["metadata", "labels", "two"]
    ));
    assert!(manages(
        &f,
        "fieldmanager_test_update_3",
        &["metadata", "labels", "three"]
    ));
    assert!(manages(
        &f,
        "fieldmanager_test_update_4",
        &["metadata", "labels", "four"]
    ));
}

/// `entry(name, version, order, fields)`: an update entry at `order` hours after year 1.
fn cap_entry(name: &str, version: &str, order: i64, fields: &[&str]) -> Value {
    let set = Set::from_paths(fields.iter().map(|f| Path(vec![PathElement::field(*f)])));
    // time.Time{} is 0001-01-01T00:00:00Z, 62135596800 seconds before the Unix epoch.
    let time = crdkit_apimachinery::goparse::format_rfc3339(-62_135_596_800 + order * 3600);
    json!({
        "manager": name, "apiVersion": version, "operation": "Update",
        "fieldsType": "FieldsV1", "fieldsV1": set.to_value(), "time": time
    })
}

#[test]
fn cap_update_managers() {
    // TestCapUpdateManagers
    let cases = [
        (
            "one version, no ancient changes",
            vec![
                cap_entry("update-manager1", "v1", 1, &["a"]),
                cap_entry("update-manager2", "v1", 2, &["b"]),
                cap_entry("update-manager3", "v1", 3, &["c"]),
                cap_entry("update-manager4", "v1", 4, &["d"]),
            ],
            vec![
                cap_entry("ancient-changes", "v1", 2, &["a", "b"]),
                cap_entry("update-manager3", "v1", 3, &["c"]),
                cap_entry("update-manager4", "v1", 4, &["d"]),
            ],
        ),
        (
            "one version, one ancient changes",
            vec![
                cap_entry("ancient-changes", "v1", 2, &["a", "b"]),
                cap_entry("update-manager3", "v1", 3, &["c"]),
                cap_entry("update-manager4", "v1", 4, &["d"]),
                cap_entry("update-manager5", "v1", 5, &["e"]),
            ],
            vec![
                cap_entry("ancient-changes", "v1", 3, &["a", "b", "c"]),
                cap_entry("update-manager4", "v1", 4, &["d"]),
                cap_entry("update-manager5", "v1", 5, &["e"]),
            ],
        ),
        (
            "two versions, no ancient changes",
            vec![
                cap_entry("update-manager1", "v1", 1, &["a"]),
                cap_entry("update-manager2", "v2", 2, &["b"]),
                cap_entry("update-manager3", "v1", 3, &["c"]),
                cap_entry("update-manager4", "v1", 4, &["d"]),
                cap_entry("update-manager5", "v1", 5, &["e"]),
            ],
            vec![
                cap_entry("update-manager2", "v2", 2, &["b"]),
                cap_entry("ancient-changes", "v1", 4, &["a", "c", "d"]),
                cap_entry("update-manager5", "v1", 5, &["e"]),
            ],
        ),
        (
            "three versions, one ancient changes",
            vec![
                cap_entry("update-manager2", "v2", 2, &["b"]),
                cap_entry("ancient-changes", "v1", 4, &["a", "c", "d"]),
                cap_entry("update-manager5", "v1", 5, &["e"]),
                cap_entry("update-manager6", "v3", 6, &["f"]),
                cap_entry("update-manager7", "v2", 7, &["g"]),
            ],
            vec![
                cap_entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
                cap_entry("update-manager6", "v3", 6, &["f"]),
                cap_entry("ancient-changes", "v2", 7, &["b", "g"]),
            ],
        ),
        (
            "three versions, two ancient changes",
            vec![
                cap_entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
                cap_entry("update-manager6", "v3", 6, &["f"]),
                cap_entry("ancient-changes", "v2", 7, &["b", "g"]),
                cap_entry("update-manager8", "v3", 8, &["h"]),
            ],
            vec![
                cap_entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
                cap_entry("ancient-changes", "v2", 7, &["b", "g"]),
                cap_entry("ancient-changes", "v3", 8, &["f", "h"]),
            ],
        ),
        (
            "four versions, two ancient changes",
            vec![
                cap_entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
                cap_entry("update-manager6", "v3", 6, &["f"]),
                cap_entry("ancient-changes", "v2", 7, &["b", "g"]),
                cap_entry("update-manager8", "v4", 8, &["h"]),
            ],
            vec![
                cap_entry("ancient-changes", "v1", 5, &["a", "c", "d", "e"]),
                cap_entry("update-manager6", "v3", 6, &["f"]),
                cap_entry("ancient-changes", "v2", 7, &["b", "g"]),
                cap_entry("update-manager8", "v4", 8, &["h"]),
            ],
        ),
    ];
    for (name, input, want) in cases {
        let mut f = capped(3);
        let mut live = f.live.clone();
        live["metadata"] = json!({"managedFields": input});
        f.update(&live, "no-op-update").unwrap();
        assert_eq!(f.managed_json(), json!(want), "{name}");
        expect_idempotence(&mut f);
    }
}

fn configmap() -> TestFieldManager {
    TestFieldManager::with_schema(&pod_schema(), "v1", "ConfigMap")
}

fn cm(data: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "configmap"}, "data": data})
}

fn time_of(f: &TestFieldManager, manager: &str) -> Option<String> {
    f.managed_fields()
        .into_iter()
        .find(|e| e.manager == manager)
        .and_then(|e| e.time)
}

#[test]
fn managed_fields_times() {
    // TestManagedFieldsUpdateDoesModifyTime, TestManagedFieldsApplyDoesModifyTime,
    // TestManagedFieldsUpdateWithoutChangesDoesNotModifyTime,
    // TestManagedFieldsApplyWithoutChangesDoesNotModifyTime
    for apply in [false, true] {
        let mut f = configmap();
        let run = |f: &mut TestFieldManager, data: Value| {
            if apply {
                f.apply(&cm(data), "fieldmanager_test", true).unwrap();
            } else {
                f.update(&cm(data), "fieldmanager_test").unwrap();
            }
        };
        run(&mut f, json!({"key": "value"}));
        let t0 = time_of(&f, "fieldmanager_test").unwrap();
        run(&mut f, json!({"key": "new-value"}));
        let t1 = time_of(&f, "fieldmanager_test").unwrap();
        assert_ne!(t0, t1, "apply={apply}: a change moves the time");
        run(&mut f, json!({"key": "new-value"}));
        assert_eq!(
            time_of(&f, "fieldmanager_test").unwrap(),
            t1,
            "apply={apply}: no change, same time"
        );
    }
}

#[test]
fn non_managed_fields_changes_do_not_modify_time() {
    // TestNonManagedFieldsUpdateDoesNotModifyTime, TestNonManagedFieldsApplyDoesNotModifyTime,
    // TestTakingOverManagedFieldsDuring{Update,Apply}DoesNotModifyPreviousManagerTime
    for apply in [false, true] {
        let mut f = configmap();
        let run = |f: &mut TestFieldManager, m: &str, data: Value| {
            if apply {
                f.apply(&cm(data), m, true).unwrap();
            } else {
                f.update(&cm(data), m).unwrap();
            }
        };
        run(
            &mut f,
            "fieldmanager_a_test",
            json!({"key_a": "value", "key_b": "value"}),
        );
        let a0 = time_of(&f, "fieldmanager_a_test").unwrap();
        run(
            &mut f,
            "fieldmanager_b_test",
            json!({"key_a": "value", "key_b": "new-value"}),
        );
        assert_eq!(
            time_of(&f, "fieldmanager_a_test").unwrap(),
            a0,
            "apply={apply}"
        );
        let b0 = time_of(&f, "fieldmanager_b_test").unwrap();
        run(
            &mut f,
            "fieldmanager_a_test",
            json!({"key_a": "new-value", "key_b": "new-value"}),
        );
        assert_eq!(
            time_of(&f, "fieldmanager_b_test").unwrap(),
            b0,
            "apply={apply}"
        );
    }
}

#[test]
fn no_op_apply_returns_live_without_new_time() {
    // TestNilNewObjectReplacedWithDeepCopyExcludingManagedFields: a no-op apply returns the live
    // object (its managed fields re-encoded) and moves no time.
    let mut f = TestFieldManager::with_schema(&pod_schema(), "v1", "Pod");
    let obj = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod", "labels": {"app": "nginx"}}});
    f.apply(&obj, "fieldmanager_test", false).unwrap();
    let before = f.live.clone();
    f.apply(&obj, "fieldmanager_test", false).unwrap();
    assert_eq!(before, f.live);
}

#[test]
fn skip_non_applied() {
    // TestNoUpdateBeforeFirstApply, TestUpdateBeforeFirstApply: an object not tracked (created
    // without managed fields) is not tracked by updates; its first apply gives what it holds to
    // before-first-apply.
    let mut f = TestFieldManager::with_schema(&pod_schema(), "v1", "Pod");
    let mut live = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "pod", "uid": "1234", "labels": {"app": "nginx", "tier": "web"}}
    });
    f.live = live.clone();
    live["metadata"]["labels"]["tier"] = json!("db");
    f.update(&live, "fieldmanager_test").unwrap();
    assert!(f.live["metadata"].get("managedFields").is_none());
    let applied = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "pod", "labels": {"app": "nginx"}}
    });
    f.apply(&applied, "applier", false).unwrap();
    let m = f.managed_fields();
    assert_eq!(m.len(), 2, "{m:?}");
    assert_eq!(m[0].manager, "applier");
    assert_eq!(m[1].manager, "before-first-apply");
    assert_eq!(
        m[1].fields_v1,
        // An update from nothing owns the containers it added too.
        Some(json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:tier": {}}}}))
    );
    // Later updates are tracked.
    let mut next = f.live.clone();
    next["metadata"]["labels"]["tier"] = json!("cache");
    f.update(&next, "controller").unwrap();
    assert_eq!(f.managed_fields().len(), 3);
    assert!(entries::object_managed_fields(&f.live).is_some());
}

fn last_applied(f: &TestFieldManager) -> Option<String> {
    f.live["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
        .as_str()
        .map(str::to_owned)
}

#[test]
fn last_applied_updater() {
    // TestLastAppliedUpdater: only kubectl's applies rewrite the annotation.
    let mut f = configmap();
    let mut obj = cm(json!({"app": "my-app", "image": "my-image"}));
    obj["metadata"]["annotations"] =
        json!({"kubectl.kubernetes.io/last-applied-configuration": "nonempty"});
    f.apply(&obj, "NOT-KUBECTL", false).unwrap();
    assert_eq!(last_applied(&f).as_deref(), Some("nonempty"));
    f.apply(&obj, "kubectl", false).unwrap();
    let la = last_applied(&f).unwrap();
    assert!(
        la != "nonempty" && la.contains("my-app") && la.contains("my-image"),
        "{la}"
    );
}

#[test]
fn large_last_applied() {
    // TestLargeLastApplied: an annotation that would exceed 256 KiB of annotations is dropped.
    let base = || {
        let mut o = cm(json!({"k": "v"}));
        o["metadata"]["annotations"] =
            json!({"kubectl.kubernetes.io/last-applied-configuration": "nonempty"});
        o
    };
    for (n, in_annotations) in [(9999, false), (2000, true)] {
        let mut f = configmap();
        f.apply(&base(), "kubectl", false).unwrap();
        let la = last_applied(&f).unwrap();
        assert!(!la.is_empty() && la != "nonempty");
        let mut big = base();
        for i in 0..n {
            let key = format!(
                "this-key-is-very-long-so-as-to-create-a-very-large-serialized-fieldset-{i}"
            );
            big["data"][&key] = json!("A");
            if in_annotations {
                big["metadata"]["annotations"][&key] = json!("A");
            }
        }
        f.apply(&big, "kubectl", false).unwrap();
        assert!(last_applied(&f).is_none(), "n={n}");
        assert!(f.live["metadata"]["annotations"].is_object());
    }
}
