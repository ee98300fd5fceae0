//! Values paired with their type: validation, the fields a value sets, merge, comparison, removal.
//!
//! Mirrors structured-merge-diff `typed/typed.go`, `typed/helpers.go`, `typed/validate.go` and
//! `typed/tofieldset.go`; merging is in `merge`, comparison in `compare`, removal
//! and extraction in `remove`, the reconciliation of field sets with a changed schema in
//! `reconcile`.

mod compare;
mod fieldset;
mod merge;
mod reconcile;
mod remove;
mod validate;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::fieldpath::{FieldsV1Builder, Set, SetBuilder};
use crate::schema::{Atom, Schema, TypeId};
use fieldset::Collect;

pub use compare::Comparison;
pub use reconcile::reconcile_field_set_with_schema;
pub(crate) use validate::{list_item_element, validate_scalar};

/// One problem of a value against its type: `.spec.replicas: expected numeric (int or float), got
/// string`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Where, as a field path (`.spec.ports[name="http"]`); empty for the root.
    pub path: String,
    /// What.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Every problem found (`ValidationErrors`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl ValidationErrors {
    pub(crate) fn one(message: impl Into<String>) -> ValidationErrors {
        ValidationErrors(vec![ValidationError {
            path: String::new(),
            message: message.into(),
        }])
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn extend(&mut self, other: ValidationErrors) {
        self.0.extend(other.0);
    }

    /// Prefixes every path with `prefix` (`WithLazyPrefix`, as errors unwind).
    pub(crate) fn prefixed(mut self, prefix: &dyn fmt::Display) -> ValidationErrors {
        if !self.0.is_empty() {
            let p = prefix.to_string();
            for e in &mut self.0 {
                e.path.insert_str(0, &p);
            }
        }
        self
    }

    pub(crate) fn into_result(self) -> Result<(), ValidationErrors> {
        if self.0.is_empty() { Ok(()) } else { Err(self) }
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return write!(f, "{one}");
        }
        f.write_str("errors:")?;
        for e in &self.0 {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// How strictly [`TypedValue::new`] checks associative lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValidationOptions {
    /// Let sets and list maps hold an item twice (live objects may; apply configurations may not).
    pub allow_duplicates: bool,
}

/// A value of the root type of a schema (`TypedValue`).
#[derive(Clone, Debug)]
pub struct TypedValue {
    value: Value,
    schema: Arc<Schema>,
}

impl TypedValue {
    /// `AsTyped`: checks `value` against the root type of `schema`.
    ///
    /// # Errors
    /// Every place where the value does not fit the schema.
    pub fn new(
        value: Value,
        schema: Arc<Schema>,
        options: ValidationOptions,
    ) -> Result<TypedValue, ValidationErrors> {
        let tv = TypedValue { value, schema };
        let w = Walk { schema: &tv.schema };
        w.validate(&tv.value, tv.schema.root(), options.allow_duplicates)
            .into_result()?;
        Ok(tv)
    }

    /// [`TypedValue::new`], giving `value` back with the errors.
    pub(crate) fn try_new(
        value: Value,
        schema: Arc<Schema>,
        options: ValidationOptions,
    ) -> Result<TypedValue, (ValidationErrors, Value)> {
        let errs =
            Walk { schema: &schema }.validate(&value, schema.root(), options.allow_duplicates);
        if errs.is_empty() {
            Ok(TypedValue { value, schema })
        } else {
            Err((errs, value))
        }
    }

    /// A typed value without validation.
    #[must_use]
    pub fn new_unchecked(value: Value, schema: Arc<Schema>) -> TypedValue {
        TypedValue { value, schema }
    }

    /// The value.
    #[must_use]
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value, consuming the typed value.
    #[must_use]
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The schema.
    #[must_use]
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// The same value under another schema.
    #[must_use]
    pub fn with_value(&self, value: Value) -> TypedValue {
        TypedValue {
            value,
            schema: self.schema.clone(),
        }
    }

    fn walk(&self) -> Walk<'_> {
        Walk {
            schema: &self.schema,
        }
    }

    /// `ToFieldSet`: every leaf field and list or map item the value sets.
    ///
    /// # Errors
    /// A part of the value the schema has no type for.
    pub fn to_field_set(&self) -> Result<Set, ValidationErrors> {
        let (set, errs) = self.walk().collect_field_set::<SetBuilder>(
            &self.value,
            self.schema.root(),
            Collect::Owned,
        );
        errs.into_result().map(|()| set)
    }

    /// The `FieldsV1` object of what [`TypedValue::compare`] of the empty object of the kind
    /// (only `apiVersion` and `kind`, equal to `self`'s) with `self` finds added, written in one
    /// walk; `None` where that comparison must run instead (see [`Walk::created_field_set`]).
    pub(crate) fn created_fields_v1(&self) -> Option<serde_json::Map<String, Value>> {
        self.walk().created_field_set::<FieldsV1Builder>(
            &self.value,
            self.schema.root(),
            &["apiVersion", "kind"],
        )
    }

    /// `Merge`: `pso` ("partially specified object") over `self`; `pso` wins on every leaf both
    /// set, and nothing is removed.
    ///
    /// # Errors
    /// Values that do not fit the schema on both sides.
    pub fn merge(&self, pso: &TypedValue) -> Result<TypedValue, ValidationErrors> {
        let (out, errs) =
            self.walk()
                .merge(Some(&self.value), Some(&pso.value), self.schema.root());
        errs.into_result()?;
        Ok(self.with_value(out.unwrap_or(Value::Null)))
    }

    /// `Compare`: the fields `rhs` adds, modifies and removes relative to `self`.
    ///
    /// # Errors
    /// Values that do not fit the schema on both sides.
    pub fn compare(&self, rhs: &TypedValue) -> Result<Comparison, ValidationErrors> {
        let (c, errs) =
            self.walk()
                .compare(Some(&self.value), Some(&rhs.value), self.schema.root());
        errs.into_result().map(|()| c)
    }

    /// `RemoveItems`: the value without the fields and items in `items`.
    #[must_use]
    pub fn remove_items(&self, items: &Set) -> TypedValue {
        self.with_value(
            self.walk()
                .remove(&self.value, items, self.schema.root(), false),
        )
    }

    /// `ExtractItems`: only the fields and items in `items`.
    #[must_use]
    pub fn extract_items(&self, items: &Set) -> TypedValue {
        self.with_value(
            self.walk()
                .remove(&self.value, items, self.schema.root(), true),
        )
    }

    /// `EnsureNamedFieldsAreMembers`: `set` plus every struct field on the way to its members
    /// (`a.b.c` also owns `a` when `a` is a field of a struct, not a key of a map).
    #[must_use]
    pub fn ensure_named_fields_are_members(&self, set: &Set) -> Set {
        self.walk()
            .ensure_named_fields(set, Some(self.schema.root()))
    }
}

/// Which of an atom's shapes a value takes (`deduceAtom`); `None`: undecided (absent, null or a
/// shape the atom lacks), all of the atom's shapes stay possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Scalar,
    List,
    Map,
}

pub(crate) fn deduce(atom: &Atom, v: Option<&Value>) -> Option<Shape> {
    match v? {
        Value::Null => None,
        Value::Array(_) => atom.list.as_ref().map(|_| Shape::List),
        Value::Object(_) => atom.map.as_ref().map(|_| Shape::Map),
        _ => atom.scalar.map(|_| Shape::Scalar),
    }
}

/// `handleAtom`'s choice: the deduced shape, else map, scalar, list in that order.
pub(crate) fn pick(atom: &Atom, shape: Option<Shape>) -> Result<Shape, ValidationErrors> {
    shape
        .or_else(|| atom.map.as_ref().map(|_| Shape::Map))
        .or_else(|| atom.scalar.map(|_| Shape::Scalar))
        .or_else(|| atom.list.as_ref().map(|_| Shape::List))
        .ok_or_else(|| ValidationErrors::one("schema error: invalid atom: inlined"))
}

/// The walks over values of one schema.
#[derive(Clone, Copy)]
pub(crate) struct Walk<'s> {
    pub(crate) schema: &'s Schema,
}

/// The atom of a type reference; an absent reference is an atom with no shape.
pub(crate) fn atom_of(schema: &Schema, t: Option<TypeId>) -> &Atom {
    static NONE: Atom = Atom {
        scalar: None,
        list: None,
        map: None,
    };
    t.map_or(&NONE, |t| schema.atom(t))
}
