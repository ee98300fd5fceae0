//! `x-kubernetes-list-type: set` and `map` uniqueness.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/listtype/validation.go`
//! (`ValidateListSetsAndMaps`): the second and later occurrences of a set element or map key are
//! reported once each (`Duplicate value`), map lists must hold objects (or nulls), and a missing
//! key counts as a key value of its own. What differs from Go: object keys are visited in order.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::compiled::number::Num;
use crate::walk::MAX_DEPTH;
use crate::walk::node::SchemaNode;
use crate::walk::trail::{LazyPath, Trail};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::gofmt;
use crdkit_schema::{ListType, Structural};

/// Validates the list-type invariants below the object `obj` (whose schema is `s`).
pub fn validate_list_sets_and_maps(
    path: &FieldPath,
    s: &Structural,
    obj: &Value,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    list_sets_and_maps(path, s, obj, &mut errs);
    errs
}

/// [`validate_list_sets_and_maps`] over any schema tree; subtrees without set or map lists are
/// skipped.
pub(crate) fn list_sets_and_maps<S: SchemaNode>(
    path: &FieldPath,
    s: &S,
    obj: &Value,
    errs: &mut Vec<FieldError>,
) {
    if let Value::Object(map) = obj {
        Walk { base: path, errs }.object(&Trail::ROOT, s, map, None, 0);
    }
}

/// [`list_sets_and_maps`] of `new` on update, leaving out each list whose errors are those of
/// the list at the same path in `old` (a set list equal to it, a map list with the same items'
/// kinds and keys at the same places).
///
/// The API server reports the list-type errors of an update only when the old object had none,
/// so such a list changes nothing: its errors, when it has some, are the old object's, which
/// silence the update's anyway. Only when what is left has errors does the caller need the
/// whole of both.
pub(crate) fn changed_list_sets_and_maps<S: SchemaNode>(
    path: &FieldPath,
    s: &S,
    new: &Value,
    old: &Value,
    errs: &mut Vec<FieldError>,
) {
    if let Value::Object(map) = new {
        Walk { base: path, errs }.object(&Trail::ROOT, s, map, old.as_object(), 0);
    }
}

/// Validates the list-type invariants of any value (an object or a list) whose schema is `s`.
pub(crate) fn validate_value<S: SchemaNode>(path: &FieldPath, s: &S, v: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    Walk {
        base: path,
        errs: &mut errs,
    }
    .value(&Trail::ROOT, s, v, None, 0);
    errs
}

struct Walk<'p, 'e> {
    base: &'p FieldPath,
    errs: &'e mut Vec<FieldError>,
}

/// The old value at the same path, on update.
type Old<'v> = Option<&'v Value>;

impl Walk<'_, '_> {
    fn object<S: SchemaNode>(
        &mut self,
        at: &Trail,
        s: &S,
        obj: &Map<String, Value>,
        old: Option<&Map<String, Value>>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH || !s.has_list_types() {
            return;
        }
        let old_of = |k: &str| old.and_then(|m| m.get(k));
        if let Some(Some(ap)) = s.additional() {
            for (k, v) in obj {
                self.value(&at.key(k), ap, v, old_of(k), depth + 1);
            }
        }
        let mut cursor = 0;
        for (k, v) in obj {
            if let Some(sub) = s.property_at(k, &mut cursor) {
                self.value(&at.child(k), sub, v, old_of(k), depth + 1);
            }
        }
    }

    fn value<S: SchemaNode>(&mut self, at: &Trail, s: &S, v: &Value, old: Old, depth: usize) {
        match v {
            Value::Array(items) => {
                let old = old.and_then(Value::as_array).map(Vec::as_slice);
                self.array(at, s, items, old, depth);
            }
            Value::Object(map) => self.object(at, s, map, old.and_then(Value::as_object), depth),
            _ => {}
        }
    }

    fn array<S: SchemaNode>(
        &mut self,
        at: &Trail,
        s: &S,
        items: &[Value],
        old: Option<&[Value]>,
        depth: usize,
    ) {
        if !s.has_list_types() {
            return;
        }
        let same_errors = old.is_some_and(|old| same_errors(s, items, old));
        match s.list_type() {
            _ if same_errors => {}
            Some(ListType::Set) => {
                for i in non_unique(items.iter().map(Some)) {
                    self.errs.push(FieldError::duplicate(
                        &at.index(i).field_path(self.base),
                        BadValue::from(&items[i]),
                    ));
                }
            }
            Some(ListType::Map) => {
                let make = || at.field_path(self.base);
                list_map(&LazyPath::new(&make), s.list_map_keys(), items, self.errs);
            }
            _ => {}
        }
        if let Some(item) = s.items() {
            for (i, v) in items.iter().enumerate() {
                let old_item = old.and_then(|o| o.get(i));
                self.value(&at.index(i), item, v, old_item, depth + 1);
            }
        }
    }
}

/// Whether the list-type errors of list `items` (schema `s`) are those of `old` at the same path.
fn same_errors<S: SchemaNode>(s: &S, items: &[Value], old: &[Value]) -> bool {
    match s.list_type() {
        Some(ListType::Set) => items == old,
        Some(ListType::Map) => {
            items.len() == old.len()
                && items.iter().zip(old).all(|(a, b)| match (a, b) {
                    (Value::Object(a), Value::Object(b)) => {
                        s.list_map_keys().iter().all(|k| a.get(k) == b.get(k))
                    }
                    (Value::Null, Value::Null) => true,
                    // Not an object: reported with its value.
                    _ => a == b,
                })
        }
        _ => true,
    }
}

/// A set element as Go keys it: scalars by type and value, compounds by their JSON, and a missing
/// map key (Go's `unspecifiedKeyValue{}`) as a value of its own.
#[derive(PartialEq, Eq, Hash)]
enum Key<'a> {
    Unspecified,
    Compound(String),
    Null,
    Bool(bool),
    Str(&'a str),
    Int(i64),
    /// The bits of a float, `0.0` and `-0.0` alike.
    Float(u64),
}

fn key_of(v: Option<&Value>) -> Key<'_> {
    match v {
        None => Key::Unspecified,
        Some(v @ (Value::Object(_) | Value::Array(_))) => Key::Compound(gofmt::json(v)),
        Some(Value::Null) => Key::Null,
        Some(Value::Bool(b)) => Key::Bool(*b),
        Some(Value::String(s)) => Key::Str(s),
        Some(Value::Number(n)) => match Num::of(n) {
            Num::Int(i) => Key::Int(i),
            Num::Float(f) => Key::Float(if f == 0.0 { 0 } else { f.to_bits() }),
        },
    }
}

/// The indices of the second occurrence of each repeated element (`validateListSet`).
fn non_unique<'a>(items: impl ExactSizeIterator<Item = Option<&'a Value>>) -> Vec<usize> {
    if items.len() <= 1 {
        return Vec::new();
    }
    let mut seen: HashMap<Key, usize> = HashMap::with_capacity(items.len());
    let mut out = Vec::new();
    for (i, v) in items.enumerate() {
        let times = seen.entry(key_of(v)).or_insert(0);
        *times += 1;
        if *times == 2 {
            out.push(i);
        }
    }
    out
}

fn list_map(path: &LazyPath, keys: &[String], items: &[Value], errs: &mut Vec<FieldError>) {
    for (i, x) in items.iter().enumerate() {
        if !x.is_null() && !x.is_object() {
            errs.push(FieldError::invalid(
                &path.get().index(i),
                BadValue::from(x),
                "must be an object for an array of list-type map",
            ));
            return;
        }
    }
    if items.len() <= 1 {
        return;
    }
    if let [key] = keys {
        fn val<'v>(x: &'v Value, key: &str) -> Option<&'v Value> {
            x.as_object().and_then(|m| m.get(key))
        }
        for i in non_unique(items.iter().map(|x| val(x, key))) {
            let mut m = Map::new();
            if let Some(v) = val(&items[i], key) {
                m.insert(key.clone(), v.clone());
            }
            errs.push(FieldError::duplicate(
                &path.get().index(i),
                BadValue::Json(Value::Object(m)),
            ));
        }
        return;
    }
    let composite: Vec<Value> = items
        .iter()
        .map(|x| {
            let mut m = Map::new();
            if let Some(obj) = x.as_object() {
                for k in keys {
                    if let Some(v) = obj.get(k) {
                        m.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(m)
        })
        .collect();
    for i in non_unique(composite.iter().map(Some)) {
        errs.push(FieldError::duplicate(
            &path.get().index(i),
            BadValue::Json(composite[i].clone()),
        ));
    }
}
