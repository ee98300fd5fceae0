//! CEL declarations from a structural schema: apiserver `pkg/cel/common/schemas.go`
//! (`SchemaDeclType` and its size estimates), `pkg/cel/types.go` (`DeclType`,
//! `MaybeAssignTypeName`), `pkg/cel/limits.go` (property names escaped by [`crate::escaping`]), and
//! apiextensions `pkg/apiserver/schema/cel/model/schemas.go` (`WithTypeAndObjectMeta`).
//!
//! The OpenAPI → CEL mapping (the docs' table): objects with properties are objects, objects
//! with `additionalProperties` are `map(string, T)`, arrays are `list(T)` whatever their list
//! type, `x-kubernetes-int-or-string` is `dyn`, `format: byte` is `bytes`, `date` and
//! `date-time` are `timestamp`, `duration` is `duration`. A schema without a type (a bare
//! `x-kubernetes-preserve-unknown-fields`) has no declaration, so the property is not visible;
//! neither are properties whose names cannot be escaped. The root of a resource and every
//! embedded resource always have `apiVersion`, `kind` and `metadata` with `name` and
//! `generateName` only.
//!
//! Every declaration carries the sizes the cost estimator needs: `max_elements` (from maxLength,
//! maxItems, maxProperties, or the worst case that fits in a request) and
//! `min_serialized_size` (used to bound how often a value can repeat in a request).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::types::{ObjectType, Type};
use crate::escaping::escape;
use crate::schema::{ResourceRoot, Schema, Type as OpenApiType};

/// `MaxRequestSizeBytes` (apiserver `pkg/apis/cel/config.go`): 3 MiB.
pub const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;
/// limits.go `MaxDurationSizeJSON`.
pub const MAX_DURATION_SIZE_JSON: i64 = 32;
/// limits.go `MaxDatetimeSizeJSON`.
pub const MAX_DATETIME_SIZE_JSON: i64 = 32;
/// limits.go `MinDurationSizeJSON`.
pub const MIN_DURATION_SIZE_JSON: i64 = 3;
/// limits.go `JSONDateSize`.
pub const JSON_DATE_SIZE: i64 = 12;
/// limits.go `MinDatetimeSizeJSON`.
pub const MIN_DATETIME_SIZE_JSON: i64 = 21;
/// limits.go `MinStringSize`.
pub const MIN_STRING_SIZE: i64 = 2;
/// limits.go `MinBoolSize`.
pub const MIN_BOOL_SIZE: i64 = 4;
/// limits.go `MinNumberSize`.
pub const MIN_NUMBER_SIZE: i64 = 1;
/// limits.go `MaxFormatSize`.
pub const MAX_FORMAT_SIZE: u64 = 64;
/// limits.go `MaxNameFormatRegexSize`.
pub const MAX_NAME_FORMAT_REGEX_SIZE: u64 = 128;
/// `maxRequestSizeBytes - 2`: the size of a string, list or map that nothing bounds (the
/// largest that fits in a request, quotes or brackets excluded).
pub const UNBOUNDED_SIZE: i64 = MAX_REQUEST_SIZE_BYTES - 2;

/// `MaxElements` of a string with `maxLength: n` (also of an int-or-string): sizes are in
/// bytes, and a code point takes up to 4.
#[must_use]
pub const fn max_string_bytes(max_length: i64) -> i64 {
    zero_if_negative(max_length).saturating_mul(4)
}

/// `MaxElements` of a list without `maxItems`: how many items of at least `item_min_size`
/// bytes, each with its comma, fit in a request.
#[must_use]
pub const fn unbounded_list_items(item_min_size: i64) -> i64 {
    UNBOUNDED_SIZE / (item_min_size + 1)
}

/// `MaxElements` of a map without `maxProperties`: how many properties (`"":` with a value of
/// at least `value_min_size` bytes and a comma) fit in a request.
#[must_use]
pub const fn unbounded_map_properties(value_min_size: i64) -> i64 {
    UNBOUNDED_SIZE / (value_min_size + 6)
}

/// What a required property without a default adds to its object's `MinSerializedSize`: its
/// quoted name, colon and comma, and its value.
#[must_use]
#[allow(clippy::cast_possible_wrap)]
pub const fn required_property_size(name_len: usize, min_size: i64) -> i64 {
    name_len as i64 + min_size + 4
}

/// A CEL declaration derived from a schema node (apiserver `DeclType`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeclType {
    /// What the node declares: a scalar, a list, a map or an object.
    pub kind: DeclKind,
    /// The largest size of a value: characters (×4, in bytes) of a string, items of a list,
    /// properties of a map; 0 for other types.
    pub max_elements: i64,
    /// The smallest JSON serialization of a value.
    pub min_serialized_size: i64,
}

/// The shape of a [`DeclType`].
#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// A scalar (or `dyn` for int-or-string); the CEL type.
    Simple(Type),
    /// `list(T)`: the element declaration, whatever the `x-kubernetes-list-type`.
    List(Box<DeclType>),
    /// `map(string, T)`: key and value declarations.
    Map(Box<DeclType>, Box<DeclType>),
    /// An object with its (escaped) fields; `name` is `object` until
    /// [`DeclType::assign_type_names`] names it.
    Object {
        /// The type name: `object` until named, then the path of the node (`root.spec.template`).
        name: String,
        /// The visible fields by escaped name; properties without a type or whose names cannot be
        /// escaped are left out.
        fields: BTreeMap<String, DeclField>,
    },
}

/// A field of an object declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclField {
    /// The escaped name.
    pub name: String,
    /// The field's declaration.
    pub ty: DeclType,
    /// Listed in the parent's `required`.
    pub required: bool,
    /// The schema's `enum`, empty when it has none.
    pub enum_values: Vec<Value>,
    /// The schema's `default`.
    pub default: Option<Value>,
}

impl DeclType {
    fn simple(t: Type, min_size: i64) -> DeclType {
        DeclType {
            kind: DeclKind::Simple(t),
            max_elements: 0,
            min_serialized_size: min_size,
        }
    }

    /// The element declaration of a list or map.
    #[must_use]
    pub fn elem(&self) -> Option<&DeclType> {
        match &self.kind {
            DeclKind::List(e) | DeclKind::Map(_, e) => Some(e),
            _ => None,
        }
    }

    /// The key declaration of a map.
    #[must_use]
    pub fn key(&self) -> Option<&DeclType> {
        match &self.kind {
            DeclKind::Map(k, _) => Some(k),
            _ => None,
        }
    }

    /// A field of an object.
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&DeclField> {
        match &self.kind {
            DeclKind::Object { fields, .. } => fields.get(name),
            _ => None,
        }
    }

    /// The CEL type, objects with their fields.
    #[must_use]
    pub fn cel_type(&self) -> Type {
        match &self.kind {
            DeclKind::Simple(t) => t.clone(),
            DeclKind::List(e) => Type::list(e.cel_type()),
            DeclKind::Map(k, v) => Type::map(k.cel_type(), v.cel_type()),
            DeclKind::Object { name, fields } => Type::Object(Arc::new(ObjectType {
                name: name.clone(),
                fields: fields
                    .iter()
                    .map(|(n, f)| (n.clone(), f.ty.cel_type()))
                    .collect(),
                known: true,
            })),
        }
    }

    /// apiserver `MaybeAssignTypeName`: names objects still called `object` after their path,
    /// `<name>.<field>`, `<name>.@idx` for list items and `<name>.@elem` for map values.
    pub fn assign_type_names(&mut self, name: &str) {
        match &mut self.kind {
            DeclKind::Object { name: own, fields } => {
                if own == "object" {
                    *own = name.to_string();
                }
                let base = own.clone();
                for (field_name, f) in fields.iter_mut() {
                    f.ty.assign_type_names(&format!("{base}.{field_name}"));
                }
            }
            DeclKind::Map(_, e) => e.assign_type_names(&format!("{name}.@elem")),
            DeclKind::List(e) => e.assign_type_names(&format!("{name}.@idx")),
            DeclKind::Simple(_) => {}
        }
    }
}

/// The declaration of a schema node, or `None` when the node is not visible to CEL (apiserver
/// `SchemaDeclType`). `is_resource_root` is true for the root of a custom resource and for
/// embedded resources.
#[must_use]
pub fn schema_decl_type(s: &dyn Schema, is_resource_root: bool) -> Option<DeclType> {
    if s.int_or_string() {
        // The smallest serialized int-or-string is `0`.
        let mut dyn_type = DeclType::simple(Type::Dyn, 1);
        dyn_type.max_elements = match s.max_length() {
            Some(n) => max_string_bytes(n),
            None => UNBOUNDED_SIZE,
        };
        return Some(dyn_type);
    }
    let root = if is_resource_root {
        ResourceRoot::new(s)
    } else {
        None
    };
    let s: &dyn Schema = match &root {
        Some(r) => r,
        None => s,
    };
    match s.ty()? {
        OpenApiType::Array => {
            let items = s.items()?;
            let items_type = schema_decl_type(items, items.embedded_resource())?;
            let max_items = match s.max_items() {
                Some(n) => zero_if_negative(n),
                None => unbounded_list_items(items_type.min_serialized_size),
            };
            Some(DeclType {
                kind: DeclKind::List(Box::new(items_type)),
                max_elements: max_items,
                min_serialized_size: 2,
            })
        }
        OpenApiType::Object => {
            if let Some(props) = s.additional_properties() {
                let props_type = schema_decl_type(props, props.embedded_resource())?;
                let max_properties = match s.max_properties() {
                    Some(n) => zero_if_negative(n),
                    None => unbounded_map_properties(props_type.min_serialized_size),
                };
                let key = DeclType::simple(Type::String, MIN_STRING_SIZE);
                return Some(DeclType {
                    kind: DeclKind::Map(Box::new(key), Box::new(props_type)),
                    max_elements: max_properties,
                    min_serialized_size: 2,
                });
            }
            let mut fields = BTreeMap::new();
            let mut min_size = 2i64;
            let required_names = s.required();
            s.for_each_property(&mut |name, prop| {
                let Some(field_type) = schema_decl_type(prop, prop.embedded_resource()) else {
                    return;
                };
                let required = required_names.iter().any(|r| r == name);
                if required && prop.default_value().is_none() {
                    min_size += required_property_size(name.len(), field_type.min_serialized_size);
                }
                if let Some(escaped) = escape(name) {
                    fields.insert(
                        escaped.clone(),
                        DeclField {
                            name: escaped,
                            ty: field_type,
                            required,
                            enum_values: prop.enum_values().to_vec(),
                            default: prop.default_value().cloned(),
                        },
                    );
                }
            });
            Some(DeclType {
                kind: DeclKind::Object {
                    name: "object".into(),
                    fields,
                },
                max_elements: 0,
                min_serialized_size: min_size,
            })
        }
        OpenApiType::String => Some(string_decl_type(s)),
        OpenApiType::Boolean => Some(DeclType::simple(Type::Bool, MIN_BOOL_SIZE)),
        OpenApiType::Number => Some(DeclType::simple(Type::Double, MIN_NUMBER_SIZE)),
        OpenApiType::Integer => Some(DeclType::simple(Type::Int, MIN_NUMBER_SIZE)),
    }
}

fn string_decl_type(s: &dyn Schema) -> DeclType {
    let unbounded = UNBOUNDED_SIZE;
    let (t, min, max) = match s.format() {
        Some("byte") => (
            Type::Bytes,
            MIN_STRING_SIZE,
            s.max_length().map_or(unbounded, zero_if_negative),
        ),
        Some("duration") => (
            Type::Duration,
            MIN_DURATION_SIZE_JSON,
            MAX_DURATION_SIZE_JSON,
        ),
        Some("date") => (Type::Timestamp, JSON_DATE_SIZE, JSON_DATE_SIZE),
        Some("date-time") => (
            Type::Timestamp,
            MIN_DATETIME_SIZE_JSON,
            MAX_DATETIME_SIZE_JSON,
        ),
        _ => {
            let max = match s.max_length() {
                Some(n) => max_string_bytes(n),
                None if !s.enum_values().is_empty() => s
                    .enum_values()
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|e| e.len() as i64)
                    .max()
                    .unwrap_or(0),
                None => unbounded,
            };
            (Type::String, MIN_STRING_SIZE, max)
        }
    };
    DeclType {
        kind: DeclKind::Simple(t),
        max_elements: max,
        min_serialized_size: min,
    }
}

const fn zero_if_negative(v: i64) -> i64 {
    if v < 0 { 0 } else { v }
}
