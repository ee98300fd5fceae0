//! The walkthroughs of the CRD task page (`custom-resource-definitions.md`): pruning, validation,
//! defaulting with nullable, and preserve-unknown-fields.

use crate::common;

use common::{compiled, schema};
use crdkit_apiextensions::prune::{PruneOptions, prune};
use crdkit_apiextensions::validate::{CompiledSchema, validate_typed};
use serde_json::json;

fn crontab_schema(defaults: bool) -> CompiledSchema {
    let mut cron =
        json!({"type": "string", "pattern": r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$"});
    let mut replicas = json!({"type": "integer", "minimum": 1, "maximum": 10});
    if defaults {
        cron["default"] = json!("5 0 * * *");
        replicas["default"] = json!(1);
    }
    compiled(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "cronSpec": cron, "image": {"type": "string"}, "replicas": replicas}}}
    }))
}

#[test]
fn field_pruning_some_random_field() {
    let s = crontab_schema(false);
    let mut obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "someRandomField": 42}});
    let unknown = s.prune_and_default(&mut obj).unwrap();
    assert_eq!(unknown, ["spec.someRandomField"]);
    assert_eq!(
        obj,
        json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image"}})
    );
    assert!(s.validate(&obj).is_empty());
}

#[test]
fn validation_invalid_crontab() {
    let s = crontab_schema(false);
    let obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"cronSpec": "* * * *", "image": "my-awesome-cron-image", "replicas": 15}});
    let errs: Vec<String> = s.validate(&obj).iter().map(ToString::to_string).collect();
    assert_eq!(
        errs,
        [
            r#"spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'"#,
            "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
        ]
    );
    let ok = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 5}});
    assert!(s.validate(&ok).is_empty());
    // The typed path agrees.
    assert_eq!(validate_typed(&obj, &s), s.validate(&obj));
    assert!(validate_typed(&ok, &s).is_empty());
}

#[test]
fn defaulting_crontab() {
    let s = crontab_schema(true);
    let mut obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"}, "spec": {"image": "my-awesome-cron-image"}});
    s.prune_and_default(&mut obj).unwrap();
    assert_eq!(
        obj["spec"],
        json!({"cronSpec": "5 0 * * *", "image": "my-awesome-cron-image", "replicas": 1})
    );
}

#[test]
fn defaulting_and_nullable() {
    let s = compiled(
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "foo": {"type": "string", "nullable": false, "default": "default"},
        "bar": {"type": "string", "nullable": true},
        "baz": {"type": "string"}}}}}),
    );
    let mut obj = json!({"spec": {"foo": null, "bar": null, "baz": null}});
    s.prune_and_default(&mut obj).unwrap();
    assert_eq!(obj, json!({"spec": {"foo": "default", "bar": null}}));
}

#[test]
fn controlling_pruning() {
    let s = schema(json!({"type": "object", "properties": {"json": {
        "x-kubernetes-preserve-unknown-fields": true, "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "foo": {"type": "string"}, "bar": {"type": "string"}}}}}}}));
    let mut v = json!({"json": {"spec": {"foo": "abc", "bar": "def", "something": "x"}, "status": {"something": "x"}}});
    let pruned = prune(&mut v, &s, false, &PruneOptions::warnings());
    assert_eq!(
        v,
        json!({"json": {"spec": {"foo": "abc", "bar": "def"}, "status": {"something": "x"}}})
    );
    assert_eq!(pruned, ["json.spec.something"]);

    let any = schema(
        json!({"type": "object", "properties": {"json": {"x-kubernetes-preserve-unknown-fields": true}}}),
    );
    let mut v = json!({"json": {"a": [1, {"b": null}]}, "x": 1});
    prune(&mut v, &any, false, &PruneOptions::silent());
    assert_eq!(v, json!({"json": {"a": [1, {"b": null}]}}));
}

#[test]
fn raw_extension_embedded_resource() {
    let s = compiled(json!({"type": "object", "properties": {"foo": {
        "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, "type": "object"}}}));
    let mut obj = json!({"metadata": {"name": "a"}, "foo": {"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "bogus": 1}, "spec": {"x": 1}}});
    let unknown = s.prune_and_default(&mut obj).unwrap();
    assert_eq!(unknown, ["foo.metadata.bogus"]);
    assert_eq!(
        obj["foo"],
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"x": 1}})
    );
    assert!(s.validate(&obj).is_empty());
    let bad = json!({"metadata": {"name": "a"}, "foo": {"metadata": {"name": "a/b"}}});
    let errs: Vec<String> = s.validate(&bad).iter().map(ToString::to_string).collect();
    assert_eq!(
        errs,
        [
            "foo.apiVersion: Required value",
            "foo.kind: Required value",
            r#"foo.metadata.name: Invalid value: "a/b": may not contain '/'"#,
        ]
    );
}
