//! What a crate moving from kube-derive brings: `Option<ObjectReference>` behind
//! `#[crd(schemars)]`, chrono's and jiff's timestamps, URLs and UUIDs, serde's defaults, garde's
//! and validator's rules (with their own derives beside crdkit's), CRD labels and annotations.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use crdkit::CustomResource;
use k8s_openapi::api::core::v1::ObjectReference;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn port() -> u16 {
    8080
}

#[derive(CustomResource, garde::Validate, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Backup",
    namespaced,
    annotation(
        "api-approved.kubernetes.io",
        "https://github.com/kubernetes/enhancements/pull/1111"
    ),
    label("app.kubernetes.io/part-of", "backups")
)]
#[serde(rename_all = "camelCase")]
pub struct BackupSpec {
    #[crd(schemars)]
    #[garde(skip)]
    pub target: Option<ObjectReference>,
    #[garde(skip)]
    pub not_before: Option<chrono::DateTime<chrono::Utc>>,
    #[garde(skip)]
    pub started: jiff::Timestamp,
    #[garde(skip)]
    pub day: chrono::NaiveDate,
    #[garde(skip)]
    pub endpoint: url::Url,
    #[garde(skip)]
    pub id: uuid::Uuid,
    #[garde(skip)]
    pub listen: SocketAddr,
    #[serde(default = "port")]
    #[garde(range(min = 1))]
    pub port: u16,
    #[garde(range(min = 0))]
    pub retries: i32,
    #[garde(length(min = 1, max = 63), pattern(r"^[a-z0-9-]+$"))]
    pub name: String,
    #[garde(length(max = 5), inner(length(min = 1)))]
    pub tags: Vec<String>,
    #[garde(length(max = 10))]
    pub labels: BTreeMap<String, String>,
    #[garde(email)]
    pub owner: String,
}

fn conditions(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["type"],
        "items": {"type": "object", "properties": {"type": {"type": "string"}}, "required": ["type"]},
    })
}

#[derive(CustomResource, validator::Validate, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Restore")]
pub struct RestoreSpec {
    /// schemars' own `schema_with`, taken by `#[crd(schemars)]` as schemars takes it.
    #[crd(schemars)]
    #[schemars(schema_with = "conditions")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>,
    #[validate(range(min = 0.0, exclusive_max = 100.0))]
    pub percent: f64,
    #[validate(length(min = 1), url)]
    pub source: String,
    #[validate(contains(pattern = "s3."))]
    pub bucket: String,
}

fn spec_of<T: crdkit::__private::CustomResource>() -> Value {
    let crd = T::crd().expect("builds").to_value();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].clone()
}

#[test]
fn what_kube_derive_users_embed() {
    let spec = spec_of::<Backup>();
    let p = &spec["properties"];
    // `Option<T>` stays optional when its schema comes from schemars.
    let required = spec["required"].as_array().unwrap();
    assert!(!required.contains(&json!("target")), "{required:?}");
    assert_eq!(p["target"]["nullable"], json!(true));
    assert_eq!(p["target"]["type"], json!("object"));
    // Timestamps, dates, URLs, UUIDs without `#[crd(schemars)]`.
    assert_eq!(
        p["notBefore"],
        json!({"type": "string", "format": "date-time", "nullable": true})
    );
    assert_eq!(
        p["started"],
        json!({"type": "string", "format": "date-time"})
    );
    assert_eq!(p["day"], json!({"type": "string", "format": "date"}));
    assert_eq!(p["endpoint"], json!({"type": "string", "format": "uri"}));
    assert_eq!(p["id"], json!({"type": "string", "format": "uuid"}));
    assert_eq!(p["listen"], json!({"type": "string"}));
    // serde's default is the schema's.
    assert_eq!(p["port"]["default"], json!(8080));
    assert!(!required.contains(&json!("port")));
}

#[test]
fn garde_and_validator_rules_are_schema_keywords() {
    let p = spec_of::<Backup>()["properties"].clone();
    assert_eq!(p["port"]["minimum"], json!(1));
    assert_eq!(p["retries"]["minimum"], json!(0));
    assert_eq!(p["name"]["minLength"], json!(1));
    assert_eq!(p["name"]["maxLength"], json!(63));
    assert_eq!(p["name"]["pattern"], json!("^[a-z0-9-]+$"));
    assert_eq!(p["tags"]["maxItems"], json!(5));
    assert_eq!(p["tags"]["items"]["minLength"], json!(1));
    assert_eq!(p["labels"]["maxProperties"], json!(10));
    assert_eq!(p["owner"]["format"], json!("email"));

    let r = spec_of::<Restore>()["properties"].clone();
    assert_eq!(
        r["percent"],
        json!({"type": "number", "minimum": 0, "maximum": 100, "exclusiveMaximum": true})
    );
    assert_eq!(
        r["source"],
        json!({"type": "string", "minLength": 1, "format": "uri"})
    );
    assert_eq!(r["bucket"]["pattern"], json!(r"s3\."));
    assert_eq!(
        r["conditions"],
        json!({
            "description": "schemars' own `schema_with`, taken by `#[crd(schemars)]` as schemars takes it.",
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["type"],
            "items": {"type": "object", "properties": {"type": {"type": "string"}}, "required": ["type"]},
        })
    );
}

#[test]
fn the_crds_metadata() {
    let crd = Backup::crd().unwrap();
    assert_eq!(
        crd.metadata.annotations.unwrap()["api-approved.kubernetes.io"],
        "https://github.com/kubernetes/enhancements/pull/1111"
    );
    assert_eq!(
        crd.metadata.labels.unwrap()["app.kubernetes.io/part-of"],
        "backups"
    );
}

/// The values serde writes for these types pass the API server's validation of the formats.
#[test]
fn the_types_values_are_valid() {
    let spec = BackupSpec {
        target: Some(ObjectReference {
            kind: Some("Pod".into()),
            name: Some("p".into()),
            ..Default::default()
        }),
        not_before: Some(chrono::DateTime::from_timestamp(1_700_000_000, 5).unwrap()),
        started: jiff::Timestamp::from_second(1_700_000_000).unwrap(),
        day: chrono::NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
        endpoint: url::Url::parse("https://backup.example.com/v1?x=1").unwrap(),
        id: uuid::Uuid::from_u128(0x1234_5678_9abc_def0_1234_5678_9abc_def0),
        listen: "[::1]:8080".parse().unwrap(),
        port: 8080,
        retries: 0,
        name: "nightly".into(),
        tags: vec!["a".into()],
        labels: BTreeMap::new(),
        owner: "ops@example.com".into(),
    };
    assert_eq!(Backup::new("b", spec).validate(), Ok(()));
}
