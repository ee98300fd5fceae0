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
