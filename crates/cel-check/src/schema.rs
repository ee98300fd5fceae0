//! What CEL needs to know of the OpenAPI schema of a value: apiserver `pkg/cel/common/schemas.go`
//! (the `Schema` interface that `SchemaDeclType` and `UnstructuredToVal` read).
//!
//! The CEL crate does not know the CRD model: anything that implements [`Schema`] (the
//! structural schema of a CRD does, on the schema side) can declare CEL types
//! ([`schema_decl_type`](crate::decl::schema_decl_type)) and bind JSON values seen through
//! it (`Activation::bind_json` of the evaluator, in `crdkit-cel`).

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

pub use crdkit_apimachinery::openapi::{ListType, Type};

/// An OpenAPI schema node as CEL reads it. Only what decides CEL types, sizes and the
/// conversion of JSON values is asked for; value validations other than sizes and `enum` are
/// irrelevant to CEL.
pub trait Schema: fmt::Debug + Send + Sync {
    /// `type`.
    fn ty(&self) -> Option<Type>;
    /// `format` (strings: `date`, `date-time`, `duration` and `byte` change the CEL type).
    fn format(&self) -> Option<&str>;
    /// `nullable`.
    fn nullable(&self) -> bool;
    /// `x-kubernetes-int-or-string`.
    fn int_or_string(&self) -> bool;
    /// `x-kubernetes-embedded-resource`.
    fn embedded_resource(&self) -> bool;
    /// `x-kubernetes-preserve-unknown-fields`.
    fn preserve_unknown_fields(&self) -> bool;
    /// `x-kubernetes-list-type`.
    fn list_type(&self) -> Option<ListType>;
    /// `x-kubernetes-list-map-keys`.
    fn list_map_keys(&self) -> &[String];
    /// The schema of the property `name` (unescaped), if declared.
    fn property(&self, name: &str) -> Option<&dyn Schema>;
    /// Whether any property is declared.
    fn has_properties(&self) -> bool;
    /// Calls `f` with each declared property, in name order.
    fn for_each_property(&self, f: &mut dyn FnMut(&str, &dyn Schema));
    /// `additionalProperties` when it holds a schema.
    fn additional_properties(&self) -> Option<&dyn Schema>;
    /// `items`.
    fn items(&self) -> Option<&dyn Schema>;
    /// `required`.
    fn required(&self) -> &[String];
    /// `default`.
    fn default_value(&self) -> Option<&Value>;
    /// `enum`.
    fn enum_values(&self) -> &[Value];
    /// `maxLength`.
    fn max_length(&self) -> Option<i64>;
    /// `maxItems`.
    fn max_items(&self) -> Option<i64>;
    /// `maxProperties`.
    fn max_properties(&self) -> Option<i64>;
}

/// The address identifying a schema node (compared, never dereferenced): programs compiled for
/// a schema recognise views of that very node.
#[inline]
#[must_use]
pub fn address(s: &dyn Schema) -> usize {
    std::ptr::from_ref(s).cast::<()>() as usize
}

/// Up to this many keys, a scan comparing lengths first beats the B-tree's ordered compares.
pub const SMALL_MAP: usize = 12;

/// `map.get(key)`, scanning small maps (property names are short and few).
#[inline]
pub fn small_get<'m, V>(map: &'m BTreeMap<String, V>, key: &str) -> Option<&'m V> {
    if map.len() <= SMALL_MAP {
        let key = key.as_bytes();
        map.iter()
            .find_map(|(k, v)| same(k.as_bytes(), key).then_some(v))
    } else {
        map.get(key)
    }
}

/// Byte equality, comparing short strings (property names) in two overlapping words rather
/// than calling `memcmp`.
#[inline]
#[must_use]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    let word = |s: &[u8], at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(w)
    };
    let half = |s: &[u8], at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_ne_bytes(w)
    };
    match n {
        0 => true,
        1..=3 => a == b,
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// A schema node built into CEL: a string (possibly capped) or an object of such strings. The
/// views and declarations of `apiVersion`, `kind` and `metadata` that `WithTypeAndObjectMeta`
/// adds are made of these.
#[derive(Debug)]
pub struct Builtin {
    ty: Type,
    max_length: Option<i64>,
    properties: &'static [(&'static str, &'static Builtin)],
}

/// `type: string`.
pub static STRING: Builtin = Builtin {
    ty: Type::String,
    max_length: None,
    properties: &[],
};

/// The `metadata` of a resource root as CEL sees it at run time: `name` and `generateName`.
pub static OBJECT_META: Builtin = Builtin {
    ty: Type::Object,
    max_length: None,
    properties: &[("generateName", &STRING), ("name", &STRING)],
};

impl Schema for Builtin {
    fn ty(&self) -> Option<Type> {
        Some(self.ty)
    }
    fn format(&self) -> Option<&str> {
        None
    }
    fn nullable(&self) -> bool {
        false
    }
    fn int_or_string(&self) -> bool {
        false
    }
    fn embedded_resource(&self) -> bool {
        false
    }
    fn preserve_unknown_fields(&self) -> bool {
        false
    }
    fn list_type(&self) -> Option<ListType> {
        None
    }
    fn list_map_keys(&self) -> &[String] {
        &[]
    }
    fn property(&self, name: &str) -> Option<&dyn Schema> {
        self.properties
            .iter()
            .find_map(|(k, v)| (*k == name).then_some(*v as &dyn Schema))
    }
    fn has_properties(&self) -> bool {
        !self.properties.is_empty()
    }
    fn for_each_property(&self, f: &mut dyn FnMut(&str, &dyn Schema)) {
        for (k, v) in self.properties {
            f(k, *v);
        }
    }
    fn additional_properties(&self) -> Option<&dyn Schema> {
        None
    }
    fn items(&self) -> Option<&dyn Schema> {
        None
    }
    fn required(&self) -> &[String] {
        &[]
    }
    fn default_value(&self) -> Option<&Value> {
        None
    }
    fn enum_values(&self) -> &[Value] {
        &[]
    }
    fn max_length(&self) -> Option<i64> {
        self.max_length
    }
    fn max_items(&self) -> Option<i64> {
        None
    }
    fn max_properties(&self) -> Option<i64> {
        None
    }
}

/// Whether `s` declares `kind`, `apiVersion`, `metadata.name` and `metadata.generateName`
/// with their types: then `WithTypeAndObjectMeta` leaves it unchanged.
#[must_use]
pub fn declares_type_and_object_meta(s: &dyn Schema) -> bool {
    let is = |n: Option<&dyn Schema>, t: Type| n.is_some_and(|n| n.ty() == Some(t));
    let meta = s.property("metadata");
    let meta_prop = |k: &str| meta.and_then(|m| m.property(k));
    is(s.property("kind"), Type::String)
        && is(s.property("apiVersion"), Type::String)
        && is(meta, Type::Object)
        && is(meta_prop("name"), Type::String)
        && is(meta_prop("generateName"), Type::String)
}

/// apiextensions `WithTypeAndObjectMeta` (`schema/cel/model/schemas.go`) for declarations: the
/// schema of a resource root with `apiVersion`, `kind` and a `metadata` of `name` and
/// `generateName` (capped at 253 and 252 characters, or less when the schema says so), and no
/// `items`. Build it with [`ResourceRoot::new`], which returns `None` when the schema already
/// declares all of these.
#[derive(Debug)]
pub struct ResourceRoot<'a> {
    inner: &'a dyn Schema,
    meta: ResourceMeta,
}

#[derive(Debug)]
struct ResourceMeta {
    name: CappedString,
    generate_name: CappedString,
}

#[derive(Debug)]
struct CappedString(i64);

/// The longest `metadata.name` (validation `DNS1123SubdomainMaxLength`): the `maxLength` CEL
/// gives the `name` of a resource root's `metadata` (`generateName`: one less).
pub const NAME_MAX_LENGTH: i64 = 253;

impl<'a> ResourceRoot<'a> {
    /// The resource-root view of `inner`, or `None` when `inner` declares the type and object
    /// meta itself (and is used unchanged).
    #[must_use]
    pub fn new(inner: &'a dyn Schema) -> Option<ResourceRoot<'a>> {
        if declares_type_and_object_meta(inner) {
            return None;
        }
        let meta = inner.property("metadata");
        let capped = |name: &str, max: i64| {
            let declared = meta
                .and_then(|m| m.property(name))
                .and_then(|p| p.max_length());
            CappedString(declared.map_or(max, |d| d.min(max)))
        };
        Some(ResourceRoot {
            inner,
            meta: ResourceMeta {
                name: capped("name", NAME_MAX_LENGTH),
                // The generated suffix is at least one character.
                generate_name: capped("generateName", NAME_MAX_LENGTH - 1),
            },
        })
    }
}

/// The members every [`Schema`] of a string or object built here shares.
macro_rules! plain_members {
    () => {
        fn format(&self) -> Option<&str> {
            None
        }
        fn nullable(&self) -> bool {
            false
        }
        fn int_or_string(&self) -> bool {
            false
        }
        fn embedded_resource(&self) -> bool {
            false
        }
        fn preserve_unknown_fields(&self) -> bool {
            false
        }
        fn list_type(&self) -> Option<ListType> {
            None
        }
        fn list_map_keys(&self) -> &[String] {
            &[]
        }
        fn additional_properties(&self) -> Option<&dyn Schema> {
            None
        }
        fn items(&self) -> Option<&dyn Schema> {
            None
        }
        fn required(&self) -> &[String] {
            &[]
        }
        fn default_value(&self) -> Option<&Value> {
            None
        }
        fn enum_values(&self) -> &[Value] {
            &[]
        }
        fn max_items(&self) -> Option<i64> {
            None
        }
        fn max_properties(&self) -> Option<i64> {
            None
        }
    };
}

impl Schema for CappedString {
    plain_members!();
    fn ty(&self) -> Option<Type> {
        Some(Type::String)
    }
    fn property(&self, _: &str) -> Option<&dyn Schema> {
        None
    }
    fn has_properties(&self) -> bool {
        false
    }
    fn for_each_property(&self, _: &mut dyn FnMut(&str, &dyn Schema)) {}
    fn max_length(&self) -> Option<i64> {
        Some(self.0)
    }
}

impl Schema for ResourceMeta {
    plain_members!();
    fn ty(&self) -> Option<Type> {
        Some(Type::Object)
    }
    fn property(&self, name: &str) -> Option<&dyn Schema> {
        match name {
            "name" => Some(&self.name),
            "generateName" => Some(&self.generate_name),
            _ => None,
        }
    }
    fn has_properties(&self) -> bool {
        true
    }
    fn for_each_property(&self, f: &mut dyn FnMut(&str, &dyn Schema)) {
        f("generateName", &self.generate_name);
        f("name", &self.name);
    }
    fn max_length(&self) -> Option<i64> {
        None
    }
}

impl Schema for ResourceRoot<'_> {
    fn ty(&self) -> Option<Type> {
        self.inner.ty()
    }
    fn format(&self) -> Option<&str> {
        self.inner.format()
    }
    fn nullable(&self) -> bool {
        self.inner.nullable()
    }
    fn int_or_string(&self) -> bool {
        self.inner.int_or_string()
    }
    fn embedded_resource(&self) -> bool {
        self.inner.embedded_resource()
    }
    fn preserve_unknown_fields(&self) -> bool {
        self.inner.preserve_unknown_fields()
    }
    fn list_type(&self) -> Option<ListType> {
        self.inner.list_type()
    }
    fn list_map_keys(&self) -> &[String] {
        self.inner.list_map_keys()
    }
    fn property(&self, name: &str) -> Option<&dyn Schema> {
        match name {
            "kind" | "apiVersion" => Some(&STRING),
            "metadata" => Some(&self.meta),
            _ => self.inner.property(name),
        }
    }
    fn has_properties(&self) -> bool {
        true
    }
    fn for_each_property(&self, f: &mut dyn FnMut(&str, &dyn Schema)) {
        self.inner.for_each_property(&mut |k, v| {
            if !matches!(k, "kind" | "apiVersion" | "metadata") {
                f(k, v);
            }
        });
        f("apiVersion", &STRING);
        f("kind", &STRING);
        f("metadata", &self.meta);
    }
    fn additional_properties(&self) -> Option<&dyn Schema> {
        self.inner.additional_properties()
    }
    fn items(&self) -> Option<&dyn Schema> {
        None
    }
    fn required(&self) -> &[String] {
        self.inner.required()
    }
    fn default_value(&self) -> Option<&Value> {
        self.inner.default_value()
    }
    fn enum_values(&self) -> &[Value] {
        self.inner.enum_values()
    }
    fn max_length(&self) -> Option<i64> {
        self.inner.max_length()
    }
    fn max_items(&self) -> Option<i64> {
        self.inner.max_items()
    }
    fn max_properties(&self) -> Option<i64> {
        self.inner.max_properties()
    }
}

/// A schema written in code, for CEL used without a CRD: declare the types of JSON variables
/// ([`schema_decl_type`](crate::decl::schema_decl_type)) and bind JSON values seen through it
/// (`Activation::bind_json` of the evaluator).
///
/// ```
/// use crdkit_cel_check::schema::{OpenApiSchema, Schema};
///
/// let spec = OpenApiSchema::object()
///     .with_property("replicas", OpenApiSchema::integer())
///     .with_property("name", OpenApiSchema::string().with_max_length(63))
///     .with_required(["name"]);
/// assert!(spec.property("replicas").is_some());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpenApiSchema {
    ty: Option<Type>,
    format: Option<String>,
    nullable: bool,
    int_or_string: bool,
    embedded_resource: bool,
    preserve_unknown_fields: bool,
    list_type: Option<ListType>,
    list_map_keys: Vec<String>,
    properties: BTreeMap<String, OpenApiSchema>,
    additional_properties: Option<Box<OpenApiSchema>>,
    items: Option<Box<OpenApiSchema>>,
    required: Vec<String>,
    default: Option<Value>,
    enum_values: Vec<Value>,
    max_length: Option<i64>,
    max_items: Option<i64>,
    max_properties: Option<i64>,
}

impl OpenApiSchema {
    fn of(ty: Type) -> OpenApiSchema {
        OpenApiSchema {
            ty: Some(ty),
            ..OpenApiSchema::default()
        }
    }
    /// `type: object`.
    #[must_use]
    pub fn object() -> OpenApiSchema {
        Self::of(Type::Object)
    }
    /// `type: array` of `items`.
    #[must_use]
    pub fn array(items: OpenApiSchema) -> OpenApiSchema {
        OpenApiSchema {
            items: Some(Box::new(items)),
            ..Self::of(Type::Array)
        }
    }
    /// `type: object` with `additionalProperties: values`.
    #[must_use]
    pub fn map(values: OpenApiSchema) -> OpenApiSchema {
        OpenApiSchema {
            additional_properties: Some(Box::new(values)),
            ..Self::of(Type::Object)
        }
    }
    /// `type: string`.
    #[must_use]
    pub fn string() -> OpenApiSchema {
        Self::of(Type::String)
    }
    /// `type: integer`.
    #[must_use]
    pub fn integer() -> OpenApiSchema {
        Self::of(Type::Integer)
    }
    /// `type: number`.
    #[must_use]
    pub fn number() -> OpenApiSchema {
        Self::of(Type::Number)
    }
    /// `type: boolean`.
    #[must_use]
    pub fn boolean() -> OpenApiSchema {
        Self::of(Type::Boolean)
    }
    /// `x-kubernetes-int-or-string: true`.
    #[must_use]
    pub fn int_or_string() -> OpenApiSchema {
        OpenApiSchema {
            int_or_string: true,
            ..OpenApiSchema::default()
        }
    }
    /// No type, `x-kubernetes-preserve-unknown-fields: true`: any JSON value.
    #[must_use]
    pub fn any() -> OpenApiSchema {
        OpenApiSchema {
            preserve_unknown_fields: true,
            ..OpenApiSchema::default()
        }
    }
    /// Adds the property `name`.
    #[must_use]
    pub fn with_property(
        mut self,
        name: impl Into<String>,
        schema: OpenApiSchema,
    ) -> OpenApiSchema {
        self.properties.insert(name.into(), schema);
        self
    }
    /// `required`.
    #[must_use]
    pub fn with_required<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> OpenApiSchema {
        self.required = names.into_iter().map(Into::into).collect();
        self
    }
    /// `format`.
    #[must_use]
    pub fn with_format(mut self, format: impl Into<String>) -> OpenApiSchema {
        self.format = Some(format.into());
        self
    }
    /// `nullable: true`.
    #[must_use]
    pub fn with_nullable(mut self) -> OpenApiSchema {
        self.nullable = true;
        self
    }
    /// `x-kubernetes-embedded-resource: true`.
    #[must_use]
    pub fn with_embedded_resource(mut self) -> OpenApiSchema {
        self.embedded_resource = true;
        self
    }
    /// `x-kubernetes-list-type` (with `x-kubernetes-list-map-keys` for `map`).
    #[must_use]
    pub fn with_list_type<S: Into<String>>(
        mut self,
        list_type: ListType,
        map_keys: impl IntoIterator<Item = S>,
    ) -> OpenApiSchema {
        self.list_type = Some(list_type);
        self.list_map_keys = map_keys.into_iter().map(Into::into).collect();
        self
    }
    /// `default`.
    #[must_use]
    pub fn with_default(mut self, value: Value) -> OpenApiSchema {
        self.default = Some(value);
        self
    }
    /// `enum`.
    #[must_use]
    pub fn with_enum(mut self, values: impl IntoIterator<Item = Value>) -> OpenApiSchema {
        self.enum_values = values.into_iter().collect();
        self
    }
    /// `maxLength`.
    #[must_use]
    pub fn with_max_length(mut self, n: i64) -> OpenApiSchema {
        self.max_length = Some(n);
        self
    }
    /// `maxItems`.
    #[must_use]
    pub fn with_max_items(mut self, n: i64) -> OpenApiSchema {
        self.max_items = Some(n);
        self
    }
    /// `maxProperties`.
    #[must_use]
    pub fn with_max_properties(mut self, n: i64) -> OpenApiSchema {
        self.max_properties = Some(n);
        self
    }
}

impl Schema for OpenApiSchema {
    fn ty(&self) -> Option<Type> {
        self.ty
    }
    fn format(&self) -> Option<&str> {
        self.format.as_deref()
    }
    fn nullable(&self) -> bool {
        self.nullable
    }
    fn int_or_string(&self) -> bool {
        self.int_or_string
    }
    fn embedded_resource(&self) -> bool {
        self.embedded_resource
    }
    fn preserve_unknown_fields(&self) -> bool {
        self.preserve_unknown_fields
    }
    fn list_type(&self) -> Option<ListType> {
        self.list_type
    }
    fn list_map_keys(&self) -> &[String] {
        &self.list_map_keys
    }
    fn property(&self, name: &str) -> Option<&dyn Schema> {
        small_get(&self.properties, name).map(|s| s as &dyn Schema)
    }
    fn has_properties(&self) -> bool {
        !self.properties.is_empty()
    }
    fn for_each_property(&self, f: &mut dyn FnMut(&str, &dyn Schema)) {
        for (k, v) in &self.properties {
            f(k, v);
        }
    }
    fn additional_properties(&self) -> Option<&dyn Schema> {
        self.additional_properties
            .as_deref()
            .map(|s| s as &dyn Schema)
    }
    fn items(&self) -> Option<&dyn Schema> {
        self.items.as_deref().map(|s| s as &dyn Schema)
    }
    fn required(&self) -> &[String] {
        &self.required
    }
    fn default_value(&self) -> Option<&Value> {
        self.default.as_ref()
    }
    fn enum_values(&self) -> &[Value] {
        &self.enum_values
    }
    fn max_length(&self) -> Option<i64> {
        self.max_length
    }
    fn max_items(&self) -> Option<i64> {
        self.max_items
    }
    fn max_properties(&self) -> Option<i64> {
        self.max_properties
    }
}

#[cfg(test)]
mod tests {
    use super::same;

    #[test]
    fn same_compares_every_length() {
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcdefg",
            "abcdefgh",
            "minReplicas",
        ];
        let long = "x".repeat(40);
        for w in words.iter().copied().chain([long.as_str()]) {
            assert!(same(w.as_bytes(), w.as_bytes()), "{w}");
            for i in 0..w.len() {
                let mut other = w.as_bytes().to_vec();
                other[i] ^= 1;
                assert!(!same(w.as_bytes(), &other), "{w} at {i}");
            }
        }
        assert!(!same(b"minReplicas", b"maxReplicas"));
        assert!(!same(b"abc", b"abcd"));
    }
}
