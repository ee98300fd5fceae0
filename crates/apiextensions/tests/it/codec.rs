//! `codec::Codec`: stored objects read at another version, as the API server's storage codec
//! around the `None` converter does.

use crdkit_apiextensions::codec::{Codec, ConvertError};
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::{Value, json};

fn crd(v1beta1: Value, v1: Value) -> CustomResourceDefinition {
    serde_json::from_value(json!({
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "crontabs", "kind": "CronTab"},
                 "conversion": {"strategy": "None"},
                 "versions": [
                     {"name": "v1beta1", "served": true, "storage": true, "schema": {"openAPIV3Schema": v1beta1}},
                     {"name": "v1", "served": true, "storage": false, "schema": {"openAPIV3Schema": v1}}]}
    }))
    .unwrap()
}

fn host_port() -> Value {
    json!({"type": "object", "properties": {"host": {"type": "string"}, "port": {"type": "string"}}})
}

/// The versioning page's first example: both versions share a schema, so only `apiVersion`
/// changes ("Both returned objects are identical except for the apiVersion field").
#[test]
fn the_pages_none_conversion() {
    let codec = Codec::new(&crd(host_port(), host_port())).unwrap();
    let stored = json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
        "metadata": {"name": "local-crontab", "namespace": "default", "resourceVersion": "143",
                     "uid": "3415a7fc-162b-4300-b5da-fd6083580d66",
                     "creationTimestamp": "2019-09-04T14:03:02Z"},
        "host": "localhost", "port": "1234"});
    let mut want = stored.clone();
    want["apiVersion"] = json!("example.com/v1");
    assert_eq!(codec.convert_none(stored.clone(), "v1").unwrap(), want);
    // To its own version: unchanged.
    assert_eq!(
        codec.convert_none(stored.clone(), "v1beta1").unwrap(),
        stored
    );
}

/// Schemas that differ: what the target does not specify is pruned, the stored version's
/// defaults apply first, the target's do not, non-nullable nulls go.
#[test]
fn pruned_to_the_target() {
    let v1beta1 = json!({"type": "object", "properties": {
        "hostPort": {"type": "string"},
        "mode": {"type": "string", "default": "Fast"},
        "note": {"type": "string", "nullable": true}}});
    let v1 = json!({"type": "object", "properties": {
        "host": {"type": "string"}, "port": {"type": "string", "default": "80"},
        "mode": {"type": "string"}, "note": {"type": "string"}}});
    let codec = Codec::new(&crd(v1beta1, v1)).unwrap();
    let stored = json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
        "metadata": {"name": "a", "bogus": true}, "hostPort": "h:1", "note": null, "extra": 1});
    assert_eq!(
        codec.convert_none(stored, "v1").unwrap(),
        json!({"apiVersion": "example.com/v1", "kind": "CronTab", "metadata": {"name": "a"},
               "mode": "Fast"})
    );
}

#[test]
fn checks_as_the_converter() {
    let codec = Codec::new(&crd(host_port(), host_port())).unwrap();
    let obj = |api_version: &str, kind: &str| json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "a"}});
    let err = |o: Value, to: &str| codec.convert_none(o, to).unwrap_err().to_string();
    assert_eq!(
        err(obj("example.com/v1beta1", "CronTab"), "v3"),
        "request to convert CR to an invalid group/version: example.com/v3"
    );
    assert_eq!(
        err(obj("example.com/v0", "CronTab"), "v1"),
        "request to convert CR from an invalid group/version: example.com/v0"
    );
    assert_eq!(
        err(obj("other.com/v1beta1", "CronTab"), "v1"),
        "request to convert CR from an invalid group/version: other.com/v1beta1"
    );
    assert!(matches!(
        codec.convert_none(obj("example.com/v1", "Other"), "v1"),
        Err(ConvertError::WrongKind { .. })
    ));
    let bad_meta =
        json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab", "metadata": {"name": 5}});
    assert!(matches!(
        codec.convert_none(bad_meta, "v1"),
        Err(ConvertError::Decode(_))
    ));
}
