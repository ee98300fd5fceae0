//! Each directive and rule on its own, with Go's outcome, quirks included (traced through
//! patch.go `mergeMap`, `mergeSlice`, `mergePatchIntoOriginal`), and the facts of Go's
//! `TestUnknownField` and `TestNumberConversion` for the apply direction.

use serde_json::{Value, json};

use crate::common::{apply, merge_item, merge_item_schemas};

fn check(cases: &[(&str, Value, Value, Value)]) {
    let schemas = merge_item_schemas();
    let schema = merge_item(&schemas);
    for (name, original, patch, want) in cases {
        let got = apply(original, patch, &schema).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&got, want, "{name}");
    }
}

#[test]
fn patch_directive_in_maps() {
    check(&[
        (
            "replace at the root",
            json!({"name": "a", "value": "b"}),
            json!({"$patch": "replace", "name": "x"}),
            json!({"name": "x"}),
        ),
        (
            "delete at the root",
            json!({"name": "a"}),
            json!({"$patch": "delete"}),
            json!({}),
        ),
        // The replacing map is the patch's as it is: its nulls stay.
        (
            "replace a nested map",
            json!({"mergeItemPtr": {"name": "b", "other": "x"}}),
            json!({"mergeItemPtr": {"$patch": "replace", "name": "a", "value": null}}),
            json!({"mergeItemPtr": {"name": "a", "value": null}}),
        ),
        (
            "delete a nested map",
            json!({"mergeItemPtr": {"name": "b"}}),
            json!({"mergeItemPtr": {"$patch": "delete"}}),
            json!({"mergeItemPtr": {}}),
        ),
        // A map the object lacks is added without its directives, and one carrying `$patch`
        // not at all (removeDirectives).
        (
            "replace a map the object lacks",
            json!({}),
            json!({"mergeItemPtr": {"$patch": "replace", "name": "a"}}),
            json!({}),
        ),
        (
            "delete inside a map the object lacks",
            json!({}),
            json!({"mergeItemPtr": {"name": "a", "mergeItemPtr": {"$patch": "delete"}}}),
            json!({"mergeItemPtr": {"name": "a"}}),
        ),
    ]);
}

#[test]
fn nulls() {
    check(&[
        (
            "null deletes",
            json!({"name": "a", "value": "b"}),
            json!({"value": null}),
            json!({"name": "a"}),
        ),
        (
            "null of a missing key",
            json!({}),
            json!({"value": null}),
            json!({}),
        ),
        (
            "nulls in a new map are dropped",
            json!({}),
            json!({"mergeItemPtr": {"name": "a", "value": null}}),
            json!({"mergeItemPtr": {"name": "a"}}),
        ),
        // A field with strategy `replace` takes the patch's map as it is.
        (
            "replace strategy keeps the patch's nulls",
            json!({"replacingItem": {"c": 1}}),
            json!({"replacingItem": {"a": null, "b": {"$patch": "delete"}}}),
            json!({"replacingItem": {"a": null, "b": {"$patch": "delete"}}}),
        ),
        // So does a list that is not merged...
        (
            "non-merging list taken as it is",
            json!({"nonMergingList": [{"name": 2}]}),
            json!({"nonMergingList": [{"name": 1, "value": null}]}),
            json!({"nonMergingList": [{"name": 1, "value": null}]}),
        ),
        // ...and an item appended to a merged list; an item without a counterpart on the
        // server goes before the server's items.
        (
            "appended item kept as sent",
            json!({"mergingList": [{"name": 1}]}),
            json!({"mergingList": [{"name": 2, "value": null}]}),
            json!({"mergingList": [{"name": 2, "value": null}, {"name": 1}]}),
        ),
        (
            "a value of another type is cleaned",
            json!({"mergingList": "x"}),
            json!({"mergingList": [{"name": 1, "$patch": "delete"}, {"name": 2, "value": null}]}),
            json!({"mergingList": [{"name": 2}]}),
        ),
        (
            "delete list set to null deletes the list",
            json!({"mergingIntList": [1]}),
            json!({"$deleteFromPrimitiveList/mergingIntList": null}),
            json!({}),
        ),
    ]);
}

#[test]
fn lists() {
    check(&[
        // Union: patch items in the patch's order, the server's in its own, interleaved.
        (
            "scalars union",
            json!({"mergingIntList": [1, 2, 3]}),
            json!({"mergingIntList": [5, 3, 4]}),
            json!({"mergingIntList": [5, 1, 2, 3, 4]}),
        ),
        (
            "merge by key",
            json!({"mergingList": [{"name": 1, "value": "a"}, {"name": 2}]}),
            json!({"mergingList": [{"name": 1, "other": "b"}]}),
            json!({"mergingList": [{"name": 1, "value": "a", "other": "b"}, {"name": 2}]}),
        ),
        (
            "delete by key",
            json!({"mergingList": [{"name": 1}, {"name": 2}, {"name": 1, "value": "dup"}]}),
            json!({"mergingList": [{"$patch": "delete", "name": 1}]}),
            json!({"mergingList": [{"name": 2}]}),
        ),
        (
            "replace a list",
            json!({"mergingList": [{"name": 1}]}),
            json!({"mergingList": [{"name": 3}, {"$patch": "replace"}]}),
            json!({"mergingList": [{"name": 3}]}),
        ),
        (
            "delete from a list of scalars",
            json!({"mergingIntList": [1, 2, 3, 2]}),
            json!({"$deleteFromPrimitiveList/mergingIntList": [2]}),
            json!({"mergingIntList": [1, 3]}),
        ),
        // Keys are taken in order, so the deletion comes first (Go: either).
        (
            "delete list before merge",
            json!({"mergingIntList": [1, 2]}),
            json!({"$deleteFromPrimitiveList/mergingIntList": [3], "mergingIntList": [3]}),
            json!({"mergingIntList": [3, 1, 2]}),
        ),
        // Numbers of different Go types are different values.
        (
            "int and float differ",
            json!({"mergingList": [{"name": 1}]}),
            json!({"mergingList": [{"name": 1.0, "value": "f"}]}),
            json!({"mergingList": [{"name": 1.0, "value": "f"}, {"name": 1}]}),
        ),
    ]);
}

#[test]
fn set_element_order() {
    check(&[
        (
            "reorder only",
            json!({"mergingList": [{"name": 1}, {"name": 2}, {"name": 3}]}),
            json!({"$setElementOrder/mergingList": [{"name": 3}, {"name": 1}, {"name": 2}]}),
            json!({"mergingList": [{"name": 3}, {"name": 1}, {"name": 2}]}),
        ),
        // The server's item stays before the first patch item the server had after it.
        (
            "server items keep their place",
            json!({"mergingList": [{"name": 1}, {"name": "x"}, {"name": 2}]}),
            json!({"$setElementOrder/mergingList": [{"name": 2}, {"name": 1}]}),
            json!({"mergingList": [{"name": "x"}, {"name": 2}, {"name": 1}]}),
        ),
        (
            "scalars",
            json!({"mergingIntList": [1, 2]}),
            json!({"$setElementOrder/mergingIntList": [3, 2, 1], "mergingIntList": [3]}),
            json!({"mergingIntList": [3, 2, 1]}),
        ),
        (
            "list the object lacks",
            json!({}),
            json!({"$setElementOrder/mergingList": [{"name": 2}, {"name": 1}],
                   "mergingList": [{"name": 2, "mergeItemPtr": {"$patch": "delete"}}, {"name": 1}]}),
            json!({"mergingList": [{"name": 2}, {"name": 1}]}),
        ),
        // Go orders by the object's list as its deletions and appends left it in place: B's
        // slot now holds N, so X (between A and B on the server) goes before N. Ordering by
        // the untouched list would give [A, N, X]. (Go's own "add map and delete map from
        // merging list" case depends on the same.)
        (
            "order after deletions in place",
            json!({"mergingList": [{"name": "A"}, {"name": "X"}, {"name": "B"}]}),
            json!({"$setElementOrder/mergingList": [{"name": "A"}, {"name": "N"}],
                   "mergingList": [{"name": "N"}, {"$patch": "delete", "name": "B"}]}),
            json!({"mergingList": [{"name": "A"}, {"name": "X"}, {"name": "N"}]}),
        ),
        // An empty order list checks nothing and names nothing, so every item is the server's
        // and sorts by the object's order, where the new item has no position: Go's comparator
        // then says "less" both ways, and its sort (an insertion sort here) moves it last.
        (
            "empty order list",
            json!({"mergingIntList": [1, 2]}),
            json!({"$setElementOrder/mergingIntList": [], "mergingIntList": [3]}),
            json!({"mergingIntList": [1, 2, 3]}),
        ),
    ]);
}

#[test]
fn retain_keys() {
    check(&[
        (
            "whatever the strategy",
            json!({"mergeItemPtr": {"name": "b", "value": "v"}}),
            json!({"mergeItemPtr": {"$retainKeys": ["name"], "name": "a"}}),
            json!({"mergeItemPtr": {"name": "a"}}),
        ),
        (
            "nulls need not be listed",
            json!({"retainKeysMap": {"name": "b", "value": "v"}}),
            json!({"retainKeysMap": {"$retainKeys": ["other"], "value": null, "other": "o"}}),
            json!({"retainKeysMap": {"other": "o"}}),
        ),
        // In a map the object lacks, the directive stays (removeDirectives only drops `$patch`);
        // the API server's decoding then drops it, or rejects it with fieldValidation=Strict.
        (
            "directive kept in a new map",
            json!({}),
            json!({"mergeItemPtr": {"$retainKeys": ["name"], "name": "a"}}),
            json!({"mergeItemPtr": {"$retainKeys": ["name"], "name": "a"}}),
        ),
        (
            "other `$` keys are fields",
            json!({}),
            json!({"$foo": 1}),
            json!({"$foo": 1}),
        ),
    ]);
}

/// Go's `TestUnknownField`: keys the schema does not know apply as long as no merge needs
/// their schema (both sides maps or both lists).
#[test]
fn unknown_fields() {
    let object =
        json!({"array": [1, 2, 3], "complex": {"nested": true}, "name": "foo", "scalar": true});
    let with = |extra: Value| {
        let mut v = object.clone();
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        v
    };
    check(&[
        ("no diff", object.clone(), json!({}), object.clone()),
        (
            "no diff even if modified null",
            object.clone(),
            json!({"complex_nullable": {"key": null}}),
            with(json!({"complex_nullable": {}})),
        ),
        (
            "discard nulls in nested and adds not nulls",
            object.clone(),
            json!({"complex_nullable": {"key": {"keynotnull": "value", "keynull": null}}}),
            with(json!({"complex_nullable": {"key": {"keynotnull": "value"}}})),
        ),
        (
            "discard if modified all nulls",
            json!({}),
            json!({"complex": {"nested": null}}),
            json!({"complex": {}}),
        ),
        (
            "add only not nulls",
            json!({}),
            json!({"complex": {"nested": null, "nested2": "foo"}}),
            json!({"complex": {"nested2": "foo"}}),
        ),
        (
            "null values in original are preserved",
            json!({"thing": null}),
            json!({"nested": {"value": 5}}),
            json!({"nested": {"value": 5}, "thing": null}),
        ),
        (
            "nested null values in original are preserved",
            json!({"complex": {"key": null}, "thing": null}),
            json!({"nested": {"value": 5}}),
            json!({"complex": {"key": null}, "nested": {"value": 5}, "thing": null}),
        ),
        (
            "add empty slices",
            object.clone(),
            json!({"complex_nullable": []}),
            with(json!({"complex_nullable": []})),
        ),
        (
            "filter nulls from nested slices",
            json!({}),
            json!({"complex_nullable": [{"inner_one": {"key_one": "foo", "key_two": null}}]}),
            json!({"complex_nullable": [{"inner_one": {"key_one": "foo"}}]}),
        ),
        (
            "filter if slice is all empty",
            json!({}),
            json!({"complex_nullable": [{"inner_one": {"key_one": null, "key_two": null}}]}),
            json!({"complex_nullable": [{"inner_one": {}}]}),
        ),
        (
            "not filter nulls from non-associative slice",
            json!({}),
            json!({"complex_nullable": ["key1", null, "key2"]}),
            json!({"complex_nullable": ["key1", null, "key2"]}),
        ),
        (
            "added only",
            json!({"name": "foo"}),
            json!({"array": [1, 2, 3], "complex": {"nested": true}, "scalar": true}),
            object.clone(),
        ),
        (
            "removed only",
            with(json!({})),
            json!({"complex": null, "scalar": null}),
            json!({"array": [1, 2, 3], "name": "foo"}),
        ),
    ]);
}

/// Go's `TestNumberConversion`: numbers at the limits of their Go types come back unchanged.
#[test]
fn number_conversion() {
    for old in [
        r#"{"int32":1000000}"#,
        r#"{"int32":2147483647}"#,
        r#"{"int64":9223372036854775807}"#,
        r#"{"float32":3.4028234663852886e+38}"#,
        r#"{"float64":1.7976931348623157e+308}"#,
    ] {
        let old: Value = serde_json::from_str(old).unwrap();
        let mut want = old.clone();
        want["name"] = json!("newname");
        check(&[("numbers", old, json!({"name": "newname"}), want)]);
    }
}
