//! The structural schema: the typed, validated form of a CRD's OpenAPI v3 schema.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/structural.go`. A [`Structural`] node
//! holds what may appear outside logical junctors (type, properties, items, extensions); value
//! validations — including the `allOf`/`anyOf`/`oneOf`/`not` junctors, whose branches are
//! [`NestedValueValidation`]s that can only restrict — live in [`ValueValidation`].

use std::collections::BTreeMap;

use serde_json::Value;

pub use crdkit_apimachinery::openapi::{ListType, MapType, Type};

/// One `x-kubernetes-validations` entry, as written in the CRD.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationRule {
    /// The CEL expression; `self` is the value at this node.
    #[serde(default)]
    pub rule: String,
    /// `message`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// `messageExpression`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message_expression: String,
    /// `FieldValueInvalid`, `FieldValueForbidden`, `FieldValueRequired` or `FieldValueDuplicate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `fieldPath`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field_path: String,
    /// `optionalOldSelf`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_old_self: Option<bool>,
}

/// The generic keywords: allowed outside junctors only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generic {
    /// `description`
    pub description: Option<String>,
    /// `type`
    pub ty: Option<Type>,
    /// `title`
    pub title: Option<String>,
    /// `default`
    pub default: Option<Value>,
    /// `nullable`
    pub nullable: bool,
}

impl Generic {
    /// Whether no generic keyword is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Generic::default()
    }
}

/// The `x-kubernetes-*` extensions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extensions {
    /// `x-kubernetes-preserve-unknown-fields`
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource`
    pub embedded_resource: bool,
    /// `x-kubernetes-int-or-string`
    pub int_or_string: bool,
    /// `x-kubernetes-list-map-keys`
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-list-type`
    pub list_type: Option<ListType>,
    /// `x-kubernetes-map-type`
    pub map_type: Option<MapType>,
    /// `x-kubernetes-validations`
    pub validations: Vec<ValidationRule>,
}

impl Extensions {
    /// Whether no extension is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Extensions::default()
    }
}

/// Value validations: restrictions that never change the shape of a value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueValidation {
    /// `format`
    pub format: Option<String>,
    /// `maximum`
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`
    pub exclusive_maximum: bool,
    /// `minimum`
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`
    pub exclusive_minimum: bool,
    /// `maxLength`
    pub max_length: Option<i64>,
    /// `minLength`
    pub min_length: Option<i64>,
    /// `pattern`
    pub pattern: Option<String>,
    /// `maxItems`
    pub max_items: Option<i64>,
    /// `minItems`
    pub min_items: Option<i64>,
    /// `uniqueItems`
    pub unique_items: bool,
    /// `multipleOf`
    pub multiple_of: Option<f64>,
    /// `enum`
    pub enum_values: Vec<Value>,
    /// `maxProperties`
    pub max_properties: Option<i64>,
    /// `minProperties`
    pub min_properties: Option<i64>,
    /// `required`
    pub required: Vec<String>,
    /// `allOf`
    pub all_of: Vec<NestedValueValidation>,
    /// `oneOf`
    pub one_of: Vec<NestedValueValidation>,
    /// `anyOf`
    pub any_of: Vec<NestedValueValidation>,
    /// `not`
    pub not: Option<Box<NestedValueValidation>>,
}

impl ValueValidation {
    /// Whether no value validation is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == ValueValidation::default()
    }
}

/// A branch of `allOf`/`anyOf`/`oneOf`/`not`. Whatever it sets of the generic keywords or the
/// extensions is kept only to be reported: structural schemas forbid them there (rule 3).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NestedValueValidation {
    /// `valueValidation`
    pub value_validation: ValueValidation,
    /// `items`
    pub items: Option<Box<NestedValueValidation>>,
    /// `properties`
    pub properties: BTreeMap<String, NestedValueValidation>,
    /// `additionalProperties` with a schema; `additionalProperties: <bool>` inside a junctor is
    /// a rule-3 violation recorded in `forbidden_additional_properties`.
    pub additional_properties: Option<Box<NestedValueValidation>>,
    /// `forbiddenAdditionalProperties`
    pub forbidden_additional_properties: Option<bool>,
    /// `forbiddenGenerics`
    pub forbidden_generics: Generic,
    /// `forbiddenExtensions`
    pub forbidden_extensions: Extensions,
}

/// `additionalProperties`: a schema, or a bool (`true` is "anything", `false` is forbidden in CRDs).
#[derive(Clone, Debug, PartialEq)]
pub enum AdditionalProperties {
    /// `additionalProperties: true` (anything) or `false` (nothing).
    Bool(bool),
    /// `additionalProperties: {..}`: a map whose values follow the schema.
    Schema(Box<Structural>),
}

/// A structural schema node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Structural {
    /// `generic`
    pub generic: Generic,
    /// `extensions`
    pub extensions: Extensions,
    /// `valueValidation`
    pub value_validation: ValueValidation,
    /// `items`
    pub items: Option<Box<Structural>>,
    /// `properties`
    pub properties: BTreeMap<String, Structural>,
    /// `additionalProperties`
    pub additional_properties: Option<AdditionalProperties>,
}

impl Structural {
    /// A node of the given type and nothing else.
    #[must_use]
    pub fn of_type(ty: Type) -> Structural {
        Structural {
            generic: Generic {
                ty: Some(ty),
                ..Generic::default()
            },
            ..Structural::default()
        }
    }

    /// The schema of map values, if `additionalProperties` holds one.
    #[must_use]
    pub fn additional_properties_schema(&self) -> Option<&Structural> {
        match &self.additional_properties {
            Some(AdditionalProperties::Schema(s)) => Some(s),
            _ => None,
        }
    }
}
