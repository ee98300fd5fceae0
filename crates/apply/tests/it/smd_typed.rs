//! structured-merge-diff's typed tests transcribed in `tests/data/smd/typed_*.yaml`:
//! `typed/toset_test.go` (the field sets of objects).

use serde_json::Value;

use crdkit_apply::typed::{TypedValue, ValidationOptions};

use super::common::{plain_schema, read_yaml_file, set};

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

#[test]
fn to_field_set() {
    let d = read_yaml_file("smd/typed_toset.yaml");
    let (mut passed, mut skipped) = (0, 0);
    for c in d["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let schema = plain_schema(&d["schemas"][name]["schema"]);
        for (i, pair) in c["pairs"].as_array().unwrap().iter().enumerate() {
            if d["skip"].get(format!("{name}/{i}")).is_some() {
                skipped += 1;
                continue;
            }
            let obj: Value = serde_json::from_str(pair["object"].as_str().unwrap()).unwrap();
            let tv = TypedValue::new(
                obj,
                schema.clone(),
                ValidationOptions {
                    allow_duplicates: true,
                },
            )
            .unwrap_or_else(|e| panic!("{name}/{i}: {e}"));
            let got = tv.to_field_set().unwrap();
            assert_eq!(
                got,
                set(&paths(&pair["set"])),
                "{name}/{i}: {}",
                pair["object"]
            );
            passed += 1;
        }
    }
    assert_eq!((passed, skipped), (28, 1));
}

#[test]
fn schema_validation() {
    // TestSchemaValidation
    let schemas = read_yaml_file("smd/typed_toset.yaml");
    let d = read_yaml_file("smd/typed_validate.yaml");
    let mut n = 0;
    for c in d["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let schema = plain_schema(&schemas["schemas"][name]["schema"]);
        let check = |key: &str, allow_duplicates: bool| -> Vec<(String, bool)> {
            c.get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|o| {
                            let text = o.as_str().unwrap().to_owned();
                            let v: Value = serde_json::from_str(&text).unwrap();
                            let r = TypedValue::new(
                                v,
                                schema.clone(),
                                ValidationOptions { allow_duplicates },
                            );
                            if let Err(e) = &r {
                                // Errors say what is wrong, not that the schema is broken.
                                assert!(
                                    !e.to_string().contains("invalid atom"),
                                    "{name}: {text}: {e}"
                                );
                            }
                            (text, r.is_ok())
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
