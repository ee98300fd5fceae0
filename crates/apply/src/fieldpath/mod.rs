//! Field paths and sets of them: what a manager owns.
//!
//! Mirrors structured-merge-diff `fieldpath/element.go` and `fieldpath/path.go`; [`Set`] is
//! `fieldpath/set.go` and its `managedFields[].fieldsV1` form is in [`serialize`].
//!
//! A [`PathElement`] selects a child: a field of a map (`.spec`), an item of an associative list by
//! its keys (`[name="a"]`), an item of a set by its value (`[="a"]`) or an item of an atomic list
//! by its index (`[0]`).

pub mod serialize;
mod set;
mod sorted;

use std::cmp::Ordering;
use std::fmt;

use serde_json::Value;

use crate::value;

pub(crate) use serialize::FieldsV1Builder;
pub(crate) use set::SetBuilder;
pub use set::{Set, SetIter};

/// What the field-set walk (`typed::fieldset`) builds each node into: a [`Set`]
/// ([`SetBuilder`]), or the node's `FieldsV1` object directly ([`FieldsV1Builder`]: what
/// [`Set::to_value`] writes for the set the same calls build).
pub(crate) trait FieldsBuilder: Default {
    /// A finished node.
    type Out;
    /// How many elements the node may get.
    fn set_hint(&mut self, hint: usize);
    /// `pe` is a member.
    fn add_member(&mut self, pe: PathElement);
    /// A finished child below `pe`: the subtree when it holds anything, `pe` itself when
    /// `member`. Each element is attached once.
    fn attach(&mut self, pe: PathElement, member: bool, child: Self::Out);
    /// The node.
    fn finish(self) -> Self::Out;
}

/// One step of a [`Path`].
#[derive(Clone, Debug)]
pub enum PathElement {
    /// A field of a map or struct: `f:name`, printed `.name`.
    Field(String),
    /// An item of an associative list by the values of its keys, sorted by key name:
    /// `k:{"name":"a"}`, printed `[name="a"]`.
    Key(Vec<(String, Value)>),
    /// An item of a set by its value: `v:"a"`, printed `[="a"]`.
    Value(Value),
    /// An item of an atomic list by position: `i:0`, printed `[0]`.
    Index(i64),
}

impl PathElement {
    /// A field element.
    pub fn field(name: impl Into<String>) -> PathElement {
        PathElement::Field(name.into())
    }

    /// A key element; the fields are sorted by name as structured-merge-diff keeps them.
    #[must_use]
    pub fn key(mut fields: Vec<(String, Value)>) -> PathElement {
        // A stable sort, as Go's `FieldList.Sort`.
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        PathElement::Key(fields)
    }

    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }
}

fn compare_keys(a: &[(String, Value)], b: &[(String, Value)]) -> Ordering {
    for ((an, av), (bn, bv)) in a.iter().zip(b) {
        let c = an
            .as_bytes()
            .cmp(bn.as_bytes())
            .then_with(|| value::compare(av, bv));
        if c != Ordering::Equal {
            return c;
        }
    }
    a.len().cmp(&b.len())
}

impl Ord for PathElement {
    /// Fields first (by name), then keys, values and indices, as `PathElement.Compare`.
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.as_bytes().cmp(b.as_bytes()),
            (PathElement::Key(a), PathElement::Key(b)) => compare_keys(a, b),
            (PathElement::Value(a), PathElement::Value(b)) => value::compare(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

impl fmt::Display for PathElement {
    /// `PathElement.String`: `.name`, `[name="a",port=80]`, `[="a"]`, `[0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(fields) => {
                f.write_str("[")?;
                for (i, (name, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{name}={}", value::to_string(v))?;
                }
                f.write_str("]")
            }
            PathElement::Value(v) => write!(f, "[={}]", value::to_string(v)),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path from the root of an object: `.spec.containers[name="app"].image`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Path(pub Vec<PathElement>);

impl Path {
    /// The empty path (the object itself).
    #[must_use]
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// This path with `pe` appended.
    #[must_use]
    pub fn child(&self, pe: PathElement) -> Path {
        let mut p = self.0.clone();
        p.push(pe);
        Path(p)
    }

    /// Whether this is the empty path.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<Vec<PathElement>> for Path {
    fn from(v: Vec<PathElement>) -> Path {
        Path(v)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pe in &self.0 {
            write!(f, "{pe}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn display() {
        let p = Path(vec![
            PathElement::field("spec"),
            PathElement::key(vec![
                ("port".into(), json!(80)),
                ("name".into(), json!("a")),
            ]),
            PathElement::Value(json!("x")),
            PathElement::Index(3),
        ]);
        assert_eq!(p.to_string(), ".spec[name=\"a\",port=80][=\"x\"][3]");
    }

    #[test]
    fn element_order() {
        let a = PathElement::field("b");
        let b = PathElement::key(vec![("a".into(), json!(1))]);
        let c = PathElement::Value(json!(1));
        let d = PathElement::Index(0);
        assert!(a < b && b < c && c < d);
        assert!(PathElement::field("a") < PathElement::field("b"));
    }
}
