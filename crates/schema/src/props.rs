//! `JSONSchemaProps` of `apiextensions.k8s.io/v1`: the schema as written in a CRD document.
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/v1/types_jsonschema.go`. This is the
//! wire form: it can hold everything a CRD file may contain, including the fields CRDs forbid,
//! so that `crdgen check` can report them. [`crate::Structural`] is the checked form.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::structural::ValidationRule;

/// An OpenAPI v3 schema object as CRDs spell it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_excessive_bools)]
pub struct JsonSchemaProps {
    /// `id`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// `$schema`
    #[serde(rename = "$schema", default, skip_serializing_if = "String::is_empty")]
    pub schema: String,
    /// `$ref`
    #[serde(rename = "$ref", default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// `description`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// `type`
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub ty: String,
    /// `format`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// `title`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "some_value"
    )]
    /// `default`
    pub default: Option<Value>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "go_float"
    )]
    /// `maximum`
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`
    #[serde(default, skip_serializing_if = "is_false")]
    pub exclusive_maximum: bool,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "go_float"
    )]
    /// `minimum`
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`
    #[serde(default, skip_serializing_if = "is_false")]
    pub exclusive_minimum: bool,
    /// `maxLength`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<i64>,
    /// `minLength`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i64>,
    /// `pattern`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pattern: String,
    /// `maxItems`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<i64>,
    /// `minItems`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<i64>,
    /// `uniqueItems`
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique_items: bool,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "go_float"
    )]
    /// `multipleOf`
    pub multiple_of: Option<f64>,
    /// `enum`
    #[serde(rename = "enum", default, skip_serializing_if = "Vec::is_empty")]
    pub enum_values: Vec<Value>,
    /// `maxProperties`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_properties: Option<i64>,
    /// `minProperties`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_properties: Option<i64>,
    /// `required`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<String>,
    /// `items`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<SchemaOrArray>,
    /// `allOf`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub all_of: Vec<JsonSchemaProps>,
    /// `oneOf`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub one_of: Vec<JsonSchemaProps>,
    /// `anyOf`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<JsonSchemaProps>,
    /// `not`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<JsonSchemaProps>>,
    /// `properties`
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, JsonSchemaProps>,
    /// `additionalProperties`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<SchemaOrBool>,
    /// `patternProperties`
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pattern_properties: BTreeMap<String, JsonSchemaProps>,
    /// `dependencies`
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dependencies: BTreeMap<String, SchemaOrStringArray>,
    /// `additionalItems`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_items: Option<SchemaOrBool>,
    /// `definitions`
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub definitions: BTreeMap<String, JsonSchemaProps>,
    /// `externalDocs`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_docs: Option<ExternalDocumentation>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "some_value"
    )]
    /// `example`
    pub example: Option<Value>,
    /// `nullable`
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// `x-kubernetes-preserve-unknown-fields`; `false` is kept apart from unset.
    #[serde(
        rename = "x-kubernetes-preserve-unknown-fields",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    /// `xPreserveUnknownFields`
    pub x_preserve_unknown_fields: Option<bool>,
    #[serde(
        rename = "x-kubernetes-embedded-resource",
        default,
        skip_serializing_if = "is_false"
    )]
    /// `xEmbeddedResource`
    pub x_embedded_resource: bool,
    #[serde(
        rename = "x-kubernetes-int-or-string",
        default,
        skip_serializing_if = "is_false"
    )]
    /// `xIntOrString`
    pub x_int_or_string: bool,
    #[serde(
        rename = "x-kubernetes-list-map-keys",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    /// `xListMapKeys`
    pub x_list_map_keys: Vec<String>,
    #[serde(
        rename = "x-kubernetes-list-type",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    /// `xListType`
    pub x_list_type: Option<String>,
    #[serde(
        rename = "x-kubernetes-map-type",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    /// `xMapType`
    pub x_map_type: Option<String>,
    #[serde(
        rename = "x-kubernetes-validations",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    /// `xValidations`
    pub x_validations: Vec<ValidationRule>,
}

/// `items`: a schema, or the tuple form (an array of schemas), which CRDs forbid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SchemaOrArray {
    /// One schema for every item.
    Schema(Box<JsonSchemaProps>),
    /// A schema per position (JSON Schema's tuple validation).
    Array(Vec<JsonSchemaProps>),
}

/// `additionalProperties` / `additionalItems`: a schema or a bool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SchemaOrBool {
    /// `true` allows anything, `false` nothing (which CRDs forbid).
    Bool(bool),
    /// Every additional property (or item) must validate against this schema.
    Schema(Box<JsonSchemaProps>),
}

/// A `dependencies` entry: a schema or a list of property names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SchemaOrStringArray {
    /// The properties that must be present when the key property is.
    Array(Vec<String>),
    /// The schema the whole object must validate against when the key property is present.
    Schema(Box<JsonSchemaProps>),
}

/// `externalDocs`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExternalDocumentation {
    /// `description`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// `url`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub url: String,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

/// `default: null` is a default of null, not an absent default.
fn some_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// Writes floats as Go's encoding/json does: integral values without a fraction, so that
/// `maximum: 10` round-trips as `10`, not `10.0`.
#[allow(clippy::ref_option)]
pub(crate) fn go_float<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(f) => go_number(*f).serialize(s),
        None => s.serialize_none(),
    }
}

/// A JSON number for `f`, integral when `f` is.
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
pub fn go_number(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}
