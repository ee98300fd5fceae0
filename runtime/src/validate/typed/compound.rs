//! Lists and objects: their elements are checked one by one, their sizes and `required` at the end.

use serde::ser::{self, Serialize};

use super::check::child;
use super::key::KeyWith;
use super::meta;
use super::{Invalid, R, RootState, ok};
use crate::validate::CompiledSchema;
use crate::validate::compile::{Additional, Node};

/// Checks the elements of a list.
pub(super) struct SeqCheck<'a> {
    node: Option<&'a Node>,
    depth: usize,
    count: i64,
}

impl<'a> SeqCheck<'a> {
    pub(super) fn new(node: Option<&'a Node>, depth: usize) -> SeqCheck<'a> {
        SeqCheck {
            node,
            depth,
            count: 0,
        }
    }
}

impl ser::SerializeSeq for SeqCheck<'_> {
    type Ok = ();
    type Error = Invalid;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        self.count += 1;
        let item = self.node.and_then(|n| n.items.as_deref());
        child(item, self.depth + 1, value)
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
pub(super) struct MapCheck<'a, 'r> {
    node: Option<&'a Node>,
    depth: usize,
    count: i64,
    required_seen: usize,
    /// The key given by `serialize_key`, for `serialize_value` (the buffer is reused).
    key: String,
    key_pending: bool,
    root: Option<(&'r mut RootState, &'a CompiledSchema)>,
}

impl<'a, 'r> MapCheck<'a, 'r> {
    pub(super) fn new(
        node: Option<&'a Node>,
        depth: usize,
        root: Option<(&'r mut RootState, &'a CompiledSchema)>,
    ) -> MapCheck<'a, 'r> {
        MapCheck {
            node,
            depth,
            count: 0,
            required_seen: 0,
            key: String::new(),
            key_pending: false,
            root,
        }
    }

    pub(super) fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> R {
        self.count += 1;
        if let Some((root, schema)) = &mut self.root {
            let info = &schema.resource;
            match key {
                "metadata" => {
                    root.metadata = Some(meta::root_metadata_passes(value, info.namespaced)?)
                }
                "kind" => root.kind = Some(meta::str_equals(value, &info.kind)?),
                "apiVersion" => {
                    root.api_version = Some(meta::str_equals(value, &info.api_version)?)
                }
                _ => {}
            }
        }
        let Some(n) = self.node else { return Ok(()) };
        if let Some(p) = n.property_entry(key) {
            self.required_seen += p.required;
            return child(Some(&p.node), self.depth + 1, value);
        }
        if !n.required.is_empty() {
            self.required_seen += n.required.iter().filter(|r| r.as_str() == key).count();
        }
        match &n.additional {
            Some(Additional::Schema(ap)) => child(Some(ap), self.depth + 1, value),
            Some(Additional::Bool(false)) => Err(Invalid),
            _ => Ok(()),
        }
    }

    pub(super) fn finish(self) -> R {
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
        let buf = &mut self.key;
        key.serialize(KeyWith::new(|k: &str| {
            buf.clear();
            buf.push_str(k);
            Ok(())
        }))?;
        self.key_pending = true;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        if !std::mem::take(&mut self.key_pending) {
            return Err(Invalid);
        }
        let key = std::mem::take(&mut self.key);
        let r = self.field(&key, value);
        self.key = key;
        r
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> R {
        key.serialize(KeyWith::new(|k: &str| self.field(k, value)))
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
