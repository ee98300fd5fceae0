//! The `FieldsV1` form of a [`Set`]: `{"f:spec":{".":{},"f:replicas":{}}}`.
//!
//! Mirrors structured-merge-diff `fieldpath/serialize.go` and `fieldpath/serialize-pe.go`. Each
//! path element is a key (`f:name`, `k:{"name":"a"}`, `v:"a"`, `i:0`); its object holds the
//! elements below it, and `"."` when the element itself is also a member. Keys are written in
//! structured-merge-diff's order (fields, keys, values, indices), the values inside `k:` and `v:`
//! as its JSON writer (json-iterator, standard-library mode) writes them: `<`, `>`, `&` escaped
//! in strings, map keys sorted.

use std::fmt::{self, Write as _};

use serde_json::{Map, Value};

use super::{FieldsBuilder, PathElement, Set, SetBuilder};

/// Why a `FieldsV1` document or a path element could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldsError(pub String);

impl fmt::Display for FieldsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FieldsError {}

/// A string as json-iterator's `WriteString` writes it: `"` and `\` escaped, `\n`, `\r`, `\t`,
/// other control characters as `\u00XX`; with `html`, also `<`, `>`, `&`, U+2028 and U+2029.
fn write_json_string(out: &mut String, s: &str, html: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u00{:02x}", c as u32);
            }
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if html => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A value as json-iterator's `WriteVal` of its unstructured form writes it.
fn write_json_value(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // Numbers print as Go's encoding/json prints int64 and float64.
        Value::Number(_) => out.push_str(&crdkit_apimachinery::gofmt::json(v)),
        Value::String(s) => write_json_string(out, s, true),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_value(out, item);
            }
            out.push(']');
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, k, true);
                out.push(':');
                write_json_value(out, &m[k]);
            }
            out.push('}');
        }
    }
}

/// `SerializePathElement`: `f:name`, `k:{"name":"a"}`, `v:"a"`, `i:0`.
#[must_use]
pub fn serialize_path_element(pe: &PathElement) -> String {
    let mut out = String::new();
    match pe {
        // Field names are written raw.
        PathElement::Field(name) => {
            out.reserve_exact(2 + name.len());
            out.push_str("f:");
            out.push_str(name);
        }
        PathElement::Key(fields) => {
            out.push_str("k:{");
            for (i, (name, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                // Key names go through WriteObjectField, which does not escape HTML.
                write_json_string(&mut out, name, false);
                out.push(':');
                write_json_value(&mut out, v);
            }
            out.push('}');
        }
        PathElement::Value(v) => {
            out.push_str("v:");
            write_json_value(&mut out, v);
        }
        PathElement::Index(i) => {
            let _ = write!(out, "i:{i}");
        }
    }
    out
}

/// What [`deserialize_path_element`] returns for a kind of element it does not know (`r:..`):
/// `FieldsV1` readers skip such keys, as a later version may define them.
pub const UNKNOWN_PATH_ELEMENT_TYPE: &str = "unknown path element type";

/// One JSON value filling `s` (whitespace around it allowed).
fn parse_json(s: &str) -> Result<Value, FieldsError> {
    serde_json::from_str(s).map_err(|e| FieldsError(e.to_string()))
}

/// `DeserializePathElement`.
///
/// # Errors
/// A key shorter than two bytes, without a colon after its kind, with malformed JSON or index, or
/// of an unknown kind ([`UNKNOWN_PATH_ELEMENT_TYPE`]).
pub fn deserialize_path_element(s: &str) -> Result<PathElement, FieldsError> {
    let b = s.as_bytes();
    if b.len() < 2 {
        return Err(FieldsError("key must be 2 characters long:".to_owned()));
    }
    if b[1] != b':' {
        return Err(FieldsError(format!("missing colon: {s}")));
    }
    let rest = &s[2..];
    match b[0] {
        b'f' => Ok(PathElement::Field(rest.to_owned())),
        b'v' => Ok(PathElement::Value(parse_json(rest)?)),
        b'k' => match parse_json(rest)? {
            Value::Object(m) => Ok(PathElement::key(m.into_iter().collect())),
            other => Err(FieldsError(format!(
                "ReadObjectCB: expect {{ or n, but found {}",
                other.to_string().chars().next().unwrap_or(' ')
            ))),
        },
        b'i' => rest
            .parse::<i64>()
            .map(PathElement::Index)
            .map_err(|_| FieldsError(format!("strconv.Atoi: parsing \"{rest}\": invalid syntax"))),
        _ => Err(FieldsError(UNKNOWN_PATH_ELEMENT_TYPE.to_owned())),
    }
}

/// The elements of a node in order, members and children merged (an element that is both comes
/// once): both are kept sorted, so one pass merges them.
struct Elements<'a> {
    members: std::iter::Peekable<std::slice::Iter<'a, PathElement>>,
    children: std::iter::Peekable<std::slice::Iter<'a, (PathElement, Set)>>,
}

impl<'a> Elements<'a> {
    fn of(set: &'a Set) -> Elements<'a> {
        Elements {
            members: set.members.iter().peekable(),
            children: set.children.as_slice().iter().peekable(),
        }
    }
}

impl<'a> Iterator for Elements<'a> {
    /// The element, whether it is a member, and the set below it.
    type Item = (&'a PathElement, bool, Option<&'a Set>);

    fn next(&mut self) -> Option<Self::Item> {
        let order = match (self.members.peek(), self.children.peek()) {
            (None, None) => return None,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(m), Some((c, _))) => (*m).cmp(c),
        };
        Some(match order {
            std::cmp::Ordering::Less => (self.members.next()?, true, None),
            std::cmp::Ordering::Greater => {
                let (pe, c) = self.children.next()?;
                (pe, false, Some(c))
            }
            std::cmp::Ordering::Equal => {
                self.members.next();
                let (pe, c) = self.children.next()?;
                (pe, true, Some(c))
            }
        })
    }
}

/// Whether a node is written with `"."` (its element is a member) and anything below.
fn has_entries(set: &Set) -> bool {
    !(set.members.is_empty() && set.children.is_empty())
}

impl Set {
    /// The `FieldsV1` JSON text, byte for byte as the API server writes it.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut out = String::from("{");
        // One frame per open object, with whether it has an entry yet; an explicit stack, as a
        // set is as deep as its object.
        let mut stack = vec![(Elements::of(self), false)];
        while let Some((elements, written)) = stack.last_mut() {
            let Some((pe, member, child)) = elements.next() else {
                stack.pop();
                out.push('}');
                continue;
            };
            if std::mem::replace(written, true) {
                out.push(',');
            }
            write_json_string(&mut out, &serialize_path_element(pe), false);
            out.push(':');
            match child {
                None => out.push_str("{}"),
                Some(c) => {
                    out.push('{');
                    let dot = member && has_entries(c);
                    if dot {
                        out.push_str("\".\":{}");
                    }
                    stack.push((Elements::of(c), dot));
                }
            }
        }
        out
    }

    /// The `FieldsV1` object as a JSON value (its keys in this crate's map order; see
    /// [`Set::to_json_string`] for the API server's bytes).
    #[must_use]
    pub fn to_value(&self) -> Value {
        // Each open node's object is filled, then moved into its parent's under its key.
        let mut stack: Vec<(Elements<'_>, Map<String, Value>, String)> = Vec::with_capacity(16);
        stack.push((Elements::of(self), Map::new(), String::new()));
        loop {
            let (elements, map, _) = stack.last_mut().expect("the root stays until the end");
            let Some((pe, member, child)) = elements.next() else {
                let (_, map, key) = stack.pop().expect("top");
                match stack.last_mut() {
                    Some((_, parent, _)) => {
                        parent.insert(key, Value::Object(map));
                    }
                    None => return Value::Object(map),
                }
                continue;
            };
            let key = serialize_path_element(pe);
            match child {
                None => {
                    map.insert(key, Value::Object(Map::new()));
                }
                Some(c) => {
                    let mut below = Map::new();
                    if member && has_entries(c) {
                        below.insert(".".to_owned(), Value::Object(Map::new()));
                    }
                    stack.push((Elements::of(c), below, key));
                }
            }
        }
    }

    /// Reads a `FieldsV1` document (`FromJSON`). Keys of unknown kinds are skipped with what is
    /// below them.
    ///
    /// # Errors
    /// Text that is not one JSON object, a key that is not a path element, a value that is not an
    /// object.
    pub fn from_json_str(s: &str) -> Result<Set, FieldsError> {
        let v: Value = serde_json::from_str(s).map_err(|e| FieldsError(e.to_string()))?;
        Set::from_value(&v)
    }

    /// Reads a `FieldsV1` object given as a JSON value.
    ///
    /// # Errors
    /// As [`Set::from_json_str`].
    pub fn from_value(v: &Value) -> Result<Set, FieldsError> {
        match v {
            // `null` reads as the empty set, as json-iterator reads a null map.
            Value::Null => Ok(Set::new()),
            Value::Object(_) => Ok(read_node(v)?.0.unwrap_or_default()),
            other => Err(FieldsError(format!(
                "ReadMapCB: expect {{ or n, but found {}",
                other.to_string().chars().next().unwrap_or(' ')
            ))),
        }
    }
}

/// `readIterV1`: the set below a node, and whether the node is itself a member (it holds `"."` or
/// nothing known).
fn read_node(v: &Value) -> Result<(Option<Set>, bool), FieldsError> {
    let Value::Object(m) = v else {
        return Err(FieldsError(format!(
            "ReadMapCB: expect {{ or n, but found {}",
            v.to_string().chars().next().unwrap_or(' ')
        )));
    };
    // Keys come in the text's order (sorted as strings, not as elements): the node is sorted
    // once when read.
    let mut children: Option<SetBuilder> = None;
    let mut is_member = false;
    for (key, child) in m {
        if key == "." {
            is_member = true;
            continue;
        }
        let pe = match deserialize_path_element(key) {
            Ok(pe) => pe,
            Err(e) if e.0 == UNKNOWN_PATH_ELEMENT_TYPE => continue,
            Err(e) => {
                return Err(FieldsError(format!("parsing key as path element: {}", e.0)));
            }
        };
        let (grandchildren, child_is_member) = read_node(child)?;
        if !child_is_member && grandchildren.is_none() {
            continue;
        }
        let node = children.get_or_insert_with(SetBuilder::default);
        match grandchildren {
            Some(g) => {
                if child_is_member {
                    node.add_member(pe.clone());
                }
                node.add_child(pe, g);
            }
            None => node.add_member(pe),
        }
    }
    if children.is_none() {
        is_member = true;
    }
    // Two keys of one element (`k:{"a":1}`, `k:{ "a": 1 }`): the later one's subtree replaces.
    Ok((children.map(SetBuilder::finish_last_wins), is_member))
}

/// A node of a `FieldsV1` object built as the walk goes, without a [`Set`] in between: the
/// object [`Set::to_value`] writes for the set [`SetBuilder`] would build from the same calls.
#[derive(Default)]
pub(crate) struct FieldsV1Builder(Map<String, Value>);

impl FieldsBuilder for FieldsV1Builder {
    type Out = Map<String, Value>;

    fn set_hint(&mut self, _: usize) {}

    fn add_member(&mut self, pe: PathElement) {
        match self.0.entry(serialize_path_element(&pe)) {
            serde_json::map::Entry::Vacant(v) => {
                v.insert(Value::Object(Map::new()));
            }
            // A node with elements below it says it is a member with `"."`.
            serde_json::map::Entry::Occupied(mut o) => {
                if let Value::Object(below) = o.get_mut()
                    && !below.is_empty()
                {
                    below.insert(".".to_owned(), Value::Object(Map::new()));
                }
            }
        }
    }

    fn attach(&mut self, pe: PathElement, member: bool, mut child: Map<String, Value>) {
        if child.is_empty() {
            if member {
                self.add_member(pe);
            }
            return;
        }
        if member {
            child.insert(".".to_owned(), Value::Object(Map::new()));
        }
        self.0
            .insert(serialize_path_element(&pe), Value::Object(child));
    }

    fn finish(self) -> Map<String, Value> {
        self.0
    }
}

/// [`Set::remove`] (with `recursive`, [`Set::remove_recursive`]) on a `FieldsV1` object: the
/// members of `other` are no longer members (recursively: gone with all below them), and a node
/// left without members or elements below it is gone. `other` is small (reset fields, the
/// fields nobody owns): the work follows its nodes.
pub(crate) fn remove_from_fields_v1(fields: &mut Map<String, Value>, other: &Set, recursive: bool) {
    for pe in other.members.iter() {
        let key = serialize_path_element(pe);
        match fields.get_mut(&key) {
            // A member with elements below it stays for them.
            Some(Value::Object(below)) if !recursive && !below.is_empty() => {
                below.remove(".");
            }
            Some(_) => {
                fields.remove(&key);
            }
            None => {}
        }
    }
    for (pe, theirs) in other.children.iter() {
        if recursive && other.members.contains(pe) {
            continue;
        }
        let key = serialize_path_element(pe);
        let Some(Value::Object(below)) = fields.get_mut(&key) else {
            continue;
        };
        // `{}`: a member with nothing below it.
        if below.is_empty() {
            continue;
        }
        let member = below.contains_key(".");
        remove_from_fields_v1(below, theirs, recursive);
        if below.len() == usize::from(member) {
            if member {
                below.clear();
            } else {
                fields.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fieldpath::set::tests::Rng;

    /// The removals on a `FieldsV1` object give what the set algebra gives, on generated sets
    /// (those of the set's own tests), in both directions, recursive or not.
    #[test]
    fn fields_v1_removals_are_the_set_algebra() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..400 {
            let a = Set::from_paths(rng.paths());
            let b = Set::from_paths(rng.paths());
            let u = a.union(&b);
            for (x, y, name) in [(&a, &b, "a - b"), (&b, &a, "b - a"), (&u, &a, "u - a")] {
                for recursive in [false, true] {
                    let mut want = x.clone();
                    match recursive {
                        false => want.remove(y),
                        true => want.remove_recursive(y),
                    }
                    let Value::Object(mut fields) = x.to_value() else {
                        panic!("an object");
                    };
                    remove_from_fields_v1(&mut fields, y, recursive);
                    assert_eq!(
                        Value::Object(fields),
                        want.to_value(),
                        "{case}: {name}, recursive {recursive}"
                    );
                }
            }
        }
    }
}
