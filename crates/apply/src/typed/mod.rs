//! Values paired with their type: validation, the fields a value sets, merge, comparison, removal.
//!
//! Mirrors structured-merge-diff `typed/typed.go`, `typed/helpers.go`, `typed/validate.go` and
//! `typed/tofieldset.go`; merging is in [`merge`](self::merge), comparison in `compare`, removal
//! and extraction in `remove`, the reconciliation of field sets with a changed schema in
//! `reconcile`.

mod compare;
mod merge;
mod reconcile;
mod remove;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::fieldpath::{PathElement, Set};
use crate::schema::{Atom, List, MapT, Scalar, Schema, TypeId};
use crate::value;

pub use compare::Comparison;
pub use reconcile::reconcile_field_set_with_schema;

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
        let mut set = Set::new();
        let mut path = Vec::new();
        let errs =
            self.walk()
                .collect_field_set(&self.value, self.schema.root(), &mut path, &mut set);
        errs.into_result().map(|()| set)
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
        let mut c = Comparison::default();
        let mut path = Vec::new();
        let errs = self.walk().compare(
            Some(&self.value),
            Some(&rhs.value),
            self.schema.root(),
            &mut path,
            &mut c,
        );
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

/// `validateScalar`; `prefix` is `lhs: ` or `rhs: ` in merges and comparisons.
pub(crate) fn validate_scalar(t: Scalar, v: Option<&Value>, prefix: &str) -> ValidationErrors {
    let Some(v) = v else {
        return ValidationErrors::default();
    };
    let ok = match (t, v) {
        (_, Value::Null) => true,
        (Scalar::Numeric, Value::Number(_)) => true,
        (Scalar::Numeric, _) => {
            return ValidationErrors::one(format!(
                "{prefix}expected numeric (int or float), got {}",
                value::go_type(v)
            ));
        }
        (Scalar::String, v) => v.is_string(),
        (Scalar::Boolean, v) => v.is_boolean(),
        (Scalar::Untyped, v) => !v.is_array() && !v.is_object(),
    };
    if ok {
        return ValidationErrors::default();
    }
    ValidationErrors::one(match t {
        Scalar::String => format!(
            "{prefix}expected string, got {}",
            value::go_value_sharp_v(v)
        ),
        Scalar::Boolean => format!("{prefix}expected boolean, got {}", value::go_value_v(v)),
        _ => format!("{prefix}expected any scalar, got {}", value::go_value_v(v)),
    })
}

/// `listItemToPathElement`: the key of an associative list's item.
pub(crate) fn list_item_element(
    schema: &Schema,
    list: &List,
    child: &Value,
) -> Result<PathElement, String> {
    if !list.associative {
        return Err("invalid indexing of non-associative list".to_owned());
    }
    if list.keys.is_empty() {
        // A set of scalars.
        return match child {
            Value::Object(_) => {
                Err("associative list without keys has an element that's a map type".to_owned())
            }
            Value::Array(_) => {
                Err("not supported: associative list with lists as elements".to_owned())
            }
            Value::Null => Err(
                "associative list without keys has an element that's an explicit null".to_owned(),
            ),
            v => Ok(PathElement::Value(v.clone())),
        };
    }
    let m = match child {
        Value::Null => return Err("associative list with keys may not have a null element".into()),
        Value::Object(m) => m,
        _ => return Err("associative list with keys may not have non-map elements".into()),
    };
    let mut fields = Vec::new();
    for name in &list.keys {
        if let Some(v) = m.get(name) {
            fields.push((name.clone(), v.clone()));
            continue;
        }
        // An absent key takes the default of its field, if the schema has one.
        let Some(item) = &atom_of(schema, list.elem).map else {
            return Err(format!(
                "couldn't find default value for {name}: associative list may not have non-map types"
            ));
        };
        if let Some(d) = item.fields.get(name).and_then(|f| f.default.as_ref()) {
            fields.push((name.clone(), d.clone()));
        }
    }
    if fields.is_empty() {
        let keys: Vec<String> = list
            .keys
            .iter()
            .map(|k| crdkit_apimachinery::field::go_quote(k))
            .collect();
        return Err(format!(
            "associative list with keys has an element that omits all key fields [{}] (and doesn't have default values for any key fields)",
            keys.join(" ")
        ));
    }
    Ok(PathElement::key(fields))
}

impl Walk<'_> {
    fn atom(&self, t: Option<TypeId>) -> &Atom {
        atom_of(self.schema, t)
    }

    /// `validatingObjectWalker.validate`.
    fn validate(&self, v: &Value, t: TypeId, allow_dup: bool) -> ValidationErrors {
        let atom = self.schema.atom(t);
        let shape = match pick(atom, deduce(atom, Some(v))) {
            Ok(s) => s,
            Err(e) => return e,
        };
        match shape {
            Shape::Scalar => validate_scalar(atom.scalar.unwrap_or(Scalar::Untyped), Some(v), ""),
            Shape::List => self.validate_list(atom.list.as_ref().expect("picked"), v, allow_dup),
            Shape::Map => self.validate_map(atom.map.as_ref().expect("picked"), v, allow_dup),
        }
    }

    fn validate_list(&self, list: &List, v: &Value, allow_dup: bool) -> ValidationErrors {
        let items = match v {
            Value::Null => return ValidationErrors::default(),
            Value::Array(items) => items,
            other => {
                return ValidationErrors::one(format!(
                    "expected list, got {}",
                    value::go_value_v(other)
                ));
            }
        };
        let mut errs = ValidationErrors::default();
        let mut seen = std::collections::BTreeSet::new();
        for (i, child) in items.iter().enumerate() {
            let pe = if list.associative {
                match list_item_element(self.schema, list, child) {
                    Ok(pe) => pe,
                    Err(e) => {
                        // Without a key nothing deeper can be reported: the list is abandoned.
                        errs.extend(ValidationErrors::one(format!("element {i}: {e}")));
                        return errs;
                    }
                }
            } else {
                PathElement::Index(i64::try_from(i).unwrap_or(i64::MAX))
            };
            if list.associative && !seen.insert(pe.clone()) && !allow_dup {
                errs.extend(ValidationErrors::one(format!(
                    "duplicate entries for key {pe}"
                )));
            }
            if let Some(elem) = list.elem {
                errs.extend(self.validate(child, elem, allow_dup).prefixed(&pe));
            } else {
                errs.extend(
                    ValidationErrors::one("schema error: invalid atom: inlined").prefixed(&pe),
                );
            }
        }
        errs
    }

    fn validate_map(&self, map: &MapT, v: &Value, allow_dup: bool) -> ValidationErrors {
        let m = match v {
            Value::Null => return ValidationErrors::default(),
            Value::Object(m) => m,
            other => {
                return ValidationErrors::one(format!(
                    "expected map, got {}",
                    value::go_value_v(other)
                ));
            }
        };
        let mut errs = ValidationErrors::default();
        for (key, val) in m {
            let pe = PathElement::Field(key.clone());
            let Some(t) = map.type_of(key) else {
                // The walk stops at the first unknown field.
                errs.extend(ValidationErrors::one("field not declared in schema").prefixed(&pe));
                break;
            };
            errs.extend(self.validate(val, t, allow_dup).prefixed(&pe));
        }
        errs
    }

    /// `toFieldSetWalker`.
    fn collect_field_set(
        &self,
        v: &Value,
        t: TypeId,
        path: &mut Vec<PathElement>,
        set: &mut Set,
    ) -> ValidationErrors {
        let atom = self.schema.atom(t);
        let shape = match pick(atom, deduce(atom, Some(v))) {
            Ok(s) => s,
            Err(e) => return e,
        };
        let mut errs = ValidationErrors::default();
        match shape {
            Shape::Scalar => set.insert_elements(path),
            Shape::List => {
                let list = atom.list.as_ref().expect("picked");
                if !list.associative {
                    set.insert_elements(path);
                    return errs;
                }
                let Value::Array(items) = v else {
                    return errs;
                };
                let pes: Vec<Option<PathElement>> = items
                    .iter()
                    .map(|c| list_item_element(self.schema, list, c).ok())
                    .collect();
                // An item given twice is owned as a whole, without its fields.
                let mut seen = std::collections::BTreeSet::new();
                let mut duplicates = std::collections::BTreeSet::new();
                for pe in pes.iter().flatten() {
                    if !seen.insert(pe.clone()) && duplicates.insert(pe.clone()) {
                        path.push(pe.clone());
                        set.insert_elements(path);
                        path.pop();
                    }
                }
                for (child, pe) in items.iter().zip(pes) {
                    let Some(pe) = pe else { continue };
                    if duplicates.contains(&pe) {
                        continue;
                    }
                    path.push(pe);
                    if let Some(elem) = list.elem {
                        errs.extend(self.collect_field_set(child, elem, path, set));
                    }
                    set.insert_elements(path);
                    path.pop();
                }
            }
            Shape::Map => {
                let map = atom.map.as_ref().expect("picked");
                if map.atomic {
                    set.insert_elements(path);
                    return errs;
                }
                let Value::Object(m) = v else {
                    return errs;
                };
                for (key, val) in m {
                    path.push(PathElement::Field(key.clone()));
                    match map.type_of(key) {
                        Some(t) => errs.extend(self.collect_field_set(val, t, path, set)),
                        None => errs
                            .extend(ValidationErrors::one("schema error: invalid atom: inlined")),
                    }
                    let empty = matches!(val, Value::Object(m) if m.is_empty());
                    // Keys of maps are owned themselves, struct fields only when null or empty.
                    if val.is_null() || empty || !map.fields.contains_key(key) {
                        set.insert_elements(path);
                    }
                    path.pop();
                }
            }
        }
        errs
    }

    /// `Set.EnsureNamedFieldsAreMembers` under type `t`.
    pub(crate) fn ensure_named_fields(&self, set: &Set, t: Option<TypeId>) -> Set {
        let atom = self.atom(t);
        let mut out = Set::new();
        out.members = set.members.clone();
        for (pe, child) in &set.children {
            let mut child_type = None;
            match pe {
                PathElement::Field(name) => {
                    if let Some(map) = &atom.map {
                        child_type = map.elem;
                        if let Some(f) = map.fields.get(name) {
                            child_type = f.ty;
                            out.members.insert(pe.clone());
                        }
                    }
                }
                PathElement::Key(_) => {
                    if let Some(list) = &atom.list {
                        child_type = list.elem;
                    }
                }
                _ => {}
            }
            out.children
                .insert(pe.clone(), self.ensure_named_fields(child, child_type));
        }
        out
    }
}
