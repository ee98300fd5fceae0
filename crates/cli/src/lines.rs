//! The line of a field in a manifest (`spec.ports[0].name` → line 14), for reports that point at
//! the field rather than at the document (`--output github`).
//!
//! The file is read again as YAML (JSON is YAML too) into a tree of keys with the line where
//! each value starts; a path is followed as far as the tree goes, so a field that validation
//! added (a default) or that is missing (`Required value`) points at its nearest parent.

use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

/// The lines of one file's documents.
pub struct Lines {
    docs: Vec<Node>,
}

/// A value and the line where it starts.
#[derive(Debug, Default)]
struct Node {
    line: u64,
    kids: Kids,
}

#[derive(Debug, Default)]
enum Kids {
    #[default]
    Leaf,
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
}

impl Lines {
    /// Reads `text`; a text that does not parse has no lines (reports fall back to the
    /// document's).
    #[must_use]
    pub fn new(text: &str) -> Lines {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let docs: Vec<Spanned<Tree>> =
            serde_saphyr::from_multiple_with_options(text, crate::load::yaml_options())
                .unwrap_or_default();
        Lines {
            docs: docs
                .into_iter()
                .map(|d| Node {
                    line: d.defined.line(),
                    kids: d.value.0,
                })
                .collect(),
        }
    }

    /// The line of `field` (a field path as the API server prints it, `<nil>` for the root) in
    /// the document, or `kind: List` item, that starts at `doc_line`.
    #[must_use]
    pub fn line_of(&self, doc_line: u64, field: &str) -> Option<u64> {
        let doc = self.docs.iter().find_map(|d| {
            if d.line == doc_line {
                return Some(d);
            }
            // An item of a list stands for itself.
            match &d.kids {
                Kids::Map(entries) => entries.iter().find_map(|(k, v)| match (&**k, &v.kids) {
                    ("items", Kids::Seq(items)) => items.iter().find(|i| i.line == doc_line),
                    _ => None,
                }),
                _ => None,
            }
        })?;
        let mut node = doc;
        for seg in segments(field) {
            let next = match (&node.kids, seg) {
                (Kids::Map(entries), k) => entries
                    .iter()
                    .rev()
                    .find(|(name, _)| name == k)
                    .map(|(_, v)| v),
                (Kids::Seq(items), k) => k.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        Some(node.line)
    }
}

/// `spec.ports[0].name` → `spec`, `ports`, `0`, `name`; `metadata.labels[app.kubernetes.io/name]`
/// keeps the bracketed key whole.
fn segments(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    if path == "<nil>" {
        return out;
    }
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').unwrap_or(r.len());
            out.push(&r[..end]);
            rest = r.get(end + 1..).unwrap_or("");
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            out.push(&r[..end]);
            rest = &r[end..];
        }
    }
    out
}

/// A value's children, read with the line of each.
struct Tree(Kids);

impl<'de> serde::Deserialize<'de> for Tree {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

fn node(s: Spanned<Tree>) -> Node {
    Node {
        line: s.defined.line(),
        kids: s.value.0,
    }
}

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key_seed(AnyKey)? {
            let value: Spanned<Tree> = map.next_value()?;
            entries.push((key, node(value)));
        }
        Ok(Tree(Kids::Map(entries)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Tree>>()? {
            items.push(node(item));
        }
        Ok(Tree(Kids::Seq(items)))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_i128<E>(self, _: i128) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_u128<E>(self, _: u128) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_str<E>(self, _: &str) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_none<E>(self) -> Result<Tree, E> {
        Ok(Tree(Kids::Leaf))
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
}

/// A mapping key as text, whatever its scalar type (a key that is not a scalar is skipped).
struct AnyKey;

impl<'de> DeserializeSeed<'de> for AnyKey {
    type Value = String;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(AnyKeyVisitor)
    }
}

struct AnyKeyVisitor;

impl<'de> Visitor<'de> for AnyKeyVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping key")
    }
    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_bool<E>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_unit<E>(self) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<String, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(String::new())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_to_lines() {
        let text = "# c\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  name: q\n  labels:\n    app.kubernetes.io/name: x\nspec:\n  containers:\n  - name: a\n    ports:\n    - containerPort: 80\n      protocol: 22\n---\nkind: List\nitems:\n- kind: ConfigMap\n  data:\n    k: 1\n";
        let l = Lines::new(text);
        assert_eq!(
            l.line_of(2, "spec.containers[0].ports[0].protocol"),
            Some(14)
        );
        assert_eq!(
            l.line_of(2, "metadata.labels[app.kubernetes.io/name]"),
            Some(8)
        );
        // A key given twice is at its last place.
        assert_eq!(l.line_of(2, "metadata.name"), Some(6));
        // Missing fields point at their nearest parent; the root at the document.
        assert_eq!(l.line_of(2, "spec.containers[0].image"), Some(11));
        assert_eq!(l.line_of(2, "<nil>"), Some(2));
        // A list item is a document of its own.
        assert_eq!(l.line_of(18, "data.k"), Some(20));
        assert_eq!(l.line_of(99, "spec"), None);
        let json = Lines::new("{\"kind\": \"Pod\",\n \"spec\": {\n  \"x\": 1}}");
        assert_eq!(json.line_of(1, "spec.x"), Some(3));
        assert!(Lines::new("a: [").docs.is_empty());
    }
}
