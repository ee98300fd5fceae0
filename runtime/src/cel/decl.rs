//! CEL declarations from a structural schema: apiserver `pkg/cel/common/schemas.go`
//! (`SchemaDeclType` and its size estimates), `pkg/cel/types.go` (`DeclType`,
//! `MaybeAssignTypeName`), `pkg/cel/escaping.go` (`Escape`), `pkg/cel/limits.go`, and
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
use crate::schema::{Structural, Type as OpenApiType};

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
/// apimachinery `DNS1123SubdomainMaxLength`, the cap on `metadata.name`.
const NAME_MAX_LENGTH: i64 = 253;

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
pub fn schema_decl_type(s: &Structural, is_resource_root: bool) -> Option<DeclType> {
    let vv = &s.value_validation;
    if s.extensions.int_or_string {
        // The smallest serialized int-or-string is `0`.
        let mut dyn_type = DeclType::simple(Type::Dyn, 1);
        dyn_type.max_elements = match vv.max_length {
            Some(n) => zero_if_negative(n).saturating_mul(4),
            None => MAX_REQUEST_SIZE_BYTES - 2,
        };
        return Some(dyn_type);
    }
    let with_meta;
    let s = if is_resource_root {
        with_meta = with_type_and_object_meta(s);
        &with_meta
    } else {
        s
    };
    let vv = &s.value_validation;
    match s.generic.ty? {
        OpenApiType::Array => {
            let items = s.items.as_deref()?;
            let items_type = schema_decl_type(items, items.extensions.embedded_resource)?;
            let max_items = match vv.max_items {
                Some(n) => zero_if_negative(n),
                None => (MAX_REQUEST_SIZE_BYTES - 2) / (items_type.min_serialized_size + 1),
            };
            Some(DeclType {
                kind: DeclKind::List(Box::new(items_type)),
                max_elements: max_items,
                min_serialized_size: 2,
            })
        }
        OpenApiType::Object => {
            if let Some(props) = s.additional_properties_schema() {
                let props_type = schema_decl_type(props, props.extensions.embedded_resource)?;
                let max_properties = match vv.max_properties {
                    Some(n) => zero_if_negative(n),
                    None => (MAX_REQUEST_SIZE_BYTES - 2) / (props_type.min_serialized_size + 6),
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
            for (name, prop) in &s.properties {
                let Some(field_type) = schema_decl_type(prop, prop.extensions.embedded_resource)
                else {
                    continue;
                };
                let required = vv.required.iter().any(|r| r == name);
                if required && prop.generic.default.is_none() {
                    min_size += name.len() as i64 + field_type.min_serialized_size + 4;
                }
                if let Some(escaped) = escape(name) {
                    fields.insert(
                        escaped.clone(),
                        DeclField {
                            name: escaped,
                            ty: field_type,
                            required,
                            enum_values: prop.value_validation.enum_values.clone(),
                            default: prop.generic.default.clone(),
                        },
                    );
                }
            }
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

fn string_decl_type(s: &Structural) -> DeclType {
    let vv = &s.value_validation;
    let unbounded = MAX_REQUEST_SIZE_BYTES - 2;
    let (t, min, max) = match vv.format.as_deref() {
        Some("byte") => (
            Type::Bytes,
            MIN_STRING_SIZE,
            vv.max_length.map_or(unbounded, zero_if_negative),
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
            let max = match vv.max_length {
                // maxLength counts code points; sizes are in bytes, up to 4 per code point.
                Some(n) => zero_if_negative(n).saturating_mul(4),
                None if !vv.enum_values.is_empty() => vv
                    .enum_values
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

fn zero_if_negative(v: i64) -> i64 {
    v.max(0)
}

/// apiextensions `WithTypeAndObjectMeta`: the schema as seen at the root of a resource, with
/// `apiVersion`, `kind` and `metadata` (only `name` and `generateName`, capped at 253 and 252
/// characters) unless the schema already declares all of them.
#[must_use]
pub fn with_type_and_object_meta(s: &Structural) -> Structural {
    let is =
        |node: Option<&Structural>, t: OpenApiType| node.is_some_and(|n| n.generic.ty == Some(t));
    let meta = s.properties.get("metadata");
    let meta_prop = |name: &str| meta.and_then(|m| m.properties.get(name));
    if is(s.properties.get("kind"), OpenApiType::String)
        && is(s.properties.get("apiVersion"), OpenApiType::String)
        && is(meta, OpenApiType::Object)
        && is(meta_prop("name"), OpenApiType::String)
        && is(meta_prop("generateName"), OpenApiType::String)
    {
        return s.clone();
    }
    let capped = |existing: Option<&Structural>, mut max: i64| {
        if let Some(n) = existing.and_then(|e| e.value_validation.max_length) {
            max = max.min(n);
        }
        let mut t = Structural::of_type(OpenApiType::String);
        t.value_validation.max_length = Some(max);
        t
    };
    let mut result = s.clone();
    result.items = None;
    result
        .properties
        .insert("kind".into(), Structural::of_type(OpenApiType::String));
    result.properties.insert(
        "apiVersion".into(),
        Structural::of_type(OpenApiType::String),
    );
    let mut metadata = Structural::of_type(OpenApiType::Object);
    metadata
        .properties
        .insert("name".into(), capped(meta_prop("name"), NAME_MAX_LENGTH));
    // The generated suffix is at least one character.
    metadata.properties.insert(
        "generateName".into(),
        capped(meta_prop("generateName"), NAME_MAX_LENGTH - 1),
    );
    result.properties.insert("metadata".into(), metadata);
    result
}

/// The CEL reserved words; a property with such a name is accessed as `__name__`.
pub const CEL_RESERVED_SYMBOLS: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// apiserver `Escape`: the CEL name of a property, or `None` if it cannot be accessed.
///
/// ```
/// use crdkit_runtime::cel::decl::escape;
/// assert_eq!(escape("x-prop").as_deref(), Some("x__dash__prop"));
/// assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
/// assert_eq!(escape("a__b.c/d").as_deref(), Some("a__underscores__b__dot__c__slash__d"));
/// assert_eq!(escape("1st"), None);
/// assert_eq!(escape("a:b"), None);
/// ```
#[must_use]
pub fn escape(ident: &str) -> Option<String> {
    if ident.is_empty() || ident.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    if CEL_RESERVED_SYMBOLS.contains(&ident) {
        return Some(format!("__{ident}__"));
    }
    let valid = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    if !ident.chars().all(valid) {
        return None;
    }
    let mut out = String::with_capacity(ident.len());
    let mut rest = ident;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("__") {
            out.push_str("__underscores__");
            rest = r;
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// apiserver `Unescape`: the property name of an escaped CEL name, or `None` if it is not a
/// valid escaping (`__illegal__`, or a reserved word inside a longer name).
///
/// ```
/// use crdkit_runtime::cel::decl::unescape;
/// assert_eq!(unescape("x__dash__prop").as_deref(), Some("x-prop"));
/// assert_eq!(unescape("__namespace__").as_deref(), Some("namespace"));
/// assert_eq!(unescape("__int__extra"), None);
/// ```
#[must_use]
pub fn unescape(escaped: &str) -> Option<String> {
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped;
    // Go's regexp `(_{2}[^_]+_{2})`, leftmost first, non-overlapping.
    while let Some(start) = rest.find("__") {
        let after = &rest[start + 2..];
        let body = after.find('_').unwrap_or(after.len());
        if body == 0 || !after[body..].starts_with("__") {
            // No match starting here: keep one character and search again.
            let c = rest[start..].chars().next().unwrap_or('_');
            out.push_str(&rest[..start]);
            out.push(c);
            rest = &rest[start + c.len_utf8()..];
            continue;
        }
        out.push_str(&rest[..start]);
        let contents = &after[..body];
        match contents {
            "underscores" => out.push_str("__"),
            "dot" => out.push('.'),
            "dash" => out.push('-'),
            "slash" => out.push('/'),
            word if CEL_RESERVED_SYMBOLS.contains(&word) => {
                if contents.len() + 4 != escaped.len() {
                    return None;
                }
                out.push_str(word);
            }
            _ => return None,
        }
        rest = &after[body + 2..];
    }
    out.push_str(rest);
    Some(out)
}
