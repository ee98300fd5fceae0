//! Removing (or keeping only) the fields and items of a set.
//!
//! Mirrors structured-merge-diff `typed/remove.go`. A container left with nothing becomes
//! `null` where it stood, as there. Atomic containers are leaves: removed whole, or extracted
//! whole.

use serde_json::{Map, Value};

use super::{Shape, Walk, deduce, list_item_element, pick};
use crate::fieldpath::{Path, PathElement, Set};
use crate::schema::TypeId;

impl Walk<'_> {
    /// `removeItemsWithSchema`: `v` without the members of `set`, or with only them (`extract`).
    pub(crate) fn remove(&self, v: &Value, set: &Set, t: TypeId, extract: bool) -> Value {
        let atom = self.schema.atom(t);
        let Ok(shape) = pick(atom, deduce(atom, Some(v))) else {
            return Value::Null;
        };
        match shape {
            Shape::Scalar => v.clone(),
            Shape::List => {
                let Value::Array(items) = v else {
                    return Value::Null;
                };
                let list = atom.list.as_ref().expect("picked");
                // Empty lists and atomic ones are returned whole by extraction, dropped by removal.
                if items.is_empty() || !list.associative {
                    return if extract { v.clone() } else { Value::Null };
                }
                let elem = list.elem.unwrap_or(crate::schema::DEDUCED);
                let mut out = Vec::new();
                for item in items {
                    let Ok(pe) = list_item_element(self.schema, list, item) else {
                        // An item without a key matches nothing in the set.
                        if !extract {
                            out.push(item.clone());
                        }
                        continue;
                    };
                    let exact = set.has(&Path(vec![pe.clone()]));
                    let below = set.with_prefix(&pe);
                    let prefix = !below.is_empty();
                    if extract {
                        let item = if prefix {
                            self.remove(item, below, elem, true)
                        } else {
                            item.clone()
                        };
                        if exact || prefix {
                            out.push(item);
                        }
                    } else {
                        if exact {
                            continue;
                        }
                        out.push(if prefix {
                            self.remove(item, below, elem, false)
                        } else {
                            item.clone()
                        });
                    }
                }
                if out.is_empty() {
                    Value::Null
                } else {
                    Value::Array(out)
                }
            }
            Shape::Map => {
                let Value::Object(m) = v else {
                    return Value::Null;
                };
                let map = atom.map.as_ref().expect("picked");
                if m.is_empty() || map.atomic {
                    return if extract { v.clone() } else { Value::Null };
                }
                let mut out = Map::new();
                for (k, val) in m {
                    let pe = PathElement::Field(k.clone());
                    let ty = map.type_of(k).unwrap_or(crate::schema::DEDUCED);
                    if set.has(&Path(vec![pe.clone()])) {
                        if extract {
                            // structured-merge-diff walks the whole set again below a member.
                            out.insert(k.clone(), self.remove(val, set, ty, true));
                        }
                        continue;
                    }
                    let below = set.with_prefix(&pe);
                    if below.is_empty() {
                        if extract {
                            continue;
                        }
                        out.insert(k.clone(), val.clone());
                    } else {
                        out.insert(k.clone(), self.remove(val, below, ty, extract));
                    }
                }
                if out.is_empty() {
                    Value::Null
                } else {
                    Value::Object(out)
                }
            }
        }
    }
}
