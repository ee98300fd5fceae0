//! The fields a value sets, and the struct fields on the way to a set's members.
//!
//! Mirrors structured-merge-diff `typed/tofieldset.go` and `fieldpath/set.go`
//! (`EnsureNamedFieldsAreMembers`).

use serde_json::Value;

use super::{Shape, ValidationErrors, Walk, deduce, list_item_element, pick};
use crate::fieldpath::{PathElement, Set};
use crate::schema::TypeId;

impl Walk<'_> {
    /// `toFieldSetWalker`.
    pub(crate) fn collect_field_set(
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
