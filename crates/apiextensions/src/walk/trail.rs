//! The path to the value a walk is at, kept as a chain of stack frames and rendered only when an
//! error or a warning needs it (building a [`FieldPath`] per visited value costs an allocation
//! per level).

use std::cell::OnceCell;

use crdkit_apimachinery::field::FieldPath;

/// A [`FieldPath`] built on first use (most walks end without an error).
pub(crate) struct LazyPath<'a> {
    cell: OnceCell<FieldPath>,
    make: &'a dyn Fn() -> FieldPath,
}

impl<'a> LazyPath<'a> {
    pub(crate) fn new(make: &'a dyn Fn() -> FieldPath) -> LazyPath<'a> {
        LazyPath {
            cell: OnceCell::new(),
            make,
        }
    }

    pub(crate) fn get(&self) -> &FieldPath {
        self.cell.get_or_init(self.make)
    }
}

/// One step below the parent.
#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Root,
    /// A property: `.name` (Go's `Child`).
    Child(&'a str),
    /// A value of `additionalProperties`: `[key]` (Go's `Key`).
    Key(&'a str),
    /// A list item: `[0]`.
    Index(usize),
}

/// The path from the walk's start to the current value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Trail<'a> {
    parent: Option<&'a Trail<'a>>,
    step: Step<'a>,
}

impl<'a> Trail<'a> {
    /// Where a walk starts.
    pub(crate) const ROOT: Trail<'static> = Trail {
        parent: None,
        step: Step::Root,
    };

    pub(crate) fn child(&'a self, name: &'a str) -> Trail<'a> {
        self.then(Step::Child(name))
    }

    pub(crate) fn key(&'a self, key: &'a str) -> Trail<'a> {
        self.then(Step::Key(key))
    }

    pub(crate) fn index(&'a self, i: usize) -> Trail<'a> {
        self.then(Step::Index(i))
    }

    fn then(&'a self, step: Step<'a>) -> Trail<'a> {
        Trail {
            parent: Some(self),
            step,
        }
    }

    /// The steps from the start, in order.
    fn steps(&self) -> Vec<Step<'a>> {
        let mut out = Vec::new();
        let mut t = Some(self);
        while let Some(x) = t {
            if !matches!(x.step, Step::Root) {
                out.push(x.step);
            }
            t = x.parent;
        }
        out.reverse();
        out
    }

    /// `base` followed by this trail, as a [`FieldPath`].
    pub(crate) fn field_path(&self, base: &FieldPath) -> FieldPath {
        self.steps().into_iter().fold(base.clone(), |p, s| match s {
            Step::Root => p,
            Step::Child(name) => p.child(name),
            Step::Key(key) => p.key(key),
            Step::Index(i) => p.index(i),
        })
    }

    /// The pruning warnings' form, `spec.list[0].bar`: names joined with dots (none before the
    /// first non-empty text), indices in brackets. Keys print as names.
    pub(crate) fn dotted(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for s in self.steps() {
            match s {
                Step::Root => {}
                Step::Child(k) | Step::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Step::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
            }
        }
        out
    }

    /// Whether [`dotted`](Self::dotted) is empty (only empty names so far).
    pub(crate) fn dotted_is_empty(&self) -> bool {
        let mut t = Some(self);
        while let Some(x) = t {
            match x.step {
                Step::Root => {}
                Step::Child(k) | Step::Key(k) if k.is_empty() => {}
                _ => return false,
            }
            t = x.parent;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders() {
        let root = Trail::ROOT;
        let spec = root.child("spec");
        let list = spec.child("list");
        let item = list.index(0);
        let key = item.key("a.b");
        assert_eq!(key.dotted(), "spec.list[0].a.b");
        assert_eq!(
            key.field_path(&FieldPath::nil()).to_string(),
            "spec.list[0][a.b]"
        );
        assert_eq!(
            item.field_path(&FieldPath::new("status")).to_string(),
            "status.spec.list[0]"
        );
        assert!(root.dotted_is_empty() && root.child("").dotted_is_empty());
        assert!(!root.index(1).dotted_is_empty());
        assert_eq!(root.child("").child("x").dotted(), "x");
        assert_eq!(root.field_path(&FieldPath::nil()), FieldPath::nil());
    }
}
