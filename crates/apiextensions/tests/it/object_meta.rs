//! ObjectMeta decoding and validation, cases from apiextensions-apiserver
//! `pkg/apiserver/schema/objectmeta/coerce_test.go` (`TestGetObjectMetaWithOptions`,
//! `TestGetObjectMetaNils`, `TestGetObjectMeta`), `algorithm_test.go` (`TestCoerce`),
//! `validation_test.go` (`TestValidateEmbeddedResource`, `TestValidate`) and root/embedded
//! metadata rules.
//!
//! Not transcribed: `TestRoundtripObjectMeta` and `TestMalformedObjectMetaFields` draw random
//! `ObjectMeta`s from Go's fuzzer (no fixed table); `TestValidate` with `includeRoot` wants
//! `apiVersion` and `kind` required at the root, which the API server never reports for a
//! request (they come from its URL; `crdgen validate` fills them from the CRD).

use crate::common;

use common::compiled;
use crdkit_apiextensions::objectmeta::get_object_meta;
use crdkit_apiextensions::validate::ResourceInfo;
use crdkit_apimachinery::field::FieldPath;
use serde_json::json;

#[test]
fn get_object_meta_with_options() {
    let unknown_and_malformed = json!({"name": "my-meta", "unknownField": "foo", "generateName": null,
        "generation": null, "labels": {"foo": "bar"}, "annotations": 11});
    let unknown_only = json!({"name": "my-meta", "unknownField": "foo", "generateName": null,
        "generation": null, "labels": {"foo": "bar"}});
    let want = json!({"name": "my-meta", "labels": {"foo": "bar"}});
    let err = "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string";

    assert_eq!(
        get_object_meta(&unknown_and_malformed, &FieldPath::nil(), false)
            .unwrap_err()
            .to_string(),
        err
    );
    let m = get_object_meta(&unknown_and_malformed, &FieldPath::nil(), true).unwrap();
    assert_eq!(serde_json::Value::Object(m.value), want);
    assert_eq!(m.unknown_fields, ["metadata.unknownField"]);

    let m = get_object_meta(&unknown_only, &FieldPath::nil(), false).unwrap();
    assert_eq!(serde_json::Value::Object(m.value), want);
    assert_eq!(m.unknown_fields, ["metadata.unknownField"]);
}

#[test]
fn get_object_meta_nils_and_case() {
    let m = get_object_meta(
        &json!({"generateName": null, "generation": null, "labels": {"foo": null}}),
        &FieldPath::nil(),
        true,
    )
    .unwrap();
    assert_eq!(
        serde_json::Value::Object(m.value),
        json!({"labels": {"foo": ""}})
    );

    let m = get_object_meta(
        &json!({"name": "good", "Name": "bad1", "nAme": "bad2", "namespace": "good", "Namespace": "bad1", "creationTimestamp": "a"}),
        &FieldPath::nil(),
        true,
    )
    .unwrap();
    assert_eq!(
        serde_json::Value::Object(m.value),
        json!({"name": "good", "namespace": "good"})
    );
    assert_eq!(
        get_object_meta(&json!({"creationTimestamp": "a"}), &FieldPath::nil(), false)
            .unwrap_err()
            .to_string(),
        r#"parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006""#
    );
    let m = get_object_meta(&json!({"creationTimestamp": "2017-05-31T14:56:35.5+02:00", "labels": {}, "generation": 1.0}), &FieldPath::nil(), false).unwrap();
    assert_eq!(
        serde_json::Value::Object(m.value),
        json!({"creationTimestamp": "2017-05-31T12:56:35Z", "generation": 1})
    );
}

#[test]
fn root_metadata_validation() {
    let s = compiled(json!({"type": "object"}));
    let errs = |v| {
        s.validate(&v)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        errs(json!({})),
        ["metadata.name: Required value: name or generateName is required"]
    );
    assert!(errs(json!({"metadata": {"generateName": "foo-"}})).is_empty());
    assert_eq!(
        errs(json!({"metadata": {"name": "Foo"}})),
        [
            r#"metadata.name: Invalid value: "Foo": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
        ]
    );
    assert_eq!(
        errs(json!({"metadata": {"name": "a", "labels": {"a b": "c"}}})).len(),
        1
    );
    let typed = compiled(json!({"type": "object"})).with_resource(ResourceInfo {
        api_version: "stable.example.com/v1".into(),
        kind: "CronTab".into(),
        namespaced: Some(true),
    });
    let e: Vec<String> = typed
        .validate(&json!({"apiVersion": "v1", "kind": "CronTab"}))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        e,
        [r#"apiVersion: Invalid value: "v1": must be stable.example.com/v1"#]
    );
    let e: Vec<String> = typed
        .validate(&json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "a"}}))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(e, ["metadata.namespace: Required value"]);
}

#[test]
fn embedded_metadata() {
    let s = compiled(
        json!({"type": "object", "properties": {"e": {"type": "object", "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true}}}),
    );
    let mut obj = json!({"metadata": {"name": "a"}, "e": {"apiVersion": 1, "kind": "K"}});
    assert_eq!(
        s.prune_and_default(&mut obj).unwrap_err().to_string(),
        "e.apiVersion: Invalid value: 1: must be a string"
    );
    let mut obj = json!({"metadata": {"name": "a"}, "e": {"apiVersion": "v1", "kind": "K", "metadata": {"name": 5}}});
    assert_eq!(
        s.prune_and_default(&mut obj).unwrap_err().to_string(),
        r#"e.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"#
    );
    let errs: Vec<String> = s
        .validate(&json!({"metadata": {"name": "a"}, "e": {"apiVersion": "a/b/c", "kind": "Foo_Bar", "metadata": {"name": ".."}}}))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        [
            r#"e.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c"#,
            r#"e.kind: Invalid value: "Foo_Bar": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#,
            "e.metadata.name: Invalid value: \"..\": may not be '..'",
        ]
    );
}

/// Errors as Go's `validationMatch` sees them: type and field, sorted.
fn matches(
    s: &crdkit_apiextensions::validate::CompiledSchema,
    v: &serde_json::Value,
) -> Vec<String> {
    let mut e: Vec<String> = s
        .validate(v)
        .iter()
        .map(|e| format!("{:?} {}", e.error_type, e.field))
        .collect();
    e.sort();
    e
}

fn want(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v
}

/// `objectmeta/validation_test.go` `TestValidateEmbeddedResource`: the object sits in an
/// embedded field `e` of a valid root.
#[test]
fn validate_embedded_resource_table() {
    let s = compiled(
        json!({"type": "object", "properties": {"e": {"type": "object",
        "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}}),
    );
    let check = |e: serde_json::Value, w: &[&str]| {
        assert_eq!(
            matches(&s, &json!({"metadata": {"name": "root"}, "e": e})),
            want(w),
            "{e}"
        );
    };
    check(json!({}), &["Required e.apiVersion", "Required e.kind"]);
    check(json!({"apiVersion": "foo/v1", "kind": "Foo"}), &[]);
    check(
        json!({"apiVersion": "foo/v1", "kind": "foo.bar-com"}),
        &["Invalid e.kind"],
    );
    check(
        json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"namespace": "kube-system"}}),
        &[],
    );
    check(
        json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "foo"}}),
        &[],
    );
    check(
        json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "..", "namespace": "$$$",
            "labels": {"#": "#"}, "annotations": {"#": "#"}}}),
        &[
            "Invalid e.metadata.name",
            "Invalid e.metadata.namespace",
            "Invalid e.metadata.labels",
            "Invalid e.metadata.labels",
            "Invalid e.metadata.annotations",
        ],
    );
}

/// `objectmeta/validation_test.go` `TestValidate` (without `includeRoot`: the root here is the
/// object's, whose `apiVersion` and `kind` come from the request).
#[test]
fn validate_embedded_resources_in_tree() {
    let embedded = json!({"x-kubernetes-embedded-resource": true});
    let s = compiled(json!({"properties": {
        "embedded": embedded,
        "nested": {"x-kubernetes-embedded-resource": true, "properties": {"embedded": embedded}},
        "items": {"items": embedded},
        "additionalProperties": {"additionalProperties": embedded},
    }}));
    let check = |mut v: serde_json::Value, w: &[&str]| {
        v["metadata"] = json!({"name": "root"});
        assert_eq!(matches(&s, &v), want(w), "{v}");
    };
    check(json!({}), &[]);
    check(
        json!({"embedded": {}}),
        &["Required embedded.apiVersion", "Required embedded.kind"],
    );
    check(
        json!({"nested": {"embedded": {}}}),
        &[
            "Required nested.apiVersion",
            "Required nested.kind",
            "Required nested.embedded.apiVersion",
            "Required nested.embedded.kind",
        ],
    );
    check(
        json!({"items": [{}]}),
        &["Required items[0].apiVersion", "Required items[0].kind"],
    );
    check(
        json!({"additionalProperties": {"foo": {}}}),
        &[
            "Required additionalProperties[foo].apiVersion",
            "Required additionalProperties[foo].kind",
        ],
    );
}

fn coerce_case(
    name: &str,
    input: serde_json::Value,
    s: Option<serde_json::Value>,
    root: bool,
    drop_invalid: bool,
    want_obj: serde_json::Value,
    want_unknown: &[&str],
) {
    let s = s.map_or_else(crdkit_schema::Structural::default, common::schema);
    let mut v = input;
    let unknown =
        crdkit_apiextensions::objectmeta::coerce(&FieldPath::nil(), &mut v, &s, root, drop_invalid)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(v, want_obj, "{name}");
    assert_eq!(unknown, want_unknown, "{name}");
}

/// `objectmeta/algorithm_test.go` `TestCoerce`.
#[test]
fn coerce_table() {
    coerce_case("empty", json!(null), None, false, false, json!(null), &[]);
    coerce_case(
        "scalar",
        json!(4),
        Some(json!({})),
        false,
        false,
        json!(4),
        &[],
    );
    coerce_case(
        "scalar array",
        json!([1, 2]),
        Some(json!({"items": {}})),
        false,
        false,
        json!([1, 2]),
        &[],
    );
    let meta = json!({"name": "instance", "unspecified": "bar"});
    let leaf = json!({"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
        "metadata": meta, "spec": {"unspecified": "bar"}});
    let mut nested = leaf.clone();
    nested["spec"]["embedded"] = leaf.clone();
    let input = json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": meta,
        "unspecified": "bar", "pruned": leaf, "preserving": leaf, "nested": nested});
    let embedded = json!({"type": "object", "x-kubernetes-embedded-resource": true,
        "properties": {"spec": {"type": "object"}}});
    let s = json!({"type": "object", "properties": {
        "pruned": embedded,
        "preserving": {"type": "object", "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true},
        "nested": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
            "spec": {"type": "object", "properties": {"embedded": embedded}}}}}});
    let clean = |mut v: serde_json::Value| {
        v["metadata"] = json!({"name": "instance"});
        v
    };
    let mut want = input.clone();
    want["pruned"] = clean(leaf.clone());
    want["preserving"] = clean(leaf.clone());
    want["nested"] = clean(nested.clone());
    want["nested"]["spec"]["embedded"] = clean(leaf.clone());
    coerce_case(
        "x-kubernetes-embedded-resource",
        input.clone(),
        Some(s.clone()),
        false,
        false,
        want.clone(),
        &[
            "nested.metadata.unspecified",
            "nested.spec.embedded.metadata.unspecified",
            "preserving.metadata.unspecified",
            "pruned.metadata.unspecified",
        ],
    );
    coerce_case(
        "x-kubernetes-embedded-resource, with includeRoot=true",
        input,
        Some(s),
        true,
        false,
        clean(want),
        &[
            "metadata.unspecified",
            "nested.metadata.unspecified",
            "nested.spec.embedded.metadata.unspecified",
            "preserving.metadata.unspecified",
            "pruned.metadata.unspecified",
        ],
    );
    let plain = json!({"type": "object", "properties": {"pruned": {"type": "object",
        "x-kubernetes-embedded-resource": true}}});
    let without_name = json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "instance"},
        "pruned": {"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"namespace": "kube-system"}}});
    coerce_case(
        "without name",
        without_name.clone(),
        Some(plain.clone()),
        false,
        false,
        without_name,
        &[],
    );
    let root = json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "instance"}});
    let mut input = root.clone();
    input["pruned"] = json!({"apiVersion": 42, "kind": 42, "metadata": {"name": "instance",
        "namespace": ["abc"], "labels": {"foo": 42}}});
    let mut want = root.clone();
    want["pruned"] = json!({"metadata": {"name": "instance"}});
    coerce_case(
        "x-kubernetes-embedded-resource, with dropInvalidFields=true",
        input,
        Some(
            json!({"type": "object", "properties": {"pruned": {"type": "object",
            "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}}}}),
        ),
        false,
        true,
        want,
        &[],
    );
    let mut input = root.clone();
    input["pruned"] = json!({"apiVersion": 42, "kind": 42, "metadata": [42]});
    let mut want = root;
    want["pruned"] = json!({"metadata": [42]});
    coerce_case(
        "invalid metadata type, with dropInvalidFields=true",
        input,
        Some(plain),
        false,
        true,
        want,
        &[],
    );
}

/// `coerce_test.go` `TestGetObjectMetaWithOptions`, `malformedOnly`.
#[test]
fn get_object_meta_malformed_only() {
    let malformed = json!({"name": "my-meta", "generateName": null, "generation": null,
        "labels": {"foo": "bar"}, "annotations": 11});
    assert_eq!(
        get_object_meta(&malformed, &FieldPath::nil(), false)
            .unwrap_err()
            .to_string(),
        "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
    );
    let m = get_object_meta(&malformed, &FieldPath::nil(), true).unwrap();
    assert_eq!(
        serde_json::Value::Object(m.value),
        json!({"name": "my-meta", "labels": {"foo": "bar"}})
    );
    assert!(m.unknown_fields.is_empty());
}
