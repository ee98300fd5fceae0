//! Defaults that functions compute: serde's (`#[serde(default)]`, `#[serde(default = "f")]`,
//! the struct's `#[serde(default)]`) become the schema's, as schemars and so kube-derive write
//! them, serialized as serde writes the field and checked against the field's schema when the
//! CRD is built; `#[crd(default = f)]` and `#[crd(default)]` likewise.

use std::time::Duration;

use crdkit::CustomResource;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn port() -> u16 {
    8080
}

fn nickname() -> Option<String> {
    Some("tab".into())
}

fn three() -> i32 {
    3
}

fn ten_seconds() -> Duration {
    Duration::from_secs(10)
}

fn as_seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{}s", d.as_secs()))
}

fn from_seconds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    let s = String::deserialize(d)?;
    s.trim_end_matches('s')
        .parse()
        .map(Duration::from_secs)
        .map_err(serde::de::Error::custom)
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Tuning {
    level: i32,
    mode: String,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            level: 2,
            mode: "fast".into(),
        }
    }
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[crd(group = "example.com", version = "v1", kind = "Job", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    /// No default: required.
    image: String,
    #[serde(default = "port")]
    port: u16,
    #[serde(default)]
    paused: bool,
    #[serde(default = "nickname")]
    nickname: Option<String>,
    /// `None` is written as null: no default, as serde leaves nothing to fill in.
    #[serde(default)]
    note: Option<String>,
    /// `skip_serializing_if` holds for the default: no default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    args: Vec<String>,
    /// Written through `serialize_with`: the default is `"10s"`.
    #[serde(
        default = "ten_seconds",
        serialize_with = "as_seconds",
        deserialize_with = "from_seconds"
    )]
    #[crd(with = String)]
    timeout: Duration,
    #[serde(default)]
    tuning: Tuning,
    /// The opt-out: serde fills it in, the API server does not.
    #[serde(default)]
    #[crd(no_default)]
    generation_hint: i64,
    #[crd(default = three)]
    attempts: i32,
}

// `Tuning` has no derive of its own here: give it a schema.
impl crdkit::Schema for Tuning {
    const SHAPE: crdkit::shape::Shape = {
        use crdkit::shape::{Field, Kind, Shape};
        Shape::new(Kind::Struct(&[
            Field {
                name: "level",
                ident: "level",
                shape: &<i32 as crdkit::Schema>::SHAPE,
                required: true,
                flatten: false,
            },
            Field {
                name: "mode",
                ident: "mode",
                shape: &<String as crdkit::Schema>::SHAPE,
                required: true,
                flatten: false,
            },
        ]))
        .named("Tuning")
    };
}

fn spec_schema<T: CustomResource>() -> Value {
    let crd = serde_json::to_value(T::crd().unwrap()).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].clone()
}

#[test]
fn serde_defaults_are_the_schemas() {
    let spec = spec_schema::<Job>();
    let p = &spec["properties"];
    assert_eq!(p["port"]["default"], json!(8080));
    assert_eq!(p["paused"]["default"], json!(false));
    assert_eq!(p["nickname"]["default"], json!("tab"));
    assert_eq!(p["note"].get("default"), None);
    assert_eq!(p["args"].get("default"), None);
    assert_eq!(p["timeout"]["default"], json!("10s"));
    assert_eq!(p["tuning"]["default"], json!({"level": 2, "mode": "fast"}));
    assert_eq!(p["generationHint"].get("default"), None);
    assert_eq!(p["attempts"]["default"], json!(3));
    // serde reads a missing field with a default: not required.
    assert_eq!(spec["required"], json!(["image", "attempts"]));
}

/// What the API server stores for an object that leaves the fields out is what serde reads.
#[test]
fn the_api_server_fills_in_what_serde_would() {
    let received = Job::prune_and_default(json!({
        "apiVersion": "example.com/v1", "kind": "Job", "metadata": {"name": "j"},
        "spec": {"image": "busybox", "attempts": 1, "generationHint": 0}
    }))
    .unwrap();
    let read: JobSpec = serde_json::from_value(json!({"image": "busybox", "attempts": 1})).unwrap();
    assert_eq!(received.spec, read);
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(group = "example.com", version = "v1", kind = "Whole")]
#[serde(rename_all = "camelCase", default)]
pub struct WholeSpec {
    replicas: i32,
    name: String,
    labels: Option<String>,
    #[crd(default)]
    size: u8,
}

/// The struct's `#[serde(default)]` fills every field from `WholeSpec::default()`.
#[test]
fn a_structs_default_fills_its_fields() {
    let spec = spec_schema::<Whole>();
    let p = &spec["properties"];
    assert_eq!(p["replicas"]["default"], json!(0));
    assert_eq!(p["name"]["default"], json!(""));
    assert_eq!(p["labels"].get("default"), None);
    assert_eq!(p["size"]["default"], json!(0));
    assert_eq!(spec.get("required"), None);
}

fn zero() -> u16 {
    0
}

fn shouting() -> String {
    "ABC".into()
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Bad")]
pub struct BadSpec {
    #[serde(default = "zero")]
    #[crd(minimum = 1)]
    port: u16,
    #[serde(default = "shouting")]
    #[crd(pattern = "^[a-z]+$")]
    name: String,
    #[crd(default = shouting, max_length = 2)]
    short: String,
}

/// A computed default that breaks its own schema is an error of `crd()`, as a literal one is
/// an error of the build: the API server would reject the CRD.
#[test]
fn computed_defaults_are_checked_against_their_schema() {
    assert_eq!(
        Bad::crd().unwrap_err().to_string(),
        "spec.port: invalid default 0: should be greater than or equal to 1\n\
         spec.name: invalid default \"ABC\": \"ABC\" should match '^[a-z]+$'\n\
         spec.short: invalid default \"ABC\": may not be longer than 2"
    );
}
