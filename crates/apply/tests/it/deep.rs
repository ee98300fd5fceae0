//! Field sets of objects nested 10,000 levels deep (the API server's decoding limit): built,
//! compared and written as `FieldsV1` with explicit stacks, on a test thread's stack, with the
//! content of the small-depth pattern.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crdkit_apply::fieldpath::{Path, PathElement, Set};
use crdkit_apply::schema::Schema;
use crdkit_apply::typed::TypedValue;

/// `{"a": {"a": ... {"leaf": 1}}}`, `depth` objects deep, built without recursion.
fn nested(depth: usize) -> Value {
    let mut v = json!({"leaf": 1});
    for _ in 1..depth {
        let mut m = Map::new();
        m.insert("a".to_owned(), v);
        v = Value::Object(m);
    }
    v
}

/// Drops a value without recursion (serde_json's drop recurses once per level).
fn dismantle(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => stack.extend(m.into_iter().map(|(_, v)| v)),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

/// The `FieldsV1` of `nested(depth)` under the deduced type: every `a` is a key of a granular
/// map, so a member with what lies below it, down to `leaf`.
fn pattern(depth: usize) -> String {
    let mut s = String::from("{");
    s.push_str(&"\"f:a\":{\".\":{},".repeat(depth - 1));
    s.push_str("\"f:leaf\":{}");
    s.push_str(&"}".repeat(depth));
    s
}

/// The same set, path by path.
fn paths(depth: usize) -> Set {
    let mut out = Vec::new();
    let mut p = Vec::new();
    for _ in 1..depth {
        p.push(PathElement::field("a"));
        out.push(Path(p.clone()));
    }
    p.push(PathElement::field("leaf"));
    out.push(Path(p));
    Set::from_paths(out)
}

fn field_set(depth: usize) -> (Set, Set) {
    let schema = Arc::new(Schema::deduced());
    let tv = TypedValue::new_unchecked(nested(depth), schema.clone());
    let set = tv.to_field_set().expect("field set");
    let empty = TypedValue::new_unchecked(json!({}), schema);
    let added = empty.compare(&tv).expect("compare");
    assert!(added.removed.is_empty() && added.modified.is_empty());
    dismantle(tv.into_value());
    (set, added.added)
}

#[test]
fn small_depths_follow_the_pattern() {
    for depth in 1..=4 {
        let (set, added) = field_set(depth);
        assert_eq!(set, paths(depth), "depth {depth}");
        assert_eq!(added, paths(depth), "depth {depth}");
        assert_eq!(set.to_json_string(), pattern(depth), "depth {depth}");
        assert_eq!(
            serde_json::to_string(&set.to_value()).unwrap(),
            pattern(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn ten_thousand_levels() {
    let depth = 10_000;
    let (set, added) = field_set(depth);
    assert_eq!(set.size(), depth);
    assert!(!set.is_empty());
    let want = pattern(depth);
    assert_eq!(set.to_json_string(), want);
    assert_eq!(added.to_json_string(), want);
    // The value form, written without serde_json (its writer recurses too) and taken apart.
    let v = set.to_value();
    assert_eq!(v.as_object().map(Map::len), Some(1));
    let mut node = &v["f:a"];
    for _ in 2..depth {
        assert_eq!(node.as_object().map(Map::len), Some(2));
        assert!(node["."].as_object().is_some_and(Map::is_empty));
        node = &node["f:a"];
    }
    assert_eq!(node, &json!({".": {}, "f:leaf": {}}));
    dismantle(v);
}
