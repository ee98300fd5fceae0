//! Map keys, handed to a callback as `&str` (so that string keys are never copied).

use serde::ser::{self, Impossible, Serialize};

use super::Invalid;

/// Serializes a map key and calls `f` with its text: strings as they are, numbers, booleans,
/// chars and unit variants as `serde_json` writes them; other keys are [`Invalid`].
pub(super) struct KeyWith<F>(F);

impl<F: FnOnce(&str) -> Result<(), Invalid>> KeyWith<F> {
    pub(super) fn new(f: F) -> KeyWith<F> {
        KeyWith(f)
    }
}

type R = Result<(), Invalid>;

macro_rules! key_display {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> R { (self.0)(&v.to_string()) }
    )*};
}

impl<F: FnOnce(&str) -> R> ser::Serializer for KeyWith<F> {
    type Ok = ();
    type Error = Invalid;
    type SerializeSeq = Impossible<(), Invalid>;
    type SerializeTuple = Impossible<(), Invalid>;
    type SerializeTupleStruct = Impossible<(), Invalid>;
    type SerializeTupleVariant = Impossible<(), Invalid>;
    type SerializeMap = Impossible<(), Invalid>;
    type SerializeStruct = Impossible<(), Invalid>;
    type SerializeStructVariant = Impossible<(), Invalid>;

    key_display!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_u128: u128);
    fn serialize_char(self, v: char) -> R {
        (self.0)(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> R {
        (self.0)(v)
    }
    fn serialize_f32(self, _: f32) -> R {
        Err(Invalid)
    }
    fn serialize_f64(self, _: f64) -> R {
        Err(Invalid)
    }
    fn serialize_bytes(self, _: &[u8]) -> R {
        Err(Invalid)
    }
    fn serialize_none(self) -> R {
        Err(Invalid)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> R {
        Err(Invalid)
    }
    fn serialize_unit(self) -> R {
        Err(Invalid)
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Err(Invalid)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> R {
        (self.0)(v)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> R {
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
