//! Field selections resolved against the schema a program is compiled for
//! ([`CompileOptions::self_schema`](super::CompileOptions::self_schema)).
//!
//! `self.spec.replicas` on a JSON view builds a view per step: each property is looked up in
//! the schema (is it declared, which schema converts its value), then in the object, then
//! converted. When the program knows the schema of its variables, the checks are done once
//! here: a chain of declared properties is read straight from the JSON, as long as the variable
//! is bound to a view of that very schema (the program holds it, so its address identifies
//! it). An integer or a plain string at the end is read without conversion; anything else is
//! converted from its property's schema. A chain selected more than once is looked up once per
//! evaluation (charged every time). Anything off that path (another schema, a missing or null
//! property, a value of the wrong JSON type) takes the general path, which gives the same
//! results and errors.

use std::cell::Cell;

use serde_json::{Map as JsonMap, Value as Json};

use super::node::{Base, Leaf, Node, QualKind, Resolved};
use crate::schema::{SMALL_MAP, Schema, Type, same};
use crate::value::json::JsonObject;
use crate::value::{Str, Value};

/// A resolved chain: the variable's slot and the property names.
type Chain = (usize, Box<[Box<str>]>);

/// Annotates the attributes of `node` that select declared properties of `schema`; returns
/// the number of memo slots (chains selected more than once).
pub(crate) fn resolve_fields(node: &mut Node, schema: &dyn Schema) -> usize {
    let mut seen: Vec<(Chain, usize)> = Vec::new();
    annotate(node, schema, &mut seen);
    let repeated: Vec<Chain> = seen
        .into_iter()
        .filter_map(|(chain, n)| (n > 1).then_some(chain))
        .collect();
    if !repeated.is_empty() {
        assign_memos(node, &repeated);
    }
    repeated.len()
}

fn annotate(node: &mut Node, schema: &dyn Schema, seen: &mut Vec<(Chain, usize)>) {
    if let Node::Attr(a) = node
        && let Base::Var(var) = a.base
        && !a.test_only
        && let Some(r) = resolve(var, &a.quals, schema)
    {
        match seen.iter_mut().find(|(c, _)| c.0 == var && c.1 == r.names) {
            Some((_, n)) => *n += 1,
            None => seen.push(((var, r.names.clone()), 1)),
        }
        a.resolved = Some(Box::new(r));
    }
    node.for_each_child_mut(&mut |n| annotate(n, schema, seen));
}

fn assign_memos(node: &mut Node, repeated: &[Chain]) {
    if let Node::Attr(a) = node
        && let Some(r) = &mut a.resolved
    {
        r.memo = repeated
            .iter()
            .position(|(var, names)| *var == r.var && *names == r.names);
    }
    node.for_each_child_mut(&mut |n| assign_memos(n, repeated));
}

/// The properties selected by `quals` from a view of `schema`, if each is declared (and each
/// but the last is an object).
fn resolve(var: usize, quals: &[super::node::Qual], schema: &dyn Schema) -> Option<Resolved> {
    if quals.is_empty() {
        return None;
    }
    let mut names = Vec::with_capacity(quals.len());
    let mut s = schema;
    // The root may be bound as a resource, and embedded resources are: their `kind`,
    // `apiVersion` and `metadata` may be replaced (`WithTypeAndObjectMeta`).
    let mut resource = true;
    for q in quals {
        let QualKind::Field {
            unescaped: Some(name),
            ..
        } = &q.kind
        else {
            return None;
        };
        if q.optional
            || s.int_or_string()
            || s.ty() != Some(Type::Object)
            || (resource && matches!(&**name, "kind" | "apiVersion" | "metadata"))
        {
            return None;
        }
        s = s.property(name)?;
        resource = s.embedded_resource();
        names.push(name.clone());
    }
    let leaf = match s.ty() {
        _ if s.int_or_string() => Leaf::View,
        Some(Type::Integer) => Leaf::Int,
        Some(Type::String)
            if !matches!(s.format(), Some("duration" | "date" | "date-time" | "byte")) =>
        {
            Leaf::String
        }
        _ => Leaf::View,
    };
    Some(Resolved {
        var,
        names: names.into_boxed_slice(),
        leaf,
        memo: None,
    })
}

#[inline]
fn get<'a>(map: &'a JsonMap<String, Json>, key: &str) -> Option<&'a Json> {
    if map.len() <= SMALL_MAP {
        let key = key.as_bytes();
        map.iter()
            .find_map(|(k, v)| same(k.as_bytes(), key).then_some(v))
    } else {
        map.get(key)
    }
}

/// The memo slots of one evaluation: the JSON found at the end of repeated chains.
pub(crate) type Memos<'a> = [Cell<Option<&'a Json>>];

impl Resolved {
    /// The JSON at the end of the chain in `obj` (a view of the schema it was resolved
    /// against); `None` when a property is missing or null, or an intermediate value is not an
    /// object.
    #[inline]
    fn raw<'a>(&self, obj: &JsonObject<'a>, memos: &Memos<'a>) -> Option<&'a Json> {
        let memo = self.memo.and_then(|i| memos.get(i));
        if let Some(found) = memo.and_then(Cell::get) {
            return Some(found);
        }
        let (last, init) = self.names.split_last()?;
        let mut map = obj.map;
        for n in init {
            map = get(map, n)?.as_object()?;
        }
        // A null property is absent from the view.
        let found = get(map, last).filter(|v| !v.is_null())?;
        if let Some(m) = memo {
            m.set(Some(found));
        }
        Some(found)
    }

    /// The int at the end of the chain.
    #[inline]
    pub(crate) fn read_int<'a>(&self, obj: &JsonObject<'a>, memos: &Memos<'a>) -> Option<i64> {
        if self.leaf != Leaf::Int {
            return None;
        }
        self.raw(obj, memos)?.as_i64()
    }

    /// The value at the end of the chain; `None` when the general path must decide (also
    /// when the value does not fit its schema, to raise the error as the general path does).
    #[inline]
    pub(crate) fn read<'a>(&self, obj: &JsonObject<'a>, memos: &Memos<'a>) -> Option<Value<'a>> {
        let raw = self.raw(obj, memos)?;
        match self.leaf {
            Leaf::Int => raw.as_i64().map(Value::Int),
            Leaf::String => raw.as_str().map(|s| Value::String(Str::Borrowed(s))),
            Leaf::View => {
                let mut schema = obj.schema;
                for n in &self.names {
                    schema = schema.property(n)?;
                }
                crate::value::json::from_json(raw, schema, false).ok()
            }
        }
    }
}
