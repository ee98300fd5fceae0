//! Old/new correlation for validation ratcheting, with a cached deep-equal.
//!
//! Mirrors apiserver `pkg/cel/common/equality.go` (`CorrelatedObject`) and `maplist.go`
//! (`MakeMapList`). A [`Correlated`] node pairs a value of the new object with the value at the
//! same place in the old object, when there is one: object properties and map entries correlate
//! by key, items of `x-kubernetes-list-type: map` lists by their map keys; nothing else does
//! (atomic and set lists are compared as a whole). [`Correlated::cached_deep_equal`] tells
//! whether a node is unchanged, reusing what its children already found.
//!
//! ```
//! use crdkit_apiextensions::ratchet::Correlated;
//! use crdkit_schema::{Structural, Type};
//! use serde_json::json;
//!
//! let mut s = Structural::of_type(Type::Object);
//! s.properties.insert("a".into(), Structural::of_type(Type::Integer));
//! s.properties.insert("b".into(), Structural::of_type(Type::Integer));
//! let (new, old) = (json!({"a": 1, "b": 2}), json!({"a": 1, "b": 3}));
//! let root = Correlated::new(&new, &old, &s);
//! assert!(!root.cached_deep_equal());
//! assert!(root.key("a").unwrap().cached_deep_equal());
//! assert!(!root.key("b").unwrap().cached_deep_equal());
//! ```
//!
//! What differs from Go: JSON `null` plays Go's `nil`, and numbers compare as
//! `reflect.DeepEqual` compares the `int64`/`float64` of decoded JSON (`1` and `1.0` differ).

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::compiled::properties::sorted_maps;
use crate::walk::MAX_DEPTH;
use crate::walk::node::SchemaNode;
use crdkit_schema::{ListType, Structural, Type};

/// One step from a node to a child.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Step {
    Key(String),
    Index(usize),
}

/// A node of the new object with its correlated old value (Go's `CorrelatedObject`).
#[derive(Debug)]
pub struct Correlated<'a> {
    /// The value in the new object.
    pub new: &'a Value,
    /// The correlated value in the old object.
    pub old: &'a Value,
    /// The schema of both.
    pub schema: &'a Structural,
    equal: Cell<Option<bool>>,
    /// The old items keyed by their map keys, built on the first item lookup of a map list.
    map_list: OnceCell<MapList<'a>>,
    children: RefCell<HashMap<Step, Option<Rc<Correlated<'a>>>>>,
}

impl<'a> Correlated<'a> {
    /// The root of an update: the new and old object, both with schema `schema`.
    #[must_use]
    pub fn new(new: &'a Value, old: &'a Value, schema: &'a Structural) -> Rc<Correlated<'a>> {
        Rc::new(Correlated {
            new,
            old,
            schema,
            equal: Cell::new(None),
            map_list: OnceCell::new(),
            children: RefCell::new(HashMap::new()),
        })
    }

    /// The child at property or map key `field`: `None` when the key is missing in either
    /// object, when either is not an object, or when the schema has neither a property nor an
    /// `additionalProperties` schema for it (`Key`).
    #[must_use]
    pub fn key(&self, field: &str) -> Option<Rc<Correlated<'a>>> {
        let step = Step::Key(field.to_owned());
        if let Some(c) = self.children.borrow().get(&step) {
            return c.clone();
        }
        let child = self.correlate_key(field);
        self.children.borrow_mut().insert(step, child.clone());
        child
    }

    fn correlate_key(&self, field: &str) -> Option<Rc<Correlated<'a>>> {
        let (Value::Object(old), Value::Object(new)) = (self.old, self.new) else {
            return None;
        };
        let (old, new) = (old.get(field)?, new.get(field)?);
        let schema = match self.schema.properties.get(field) {
            Some(p) => p,
            None => self.schema.additional_properties_schema()?,
        };
        Some(Correlated::new(new, old, schema))
    }

    /// The child at list index `index`: only items of `x-kubernetes-list-type: map` lists
    /// correlate, with the old item of the same map keys (`Index`).
    #[must_use]
    pub fn index(&self, index: usize) -> Option<Rc<Correlated<'a>>> {
        let step = Step::Index(index);
        if let Some(c) = self.children.borrow().get(&step) {
            return c.clone();
        }
        let child = self.correlate_index(index);
        self.children.borrow_mut().insert(step, child.clone());
        child
    }

    fn correlate_index(&self, index: usize) -> Option<Rc<Correlated<'a>>> {
        let (Value::Array(old), Value::Array(new)) = (self.old, self.new) else {
            return None;
        };
        let item = new.get(index)?;
        if self.schema.extensions.list_type != Some(ListType::Map) {
            return None;
        }
        let old_item = self
            .map_list
            .get_or_init(|| MapList::new(self.schema, old))
            .get(item)?;
        let items = self.schema.items.as_deref()?;
        Some(Correlated::new(item, old_item, items))
    }

    /// Whether the new value deep-equals the old one (`CachedDeepEqual`). Objects with a key
    /// that does not correlate are unequal; map lists compare item by item through their keys,
    /// so reordering them keeps them equal; other lists compare as a whole.
    #[must_use]
    pub fn cached_deep_equal(&self) -> bool {
        if let Some(e) = self.equal.get() {
            return e;
        }
        let e = self.deep_equal();
        self.equal.set(Some(e));
        e
    }

    fn deep_equal(&self) -> bool {
        match (self.old, self.new) {
            // A map list of this node compares through its correlated items, which the
            // validation of an update asks for again.
            (Value::Array(old), Value::Array(new))
                if self.schema.extensions.list_type == Some(ListType::Map) =>
            {
                old.len() == new.len()
                    && (0..new.len()).all(|i| self.index(i).is_some_and(|c| c.cached_deep_equal()))
            }
            _ => unchanged(self.schema, self.new, self.old, 0),
        }
    }
}

/// [`Correlated::cached_deep_equal`] of a subtree without building its correlation, over a
/// structural schema or its compiled nodes: objects compare key by key (a key without a schema,
/// or missing in `old`, makes them unequal), items of map lists through their map keys
/// (reordering them is no change), other values as decoded JSON (`1` and `1.0` differ, as
/// `int64` and `float64` do in Go).
pub(crate) fn unchanged<S: SchemaNode>(s: &S, new: &Value, old: &Value, depth: usize) -> bool {
    match (new, old) {
        (Value::Object(map), Value::Object(old_map)) => {
            if map.len() != old_map.len() || depth > MAX_DEPTH {
                return false;
            }
            if !sorted_maps() {
                return map.iter().all(|(k, v)| match (old_map.get(k), s.field(k)) {
                    (Some(old_v), Some(c)) => unchanged(c, v, old_v, depth + 1),
                    _ => false,
                });
            }
            // Both iterate in key order, so equal key sets pair up.
            let mut cursor = 0;
            map.iter().zip(old_map).all(|((k, v), (old_k, old_v))| {
                let child = match s.property_at(k, &mut cursor) {
                    Some(p) => Some(p),
                    None => s.additional().flatten(),
                };
                str_eq(k, old_k) && child.is_some_and(|c| unchanged(c, v, old_v, depth + 1))
            })
        }
        (Value::Array(items), Value::Array(old_items)) if s.list_type() == Some(ListType::Map) => {
            if items.len() != old_items.len() || depth > MAX_DEPTH {
                return false;
            }
            let Some(item) = s.items() else {
                // Nothing correlates.
                return items.is_empty();
            };
            let olds = MapList::with_keys(map_list_keys(s), old_items);
            items.iter().all(|v| {
                olds.get(v)
                    .is_some_and(|old_v| unchanged(item, v, old_v, depth + 1))
            })
        }
        _ => json_eq(new, old),
    }
}

/// `==` of decoded JSON as serde_json has it (integers and floats differ, as in Go's
/// `reflect.DeepEqual` of `int64` and `float64`), faster on the short keys and strings of
/// Kubernetes objects: comparing an unchanged object with its old self is most of an update.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => str_eq(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && if sorted_maps() {
                    x.iter()
                        .zip(y)
                        .all(|((k, a), (l, b))| str_eq(k, l) && json_eq(a, b))
                } else {
                    x.iter()
                        .all(|(k, a)| y.get(k).is_some_and(|b| json_eq(a, b)))
                }
        }
        _ => a == b,
    }
}

/// `a == b` without a call to `memcmp` for strings of up to 16 bytes: two overlapping loads.
#[inline]
fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    fn word<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
        let mut w = [0; N];
        w.copy_from_slice(&s[at..at + N]);
        w
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        8..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        _ => a == b,
    }
}

/// The keys the items of a map list correlate by (none, so nothing correlates, unless the
/// schema is an array with keys).
pub(crate) fn map_list_keys<S: SchemaNode>(s: &S) -> &[String] {
    if s.is_array() && s.list_type() == Some(ListType::Map) {
        s.list_map_keys()
    } else {
        &[]
    }
}

/// The items of a map list by their map keys (`MakeMapList`): [`MapList::get`] finds the first
/// item whose keys equal those of a given item.
#[derive(Debug)]
pub struct MapList<'a> {
    keys: &'a [String],
    items: &'a [Value],
    /// Items keyed so far (keying is lazy, as in Go), and how many items were looked at.
    keyed: RefCell<(KeyedItems<'a>, usize)>,
}

type KeyedItems<'a> = HashMap<Key<'a>, &'a Value, foldhash::quality::RandomState>;

/// A map-list key: the single key's scalar, or all keys rendered as Go renders them.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Key<'a> {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(&'a str),
    Composite(String),
}

impl<'a> MapList<'a> {
    /// The old items of a map list; empty unless `schema` is a map list with keys.
    #[must_use]
    pub fn new(schema: &'a Structural, items: &'a [Value]) -> MapList<'a> {
        let is_map = schema.generic.ty == Some(Type::Array)
            && schema.extensions.list_type == Some(ListType::Map)
            && !schema.extensions.list_map_keys.is_empty();
        MapList {
            keys: if is_map {
                &schema.extensions.list_map_keys
            } else {
                &[]
            },
            items: if is_map { items } else { &[] },
            keyed: RefCell::new((HashMap::default(), 0)),
        }
    }

    /// The old items of a map list with keys `keys` (none: nothing correlates).
    #[must_use]
    pub fn with_keys(keys: &'a [String], items: &'a [Value]) -> MapList<'a> {
        MapList {
            keys,
            items: if keys.is_empty() { &[] } else { items },
            keyed: RefCell::new((HashMap::default(), 0)),
        }
    }

    /// The first item with the same map keys as `item` (`None` if `item` is not an object or
    /// lacks a key, or no item matches).
    #[must_use]
    pub fn get(&self, item: &Value) -> Option<&'a Value> {
        if self.keys.is_empty() {
            return None;
        }
        let key = self.key_of(item.as_object()?)?;
        let mut keyed = self.keyed.borrow_mut();
        let (map, seen) = &mut *keyed;
        if *seen == 0 {
            map.reserve(self.items.len());
        }
        // Items in the old order (the usual update) are found at the next unkeyed place: one
        // hash per item.
        if let Some(candidate) = self.items.get(*seen)
            && let Some(k) = candidate.as_object().and_then(|m| self.key_of(m))
            && k == key
        {
            *seen += 1;
            return Some(map.entry(k).or_insert(candidate));
        }
        if let Some(v) = map.get(&key) {
            return Some(v);
        }
        while *seen < self.items.len() {
            let candidate = &self.items[*seen];
            *seen += 1;
            let Some(k) = candidate.as_object().and_then(|m| self.key_of(m)) else {
                continue;
            };
            let found = k == key;
            map.entry(k).or_insert(candidate);
            if found {
                return Some(candidate);
            }
        }
        None
    }

    fn key_of<'v>(&self, obj: &'v Map<String, Value>) -> Option<Key<'v>> {
        if let [key] = self.keys {
            return match obj.get(key)? {
                Value::Bool(b) => Some(Key::Bool(*b)),
                Value::Number(n) => Some(match n.as_i64() {
                    Some(i) => Key::Int(i),
                    None => Key::Float(n.as_f64().unwrap_or(f64::NAN).to_bits()),
                }),
                Value::String(s) => Some(Key::Str(s)),
                _ => None,
            };
        }
        use std::fmt::Write as _;
        let mut out = String::new();
        for key in self.keys {
            out.push('\0');
            match obj.get(key)? {
                Value::Bool(b) => {
                    let _ = write!(out, "{b}");
                }
                Value::Number(n) => match n.as_i64() {
                    Some(i) => {
                        let _ = write!(out, "{i}");
                    }
                    // Go's %f: six decimals.
                    None => {
                        let _ = write!(out, "{:.6}", n.as_f64().unwrap_or(f64::NAN));
                    }
                },
                Value::String(s) => out.push_str(&crdkit_apimachinery::gofmt::quote(s)),
                _ => return None,
            }
        }
        Some(Key::Composite(out))
    }
}
