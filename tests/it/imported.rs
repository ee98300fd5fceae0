//! The attributes `crdgen import` writes, as the CRD they build: junctors, `type = "object"`,
//! the root's `apiVersion`/`kind`/`metadata` properties, `optional_spec`, `empty_subresources`,
//! `status_subresource` and the versions enum's `order = "declared"` and
//! `allow_different_schemas`.

use crdkit::{CustomResource, IntOrString, Schema, Versions};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Schema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    one_of(required("exact"), required("prefix")),
    not(required("exact", "prefix"))
)]
pub struct Match {
    pub exact: Option<String>,
    pub prefix: Option<String>,
}

#[derive(Schema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Route {
    #[crd(int_or_string, any_of(type = "integer", type = "string"))]
    pub port: IntOrString,
    #[crd(all_of(branch(property("exact", min_length = 1), min_properties = 1)))]
    pub matches: Match,
    #[crd(preserve_unknown_fields, type = "object")]
    pub config: Value,
}

mod v1 {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "example.com",
        version = "v1",
        kind = "Route",
        derive(Default, PartialEq),
        api_version_property = "the version",
        kind_property,
        metadata_property(required),
        optional_spec,
        empty_subresources
    )]
    pub struct RouteSpec {
        pub route: Option<super::Route>,
    }
}

mod v2 {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "example.com",
        version = "v2",
        kind = "Route",
        flatten,
        status_subresource
    )]
    pub struct RouteSpec {
        pub route: Option<super::Route>,
        pub status: Option<Value>,
    }
}

#[derive(Versions)]
#[versions(order = "declared", allow_different_schemas)]
enum Routes {
    V1(v1::Route),
    #[versions(storage)]
    V2(v2::Route),
}

#[test]
fn junctors_and_object_values_reach_the_schema() {
    let s = crdkit::shape::build(&<Route as Schema>::SHAPE).expect("structural");
    let p = serde_json::to_value(s.to_props()).unwrap()["properties"].clone();
    assert_eq!(
        p["port"]["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
    assert_eq!(p["port"]["x-kubernetes-int-or-string"], json!(true));
    assert_eq!(
        p["matches"]["oneOf"],
        json!([{"required": ["exact"]}, {"required": ["prefix"]}])
    );
    assert_eq!(
        p["matches"]["not"],
        json!({"required": ["exact", "prefix"]})
    );
    assert_eq!(
        p["matches"]["allOf"],
        json!([{"minProperties": 1, "properties": {"exact": {"minLength": 1}}}])
    );
    assert_eq!(
        p["config"],
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    );
}

#[test]
fn root_properties_optional_spec_and_subresources() {
    let crd = Routes::crd().unwrap().to_value();
    let versions = crd["spec"]["versions"].as_array().unwrap();
    // Declared order: v1 first, though v2 has the higher priority.
    assert_eq!(versions[0]["name"], "v1");
    assert_eq!(versions[1]["name"], "v2");
    let root = &versions[0]["schema"]["openAPIV3Schema"];
    assert_eq!(
        root["properties"]["apiVersion"],
        json!({"type": "string", "description": "the version"})
    );
    assert_eq!(root["properties"]["kind"], json!({"type": "string"}));
    assert_eq!(root["properties"]["metadata"], json!({"type": "object"}));
    assert_eq!(root["required"], json!(["metadata"]));
    assert_eq!(versions[0]["subresources"], json!({}));
    assert_eq!(versions[1]["subresources"], json!({"status": {}}));
}
