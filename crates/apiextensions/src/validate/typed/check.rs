//! The serializer that checks one value against a compiled node: scalars, and lists and objects
//! whose elements are checked one by one (recursively, through [`child`]), their sizes and
//! `required` at the end.

use serde::ser::{self, Impossible, Serialize};
use serde_json::Value;

use super::key::KeyWith;
use super::{Invalid, R, ok};
use crate::compiled::number::Num;
use crate::compiled::{Additional, Node};
use crate::validate::list_type;
use crate::validate::meta;
use crate::validate::openapi::{Kind, OpenApi, enum_matches};
use crate::walk::MAX_DEPTH;
use crdkit_apimachinery::field::FieldPath;

/// Checks one value against `node` (nothing when `None`: a field no schema describes). One word,
/// passed in a register (the root object has its own serializer, [`super::root`]).
pub(super) struct Check<'a> {
    pub(super) node: Option<&'a Node>,
}

/// Validates an already-built value with the JSON validators.
fn check_value(node: &Node, v: &Value) -> bool {
    let mut o = OpenApi::new();
    o.validate(node, v);
    if !o.errors.is_empty() {
        return false;
    }
    let mut errs = Vec::new();
    meta::validate_embedded(&FieldPath::nil(), v, node, &mut errs);
    errs.is_empty() && list_type::validate_value(&FieldPath::nil(), node, v).is_empty()
}

/// Checks `value` against a child schema, buffering it when the schema needs the whole value.
#[inline]
pub(super) fn child<T: Serialize + ?Sized>(node: Option<&Node>, value: &T) -> R {
    let Some(n) = node else { return Ok(()) };
    if n.depth > MAX_DEPTH {
        return Err(Invalid);
    }
    if n.needs_value {
        let v = serde_json::to_value(value).map_err(|_| Invalid)?;
        return ok(check_value(n, &v));
    }
    value.serialize(Check { node: Some(n) })
}

/// The type and enum checks of a scalar (or of a container, with `enum_ok` always true).
#[inline]
fn scalar(n: &Node, kind: Kind, enum_ok: impl Fn(&Value) -> bool) -> bool {
    (n.types.is_empty() && n.format_name.is_empty() || OpenApi::type_passes(n, kind))
        && (n.enum_values.is_empty() || n.enum_values.iter().any(enum_ok))
}

impl Check<'_> {
    fn null(&self) -> R {
        let Some(n) = self.node else { return Ok(()) };
        ok((n.types.is_empty() || n.nullable) && n.enum_values.is_empty())
    }

    // Inlined where the number is made: passed by reference, it is stored in two halves and
    // loaded whole, which stalls.
    #[inline(always)]
    fn num(&self, x: Num) -> R {
        let Some(n) = self.node else { return Ok(()) };
        let kind = match x {
            Num::Int(_) => Kind::Int,
            Num::Float(f) => Kind::Float(f),
        };
        let enum_ok = |e: &Value| {
            let v = match x {
                Num::Int(i) => Value::from(i),
                Num::Float(f) => Value::from(f),
            };
            enum_matches(&v, e)
        };
        if !scalar(n, kind, enum_ok) {
            return Err(Invalid);
        }
        ok(n.number.as_ref().is_none_or(|rules| rules.passes(x)))
    }

    #[inline]
    fn str(&self, s: &str) -> R {
        let Some(n) = self.node else { return Ok(()) };
        if !scalar(n, Kind::String, |e| e.as_str() == Some(s)) {
            return Err(Invalid);
        }
        ok(OpenApi::string_passes(n, s) && n.format.is_none_or(|f| f.validates(s)))
    }

    pub(super) fn container(&self, kind: Kind) -> R {
        let Some(n) = self.node else { return Ok(()) };
        ok(n.enum_values.is_empty() && scalar(n, kind, |_| true))
    }
}

impl<'a> Check<'a> {
    pub(super) fn object(self) -> Result<MapCheck<'a>, Invalid> {
        self.container(Kind::Object)?;
        Ok(MapCheck::new(self.node))
    }
}

macro_rules! ints {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> R {
            self.num(Num::Int(i64::from(v)))
        }
    )*};
}

impl<'a> ser::Serializer for Check<'a> {
    type Ok = ();
    type Error = Invalid;
    type SerializeSeq = SeqCheck<'a>;
    type SerializeTuple = SeqCheck<'a>;
    type SerializeTupleStruct = SeqCheck<'a>;
    type SerializeTupleVariant = Impossible<(), Invalid>;
    type SerializeMap = MapEntries<'a>;
    type SerializeStruct = MapCheck<'a>;
    type SerializeStructVariant = Impossible<(), Invalid>;

    fn serialize_bool(self, v: bool) -> R {
        let Some(n) = self.node else { return Ok(()) };
        ok(scalar(n, Kind::Bool, |e| e.as_bool() == Some(v)))
    }
    ints!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32);
    fn serialize_u64(self, v: u64) -> R {
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
        self.str(v)
    }
    fn serialize_bytes(self, _: &[u8]) -> R {
        Err(Invalid)
    }
    fn serialize_none(self) -> R {
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
        self.container(Kind::Array)?;
        Ok(SeqCheck::new(self.node))
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
    fn serialize_map(self, _: Option<usize>) -> Result<MapEntries<'a>, Invalid> {
        self.object().map(MapEntries::new)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MapCheck<'a>, Invalid> {
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

// Lists and objects are two words (no schema is [`Node::any`]): serde returns them by value,
// and a bigger one, written in pieces and read whole, stalls.

/// Checks the elements of a list.
pub(super) struct SeqCheck<'a> {
    node: &'a Node,
    count: u64,
}

impl<'a> SeqCheck<'a> {
    pub(super) fn new(node: Option<&'a Node>) -> SeqCheck<'a> {
        SeqCheck {
            node: match node {
                Some(n) => n,
                None => Node::any(),
            },
            count: 0,
        }
    }
}

/// A count as kube-openapi compares it.
fn size(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl ser::SerializeSeq for SeqCheck<'_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        self.count += 1;
        child(self.node.items.as_deref(), value)
    }
    fn end(self) -> R {
        let (n, count) = (self.node, size(self.count));
        ok(n.min_items.is_none_or(|m| count >= m) && n.max_items.is_none_or(|m| count <= m))
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
pub(super) struct MapCheck<'a> {
    node: &'a Node,
    count: u32,
    required_seen: u32,
}

impl<'a> MapCheck<'a> {
    pub(super) fn new(node: Option<&'a Node>) -> MapCheck<'a> {
        MapCheck {
            node: match node {
                Some(n) => n,
                None => Node::any(),
            },
            count: 0,
            required_seen: 0,
        }
    }

    pub(super) fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> R {
        self.count = self.count.saturating_add(1);
        let n = self.node;
        if let Some(p) = n.property_entry(key) {
            self.required_seen = self.required_seen.saturating_add(count(p.required));
            return child(Some(&p.node), value);
        }
        if !n.required.is_empty() {
            let named = n.required.iter().filter(|r| r.as_str() == key).count();
            self.required_seen = self.required_seen.saturating_add(count(named));
        }
        match &n.additional {
            Some(Additional::Schema(ap)) => child(Some(ap), value),
            Some(Additional::Bool(false)) => Err(Invalid),
            _ => Ok(()),
        }
    }

    pub(super) fn finish(self) -> R {
        let (n, count) = (self.node, size(u64::from(self.count)));
        ok(usize::try_from(self.required_seen) == Ok(n.required.len())
            && n.min_properties.is_none_or(|m| count >= m)
            && n.max_properties.is_none_or(|m| count <= m))
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Checks the entries of a map.
pub(super) struct MapEntries<'a> {
    fields: MapCheck<'a>,
    /// The key given by `serialize_key`, for `serialize_value`.
    key: Option<String>,
}

impl<'a> MapEntries<'a> {
    pub(super) fn new(fields: MapCheck<'a>) -> MapEntries<'a> {
        MapEntries { fields, key: None }
    }
}

impl ser::SerializeMap for MapEntries<'_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        self.key = Some(owned_key(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        let key = self.key.take().ok_or(Invalid)?;
        self.fields.field(&key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> R {
        key.serialize(KeyWith::new(|k: &str| self.fields.field(k, value)))
    }
    fn end(self) -> R {
        self.fields.finish()
    }
}

/// A map key given alone (`serialize_key`), as [`KeyWith`] reads it.
pub(super) fn owned_key<T: Serialize + ?Sized>(key: &T) -> Result<String, Invalid> {
    let mut out = String::new();
    key.serialize(KeyWith::new(|k: &str| {
        out.push_str(k);
        Ok(())
    }))?;
    Ok(out)
}

impl ser::SerializeStruct for MapCheck<'_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.field(key, value)
    }
    fn end(self) -> R {
        self.finish()
    }
}
