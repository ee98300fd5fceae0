//! Validation of `serde::Serialize` values without building a `serde_json::Value`.
//!
//! [`validate_typed`] serializes the value into a [`serde::Serializer`] that checks it against
//! the compiled schema as it goes, the way [`CompiledSchema::validate`] would check the JSON that
//! `serde_json::to_value` makes of it. Subtrees whose checks need the whole value (junctors,
//! `uniqueItems`, compound enums, embedded resources, set/map lists, the root `metadata`) are
//! buffered into a `Value` and checked with the JSON validator; everything else is streamed.
//!
//! The streaming pass only decides *whether* the value is valid. When it is not, the value is
//! converted to JSON and validated by the JSON path, so that both paths report identical errors
//! (paths, order and all) — the price of an invalid object is one extra conversion.

use serde::ser::{self, Impossible, Serialize};
use serde_json::Value;

use super::CompiledSchema;
use super::compile::{Additional, Node};
use super::list_type;
use super::meta;
use super::number::Num;
use super::openapi::{Kind, OpenApi, enum_matches};
use crate::field::{FieldError, FieldPath};
use crate::prune::{MAX_DEPTH, additional};
use crate::schema::Structural;

/// Validates `value` as [`CompiledSchema::validate`] validates `serde_json::to_value(value)`.
///
/// ```
/// use crdkit_runtime::schema::{Structural, Type};
/// use crdkit_runtime::validate::{CompiledSchema, validate_typed};
/// use serde_json::json;
///
/// #[derive(serde::Serialize)]
/// struct Spec { replicas: i64 }
/// #[derive(serde::Serialize)]
/// struct CronTab { metadata: serde_json::Value, spec: Spec }
///
/// let mut replicas = Structural::of_type(Type::Integer);
/// replicas.value_validation.maximum = Some(10.0);
/// let mut spec = Structural::of_type(Type::Object);
/// spec.properties.insert("replicas".into(), replicas);
/// let mut root = Structural::of_type(Type::Object);
/// root.properties.insert("spec".into(), spec);
/// let schema = CompiledSchema::new(&root);
///
/// let ok = CronTab { metadata: json!({"name": "a"}), spec: Spec { replicas: 1 } };
/// assert!(validate_typed(&ok, &schema).is_empty());
/// let bad = CronTab { metadata: json!({"name": "a"}), spec: Spec { replicas: 15 } };
/// assert_eq!(validate_typed(&bad, &schema).len(), 1);
/// ```
pub fn validate_typed<T: Serialize + ?Sized>(
    value: &T,
    schema: &CompiledSchema,
) -> Vec<FieldError> {
    if is_valid(value, schema) {
        return Vec::new();
    }
    match serde_json::to_value(value) {
        Ok(v) => schema.validate(&v),
        Err(e) => vec![FieldError::internal(&FieldPath::nil(), e)],
    }
}

/// Whether `value` passes every check of [`CompiledSchema::validate`], decided while serializing.
#[must_use]
pub fn is_valid<T: Serialize + ?Sized>(value: &T, schema: &CompiledSchema) -> bool {
    if schema.root.needs_value {
        return serde_json::to_value(value).is_ok_and(|v| schema.validate(&v).is_empty());
    }
    let mut root = RootState::default();
    let check = Check {
        node: Some(&schema.root),
        s: Some(&schema.structural),
        depth: 0,
        root: Some((&mut root, schema)),
    };
    if value.serialize(check).is_err() {
        return false;
    }
    if !root.seen_object {
        return false;
    }
    let info = &schema.resource;
    if (!info.kind.is_empty() && root.kind.as_deref() != Some(info.kind.as_str()))
        || (!info.api_version.is_empty()
            && root.api_version.as_deref() != Some(info.api_version.as_str()))
    {
        return false;
    }
    // The root metadata: absent metadata is checked too (name is required).
    let mut obj = serde_json::Map::new();
    if let Some(m) = root.metadata.take() {
        obj.insert("metadata".into(), m);
    }
    let mut errs = Vec::new();
    meta::validate_root_meta(&Value::Object(obj), info.namespaced, &mut errs);
    errs.is_empty()
}

#[derive(Default)]
struct RootState {
    seen_object: bool,
    kind: Option<String>,
    api_version: Option<String>,
    metadata: Option<Value>,
}

/// The error that stops serialization: the value is invalid (or not serializable as JSON).
#[derive(Debug)]
pub struct Invalid;

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid")
    }
}
impl std::error::Error for Invalid {}
impl ser::Error for Invalid {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Invalid
    }
}

type R = Result<(), Invalid>;

fn ok(b: bool) -> R {
    if b { Ok(()) } else { Err(Invalid) }
}

/// Checks one value against `node` (and the structural node `s` for embedded and list checks).
struct Check<'a, 'r> {
    node: Option<&'a Node>,
    s: Option<&'a Structural>,
    depth: usize,
    root: Option<(&'r mut RootState, &'a CompiledSchema)>,
}

/// Validates an already-built value with the JSON validators.
fn check_value(node: &Node, s: Option<&Structural>, v: &Value) -> bool {
    let mut o = OpenApi::new();
    o.validate(node, v);
    if !o.errors.is_empty() {
        return false;
    }
    let Some(s) = s else { return true };
    let mut errs = Vec::new();
    meta::validate_embedded(&FieldPath::nil(), v, s, &mut errs, 0);
    errs.is_empty() && list_type::validate_value(&FieldPath::nil(), s, v).is_empty()
}

/// Checks `value` against a child schema, buffering it when the schema needs the whole value.
fn child<T: Serialize + ?Sized>(
    node: Option<&Node>,
    s: Option<&Structural>,
    depth: usize,
    value: &T,
) -> R {
    let Some(n) = node else { return Ok(()) };
    if depth > MAX_DEPTH {
        return Err(Invalid);
    }
    if n.needs_value {
        let v = serde_json::to_value(value).map_err(|_| Invalid)?;
        return ok(check_value(n, s, &v));
    }
    value.serialize(Check {
        node: Some(n),
        s,
        depth,
        root: None,
    })
}

fn scalar(n: &Node, kind: Kind, enum_ok: impl Fn(&Value) -> bool) -> bool {
    let mut o = OpenApi::new();
    if !n.types.is_empty() || !n.format_name.is_empty() {
        o.type_check_kind(n, kind);
    }
    o.errors.is_empty() && (n.enum_values.is_empty() || n.enum_values.iter().any(enum_ok))
}

impl Check<'_, '_> {
    fn null(&self) -> R {
        let Some(n) = self.node else { return Ok(()) };
        ok((n.types.is_empty() || n.nullable) && n.enum_values.is_empty())
    }

    fn num(&self, x: Num) -> R {
        let Some(n) = self.node else { return Ok(()) };
        let kind = match x {
            Num::Int(_) => Kind::Int,
            Num::Float(f) => Kind::Float(f),
        };
        let v = match x {
            Num::Int(i) => Value::from(i),
            Num::Float(f) => Value::from(f),
        };
        if !scalar(n, kind, |e| enum_matches(&v, e)) {
            return Err(Invalid);
        }
        let mut errs = Vec::new();
        if let Some(rules) = &n.number {
            rules.validate(x, String::new, &mut errs);
        }
        ok(errs.is_empty())
    }

    fn str(&self, s: &str) -> R {
        let Some(n) = self.node else { return Ok(()) };
        if !scalar(n, Kind::String, |e| e.as_str() == Some(s)) {
            return Err(Invalid);
        }
        let mut o = OpenApi::new();
        o.string(n, s);
        ok(o.errors.is_empty() && n.format.is_none_or(|f| f.validates(s)))
    }

    fn container(&self, kind: Kind) -> R {
        let Some(n) = self.node else { return Ok(()) };
        ok(n.enum_values.is_empty() && scalar(n, kind, |_| true))
    }
}

/// Checks the elements of a list.
struct SeqCheck<'a> {
    node: Option<&'a Node>,
    s: Option<&'a Structural>,
    depth: usize,
    count: i64,
}

impl ser::SerializeSeq for SeqCheck<'_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        self.count += 1;
        let item = self.node.and_then(|n| n.items.as_deref());
        child(
            item,
            self.s.and_then(|s| s.items.as_deref()),
            self.depth + 1,
            value,
        )
    }
    fn end(self) -> R {
        let Some(n) = self.node else { return Ok(()) };
        ok(n.min_items.is_none_or(|m| self.count >= m)
            && n.max_items.is_none_or(|m| self.count <= m))
    }
}

impl ser::SerializeTuple for SeqCheck<'_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> R {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqCheck<'_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> R {
        ser::SerializeSeq::end(self)
    }
}

/// Checks the fields of an object.
struct MapCheck<'a, 'r> {
    node: Option<&'a Node>,
    s: Option<&'a Structural>,
    depth: usize,
    count: i64,
    required_seen: usize,
    key: Option<String>,
    root: Option<(&'r mut RootState, &'a CompiledSchema)>,
}

impl MapCheck<'_, '_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> R {
        self.count += 1;
        if let Some((root, _)) = &mut self.root {
            match key {
                "metadata" => {
                    root.metadata = Some(serde_json::to_value(value).map_err(|_| Invalid)?)
                }
                "kind" | "apiVersion" => {
                    let v = serde_json::to_value(value).map_err(|_| Invalid)?;
                    let v = v.as_str().map(str::to_owned);
                    if key == "kind" {
                        root.kind = v
                    } else {
                        root.api_version = v
                    }
                }
                _ => {}
            }
        }
        let Some(n) = self.node else { return Ok(()) };
        self.required_seen += n.required.iter().filter(|r| r.as_str() == key).count();
        if let Some(p) = n.property(key) {
            return child(
                Some(p),
                self.s.and_then(|s| s.properties.get(key)),
                self.depth + 1,
                value,
            );
        }
        match &n.additional {
            Some(Additional::Schema(ap)) => child(
                Some(ap),
                self.s.and_then(additional).flatten(),
                self.depth + 1,
                value,
            ),
            Some(Additional::Bool(false)) => Err(Invalid),
            _ => Ok(()),
        }
    }

    fn finish(self) -> R {
        let Some(n) = self.node else { return Ok(()) };
        ok(self.required_seen == n.required.len()
            && n.min_properties.is_none_or(|m| self.count >= m)
            && n.max_properties.is_none_or(|m| self.count <= m))
    }
}

impl ser::SerializeMap for MapCheck<'_, '_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        self.key = Some(key.serialize(KeyCapture)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        let key = self.key.take().ok_or(Invalid)?;
        self.field(&key, value)
    }
    fn end(self) -> R {
        self.finish()
    }
}

impl ser::SerializeStruct for MapCheck<'_, '_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.field(key, value)
    }
    fn end(self) -> R {
        self.finish()
    }
}

impl<'a, 'r> Check<'a, 'r> {
    fn object(self) -> Result<MapCheck<'a, 'r>, Invalid> {
        self.container(Kind::Object)?;
        let mut root = self.root;
        if let Some((r, _)) = &mut root {
            r.seen_object = true;
        }
        Ok(MapCheck {
            node: self.node,
            s: self.s,
            depth: self.depth,
            count: 0,
            required_seen: 0,
            key: None,
            root,
        })
    }
}

macro_rules! ints {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> R {
            self.root_scalar()?;
            self.num(Num::Int(i64::from(v)))
        }
    )*};
}

impl Check<'_, '_> {
    fn root_scalar(&self) -> R {
        if self.root.is_some() {
            Err(Invalid)
        } else {
            Ok(())
        }
    }
}

impl<'a, 'r> ser::Serializer for Check<'a, 'r> {
    type Ok = ();
    type Error = Invalid;
    type SerializeSeq = SeqCheck<'a>;
    type SerializeTuple = SeqCheck<'a>;
    type SerializeTupleStruct = SeqCheck<'a>;
    type SerializeTupleVariant = Impossible<(), Invalid>;
    type SerializeMap = MapCheck<'a, 'r>;
    type SerializeStruct = MapCheck<'a, 'r>;
    type SerializeStructVariant = Impossible<(), Invalid>;

    fn serialize_bool(self, v: bool) -> R {
        self.root_scalar()?;
        let Some(n) = self.node else { return Ok(()) };
        ok(scalar(n, Kind::Bool, |e| e.as_bool() == Some(v)))
    }
    ints!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32);
    fn serialize_u64(self, v: u64) -> R {
        self.root_scalar()?;
        #[allow(clippy::cast_precision_loss)]
        match i64::try_from(v) {
            Ok(i) => self.num(Num::Int(i)),
            Err(_) => self.num(Num::Float(v as f64)),
        }
    }
    fn serialize_i128(self, v: i128) -> R {
        match i64::try_from(v) {
            Ok(i) => self.serialize_i64(i),
            Err(_) => self.serialize_u64(u64::try_from(v).map_err(|_| Invalid)?),
        }
    }
    fn serialize_u128(self, v: u128) -> R {
        self.serialize_u64(u64::try_from(v).map_err(|_| Invalid)?)
    }
    fn serialize_f32(self, v: f32) -> R {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R {
        self.root_scalar()?;
        if v.is_finite() {
            self.num(Num::Float(v))
        } else {
            self.null()
        }
    }
    fn serialize_char(self, v: char) -> R {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> R {
        self.root_scalar()?;
        self.str(v)
    }
    fn serialize_bytes(self, _: &[u8]) -> R {
        Err(Invalid)
    }
    fn serialize_none(self) -> R {
        self.root_scalar()?;
        self.null()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_unit(self) -> R {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> R {
        let mut m = self.object()?;
        m.field(variant, value)?;
        m.finish()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<SeqCheck<'a>, Invalid> {
        self.root_scalar()?;
        self.container(Kind::Array)?;
        Ok(SeqCheck {
            node: self.node,
            s: self.s,
            depth: self.depth,
            count: 0,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqCheck<'a>, Invalid> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqCheck<'a>, Invalid> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Invalid> {
        Err(Invalid)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapCheck<'a, 'r>, Invalid> {
        self.object()
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MapCheck<'a, 'r>, Invalid> {
        self.object()
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Invalid> {
        Err(Invalid)
    }
}

/// Map keys as `serde_json` writes them: strings, and numbers, booleans and chars as strings.
struct KeyCapture;

macro_rules! key_display {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> Result<String, Invalid> { Ok(v.to_string()) }
    )*};
}

impl ser::Serializer for KeyCapture {
    type Ok = String;
    type Error = Invalid;
    type SerializeSeq = Impossible<String, Invalid>;
    type SerializeTuple = Impossible<String, Invalid>;
    type SerializeTupleStruct = Impossible<String, Invalid>;
    type SerializeTupleVariant = Impossible<String, Invalid>;
    type SerializeMap = Impossible<String, Invalid>;
    type SerializeStruct = Impossible<String, Invalid>;
    type SerializeStructVariant = Impossible<String, Invalid>;

    key_display!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_char: char, serialize_str: &str);
    fn serialize_f32(self, _: f32) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_f64(self, _: f64) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_none(self) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_unit(self) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
    ) -> Result<String, Invalid> {
        Ok(v.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, Invalid> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Invalid> {
        Err(Invalid)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Invalid> {
        Err(Invalid)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Invalid> {
        Err(Invalid)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Invalid> {
        Err(Invalid)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Invalid> {
        Err(Invalid)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Invalid> {
        Err(Invalid)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Invalid> {
        Err(Invalid)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Invalid> {
        Err(Invalid)
    }
}
