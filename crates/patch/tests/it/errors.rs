//! Every error of the apply direction: Go's text (mergepatch/errors.go, strategicpatch/patch.go,
//! meta.go) and the API server's answer (handlers/patch.go `interpretStrategicMergePatchError`:
//! 400 and 422; anything else 500 through `ErrorToAPIStatus`; panics through
//! `WithPanicRecovery`).

use crdkit_patch::{
    GoPanic, Limits, OpenApiPatchMeta, PANIC_BODY, PatchError, patch_map, strategic_merge_patch,
};
use serde_json::{Value, json};

use crate::common::{apply, merge_item, merge_item_schemas, object};

fn err(original: Value, patch: Value) -> PatchError {
    let schemas = merge_item_schemas();
    apply(&original, &patch, &merge_item(&schemas)).expect_err("the patch applies")
}

struct Case {
    name: &'static str,
    original: Value,
    patch: Value,
    text: &'static str,
    code: u16,
}

fn cases() -> Vec<Case> {
    let case = |name, original, patch, text, code| Case {
        name,
        original,
        patch,
        text,
        code,
    };
    vec![
        // handleDirectiveInMergeMap
        case(
            "merge directive in a map",
            json!({}),
            json!({"$patch": "merge"}),
            "unknown patch type: merge in map: map[$patch:merge]",
            500,
        ),
        case(
            "unknown directive in a map",
            json!({}),
            json!({"$patch": 1, "name": "a"}),
            "unknown patch type: %!s(int64=1) in map: map[$patch:1 name:a]",
            500,
        ),
        case(
            "unknown directive in a nested map",
            json!({"mergeItemPtr": {"name": "a"}}),
            json!({"mergeItemPtr": {"$patch": "foo"}}),
            "unknown patch type: foo in map: map[$patch:foo]",
            500,
        ),
        // mergeSliceWithSpecialElements
        case(
            "merge directive in a list",
            json!({"mergingList": [{"name": 1}]}),
            json!({"mergingList": [{"$patch": "merge", "name": 1}]}),
            "merging lists cannot yet be specified in the patch",
            500,
        ),
        case(
            "unknown directive in a list",
            json!({"mergingList": [{"name": 1}]}),
            json!({"mergingList": [{"$patch": "foo", "name": 1}]}),
            "unknown patch type: foo in map: map[$patch:foo name:1]",
            500,
        ),
        case(
            "delete directive without merge key",
            json!({"mergingList": [{"name": 1}]}),
            json!({"mergingList": [{"$patch": "delete"}]}),
            "map: map[$patch:delete] does not contain declared merge key: name",
            500,
        ),
        // mergeSliceWithoutSpecialElements (Go's "missing merge key should error out")
        case(
            "patch item without merge key",
            json!({"mergingList": [{"name": 1, "value": "a"}]}),
            json!({"mergingList": [{"value": "b"}]}),
            "map: map[value:b] does not contain declared merge key: name",
            500,
        ),
        // partitionMapsByPresentInList
        case(
            "object item without merge key",
            json!({"mergingList": [{"value": "a"}]}),
            json!({"mergingList": [{"name": 1}]}),
            "map: map[value:a] does not contain declared merge key: name",
            500,
        ),
        // sliceElementType
        case(
            "list of lists",
            json!({"mergingIntList": [[1]]}),
            json!({"mergingIntList": [[2]]}),
            "lists of lists are not supported",
            422,
        ),
        case(
            "mixed element types",
            json!({"mergingIntList": [1]}),
            json!({"mergingIntList": [1, "a"]}),
            "list element types are not identical: [[1] [1 a]]",
            500,
        ),
        case(
            "int and float are different types",
            json!({"mergingIntList": [1]}),
            json!({"mergingIntList": [1.5]}),
            "list element types are not identical: [[1] [1.5]]",
            500,
        ),
        case(
            "maps and lists",
            json!({"mergingList": [{"name": 1}]}),
            json!({"mergingList": [[1]]}),
            "list element types are not identical: [[map[name:1]] [[1]]]",
            500,
        ),
        // mergeSlice
        case(
            "merge of maps without merge key",
            json!({"nonMergingList": [{"name": 1}]}),
            json!({"$deleteFromPrimitiveList/nonMergingList": [{"name": 1}]}),
            "cannot merge lists without merge key for struct",
            500,
        ),
        // applyRetainKeysDirective
        case(
            "retainKeys not a list",
            json!({}),
            json!({"$retainKeys": "name"}),
            "invalid patch format of retainKeys",
            400,
        ),
        case(
            "key missing from retainKeys",
            json!({}),
            json!({"$retainKeys": ["name"], "value": "a"}),
            "invalid patch format of retainKeys",
            400,
        ),
        // extractKey
        case(
            "delete list without field",
            json!({}),
            json!({"$deleteFromPrimitiveList": [1]}),
            "invalid patch format of primitive list",
            400,
        ),
        case(
            "delete list with another prefix",
            json!({}),
            json!({"$deleteFromPrimitiveListX/a": [1]}),
            "invalid patch format of primitive list",
            400,
        ),
        case(
            "order list with another prefix",
            json!({}),
            json!({"$setElementOrderX/a": []}),
            "invalid patch format of setElementOrder list",
            400,
        ),
        // mergePatchIntoOriginal
        case(
            "order list not a list",
            json!({}),
            json!({"$setElementOrder/mergingList": "a"}),
            "expected a []interface {}, but received a string",
            500,
        ),
        case(
            "order list null",
            json!({}),
            json!({"$setElementOrder/mergingList": null}),
            "expected a []interface {}, but received a %!s(<nil>)",
            500,
        ),
        case(
            "ordered field not a list in the object",
            json!({"mergingList": {}}),
            json!({"$setElementOrder/mergingList": []}),
            "expected a []interface {}, but received a map[string]interface {}",
            500,
        ),
        case(
            "ordered field not a list in the patch",
            json!({}),
            json!({"$setElementOrder/mergingList": [], "mergingList": 1}),
            "expected a []interface {}, but received a int64",
            500,
        ),
        case(
            "ordered field unknown",
            json!({}),
            json!({"$setElementOrder/unknown": []}),
            r#"unable to find api field in struct MergeItem for the json field "unknown""#,
            500,
        ),
        case(
            "empty list ordered",
            json!({"mergingList": []}),
            json!({"$setElementOrder/mergingList": [{"name": 1}]}),
            "no elements in any of the given slices",
            500,
        ),
        // validatePatchWithSetOrderList (Go's "should check if order in $setElementOrder and
        // patch list match")
        case(
            "order mismatch",
            json!({"mergingList": [{"name": 1}, {"name": 3}, {"name": 2}]}),
            json!({"$setElementOrder/mergingList": [{"name": 1}, {"name": 2}, {"name": 3}],
                   "mergingList": [{"name": 3, "value": 3}, {"name": 1, "value": 1}]}),
            "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n",
            500,
        ),
        case(
            "order mismatch of scalars",
            json!({"mergingIntList": [1, 3, 2]}),
            json!({"$setElementOrder/mergingIntList": [1, 2, 3], "mergingIntList": [3, 1]}),
            "The order in patch list:\n[3 1]\n doesn't match $setElementOrder list:\n[1 2 3]\n",
            500,
        ),
        case(
            "order list of scalars for maps",
            json!({}),
            json!({"$setElementOrder/mergingList": ["a"], "mergingList": [{"name": 1}]}),
            "expected a map[string]interface {}, but received a string",
            500,
        ),
        case(
            "order list item without merge key",
            json!({}),
            json!({"$setElementOrder/mergingList": [{"value": 1}], "mergingList": [{"name": 1}]}),
            "map: map[value:1] does not contain declared merge key: name",
            500,
        ),
        case(
            "patch item not a map",
            json!({}),
            json!({"$setElementOrder/mergingList": [{"name": 1}], "mergingList": ["a"]}),
            "expected a map[string]interface {}, but received a string",
            500,
        ),
        // findMapInSliceBasedOnKeyValue stops at a non-map before a match...
        case(
            "order list item not a map, no patch list",
            json!({"mergingList": [{"name": 1}]}),
            json!({"$setElementOrder/mergingList": ["a", {"name": 1}]}),
            "value for key 0 is not a map",
            500,
        ),
        // ...after one, validateMergeKeyInLists finds it.
        case(
            "order list item not a map after a match",
            json!({"mergingList": [{"name": 1}]}),
            json!({"$setElementOrder/mergingList": [{"name": 1}, "a"]}),
            "expected a map[string]interface {}, but received a string",
            500,
        ),
        // the schema (PatchMetaFromStruct's texts)
        case(
            "unknown field",
            json!({"complex": {"nested": true}}),
            json!({"complex": {"nested": false}}),
            r#"unable to find api field in struct MergeItem for the json field "complex""#,
            500,
        ),
        case(
            "field of a struct without fields",
            json!({"jsonItem": {"a": {}}}),
            json!({"jsonItem": {"a": {"b": 1}}}),
            r#"unable to find api field in struct  for the json field "a""#,
            500,
        ),
        case(
            "map value merged as a map",
            json!({"retainKeysMap": {"simpleMap": {"k": {"x": {}}}}}),
            json!({"retainKeysMap": {"simpleMap": {"k": {"x": {"y": 1}}}}}),
            "merging an object in json but data type is not map or struct, instead is: string",
            500,
        ),
    ]
}

#[test]
fn go_error_texts_and_http_codes() {
    for c in cases() {
        let e = err(c.original, c.patch);
        assert_eq!(
            (e.to_string().as_str(), e.code()),
            (c.text, c.code),
            "{}",
            c.name
        );
    }
}

/// Where Go panics at run time, the API server answers 500 with a plain-text page.
#[test]
fn go_panics() {
    let uncomparable = GoPanic::Uncomparable("map[string]interface {}");
    let cases = [
        // `==` of two merge key values that are maps.
        (
            json!({"mergingList": [{"name": {"a": 1}}]}),
            json!({"mergingList": [{"name": {"a": 1}}]}),
            uncomparable,
        ),
        (
            json!({"mergingList": [{"name": {}}]}),
            json!({"mergingList": [{"$patch": "delete", "name": {}}]}),
            uncomparable,
        ),
        // A map in `$retainKeys`, kept in a Go map.
        (
            json!({}),
            json!({"$retainKeys": [{}]}),
            GoPanic::Unhashable("map[string]interface {}"),
        ),
        // A map in a `$setElementOrder` list of scalars.
        (
            json!({"mergingIntList": [1]}),
            json!({"$setElementOrder/mergingIntList": [{}]}),
            GoPanic::Unhashable("map[string]interface {}"),
        ),
        // A list whose first element is null.
        (
            json!({"mergingIntList": []}),
            json!({"mergingIntList": [null]}),
            GoPanic::NilType,
        ),
    ];
    for (original, patch, panic) in cases {
        let e = err(original, patch.clone());
        assert_eq!(e, PatchError::Panic(panic), "{patch}");
        assert_eq!((e.code(), e.status(), e.is_panic()), (500, None, true));
    }
    assert_eq!(
        PANIC_BODY,
        "This request caused apiserver to panic. Look in the logs for details.\n"
    );
    assert_eq!(
        PatchError::Panic(GoPanic::NilType).to_string(),
        "runtime error: invalid memory address or nil pointer dereference"
    );
}

#[test]
fn status_bodies() {
    let bad = PatchError::BadPatchFormatForRetainKeys.status().unwrap();
    assert_eq!(
        bad,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": "invalid patch format of retainKeys", "reason": "BadRequest", "code": 400})
    );
    // NewGenericServerResponse(422, ...): Go's text is not shown.
    let lists = PatchError::NoListOfLists.status().unwrap();
    assert_eq!(
        lists,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": "the server rejected our request due to an error in our request",
        "reason": "Invalid", "details": {}, "code": 422})
    );
    // ErrorToAPIStatus of a plain error: no reason.
    let other = PatchError::MergingListsNotSupported.status().unwrap();
    assert_eq!(
        other,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": "merging lists cannot yet be specified in the patch", "code": 500})
    );
}

#[test]
fn strategies_the_schema_cannot_have() {
    let schemas = json!({"T": {"type": "object", "properties": {
        "l": {"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": "merge,replace"},
        "m": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}},
              "x-kubernetes-patch-strategy": "merge"},
    }}});
    let root = OpenApiPatchMeta::new(schemas.as_object().unwrap(), "T").unwrap();
    let e = apply(&json!({"l": ["a"]}), &json!({"l": ["b"]}), &root).unwrap_err();
    assert_eq!(
        (e.to_string().as_str(), e.code()),
        ("unexpected patch strategy: [merge replace]", 500)
    );
    let e = apply(
        &json!({"m": [{"a": "x"}]}),
        &json!({"m": [{"a": "y"}]}),
        &root,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot merge lists without merge key for struct"
    );
    let missing = OpenApiPatchMeta::new(schemas.as_object().unwrap(), "U").unwrap_err();
    assert_eq!(missing.to_string(), "unable to resolve U in OpenAPI V3");
}

#[test]
fn patch_bodies_that_are_not_objects() {
    assert_eq!(patch_map(Value::Null).unwrap(), object(&json!({})));
    for (body, kind) in [
        (json!([]), "array"),
        (json!("a"), "string"),
        (json!(1), "number"),
        (json!(true), "bool"),
    ] {
        let e = patch_map(body).unwrap_err();
        assert_eq!(
            (e.to_string(), e.code()),
            (
                format!(
                    "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
                ),
                400
            )
        );
    }
}

#[test]
fn depth_limit() {
    let schemas = merge_item_schemas();
    let schema = merge_item(&schemas);
    let nested = json!({"mergeItemPtr": {"mergeItemPtr": {"mergeItemPtr": {"name": "a"}}}});
    let patch = json!({"mergeItemPtr": {"mergeItemPtr": {"mergeItemPtr": {"name": "b"}}}});
    let limits = Limits { max_depth: 3 };
    let e = strategic_merge_patch(object(&nested), object(&patch), &schema, limits).unwrap_err();
    assert_eq!((e, limits.max_depth), (PatchError::TooDeep { limit: 3 }, 3));
    let ok = strategic_merge_patch(
        object(&nested),
        object(&patch),
        &schema,
        Limits { max_depth: 4 },
    );
    assert_eq!(Value::Object(ok.unwrap()), patch);
    // A new subtree is cleaned recursively, under the same limit.
    let e = strategic_merge_patch(object(&json!({})), object(&patch), &schema, limits).unwrap_err();
    assert_eq!(e.code(), 400);
}
