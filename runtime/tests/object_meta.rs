//! ObjectMeta decoding and validation, cases from apiextensions-apiserver
//! `pkg/apiserver/schema/objectmeta/coerce_test.go` (`TestGetObjectMetaWithOptions`,
//! `TestGetObjectMetaNils`, `TestGetObjectMeta`) and root/embedded metadata rules.

#[path = "object_common.rs"]
mod common;

use common::compiled;
use crdkit_runtime::field::FieldPath;
use crdkit_runtime::objectmeta::get_object_meta;
use crdkit_runtime::validate::ResourceInfo;
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
        get_object_meta(&unknown_and_malformed, &FieldPath::nil(), false).unwrap_err(),
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
        get_object_meta(&json!({"creationTimestamp": "a"}), &FieldPath::nil(), false).unwrap_err(),
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
