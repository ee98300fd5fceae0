//! Merging a partial object over a full one.
//!
//! Mirrors structured-merge-diff `typed/merge.go` with its only rule, "keep the right-hand side"
//! on leaves: scalars, atomic lists and maps, and containers empty or null on both sides (so that
//! `[]` and `null` survive). Granular maps merge key by key; associative lists item by item,
//! keeping the right-hand side's order for the items it has and the left-hand side's items
//! around them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{Shape, ValidationErrors, Walk, deduce, list_item_element, pick, validate_scalar};
use crate::fieldpath::PathElement;
use crate::schema::{List, MapT, Scalar, TypeId};

impl Walk<'_> {
    /// `mergingWalker.merge`: the merged value (`None` when neither side yields one) and errors.
    pub(crate) fn merge(
        &self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        t: TypeId,
    ) -> (Option<Value>, ValidationErrors) {
        if lhs.is_none() && rhs.is_none() {
            return (
                None,
                ValidationErrors::one("at least one of lhs and rhs must be provided"),
            );
        }
        let atom = self.schema.atom(t);
        let alhs = deduce(atom, lhs);
        let arhs = deduce(atom, rhs);
        let mut errs = ValidationErrors::default();
        // An absent side takes the other's shape; when the sides differ in shape, the left one is
        // walked for its errors only and the right one decides.
        let shape = if rhs.is_none() {
            alhs
        } else if lhs.is_none() || alhs == arhs {
            arhs
        } else {
            match pick(atom, alhs) {
                Ok(s) => errs.extend(self.merge_shape(s, atom, lhs, rhs).1),
                Err(e) => errs.extend(e),
            }
            arhs
        };
        match pick(atom, shape) {
            Ok(s) => {
                let (out, e) = self.merge_shape(s, atom, lhs, rhs);
                errs.extend(e);
                (out, errs)
            }
            Err(e) => {
                errs.extend(e);
                (None, errs)
            }
        }
    }

    fn merge_shape(
        &self,
        shape: Shape,
        atom: &crate::schema::Atom,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> (Option<Value>, ValidationErrors) {
        match shape {
            Shape::Scalar => {
                let t = atom.scalar.unwrap_or(Scalar::Untyped);
                let mut lerrs = validate_scalar(t, lhs, "lhs: ");
                let rerrs = validate_scalar(t, rhs, "rhs: ");
                if !lerrs.is_empty() && !rerrs.is_empty() {
                    lerrs.extend(rerrs);
                    return (None, lerrs);
                }
                (leaf(lhs, rhs), ValidationErrors::default())
            }
            Shape::List => self.merge_list(atom.list.as_ref().expect("picked"), lhs, rhs),
            Shape::Map => self.merge_map(atom.map.as_ref().expect("picked"), lhs, rhs),
        }
    }

    fn merge_list(
        &self,
        list: &List,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> (Option<Value>, ValidationErrors) {
        // A side that is not a list counts as no list.
        let l = lhs.and_then(Value::as_array);
        let r = rhs.and_then(Value::as_array);
        let empty = l.is_none_or(Vec::is_empty) && r.is_none_or(Vec::is_empty);
        if !list.associative || empty {
            return (leaf(lhs, rhs), ValidationErrors::default());
        }
        self.merge_list_items(
            list,
            l.map_or(&[], Vec::as_slice),
            r.map_or(&[], Vec::as_slice),
        )
    }

    /// `indexListPathElements`: the items' keys in order and the item of each key (an item given
    /// twice maps to `null`: duplicates are not merged).
    fn index_items<'v>(
        &self,
        list: &List,
        items: &'v [Value],
        allow_duplicates: bool,
        errs: &mut ValidationErrors,
    ) -> (Vec<PathElement>, BTreeMap<PathElement, Option<&'v Value>>) {
        let mut pes = Vec::new();
        let mut observed = BTreeMap::new();
        for (i, child) in items.iter().enumerate() {
            let pe = match list_item_element(self.schema, list, child) {
                Ok(pe) => pe,
                Err(e) => {
                    errs.extend(ValidationErrors::one(format!("element {i}: {e}")));
                    continue;
                }
            };
            if observed.contains_key(&pe) {
                if !allow_duplicates {
                    errs.extend(ValidationErrors::one(format!(
                        "duplicate entries for key {pe}"
                    )));
                    continue;
                }
                observed.insert(pe.clone(), None);
            } else {
                observed.insert(pe.clone(), Some(child));
            }
            pes.push(pe);
        }
        (pes, observed)
    }

    /// `visitListItems`: the right-hand side's items in its order, the left-hand side's other
    /// items kept where they were relative to the shared ones.
    fn merge_list_items(
        &self,
        list: &List,
        lhs: &[Value],
        rhs: &[Value],
    ) -> (Option<Value>, ValidationErrors) {
        let mut errs = ValidationErrors::default();
        let (rhs_pes, observed_rhs) = self.index_items(list, rhs, false, &mut errs);
        let (lhs_pes, observed_lhs) = self.index_items(list, lhs, true, &mut errs);
        if !errs.is_empty() {
            return (None, errs);
        }
        const NULL: Value = Value::Null;
        // A duplicated left item merges as null.
        let lhs_item = |pe: &PathElement| -> Option<&Value> {
            observed_lhs.get(pe).map(|v| v.unwrap_or(&NULL))
        };
        let rhs_item = |pe: &PathElement| -> Option<&Value> {
            observed_rhs.get(pe).map(|v| v.unwrap_or(&NULL))
        };
        let elem = list.elem.unwrap_or(crate::schema::DEDUCED);
        let mut shared = rhs_pes
            .iter()
            .filter(|pe| observed_lhs.contains_key(*pe))
            .collect::<Vec<_>>()
            .into_iter();
        let mut next_shared = shared.next();
        let mut merged_rhs = BTreeSet::new();
        let mut out = Vec::new();
        // Errors of single items are dropped here, as structured-merge-diff drops them.
        let mut push = |v: (Option<Value>, ValidationErrors)| {
            if let Some(v) = v.0 {
                out.push(v);
            }
        };
        let (mut li, mut ri) = (0, 0);
        while li < lhs_pes.len() || ri < rhs_pes.len() {
            let (li0, ri0) = (li, ri);
            'step: {
                if li < lhs_pes.len() && ri < rhs_pes.len() {
                    let pe = &lhs_pes[li];
                    if *pe == rhs_pes[ri] {
                        merged_rhs.insert(pe.clone());
                        push(self.merge(lhs_item(pe), rhs_item(pe), elem));
                        li += 1;
                        ri += 1;
                        next_shared = shared.next();
                        break 'step;
                    }
                    if observed_rhs.contains_key(pe) && next_shared.is_some_and(|n| n != pe) {
                        // A shared item, but not the one due now.
                        li += 1;
                        break 'step;
                    }
                }
                if li < lhs_pes.len() {
                    let pe = &lhs_pes[li];
                    if !observed_rhs.contains_key(pe) {
                        push(self.merge(Some(&lhs[li]), None, elem));
                        li += 1;
                        break 'step;
                    } else if merged_rhs.contains(pe) {
                        li += 1;
                    }
                }
                if ri < rhs_pes.len() {
                    let pe = &rhs_pes[ri];
                    merged_rhs.insert(pe.clone());
                    push(self.merge(lhs_item(pe), rhs_item(pe), elem));
                    ri += 1;
                    if next_shared == Some(pe) {
                        next_shared = shared.next();
                    }
                }
            }
            if (li, ri) == (li0, ri0) {
                // Cannot happen with valid indices; never loop forever.
                li += 1;
            }
        }
        let out = (!out.is_empty()).then_some(Value::Array(out));
        (out, errs)
    }

    fn merge_map(
        &self,
        map: &MapT,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> (Option<Value>, ValidationErrors) {
        let l = lhs.and_then(Value::as_object);
        let r = rhs.and_then(Value::as_object);
        let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
        if map.atomic || empty {
            return (leaf(lhs, rhs), ValidationErrors::default());
        }
        let mut errs = ValidationErrors::default();
        let mut out = Map::new();
        let keys: BTreeSet<&String> = l
            .into_iter()
            .flat_map(Map::keys)
            .chain(r.into_iter().flat_map(Map::keys))
            .collect();
        for key in keys {
            let lv = l.and_then(|m| m.get(key));
            let rv = r.and_then(|m| m.get(key));
            let pe = PathElement::Field(key.clone());
            let Some(t) = map.type_of(key) else {
                errs.extend(
                    ValidationErrors::one("schema error: invalid atom: inlined").prefixed(&pe),
                );
                continue;
            };
            let (v, e) = self.merge(lv, rv, t);
            errs.extend(e.prefixed(&pe));
            if let Some(v) = v {
                out.insert(key.clone(), v);
            }
        }
        ((!out.is_empty()).then_some(Value::Object(out)), errs)
    }
}

/// `ruleKeepRHS`.
fn leaf(lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    rhs.or(lhs).cloned()
}
