//! The walk over an object: validation.go `validate`, `validateMap` and `validateArray`, and
//! the `ratchetingOptions` carried along (`key`, `index`, `shouldRatchetError`).
//!
//! `oldSelf` follows the old object where it correlates: object properties and map values by
//! key, items of map lists by their map keys; items of other lists never have one.

use std::rc::Rc;

use serde_json::{Map, Value};

use super::Node;
use crate::ratchet::{Correlated, MapList};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_schema::Structural;

/// One run of a validator: the budget left and the errors so far.
pub(super) struct Walk {
    pub(super) budget: i64,
    pub(super) errors: Vec<FieldError>,
    /// Failures dropped by ratcheting (the API server returns them as warnings).
    pub(super) warnings: Vec<FieldError>,
    pub(super) per_call_limit: u64,
}

/// `ratchetingOptions`: the correlated node (`None` where the old object does not correlate)
/// and the nearest correlated ancestor.
#[derive(Clone, Default)]
pub(super) struct Ratchet<'c> {
    pub(super) current: Option<Rc<Correlated<'c>>>,
    pub(super) parent: Option<Rc<Correlated<'c>>>,
}

impl<'c> Ratchet<'c> {
    /// `shouldRatchetError`: the node, or else its nearest correlated ancestor, is unchanged.
    pub(super) fn should_ratchet(&self) -> bool {
        match (&self.current, &self.parent) {
            (Some(c), _) => c.cached_deep_equal(),
            (None, Some(p)) => p.cached_deep_equal(),
            (None, None) => false,
        }
    }

    fn key(&self, field: &str) -> Ratchet<'c> {
        let Some(current) = &self.current else {
            return self.clone();
        };
        // apiVersion and kind of the root are not visible to ratcheting.
        if self.parent.is_none() && (field == "apiVersion" || field == "kind") {
            return Ratchet::default();
        }
        Ratchet {
            current: current.key(field),
            parent: Some(current.clone()),
        }
    }

    fn index(&self, i: usize) -> Ratchet<'c> {
        let Some(current) = &self.current else {
            return self.clone();
        };
        Ratchet {
            current: current.index(i),
            parent: Some(current.clone()),
        }
    }
}

impl Walk {
    pub(super) fn new(budget: i64, per_call_limit: u64) -> Walk {
        Walk {
            budget,
            errors: Vec::new(),
            warnings: Vec::new(),
            per_call_limit,
        }
    }

    /// `Validator.validate`: the node's rules, its `allOf` branches, then its children. Null
    /// values are not validated (a rule on the parent can check them).
    pub(super) fn validate(
        &mut self,
        node: &Node,
        schema: &Structural,
        path: &FieldPath,
        obj: &Value,
        old: Option<&Value>,
        ratchet: &Ratchet<'_>,
    ) {
        if obj.is_null() {
            return;
        }
        let old = old.filter(|o| !o.is_null());
        self.expressions(node, schema, path, obj, old, ratchet);
        if self.budget < 0 {
            return;
        }
        for branch in &node.all_of {
            // allOf errors are not ratcheted on the node itself, as schema ratcheting does.
            let r = Ratchet {
                current: None,
                parent: ratchet.parent.clone(),
            };
            self.validate(branch, schema, path, obj, old, &r);
            if self.budget < 0 {
                return;
            }
        }
        match obj {
            Value::Array(items) => self.validate_array(node, schema, path, items, old, ratchet),
            Value::Object(map) => self.validate_map(node, schema, path, map, old, ratchet),
            _ => {}
        }
    }

    fn validate_map(
        &mut self,
        node: &Node,
        schema: &Structural,
        path: &FieldPath,
        map: &Map<String, Value>,
        old: Option<&Value>,
        ratchet: &Ratchet<'_>,
    ) {
        if self.budget < 0 {
            return;
        }
        // Both map types (granular, atomic) correlate by key.
        let old = old.and_then(Value::as_object);
        if let (Some(sub), Some(sub_schema)) =
            (&node.additional, schema.additional_properties_schema())
        {
            for (k, v) in map {
                let old_v = old.and_then(|o| o.get(k));
                self.validate(sub, sub_schema, &path.key(k), v, old_v, &ratchet.key(k));
                if self.budget < 0 {
                    return;
                }
            }
        }
        if !node.properties.is_empty() {
            for (k, v) in map {
                let (Some(sub), Some(sub_schema)) =
                    (node.properties.get(k), schema.properties.get(k))
                else {
                    continue;
                };
                let old_v = old.and_then(|o| o.get(k));
                self.validate(sub, sub_schema, &path.child(k), v, old_v, &ratchet.key(k));
                if self.budget < 0 {
                    return;
                }
            }
        }
    }

    fn validate_array(
        &mut self,
        node: &Node,
        schema: &Structural,
        path: &FieldPath,
        items: &[Value],
        old: Option<&Value>,
        ratchet: &Ratchet<'_>,
    ) {
        if self.budget < 0 {
            return;
        }
        let (Some(sub), Some(sub_schema)) = (&node.items, schema.items.as_deref()) else {
            return;
        };
        // Only map lists correlate their items with the old ones.
        let old_items = old.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let old_list = MapList::new(schema, old_items);
        for (i, v) in items.iter().enumerate() {
            let old_v = old_list.get(v);
            self.validate(sub, sub_schema, &path.index(i), v, old_v, &ratchet.index(i));
            if self.budget < 0 {
                return;
            }
        }
    }
}
