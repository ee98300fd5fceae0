//! Every Rust shape maps to a structural schema: the emitted schema for each, and a value of the
//! type written by serde that the schema describes.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crdkit::Schema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A serde value of `T` survives the API server's pipeline under `T`'s schema: nothing is pruned,
/// nothing is invalid, and it reads back as the same value.
fn round_trip<T>(value: &T)
where
    T: Schema + Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let s = crdkit::shape::build(&T::SHAPE).expect("structural");
    let mut root = crdkit::schema::Structural::of_type(crdkit::schema::Type::Object);
    root.properties.insert("x".to_owned(), s);
    let schema = crdkit::__private::CompiledSchema::new(&root);
    let written = serde_json::to_value(value).unwrap();
    let mut obj = json!({"apiVersion": "v1", "kind": "T", "metadata": {"name": "t"}, "x": written});
    let unknown = schema.prune_and_default(&mut obj).expect("decodes");
    assert!(unknown.is_empty(), "pruned {unknown:?} from {written}");
    assert_eq!(obj["x"], written, "pruning or defaulting changed the value");
    let errors = schema.validate(&obj);
    assert!(
        errors.is_empty(),
        "{written} is invalid: {}",
        crdkit::field::aggregate(&errors)
    );
    let back: T = serde_json::from_value(obj["x"].clone()).unwrap();
    assert_eq!(&back, value);
}

/// The schema of `T`, after checking that the API server deems it structural.
fn schema_of<T: Schema>() -> Value {
    let s = crdkit::shape::build(&T::SHAPE).expect("structural");
    // Root rules (type object, no additionalProperties) do not apply to a field's type: check
    // it as a property of a root.
    let mut root = crdkit::schema::Structural::of_type(crdkit::schema::Type::Object);
    root.properties.insert("x".to_owned(), s.clone());
    let errors =
        crdkit::schema::check::validate_structural(&crdkit::field::FieldPath::nil(), &root);
    assert!(
        errors.is_empty(),
        "not structural: {}",
        crdkit::field::aggregate(&errors)
    );
    serde_json::to_value(s.to_props()).unwrap()
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Plain {
    /// The name.
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    maybe: Option<i32>,
    nullable: Option<bool>,
    #[serde(default)]
    list: Vec<String>,
    map: BTreeMap<String, u8>,
    hash: HashMap<String, f64>,
    set: BTreeSet<String>,
    any: Value,
    #[serde(skip)]
    skipped: u32,
    #[serde(rename = "other-name")]
    renamed: f32,
}

#[test]
fn structs_options_collections() {
    round_trip(&Plain {
        name: "n".into(),
        maybe: Some(3),
        nullable: None,
        list: vec!["a".into()],
        map: BTreeMap::from([("k".into(), 200)]),
        hash: HashMap::from([("h".into(), 1.5)]),
        set: BTreeSet::from(["s".into()]),
        any: json!({"free": [1, {"form": null}]}),
        skipped: 0,
        renamed: 0.5,
    });
    assert_eq!(
        schema_of::<Plain>(),
        json!({
            "type": "object",
            "required": ["name", "map", "hash", "set", "any", "other-name"],
            "properties": {
                "name": {"type": "string", "description": "The name."},
                "maybe": {"type": "integer", "format": "int32"},
                "nullable": {"type": "boolean", "nullable": true},
                // `#[serde(default)]`: what serde fills in is the schema's default.
                "list": {"type": "array", "items": {"type": "string"}, "default": []},
                "map": {"type": "object", "additionalProperties": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 255}},
                "hash": {"type": "object", "additionalProperties": {"type": "number"}},
                "set": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                "any": {"x-kubernetes-preserve-unknown-fields": true},
                "other-name": {"type": "number", "format": "float"},
            }
        })
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct Newtype(#[crd(max_length = 5)] String);

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[crd(pattern = "^a")]
struct NewtypeOnType(String);

#[test]
fn newtypes_are_transparent() {
    round_trip(&Newtype("abc".into()));
    round_trip(&NewtypeOnType("abc".into()));
    assert_eq!(
        schema_of::<Newtype>(),
        json!({"type": "string", "maxLength": 5})
    );
    assert_eq!(
        schema_of::<NewtypeOnType>(),
        json!({"type": "string", "pattern": "^a"})
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "snake_case")]
enum Unit {
    VeryFast,
    Slow,
}

#[test]
fn unit_enums_are_string_enums() {
    round_trip(&Unit::VeryFast);
    assert_eq!(
        schema_of::<Unit>(),
        json!({"type": "string", "enum": ["very_fast", "slow"]})
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
enum External {
    A(String),
    B { x: i64 },
}

#[test]
fn external_enums_are_one_of_properties() {
    round_trip(&External::A("a".into()));
    round_trip(&External::B { x: 1 });
    assert_eq!(
        schema_of::<External>(),
        json!({
            "type": "object",
            "properties": {
                "A": {"type": "string"},
                "B": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
            },
            "oneOf": [{"required": ["A"]}, {"required": ["B"]}]
        })
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct Inner {
    y: String,
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "kind")]
enum Internal {
    A { x: i64 },
    B(Inner),
    C,
}

#[test]
fn internal_enums_merge_fields_and_key_required_by_tag() {
    round_trip(&Internal::A { x: 1 });
    round_trip(&Internal::B(Inner { y: "y".into() }));
    round_trip(&Internal::C);
    assert_eq!(
        schema_of::<Internal>(),
        json!({
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["A", "B", "C"]},
                "x": {"type": "integer"},
                "y": {"type": "string"},
            },
            "required": ["kind"],
            "oneOf": [
                {"properties": {"kind": {"enum": ["A"]}}, "required": ["x"]},
                {"properties": {"kind": {"enum": ["B"]}}, "required": ["y"]},
                {"properties": {"kind": {"enum": ["C"]}}},
            ]
        })
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A { x: i64 },
    B { y: String },
    C,
}

#[test]
fn adjacent_enums_have_tag_and_content() {
    round_trip(&Adjacent::A { x: 1 });
    round_trip(&Adjacent::B { y: "y".into() });
    round_trip(&Adjacent::C);
    assert_eq!(
        schema_of::<Adjacent>(),
        json!({
            "type": "object",
            "properties": {
                "t": {"type": "string", "enum": ["A", "B", "C"]},
                "c": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "string"}}},
            },
            "required": ["t"],
            "oneOf": [
                {"properties": {"t": {"enum": ["A"]}, "c": {"required": ["x"]}}, "required": ["t", "c"]},
                {"properties": {"t": {"enum": ["B"]}, "c": {"required": ["y"]}}, "required": ["t", "c"]},
                {"properties": {"t": {"enum": ["C"]}}},
            ]
        })
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(untagged)]
enum IntOrString {
    Int(i32),
    Str(String),
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(untagged)]
enum Untagged {
    A { a: String },
    B { b: i64 },
}

#[test]
fn untagged_enums_are_unions() {
    round_trip(&IntOrString::Int(8080));
    round_trip(&IntOrString::Str("http".into()));
    round_trip(&Untagged::A { a: "a".into() });
    round_trip(&Untagged::B { b: 2 });
    assert_eq!(
        schema_of::<IntOrString>(),
        json!({"x-kubernetes-int-or-string": true})
    );
    assert_eq!(
        schema_of::<Untagged>(),
        json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}]
        })
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct Flattened {
    own: String,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    extra: BTreeMap<String, Value>,
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct FlattenMapOnly {
    #[serde(flatten)]
    labels: BTreeMap<String, String>,
}

#[test]
fn flatten_merges_structs_and_keeps_map_entries() {
    round_trip(&Flattened {
        own: "o".into(),
        inner: Inner { y: "y".into() },
        extra: BTreeMap::from([("z".into(), json!([1]))]),
    });
    round_trip(&FlattenMapOnly {
        labels: BTreeMap::from([("app".into(), "web".into())]),
    });
    assert_eq!(
        schema_of::<Flattened>(),
        json!({
            "type": "object",
            "properties": {"own": {"type": "string"}, "y": {"type": "string"}},
            "required": ["own", "y"],
            "x-kubernetes-preserve-unknown-fields": true
        })
    );
    assert_eq!(
        schema_of::<FlattenMapOnly>(),
        json!({"type": "object", "additionalProperties": {"type": "string"}})
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct Generic<T> {
    value: T,
    values: Vec<T>,
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct UsesGeneric {
    #[crd(items(max_length = 3))]
    names: Vec<String>,
    g: Generic<Unit>,
}

#[test]
fn generics_and_item_keywords() {
    round_trip(&UsesGeneric {
        names: vec!["abc".into()],
        g: Generic {
            value: Unit::Slow,
            values: vec![Unit::VeryFast],
        },
    });
    assert_eq!(
        schema_of::<UsesGeneric>(),
        json!({
            "type": "object",
            "required": ["names", "g"],
            "properties": {
                "names": {"type": "array", "items": {"type": "string", "maxLength": 3}},
                "g": {
                    "type": "object",
                    "required": ["value", "values"],
                    "properties": {
                        "value": {"type": "string", "enum": ["very_fast", "slow"]},
                        "values": {"type": "array", "items": {"type": "string", "enum": ["very_fast", "slow"]}},
                    }
                }
            }
        })
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "type")]
enum InternalMap {
    Labels(BTreeMap<String, String>),
    Count { n: i64 },
}

#[test]
fn internal_enum_map_payload_keeps_its_entries() {
    // serde writes the map's entries next to the tag; pruning must not drop them.
    round_trip(&InternalMap::Labels(BTreeMap::from([(
        "a".into(),
        "b".into(),
    )])));
    round_trip(&InternalMap::Count { n: 1 });
    assert_eq!(
        schema_of::<InternalMap>(),
        json!({
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": ["Labels", "Count"]},
                "n": {"type": "integer"},
            },
            "required": ["type"],
            "x-kubernetes-preserve-unknown-fields": true,
            "oneOf": [
                {"properties": {"type": {"enum": ["Labels"]}}},
                {"properties": {"type": {"enum": ["Count"]}}, "required": ["n"]},
            ]
        })
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[serde(rename_all = "kebab-case")]
enum Zone {
    EuWest,
    UsEast,
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct Quotas {
    by_zone: BTreeMap<Zone, u32>,
    hashed: HashMap<Zone, String>,
}

#[test]
fn unit_enums_key_maps() {
    round_trip(&Quotas {
        by_zone: BTreeMap::from([(Zone::EuWest, 1), (Zone::UsEast, 2)]),
        hashed: HashMap::from([(Zone::UsEast, "x".into())]),
    });
    assert_eq!(
        schema_of::<Quotas>()["properties"]["by_zone"],
        json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4294967295_u64}})
    );
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(untagged)]
enum Port {
    Number(i32),
    Name(String),
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
#[serde(untagged)]
enum Amount {
    Whole(i64),
    Fraction(f64),
}

fn eighty() -> Port {
    Port::Number(80)
}

#[derive(Schema, Serialize, Deserialize, PartialEq, Debug)]
struct Defaults {
    #[crd(default = 80)]
    #[serde(default = "eighty")]
    port: Port,
    #[crd(default = "http")]
    name: Port,
    #[crd(default = 1.5)]
    amount: Amount,
}

#[test]
fn untagged_enums_take_literal_defaults_of_their_variants() {
    let s = schema_of::<Defaults>();
    assert_eq!(s["properties"]["port"]["default"], json!(80));
    assert_eq!(s["properties"]["name"]["default"], json!("http"));
    assert_eq!(s["properties"]["amount"]["default"], json!(1.5));
}
