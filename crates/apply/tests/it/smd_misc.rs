//! structured-merge-diff tests that are not tables of the fixture: `merge/conflict_test.go`,
//! `merge/obsolete_versions_test.go` and `TestVersionDoesntMatchTypename` of
//! `merge/multiple_appliers_test.go`.

use std::cell::RefCell;
use std::sync::Arc;

use serde_json::{Value, json};

use crdkit_apply::merge::{
    Conflicts, ConversionError, Converter, ManagedFields, Updater, VersionedSet,
    managed_fields_difference,
};
use crdkit_apply::schema::Schema;
use crdkit_apply::typed::{TypedValue, ValidationOptions};

use super::common::{plain_schema, set, yaml};

fn p(elems: &[&str]) -> Vec<String> {
    elems.iter().map(|s| (*s).to_owned()).collect()
}

fn bob_alice() -> ManagedFields {
    let mut m = ManagedFields::new();
    m.insert(
        "Bob".into(),
        VersionedSet::new(
            set(&[
                p(&["f:key"]),
                p(&["f:list", r#"k:{"id":2,"key":"a"}"#, "f:id"]),
            ]),
            "v1",
            false,
        ),
    );
    m.insert(
        "Alice".into(),
        VersionedSet::new(
            set(&[
                p(&["f:value"]),
                p(&["f:list", r#"k:{"id":2,"key":"a"}"#, "f:key"]),
            ]),
            "v1",
            false,
        ),
    );
    m
}

#[test]
fn conflicts_from_managers() {
    // TestNewFromSets
    assert_eq!(
        Conflicts::from_managers(&bob_alice()).to_string(),
        "conflicts with \"Alice\":\n- .value\n- .list[id=2,key=\"a\"].key\nconflicts with \"Bob\":\n- .key\n- .list[id=2,key=\"a\"].id"
    );
    // TestToSet
    assert_eq!(
        Conflicts::from_managers(&bob_alice()).to_set(),
        set(&[
            p(&["f:key"]),
            p(&["f:value"]),
            p(&["f:list", r#"k:{"id":2,"key":"a"}"#, "f:id"]),
            p(&["f:list", r#"k:{"id":2,"key":"a"}"#, "f:key"]),
        ])
    );
    // TestConflictsFromManagers
    let mut m = ManagedFields::new();
    m.insert(
        "Bob".into(),
        VersionedSet::new(
            set(&[
                p(&[
                    "f:obj",
                    "f:template",
                    "f:obj",
                    "f:list",
                    r#"k:{"name":"a"}"#,
                    "f:id",
                ]),
                p(&[
                    "f:obj",
                    "f:template",
                    "f:obj",
                    "f:list",
                    r#"k:{"name":"a"}"#,
                    "f:key",
                ]),
            ]),
            "v1",
            false,
        ),
    );
    assert_eq!(
        Conflicts::from_managers(&m).to_string(),
        "conflicts with \"Bob\":\n- .obj.template.obj.list[name=\"a\"].id\n- .obj.template.obj.list[name=\"a\"].key"
    );
}

/// `specificVersionConverter`: the object as is, for the accepted versions only; any other is a
/// missing version.
struct SpecificVersions(RefCell<Vec<&'static str>>);

impl Converter for SpecificVersions {
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError> {
        if self.0.borrow().contains(&version) {
            Ok(object.clone())
        } else {
            Err(ConversionError {
                missing_version: true,
                message: format!("Unknown version: {version}"),
            })
        }
    }
}

fn typed(schema: &Arc<Schema>, v: Value) -> TypedValue {
    TypedValue::new(
        v,
        schema.clone(),
        ValidationOptions {
            allow_duplicates: true,
        },
    )
    .unwrap()
}

#[test]
fn obsolete_versions() {
    // TestObsoleteVersions: managers of versions that no longer exist are dropped.
    let converter = SpecificVersions(RefCell::new(vec!["v1", "v2"]));
    let updater = Updater::new(&converter);
    let schema = Arc::new(Schema::deduced());
    let mut live = typed(&schema, Value::Null);
    let mut managers = ManagedFields::new();
    for (obj, version) in [(json!({"v1": 0}), "v1"), (json!({"v1": 0, "v2": 0}), "v2")] {
        let new = typed(&schema, obj);
        managers = updater
            .update(&live, &new, version, managers, version)
            .unwrap();
        live = new;
    }
    *converter.0.borrow_mut() = vec!["v2", "v3"];
    let new = typed(&schema, json!({"v1": 0, "v2": 0, "v3": 0}));
    managers = updater.update(&live, &new, "v3", managers, "v3").unwrap();
    let mut want = ManagedFields::new();
    want.insert(
        "v2".into(),
        VersionedSet::new(set(&[p(&["f:v2"])]), "v2", false),
    );
    want.insert(
        "v3".into(),
        VersionedSet::new(set(&[p(&["f:v3"])]), "v3", false),
    );
    assert!(
        managed_fields_difference(&managers, &want).is_empty(),
        "{managers:?}"
    );
}

/// Counts the conversions asked of it (the object as is, for any version).
struct Counting(std::cell::Cell<usize>);

impl Converter for Counting {
    fn convert(&self, object: &TypedValue, _version: &str) -> Result<TypedValue, ConversionError> {
        self.0.set(self.0.get() + 1);
        Ok(object.clone())
    }
}

#[test]
fn many_managers_of_one_version_convert_the_object_once() {
    // Each conversion copies the object: managers sent with a request must not multiply them.
    let converter = Counting(std::cell::Cell::new(0));
    let updater = Updater::new(&converter);
    let schema = Arc::new(Schema::deduced());
    let live = typed(&schema, json!({"a": 1, "b": 2}));
    let mut managers = ManagedFields::new();
    for i in 0..500 {
        managers.insert(
            format!("m{i}"),
            VersionedSet::new(set(&[p(&["f:a"])]), "v1", false),
        );
    }
    let new = typed(&schema, json!({"a": 2, "b": 2}));
    let managers = updater
        .update(&live, &new, "v1", managers, "writer")
        .unwrap();
    assert!(converter.0.get() <= 2, "{} conversions", converter.0.get());
    // The write took `a` from all of them.
    assert_eq!(managers.len(), 1, "{managers:?}");
    assert_eq!(managers["writer"].set, set(&[p(&["f:a"])]));
}

#[test]
fn apply_obsolete_version() {
    // TestApplyObsoleteVersion: what an applier owned in a version that is gone is not pruned.
    let converter = SpecificVersions(RefCell::new(vec!["v1"]));
    let updater = Updater::new(&converter);
    let schema = plain_schema(&yaml(
        "type: object\nproperties:\n  list: {type: array, x-kubernetes-list-type: set, items: {type: string}}",
    ));
    let live = typed(&schema, Value::Null);
    let config = typed(&schema, json!({"list": ["a", "b", "c", "d"]}));
    let (new, managers) = updater
        .apply(&live, &config, "v1", ManagedFields::new(), "apply", false)
        .unwrap();
    let live = new.unwrap();
    *converter.0.borrow_mut() = vec!["v2"];
    let config = typed(&schema, json!({"list": ["a"]}));
    let (new, _) = updater
        .apply(&live, &config, "v2", managers, "apply", false)
        .unwrap();
    let live = new.unwrap_or(live);
    assert_eq!(live.value(), &json!({"list": ["a", "b", "c", "d"]}));
}

/// `versionDoesntMatchTypenameConverter`: v1 and v2 types with other names than the versions.
struct TypeNames {
    v1: Arc<Schema>,
    v2: Arc<Schema>,
}

impl Converter for TypeNames {
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError> {
        let from = if Arc::ptr_eq(object.schema(), &self.v1) {
            "v1"
        } else {
            "v2"
        };
        if from == version {
            return Ok(object.clone());
        }
        let text = object.value().to_string();
        let (out, schema) = match version {
            "v1" => {
                if !text.contains("required_field_bar") {
                    return Err(ConversionError {
                        missing_version: false,
                        message: "missing requried field bar".into(),
                    });
                }
                (
                    text.replace("required_field_bar", "field_foo_rely_on_bar"),
                    &self.v1,
                )
            }
            "v2" => (
                text.replace("field_foo_rely_on_bar", "required_field_bar"),
                &self.v2,
            ),
            _ => {
                return Err(ConversionError {
                    missing_version: true,
                    message: "cannot convert to invalid version".into(),
                });
            }
        };
        TypedValue::new(
            serde_json::from_str(&out).unwrap(),
            schema.clone(),
            ValidationOptions::default(),
        )
        .map_err(|e| ConversionError {
            missing_version: false,
            message: e.to_string(),
        })
    }
}

#[test]
fn version_doesnt_match_typename() {
    // TestVersionDoesntMatchTypename
    let v1 = plain_schema(&yaml(
        "type: object\nproperties:\n  field_foo_rely_on_bar: {type: string}\n  common_field: {type: string}",
    ));
    let v2 = plain_schema(&yaml(
        "type: object\nproperties:\n  required_field_bar: {type: string}\n  common_field: {type: string}",
    ));
    let converter = TypeNames {
        v1: v1.clone(),
        v2: v2.clone(),
    };
    let updater = Updater::new(&converter);
    for _ in 0..10 {
        let live = typed(&v2, json!({}));
        let config = typed(&v2, json!({"required_field_bar": "a"}));
        let (live, managers) = updater
            .apply(
                &live,
                &config,
                "v2",
                ManagedFields::new(),
                "v2_applier",
                false,
            )
            .unwrap();
        let live = converter.convert(&live.unwrap(), "v1").unwrap();
        let config = typed(&v1, json!({"common_field": "b"}));
        let (live, managers) = updater
            .apply(&live, &config, "v1", managers, "v1_applier", false)
            .unwrap();
        let live = converter.convert(&live.unwrap(), "v2").unwrap();
        let config = typed(&v2, json!({"required_field_bar": "b"}));
        let (live, managers) = updater
            .apply(&live, &config, "v2", managers, "v2_applier", false)
            .unwrap();
        let expected = typed(&v2, json!({"required_field_bar": "b", "common_field": "b"}));
        assert!(live.unwrap().compare(&expected).unwrap().is_same());
        let mut want = ManagedFields::new();
        want.insert(
            "v2_applier".into(),
            VersionedSet::new(set(&[p(&["f:required_field_bar"])]), "v2", true),
        );
        want.insert(
            "v1_applier".into(),
            VersionedSet::new(set(&[p(&["f:common_field"])]), "v1", true),
        );
        assert_eq!(managers, want);
    }
}

#[test]
fn value_order() {
    // TestValueLess (value/less_test.go), in tests/data/smd/value_less.yaml.
    use crdkit_apply::value::{compare, equals};
    use std::cmp::Ordering;
    let d = super::common::read_yaml_file("smd/value_less.yaml");
    let cases = d["cases"].as_array().unwrap();
    for c in cases {
        let parse = |k: &str| -> Value { serde_json::from_str(c[k].as_str().unwrap()).unwrap() };
        let (a, b) = (parse("a"), parse("b"));
        let name = c["name"].as_str().unwrap();
        if c["eq"].as_bool() == Some(true) {
            assert!(equals(&a, &b) && equals(&b, &a), "{name}");
            assert_eq!(compare(&a, &b), Ordering::Equal, "{name}");
            assert_eq!(compare(&b, &a), Ordering::Equal, "{name}");
        } else {
            assert!(!equals(&a, &b) && !equals(&b, &a), "{name}");
            assert_eq!(compare(&a, &b), Ordering::Less, "{name}");
            assert_eq!(compare(&b, &a), Ordering::Greater, "{name}");
        }
    }
    assert_eq!(cases.len(), 44);
}
