//! `x-kubernetes-list-type` set/map uniqueness, cases from apiextensions-apiserver
//! `pkg/apiserver/schema/listtype/validation_test.go` (paths from `field.NewPath("root")`).

use crate::common;

use common::schema;
use crdkit_apiextensions::validate::list_type::validate_list_sets_and_maps;
use crdkit_apimachinery::field::FieldPath;
use serde_json::{Value, json};

fn errs(s: Value, obj: Value) -> Vec<String> {
    validate_list_sets_and_maps(&FieldPath::new("root"), &schema(s), &obj)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn set_schema() -> Value {
    json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}})
}

#[test]
fn sets() {
    assert!(errs(set_schema(), json!({"array": ["a", "b"]})).is_empty());
    assert_eq!(
        errs(set_schema(), json!({"array": ["a", "a"]})),
        [r#"root.array[1]: Duplicate value: "a""#]
    );
    assert_eq!(
        errs(
            set_schema(),
            json!({"array": ["a", "a", "b", "c", "d", "c"]})
        ),
        [
            r#"root.array[1]: Duplicate value: "a""#,
            r#"root.array[5]: Duplicate value: "c""#
        ]
    );
    assert_eq!(
        errs(set_schema(), json!({"array": ["a", "b", "a"]})),
        [r#"root.array[2]: Duplicate value: "a""#]
    );
    let normal = json!({"type": "object", "properties": {"array": {"type": "array", "items": {"type": "string"}}}});
    assert!(errs(normal, json!({"array": ["a", "b", "a"]})).is_empty());
    let ap = json!({"type": "object", "additionalProperties": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}});
    assert_eq!(
        errs(ap, json!({"array": ["a", "b", "a"]})),
        [r#"root[array][2]: Duplicate value: "a""#]
    );
    let nested = json!({"type": "object", "properties": {"array": {"type": "array", "items": {
        "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}});
    assert_eq!(
        errs(nested, json!({"array": [["a", "b", "a"], ["b", "b", "a"]]})),
        [
            r#"root.array[0][2]: Duplicate value: "a""#,
            r#"root.array[1][1]: Duplicate value: "b""#
        ]
    );
    // Compound items compare by their JSON; integers and floats are different scalars.
    let any = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "set",
        "items": {"x-kubernetes-preserve-unknown-fields": true}}}});
    assert_eq!(
        errs(
            any.clone(),
            json!({"array": [{"a": 1, "b": [1]}, {"b": [1], "a": 1}]})
        ),
        [r#"root.array[1]: Duplicate value: {"a":1,"b":[1]}"#]
    );
    assert!(errs(any, json!({"array": [1, 1.5, "1", null, true]})).is_empty());
}

#[test]
fn maps() {
    let one = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}}}});
    assert!(
        errs(
            one.clone(),
            json!({"array": [{"k": "a", "v": 1}, {"k": "b", "v": 1}]})
        )
        .is_empty()
    );
    assert_eq!(
        errs(
            one.clone(),
            json!({"array": [{"k": "a", "v": 1}, {"k": "a", "v": 2}]})
        ),
        [r#"root.array[1]: Duplicate value: {"k":"a"}"#]
    );
    assert_eq!(
        errs(one.clone(), json!({"array": [{"v": 1}, {"v": 2}]})),
        ["root.array[1]: Duplicate value: {}"]
    );
    assert_eq!(
        errs(one.clone(), json!({"array": [null, {"v": 2}]})),
        ["root.array[1]: Duplicate value: {}"]
    );
    assert_eq!(
        errs(one, json!({"array": [{"k": "a"}, "x"]})),
        [r#"root.array[1]: Invalid value: "x": must be an object for an array of list-type map"#]
    );
    let two = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k1", "k2"], "items": {"type": "object", "properties": {"k1": {"type": "string"}, "k2": {"type": "integer"}}}}}});
    assert!(
        errs(
            two.clone(),
            json!({"array": [{"k1": "a", "k2": 1}, {"k1": "a", "k2": 2}]})
        )
        .is_empty()
    );
    assert_eq!(
        errs(
            two,
            json!({"array": [{"k1": "a", "k2": 1}, {"k1": "a", "k2": 1, "x": 0}, {"k1": "a", "k2": 1}]})
        ),
        [r#"root.array[1]: Duplicate value: {"k1":"a","k2":1}"#]
    );
}

/// Errors as Go's `validationMatch` sees them: type and field, sorted.
fn matches(s: Value, obj: Value) -> Vec<String> {
    let mut v: Vec<String> = validate_list_sets_and_maps(&FieldPath::new("root"), &schema(s), &obj)
        .iter()
        .map(|e| format!("{:?} {}", e.error_type, e.field))
        .collect();
    v.sort();
    v
}

fn want(v: &[(&str, &str)]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|(t, f)| format!("{t} root.{f}")).collect();
    v.sort();
    v
}

fn array(list_type: &str, keys: &[&str], items: Value) -> Value {
    let mut a = json!({"type": "array", "x-kubernetes-list-type": list_type, "items": items});
    if !keys.is_empty() {
        a["x-kubernetes-list-map-keys"] = json!(keys);
    }
    a
}

#[test]
fn go_table_trivial() {
    // "nil", "no schema", "no object", "list without schema", "list without items".
    let empty = json!({});
    assert!(matches(empty.clone(), Value::Null).is_empty());
    assert!(matches(empty.clone(), json!({})).is_empty());
    assert!(matches(empty, json!({"array": ["a", "b", "a"]})).is_empty());
    let no_items = json!({"type": "object", "properties": {"array": {"type": "array"}}});
    assert!(matches(no_items, json!({"array": ["a", "b", "a"]})).is_empty());
    let set_no_items = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "set"}}});
    assert!(matches(set_no_items.clone(), json!({"array": ["a"]})).is_empty());
    assert!(matches(set_no_items.clone(), json!({"array": ["a", "b"]})).is_empty());
    assert_eq!(
        matches(set_no_items.clone(), json!({"array": ["a", "a"]})),
        want(&[("Duplicate", "array[1]")])
    );
    assert_eq!(
        matches(
            set_no_items,
            json!({"array": ["a", "a", "b", "c", "d", "c"]})
        ),
        want(&[("Duplicate", "array[1]"), ("Duplicate", "array[5]")])
    );
}

#[test]
fn go_table_nested_sets() {
    let s = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "set",
        "items": {"type": "array", "x-kubernetes-list-type": "set"}}}});
    assert_eq!(
        matches(s, json!({"array": ["a", "b", "a", ["b", "b", "a"]]})),
        want(&[("Duplicate", "array[2]"), ("Duplicate", "array[3][1]")])
    );
    let s = json!({"type": "object", "properties": {"array": array("set", &[], json!({"type": "string"}))}});
    assert_eq!(
        matches(s, json!({"array": [[], ["a"], ["a"]]})),
        want(&[("Duplicate", "array[2]")])
    );
}

#[test]
fn go_table_set_list_with_compound_map_items() {
    let string_map = json!({"type": "object", "additionalProperties": {"type": "string"}});
    let nullable_string_map =
        json!({"type": "object", "additionalProperties": {"type": "string", "nullable": true}});
    let s = json!({"type": "object", "properties": {
        "strings": array("set", &[], json!({"type": "string"})),
        "integers": array("set", &[], json!({"type": "integer"})),
        "booleans": array("set", &[], json!({"type": "boolean"})),
        "float64": array("set", &[], json!({"type": "number"})),
        "nil": array("set", &[], json!({"type": "string", "nullable": true})),
        "empty maps": array("set", &[], string_map.clone()),
        "map values": array("set", &[], string_map.clone()),
        "nil values": array("set", &[], nullable_string_map),
        "array": array("set", &[], json!({"type": "array", "items": {"type": "string"}})),
        "nil array": array("set", &[], json!({"type": "array", "items": {"type": "string", "nullable": true}})),
        "multiple duplicates": array("set", &[], string_map),
    }});
    let obj = json!({
        "strings": ["a", "b", "a"],
        "integers": [1, 2, 1],
        "booleans": [false, true, true],
        "float64": [1.0, 2.0, 2.0],
        "nil": ["a", null, null],
        "empty maps": [{"a": "b"}, {}, {}],
        "map values": [{"a": "b"}, {"a": "c"}, {"a": "b"}],
        "nil values": [{"a": null}, {"b": "c", "a": null}],
        "array": [[], ["a"], ["b"], ["a"]],
        "nil array": [[], [null], [null, null], [null], ["a"]],
        "multiple duplicates": [{"a": "b"}, {"a": "c"}, {"a": "b"}, {"a": "c"}, {"a": "c"}],
    });
    assert_eq!(
        matches(s, obj),
        want(&[
            ("Duplicate", "strings[2]"),
            ("Duplicate", "integers[2]"),
            ("Duplicate", "booleans[2]"),
            ("Duplicate", "float64[2]"),
            ("Duplicate", "nil[2]"),
            ("Duplicate", "empty maps[2]"),
            ("Duplicate", "map values[2]"),
            ("Duplicate", "array[3]"),
            ("Duplicate", "nil array[3]"),
            ("Duplicate", "multiple duplicates[2]"),
            ("Duplicate", "multiple duplicates[3]"),
        ])
    );
}

#[test]
fn go_table_map_list_with_compound_map_items() {
    let string_map = json!({"type": "object", "additionalProperties": {"type": "string"}});
    let nullable_string_map =
        json!({"type": "object", "additionalProperties": {"type": "string", "nullable": true}});
    let a_c = json!({"type": "object", "properties": {
        "a": {"type": "array", "nullable": true, "items": {"type": "string"}},
        "c": {"type": "string"}}});
    let mut a_b_c = a_c.clone();
    a_b_c["properties"]["b"] = json!({"type": "string"});
    let s = json!({"type": "object", "properties": {
        "strings": array("map", &["a"], json!({"type": "string"})),
        "integers": array("map", &["a"], json!({"type": "integer"})),
        "booleans": array("map", &["a"], json!({"type": "boolean"})),
        "float64": array("map", &["a"], json!({"type": "number"})),
        "nil": array("map", &["a"], json!({"type": "string", "nullable": true})),
        "array": array("map", &["a"], json!({"type": "array", "items": {"type": "string"}})),
        "one key": array("map", &["a"], string_map.clone()),
        "two keys": array("map", &["a", "b"], string_map.clone()),
        "undefined key": array("map", &["a", "b"], string_map),
        "compound key": array("map", &["a"], nullable_string_map.clone()),
        "nil key": array("map", &["a"], a_c.clone()),
        "nil item": array("map", &["a"], a_c),
        "nil item multiple keys": array("map", &["a", "b"], a_b_c),
        "multiple duplicates": array("map", &["a"], nullable_string_map),
    }});
    let obj = json!({
        "strings": ["a"],
        "integers": [1],
        "booleans": [false],
        "float64": [1.0],
        "nil": [null],
        "array": [["a"]],
        "one key": [{"a": "0", "c": "2"}, {"a": "1", "c": "1"}, {"a": "1", "c": "2"}, {}],
        "two keys": [{"a": "1", "b": "1", "c": "1"}, {"a": "1", "b": "2", "c": "2"}, {"a": "1", "b": "2", "c": "3"}, {}],
        "undefined key": [{"a": "1", "b": "1", "c": "1"}, {"a": "1", "c": "2"}, {"a": "1", "c": "3"}, {}],
        "compound key": [{"a": [], "c": "1"}, {"a": null, "c": "1"}, {"a": ["a"], "c": "1"}, {"a": ["a", 42], "c": "2"}, {"a": ["a", 42], "c": ["3"]}],
        "nil key": [{"a": [], "c": "1"}, {"a": null, "c": "1"}, {"c": "1"}, {"a": null}],
        "nil item": [null, {"a": "0", "c": "1"}, {"a": null}, {"c": "1"}],
        "nil item multiple keys": [null, {"b": "0", "c": "1"}, {"a": null}, {"c": "1"}],
        "multiple duplicates": [
            {"a": [], "c": "1"},
            {"a": null, "c": "1"},
            {"a": ["a"], "c": "1"},
            {"a": ["a", 42], "c": "2"},
            {"a": ["a", 42], "c": ["3"]},
            {"a": ["a"], "c": "1", "d": "1"},
            {"a": ["a"], "c": "1", "d": "2"},
        ],
    });
    assert_eq!(
        matches(s, obj),
        want(&[
            ("Invalid", "strings[0]"),
            ("Invalid", "integers[0]"),
            ("Invalid", "booleans[0]"),
            ("Invalid", "float64[0]"),
            ("Invalid", "array[0]"),
            ("Duplicate", "one key[2]"),
            ("Duplicate", "two keys[2]"),
            ("Duplicate", "undefined key[2]"),
            ("Duplicate", "compound key[4]"),
            ("Duplicate", "nil key[3]"),
            ("Duplicate", "nil item[3]"),
            ("Duplicate", "nil item multiple keys[3]"),
            ("Duplicate", "multiple duplicates[4]"),
            ("Duplicate", "multiple duplicates[5]"),
        ])
    );
}
