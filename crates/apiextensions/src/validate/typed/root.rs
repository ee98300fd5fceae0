//! The resource root: an object (anything else fails), whose `apiVersion`, `kind` and
//! `metadata` are also checked as [`CompiledSchema::validate`] checks them ([`super::meta`]).

use serde::ser::{self, Impossible, Serialize};

use super::check::{Check, MapCheck, owned_key};
use super::key::KeyWith;
use super::{Invalid, R, RootState, meta};
use crate::validate::CompiledSchema;

/// Checks the root value.
pub(super) struct RootCheck<'a, 'r> {
    pub(super) schema: &'a CompiledSchema,
    pub(super) state: &'r mut RootState,
}

/// Checks the root object's fields.
pub(super) struct RootFields<'a, 'r> {
    fields: MapCheck<'a>,
    schema: &'a CompiledSchema,
    state: &'r mut RootState,
    key: Option<String>,
}

impl<'a, 'r> RootCheck<'a, 'r> {
    fn object(self) -> Result<RootFields<'a, 'r>, Invalid> {
        let fields = Check {
            node: Some(&self.schema.root),
        }
        .object()?;
        self.state.seen_object = true;
        Ok(RootFields {
            fields,
            schema: self.schema,
            state: self.state,
            key: None,
        })
    }
}

impl RootFields<'_, '_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> R {
        let info = &self.schema.resource;
        let state = &mut *self.state;
        match key {
            "metadata" => {
                state.metadata = Some(meta::root_metadata_passes(value, info.namespaced)?);
            }
            "kind" => state.kind = Some(meta::str_equals(value, &info.kind)?),
            "apiVersion" => state.api_version = Some(meta::str_equals(value, &info.api_version)?),
            _ => {}
        }
        self.fields.field(key, value)
    }
}

impl ser::SerializeMap for RootFields<'_, '_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        self.key = Some(owned_key(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        let key = self.key.take().ok_or(Invalid)?;
        self.field(&key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> R {
        key.serialize(KeyWith::new(|k: &str| self.field(k, value)))
    }
    fn end(self) -> R {
        self.fields.finish()
    }
}

impl ser::SerializeStruct for RootFields<'_, '_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.field(key, value)
    }
    fn end(self) -> R {
        self.fields.finish()
    }
}

/// The `Serializer` methods of values that cannot be a resource.
macro_rules! not_an_object {
    ($($f:ident($($t:ty),*) -> $r:ty;)*) => {$(
        fn $f(self, $(_: $t),*) -> Result<$r, Invalid> {
            Err(Invalid)
        }
    )*};
}

type No = Impossible<(), Invalid>;

impl<'a, 'r> ser::Serializer for RootCheck<'a, 'r> {
    type Ok = ();
    type Error = Invalid;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = RootFields<'a, 'r>;
    type SerializeStruct = RootFields<'a, 'r>;
    type SerializeStructVariant = No;

    not_an_object! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_i128(i128) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_u128(u128) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> No;
        serialize_tuple(usize) -> No;
        serialize_tuple_struct(&'static str, usize) -> No;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> No;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> No;
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> R {
        value.serialize(self)
    }
    /// `{variant: value}`.
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> R {
        let mut m = self.object()?;
        m.field(variant, value)?;
        m.fields.finish()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<RootFields<'a, 'r>, Invalid> {
        self.object()
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<RootFields<'a, 'r>, Invalid> {
        self.object()
    }
}
