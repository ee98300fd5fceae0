//! Lists and objects: their elements are checked one by one, their sizes and `required` at the end.

use serde::ser::{self, Serialize};

use super::check::child;
use super::key::KeyWith;
use super::{Invalid, R, ok};
use crate::compiled::{Additional, Node};

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
