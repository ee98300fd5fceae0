//! Field sets of lists with 100,000 items in descending and shuffled order and of a map with
//! 100,000 keys: a request body of a few MB holds that much, and a set node that took its
//! elements one by one into a sorted vector would shift them quadratically. These must finish
//! (in well under a second in release builds); they check the sets too.

use std::sync::Arc;

use serde_json::{Value, json};

use crdkit_apply::fieldpath::{Path, PathElement, Set};
use crdkit_apply::schema::Schema;
use crdkit_apply::typed::{TypedValue, reconcile_field_set_with_schema};
use crdkit_apply::{ApplyError, FieldManager};

use super::common::structural;

const N: i64 = 100_000;
/// Through the field manager (which merges and compares the objects too; 100,000 items take
/// seconds in release builds there, tens of seconds in debug).
const M: i64 = 10_000;

fn spec_schema() -> Value {
    json!({"type": "object", "properties": {
        "items": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["id"],
            "items": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "integer"}, "v": {"type": "string"}}}},
        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}})
}

fn crd_schema() -> Value {
    json!({"type": "object", "properties": {"spec": spec_schema()}})
}

/// The ids `0..n` in descending order, or shuffled (a fixed linear congruential permutation).
fn ids(n: i64, shuffled: bool) -> Vec<i64> {
    let mut ids: Vec<i64> = (0..n).rev().collect();
    if shuffled {
        let mut x: u64 = 0x2545_f491;
        for i in (1..ids.len()).rev() {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ids.swap(i, (x >> 33) as usize % (i + 1));
        }
    }
    ids
}

fn object(ids: &[i64], v: impl Fn(i64) -> String) -> Value {
    let items: Vec<Value> = ids.iter().map(|&i| json!({"id": i, "v": v(i)})).collect();
    json!({"apiVersion": "stable.example.com/v1", "kind": "Big",
        "metadata": {"name": "big", "namespace": "default"},
        "spec": {"items": items, "tags": ids}})
}

fn item(i: i64) -> PathElement {
    PathElement::key(vec![("id".into(), json!(i))])
}

fn path(elems: &[PathElement]) -> Path {
    let mut p = vec![PathElement::field("spec")];
    p.extend_from_slice(elems);
    Path(p)
}

/// The fields of [`object`]: each item, its `id` and `v`, and each tag, in the order of `ids`.
fn fields(ids: &[i64]) -> Vec<Path> {
    let items = PathElement::field("items");
    let mut out = Vec::new();
    for &i in ids {
        out.push(path(&[items.clone(), item(i)]));
        out.push(path(&[items.clone(), item(i), PathElement::field("id")]));
        out.push(path(&[items.clone(), item(i), PathElement::field("v")]));
        out.push(path(&[
            PathElement::field("tags"),
            PathElement::Value(json!(i)),
        ]));
    }
    out
}

fn typed(v: Value) -> TypedValue {
    let schema = Arc::new(Schema::for_custom_resource(
        Some(&structural(&crd_schema())),
        false,
    ));
    TypedValue::new_unchecked(v, schema)
}

#[test]
fn lists_of_100k_items_in_any_order() {
    let desc = ids(N, false);
    let shuffled = ids(N, true);
    let a = typed(object(&desc, |_| "x".into()));
    let set = a.to_field_set().expect("field set");
    // And apiVersion, kind, metadata.name and metadata.namespace.
    assert_eq!(set.size(), 4 * N as usize + 4);
    // The same set from its paths, given shuffled.
    let want = Set::from_paths(fields(&shuffled));
    let spec = PathElement::field("spec");
    assert_eq!(set.with_prefix(&spec), want.with_prefix(&spec));

    let b = typed(object(&shuffled, |_| "x".into()));
    assert_eq!(b.to_field_set().expect("field set"), set);
    assert!(a.compare(&b).expect("compare").is_same());
    // Every 1,000th value changed, found in the shuffled list.
    let c = typed(object(&shuffled, |i| {
        if i % 1000 == 0 { "y" } else { "x" }.into()
    }));
    let cmp = a.compare(&c).expect("compare");
    let changed = (0..N).rev().filter(|i| i % 1000 == 0).map(|i| {
        path(&[
            PathElement::field("items"),
            item(i),
            PathElement::field("v"),
        ])
    });
    assert_eq!(cmp.modified, Set::from_paths(changed));
    assert!(cmp.added.is_empty() && cmp.removed.is_empty());

    // FieldsV1 keys sort as strings (`k:{"id":10}` before `k:{"id":9}`): read back in that order.
    let text = set.to_json_string();
    assert_eq!(Set::from_json_str(&text).expect("FieldsV1"), set);
    assert_eq!(Set::from_value(&set.to_value()).expect("FieldsV1"), set);
}

#[test]
fn map_of_100k_keys() {
    let labels: serde_json::Map<String, Value> =
        (0..N).map(|i| (format!("key-{i}"), json!("v"))).collect();
    let a = typed(json!({"apiVersion": "stable.example.com/v1", "kind": "Big",
        "metadata": {"name": "big"}, "spec": {"labels": labels}}));
    let set = a.to_field_set().expect("field set");
    let label = |i: i64| {
        path(&[
            PathElement::field("labels"),
            PathElement::field(format!("key-{i}")),
        ])
    };
    let want = Set::from_paths((0..N).rev().map(label));
    assert!(want.difference(&set).is_empty());
    assert_eq!(set.size(), want.size() + 3);
    let text = set.to_json_string();
    assert_eq!(Set::from_json_str(&text).expect("FieldsV1"), set);
    let mut fewer = a.value().clone();
    let m = fewer["spec"]["labels"].as_object_mut().expect("labels");
    for i in (0..N).step_by(7) {
        m.remove(&format!("key-{i}"));
    }
    let cmp = a.compare(&typed(fewer)).expect("compare");
    assert_eq!(cmp.removed, Set::from_paths((0..N).step_by(7).map(label)));
}

#[test]
fn field_manager_on_10k_items() {
    let fm = FieldManager::new(
        Some(&structural(&crd_schema())),
        "stable.example.com/v1",
        "Big",
    );
    let now = "2026-11-29T08:00:00Z";
    let live = fm.update(
        None,
        &object(&ids(M, false), |_| "x".into()),
        "creator",
        None,
        now,
    );
    // Every value changed, the list shuffled: 10,000 conflicts without force.
    let config = object(&ids(M, true), |_| "y".into());
    match fm.apply(Some(&live), &config, "applier", false, None, now) {
        Err(ApplyError::Conflicts(c)) => {
            assert_eq!(c.0.len(), M as usize);
            assert_eq!(c.to_set().size(), M as usize);
        }
        other => panic!("want conflicts, got {:?}", other.map(|_| ())),
    }
    let applied = fm
        .apply(Some(&live), &config, "applier", true, None, now)
        .expect("forced apply");
    let managed = applied["metadata"]["managedFields"]
        .as_array()
        .expect("managed fields");
    assert_eq!(managed.len(), 2);
    let owned = |name: &str| {
        let e = managed
            .iter()
            .find(|e| e["manager"] == name)
            .expect("entry");
        Set::from_value(&e["fieldsV1"]).expect("FieldsV1")
    };
    let v = |i: i64| {
        path(&[
            PathElement::field("items"),
            item(i),
            PathElement::field("v"),
        ])
    };
    let applier = owned("applier");
    let creator = owned("creator");
    // The values moved to the applier; both own the items and their keys.
    for i in 0..M {
        assert!(applier.has(&v(i)) && !creator.has(&v(i)), "{i}");
    }
    let rest = |s: &Set| {
        s.recursive_difference(&Set::from_paths([
            path(&[PathElement::field("items")]),
            path(&[PathElement::field("tags")]),
        ]))
    };
    eprintln!(
        "{} {} {} {}",
        applier.size(),
        creator.size(),
        rest(&applier),
        rest(&creator)
    );
}

/// A manager's set owning parts of 100,000 lists that are atomic under the schema (as a
/// `managedFields` sent with an update may say): each becomes owned whole, in one pass.
#[test]
fn reconcile_100k_atomic_lists() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "items": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["id"],
            "items": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "integer"},
                "args": {"type": "array", "items": {"type": "string"}}}}}}}}});
    let tv = TypedValue::new_unchecked(
        json!({"apiVersion": "stable.example.com/v1", "kind": "Big", "metadata": {"name": "big"}}),
        Arc::new(Schema::for_custom_resource(
            Some(&structural(&schema)),
            false,
        )),
    );
    let args = |i: i64| {
        path(&[
            PathElement::field("items"),
            item(i),
            PathElement::field("args"),
        ])
    };
    let owned = Set::from_paths(
        ids(N, true)
            .into_iter()
            .map(|i| Path([args(i).0, vec![PathElement::Index(0)]].concat())),
    );
    let reconciled = reconcile_field_set_with_schema(&owned, &tv)
        .expect("reconcile")
        .expect("changed");
    assert_eq!(reconciled, Set::from_paths((0..N).map(args)));
}
