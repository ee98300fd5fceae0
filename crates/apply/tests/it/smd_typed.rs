//! structured-merge-diff's typed tests transcribed in `tests/data/smd/typed_*.yaml` and
//! `fieldpath_named_fields.yaml`:
//! `typed/toset_test.go` (field sets), `validate_test.go` (valid and invalid objects),
//! `merge_test.go` (merges) and `symdiff_test.go` (comparisons), with the schemas of
//! `typed_schemas.yaml`.

use std::sync::Arc;

use serde_json::Value;

use crdkit_apply::schema::Schema;
use crdkit_apply::typed::{TypedValue, ValidationOptions};

use crdkit_apply::fieldpath::Set;

use super::common::{Draws, plain_schema, read_yaml_file, set, workload_schema};

fn schema(name: &str) -> Arc<Schema> {
    let all = read_yaml_file("smd/typed_schemas.yaml");
    let def = &all["schemas"][name];
    assert!(!def.is_null(), "no schema {name}");
    if def["deduced"] == Value::Bool(true) {
        return Arc::new(Schema::deduced());
    }
    plain_schema(&def["schema"])
}

fn paths(v: &Value) -> Vec<Vec<String>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p.as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

/// The first JSON value of a test object (Go's YAML reader stops after the first flow node,
/// and some test objects have a stray `}` after it).
fn object(v: &Value) -> Value {
    let text = v.as_str().unwrap();
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()
        .unwrap_or_else(|| panic!("no value in {text}"))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn typed(s: &Arc<Schema>, v: &Value, allow_duplicates: bool) -> TypedValue {
    TypedValue::new(object(v), s.clone(), ValidationOptions { allow_duplicates })
        .unwrap_or_else(|e| panic!("{v}: {e}"))
}

fn skipped(d: &Value, key: &str) -> bool {
    d["skip"].get(key).is_some()
}

#[test]
fn to_field_set() {
    let d = read_yaml_file("smd/typed_toset.yaml");
    let (mut passed, mut skip) = (0, 0);
    for c in d["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let s = schema(name);
        for (i, pair) in c["pairs"].as_array().unwrap().iter().enumerate() {
            if skipped(&d, &format!("{name}/{i}")) {
                skip += 1;
                continue;
            }
            let got = typed(&s, &pair["object"], true).to_field_set().unwrap();
            assert_eq!(
                got,
                set(&paths(&pair["set"])),
                "{name}/{i}: {}",
                pair["object"]
            );
            passed += 1;
        }
    }
    assert_eq!((passed, skip), (28, 1));
}

#[test]
fn schema_validation() {
    let d = read_yaml_file("smd/typed_validate.yaml");
    let mut n = 0;
    for c in d["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let s = schema(name);
        let check = |key: &str, allow_duplicates: bool| -> Vec<(String, bool)> {
            c.get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|o| {
                            let r = TypedValue::new(
                                object(o),
                                s.clone(),
                                ValidationOptions { allow_duplicates },
                            );
                            if let Err(e) = &r {
                                // Errors say what is wrong, not that the schema is broken.
                                assert!(
                                    !e.to_string().contains("invalid atom"),
                                    "{name}: {o}: {e}"
                                );
                            }
                            (o.to_string(), r.is_ok())
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        for (o, ok) in check("valid", false) {
            assert!(ok, "{name}: should be valid: {o}");
            n += 1;
        }
        for (o, ok) in check("invalid", false) {
            assert!(!ok, "{name}: should be invalid: {o}");
            n += 1;
        }
        for (o, ok) in check("duplicates", false) {
            assert!(!ok, "{name}: duplicates should be invalid: {o}");
            n += 1;
        }
        for (o, ok) in check("duplicates", true) {
            assert!(ok, "{name}: duplicates allowed: {o}");
        }
    }
    assert_eq!(n, 81);
}

#[test]
fn merge() {
    let d = read_yaml_file("smd/typed_merge.yaml");
    let mut n = 0;
    for c in d["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let s = schema(name);
        for (i, t) in c["triplets"].as_array().unwrap().iter().enumerate() {
            let lhs = typed(&s, &t["lhs"], true);
            let rhs = typed(&s, &t["rhs"], false);
            let out = typed(&s, &t["out"], true);
            let got = lhs
                .merge(&rhs)
                .unwrap_or_else(|e| panic!("{name}/{i}: {e}"));
            assert!(
                crdkit_apply::value::equals(got.value(), out.value()),
                "{name}/{i}: expected {} got {}",
                out.value(),
                got.value()
            );
            n += 1;
        }
    }
    assert_eq!(n, 64);
}

#[test]
fn symdiff() {
    let d = read_yaml_file("smd/typed_symdiff.yaml");
    let (mut n, mut skip) = (0, 0);
    for c in d["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        if skipped(&d, name) {
            skip += c["quints"].as_array().unwrap().len();
            continue;
        }
        let s = schema(name);
        for (i, q) in c["quints"].as_array().unwrap().iter().enumerate() {
            if skipped(&d, &format!("{name}/{i}")) {
                skip += 1;
                continue;
            }
            let lhs = typed(&s, &q["lhs"], true);
            let rhs = typed(&s, &q["rhs"], true);
            let got = lhs.compare(&rhs).unwrap();
            let label = format!("{name}/{i}: {} -> {}", q["lhs"], q["rhs"]);
            assert_eq!(got.added, set(&paths(&q["added"])), "added {label}");
            assert_eq!(
                got.modified,
                set(&paths(&q["modified"])),
                "modified {label}"
            );
            assert_eq!(got.removed, set(&paths(&q["removed"])), "removed {label}");
            // The reverse comparison swaps added and removed.
            let rev = rhs.compare(&lhs).unwrap();
            assert_eq!(rev.modified, got.modified, "reverse {label}");
            assert_eq!(rev.removed, got.added, "reverse {label}");
            assert_eq!(rev.added, got.removed, "reverse {label}");
            n += 1;
        }
    }
    assert_eq!((n, skip), (67, 17));
}

#[test]
fn deduced_type() {
    // typed/deduced_test.go: TestValidateDeducedType, TestMergeDeduced, TestToSetDeduced,
    // TestSymdiffDeduced.
    let d = read_yaml_file("smd/typed_deduced.yaml");
    let s = Arc::new(Schema::deduced());
    for o in d["validate"].as_array().unwrap() {
        typed(&s, o, false);
    }
    for (i, t) in d["merge"].as_array().unwrap().iter().enumerate() {
        let got = typed(&s, &t["lhs"], true)
            .merge(&typed(&s, &t["rhs"], false))
            .unwrap();
        let out = typed(&s, &t["out"], true);
        assert!(
            crdkit_apply::value::equals(got.value(), out.value()),
            "merge {i}: expected {} got {}",
            out.value(),
            got.value()
        );
    }
    for (i, p) in d["toset"].as_array().unwrap().iter().enumerate() {
        let got = typed(&s, &p["object"], true).to_field_set().unwrap();
        assert_eq!(got, set(&paths(&p["set"])), "toset {i}: {}", p["object"]);
    }
    for (i, q) in d["symdiff"].as_array().unwrap().iter().enumerate() {
        let (lhs, rhs) = (typed(&s, &q["lhs"], true), typed(&s, &q["rhs"], true));
        let got = lhs.compare(&rhs).unwrap();
        let label = format!("symdiff {i}: {} -> {}", q["lhs"], q["rhs"]);
        assert_eq!(got.added, set(&paths(&q["added"])), "added {label}");
        assert_eq!(
            got.modified,
            set(&paths(&q["modified"])),
            "modified {label}"
        );
        assert_eq!(got.removed, set(&paths(&q["removed"])), "removed {label}");
        let rev = rhs.compare(&lhs).unwrap();
        assert_eq!(
            (rev.modified, rev.removed, rev.added),
            (got.modified, got.added, got.removed),
            "reverse {label}"
        );
    }
    let n = |k: &str| d[k].as_array().unwrap().len();
    assert_eq!(
        (n("validate"), n("merge"), n("toset"), n("symdiff")),
        (3, 32, 21, 31)
    );
}

#[test]
fn remove_and_extract() {
    // TestRemove (typed/remove_test.go)
    let d = read_yaml_file("smd/typed_remove.yaml");
    let mut n = 0;
    // Outputs are YAML (`{"listOfMaps"}` is a flow mapping whose key has a null value).
    let parse = |v: &Value| -> Value { super::common::yaml(v.as_str().unwrap()) };
    for c in d["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let s = schema(name);
        for (i, q) in c["quadruplets"].as_array().unwrap().iter().enumerate() {
            if skipped(&d, &format!("{name}/{i}")) {
                continue;
            }
            let tv = typed(&s, &q["object"], false);
            let items = set(&paths(&q["set"]));
            for (key, extract) in [("remove", false), ("extract", true)] {
                if q[key] == "unparseable" {
                    continue;
                }
                let want = parse(&q[key]);
                let got = if extract {
                    tv.extract_items(&items)
                } else {
                    tv.remove_items(&items)
                };
                assert!(
                    crdkit_apply::value::equals(got.value(), &want),
                    "{name}/{i} {key}: {} minus {}: expected {want} got {}",
                    q["object"],
                    items,
                    got.value()
                );
                n += 1;
            }
        }
    }
    assert_eq!(n, 95);
}

#[test]
fn reconcile_field_sets_with_schema() {
    // TestReconcileFieldSetWithSchema
    let d = read_yaml_file("smd/typed_reconcile.yaml");
    let cases = d["cases"].as_array().unwrap();
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let s = plain_schema(&d["schemas"][c["schema"].as_str().unwrap()]);
        let live = TypedValue::new(c["live"].clone(), s, ValidationOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let fixed =
            crdkit_apply::typed::reconcile_field_set_with_schema(&set(&paths(&c["old"])), &live)
                .unwrap();
        let want = (!c["fixed"].is_null()).then(|| set(&paths(&c["fixed"])));
        assert_eq!(fixed, want, "{name}");
    }
    assert_eq!(cases.len(), 7);
}

#[test]
fn ensure_named_fields_are_members() {
    // TestEnsureNamedFieldsAreMembers (fieldpath/set_test.go)
    let d = read_yaml_file("smd/fieldpath_named_fields.yaml");
    let cases = d["cases"].as_array().unwrap();
    for c in cases {
        let s = plain_schema(&d["schemas"][c["schema"].as_str().unwrap()]["schema"]);
        let tv = typed(&s, &c["value"], false);
        let before = tv.to_field_set().unwrap();
        assert_eq!(before, set(&paths(&c["before"])), "{}", c["value"]);
        // The set is completed under the new schema when there is one.
        let tv = match c.get("new_schema") {
            Some(n) => TypedValue::new_unchecked(
                tv.value().clone(),
                plain_schema(&d["schemas"][n.as_str().unwrap()]["schema"]),
            ),
            None => tv,
        };
        assert_eq!(
            tv.ensure_named_fields_are_members(&before),
            set(&paths(&c["after"])),
            "{}",
            c["value"]
        );
    }
    assert_eq!(cases.len(), 5);
}

/// A comparison collects a subtree missing on the left in one walk (every node added) and walks
/// one missing on the right node by node: on generated objects both must find the same paths,
/// and an error in such a subtree must be the node-by-node walk's.
#[test]
fn added_subtrees_mirror_removed_ones() {
    let s = plain_schema(&workload_schema());
    let mut draws = Draws(0x2545_f491_4f6c_dd1d);
    let (mut compared, mut errors) = (0, 0);
    for _ in 0..2_000 {
        let spec = draws.spec(false);
        let mut obj = serde_json::json!({"spec": spec});
        if draws.below(3) == 0 {
            obj["status"] = serde_json::json!({"free": [{"x": 1}, [2, {}]], "n": null});
        }
        let full = TypedValue::new_unchecked(obj.clone(), s.clone());
        let empty = TypedValue::new_unchecked(serde_json::json!({}), s.clone());
        match (empty.compare(&full), full.compare(&empty)) {
            (Ok(fwd), Ok(rev)) => {
                assert_eq!(fwd.added, rev.removed, "{obj}");
                assert!(fwd.modified.is_empty() && fwd.removed.is_empty(), "{obj}");
                assert_eq!(rev.added, Set::new(), "{obj}");
                compared += 1;
            }
            (Err(fwd), Err(rev)) => {
                assert_eq!(fwd.to_string(), rev.to_string(), "{obj}");
                errors += 1;
            }
            (fwd, rev) => panic!("{obj}: {fwd:?} but reversed {rev:?}"),
        }
    }
    // Both kinds of subtree were generated.
    assert!(compared > 1_000 && errors > 50, "{compared} {errors}");
}
