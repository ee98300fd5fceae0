//! The serializers behind [`super`]: each accepts the shapes it streams and stops with
//! [`Stop::Unusual`] on any other.

use serde::ser::{self, Impossible, Serialize};

use super::{MapEntries, MapProbe, MetaFields, MetaSer, Stop, StrProbe};

type R = Result<(), Stop>;
type No = Impossible<(), Stop>;

/// A map key that is a string (or a char); other keys are left to the JSON.
struct KeyStr<F>(F);

impl<F: FnOnce(Option<&str>)> ser::Serializer for StrProbe<F> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = No;
    type SerializeStruct = No;
    type SerializeStructVariant = No;

    rest_unusual!();
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_char(self, v: char) -> R {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> R {
        (self.0)(Some(v));
        Ok(())
    }
    fn serialize_none(self) -> R {
        (self.0)(None);
        Ok(())
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
    fn serialize_map(self, _: Option<usize>) -> Result<No, Stop> {
        Err(Stop::Unusual)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<No, Stop> {
        Err(Stop::Unusual)
    }
}

impl<F: FnOnce(&str) -> R> ser::Serializer for KeyStr<F> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = No;
    type SerializeStruct = No;
    type SerializeStructVariant = No;

    rest_unusual!();
    // `serde_json` rejects optional keys.
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_char(self, v: char) -> R {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> R {
        (self.0)(v)
    }
    fn serialize_none(self) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_unit(self) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R {
        self.serialize_str(variant)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<No, Stop> {
        Err(Stop::Unusual)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<No, Stop> {
        Err(Stop::Unusual)
    }
}

/// The key of a `serialize_key`/`serialize_value` pair, copied.
fn owned_key<K: Serialize + ?Sized>(key: &K) -> Result<String, Stop> {
    let mut out = String::new();
    key.serialize(KeyStr(|k: &str| {
        out.push_str(k);
        Ok(())
    }))?;
    Ok(out)
}

impl<'m, 'p> ser::Serializer for MetaSer<'m, 'p> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = MetaFields<'m, 'p>;
    type SerializeStruct = MetaFields<'m, 'p>;
    type SerializeStructVariant = No;

    rest_unusual!();
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_char(self, _: char) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_str(self, _: &str) -> R {
        Err(Stop::Unusual)
    }
    // A null `metadata` has no name.
    fn serialize_none(self) -> R {
        Err(Stop::Invalid)
    }
    fn serialize_unit(self) -> R {
        Err(Stop::Invalid)
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Err(Stop::Invalid)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MetaFields<'m, 'p>, Stop> {
        Ok(MetaFields {
            state: self.0,
            key: None,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MetaFields<'m, 'p>, Stop> {
        self.serialize_map(None)
    }
}

impl ser::SerializeStruct for MetaFields<'_, '_> {
    type Ok = ();
    type Error = Stop;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.state.field(key, value)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeMap for MetaFields<'_, '_> {
    type Ok = ();
    type Error = Stop;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        self.key = Some(owned_key(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        let key = self.key.take().ok_or(Stop::Unusual)?;
        self.state.field(&key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> R {
        key.serialize(KeyStr(|k: &str| self.state.field(k, value)))
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl<F: FnMut(&str, &str)> ser::Serializer for MapProbe<F> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = MapEntries<F>;
    type SerializeStruct = MapEntries<F>;
    type SerializeStructVariant = No;

    rest_unusual!();
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_char(self, _: char) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_str(self, _: &str) -> R {
        Err(Stop::Unusual)
    }
    // A null map is left out.
    fn serialize_none(self) -> R {
        Ok(())
    }
    fn serialize_unit(self) -> R {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
        Err(Stop::Unusual)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapEntries<F>, Stop> {
        Ok(MapEntries {
            each: self.0,
            key: None,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MapEntries<F>, Stop> {
        self.serialize_map(None)
    }
}

impl<F: FnMut(&str, &str)> MapEntries<F> {
    fn entry<V: Serialize + ?Sized>(&mut self, key: &str, value: &V) -> R {
        let each = &mut self.each;
        value.serialize(StrProbe(|v: Option<&str>| each(key, v.unwrap_or(""))))
    }
}

impl<F: FnMut(&str, &str)> ser::SerializeStruct for MapEntries<F> {
    type Ok = ();
    type Error = Stop;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.entry(key, value)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl<F: FnMut(&str, &str)> ser::SerializeMap for MapEntries<F> {
    type Ok = ();
    type Error = Stop;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        self.key = Some(owned_key(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        let key = self.key.take().ok_or(Stop::Unusual)?;
        self.entry(&key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> R {
        key.serialize(KeyStr(|k: &str| self.entry(k, value)))
    }
    fn end(self) -> R {
        Ok(())
    }
}
