//! Mirrors `crates/cel-check/src/check/aggregate.rs` in `const fn`s.
//!
//! Aggregate literals and comprehensions: cel-go `checkCreateList`, `checkCreateMap`,
//! `checkCreateStruct`, `checkComprehension` and `joinTypes`.

use super::ast::{Comprehension, Entry, FieldInit};
use super::check::{Checker, Ref};
use super::types::{BOOL, DYN, ERROR, INT, NONE, Ty, TyId};
use crate::Msg;

const fn contains(list: &[u32], v: u32) -> bool {
    let mut i = 0;
    while i < list.len() {
        if list[i] == v {
            return true;
        }
        i += 1;
    }
    false
}

impl Checker {
    /// cel-go `joinTypes`.
    const fn join_types(&mut self, previous: TyId, current: TyId) -> TyId {
        if previous == NONE {
            return current;
        }
        if self.t.is_assignable(previous, current) {
            return self.t.most_general(previous, current);
        }
        DYN
    }

    /// For `?e` entries: the type inside the optional.
    const fn unwrap_optional_entry(&mut self, e: u32, t: TyId) -> TyId {
        let (inner, is_opt) = self.t.unwrap_optional(t);
        if !is_opt && !self.t.is_dyn(inner) {
            let expected = self.t.optional(inner);
            self.type_mismatch(e, expected, inner);
        }
        inner
    }

    pub(super) const fn check_list(&mut self, id: u32, elems: &[u32], optional: &[u32]) {
        let mut elems_type = NONE;
        let mut i = 0;
        while i < elems.len() {
            let e = elems[i];
            self.check(e);
            let mut t = self.get_type(e);
            if contains(optional, i as u32) {
                t = self.unwrap_optional_entry(e, t);
            }
            elems_type = self.join_types(elems_type, t);
            i += 1;
        }
        let elem = if elems_type == NONE {
            self.t.new_var()
        } else {
            elems_type
        };
        let l = self.t.list(elem);
        self.set_type(id, l);
    }

    pub(super) const fn check_map(&mut self, id: u32, entries: &[Entry]) {
        let (mut key_type, mut value_type) = (NONE, NONE);
        let mut i = 0;
        while i < entries.len() {
            let e = entries[i];
            self.check(e.key);
            let kt = self.get_type(e.key);
            key_type = self.join_types(key_type, kt);
            self.check(e.value);
            let mut vt = self.get_type(e.value);
            if e.optional {
                vt = self.unwrap_optional_entry(e.value, vt);
            }
            value_type = self.join_types(value_type, vt);
            i += 1;
        }
        let (k, v) = if key_type != NONE && value_type != NONE {
            (key_type, value_type)
        } else {
            let k = self.t.new_var();
            (k, self.t.new_var())
        };
        let m = self.t.map(k, v);
        self.set_type(id, m);
    }

    /// Kubernetes declares no message types: a struct literal names a type that is not one.
    pub(super) const fn check_struct(
        &mut self,
        id: u32,
        type_name: &'static str,
        resolved: Option<u16>,
        fields: &[FieldInit],
    ) {
        let Some(spec) = resolved else {
            self.undeclared(id, type_name);
            self.set_type(id, ERROR);
            return;
        };
        self.refs[id as usize] = Ref::Ident { old_self: false };
        let t = self
            .t
            .of_spec(&crdkit_cel_check::env::TYPE_IDENTS[spec as usize].ty, &[]);
        let m = self.t.fmt_name(Msg::of("'"), t);
        self.error(id, m.s("' is not a message type"));
        self.set_type(id, ERROR);
        let mut i = 0;
        while i < fields.len() {
            let f = fields[i];
            self.check(f.value);
            let mut vt = self.get_type(f.value);
            if f.optional {
                vt = self.unwrap_optional_entry(f.value, vt);
            }
            // Every value is assignable to the unknown field type (binding variables to it).
            self.t.is_assignable(ERROR, vt);
            i += 1;
        }
    }

    pub(super) const fn check_comprehension(&mut self, id: u32, c: &Comprehension) {
        self.check(c.iter_range);
        self.check(c.accu_init);
        let range_type = self.t.substitute(self.get_type(c.iter_range), false);
        let accu_type = self.get_type(c.accu_init);
        let outer = self.locals_mark();
        self.push_local(c.accu_var, accu_type);
        let two = c.iter_var2.is_some();
        let (var, var2) = match self.t.get(range_type) {
            Ty::List(e) => {
                if two {
                    (INT, e)
                } else {
                    (e, ERROR)
                }
            }
            Ty::Map(k, v) => (k, v),
            Ty::Dyn | Ty::Error | Ty::Var(_) | Ty::Named(_) => {
                self.t.is_assignable(DYN, range_type);
                (DYN, DYN)
            }
            _ => {
                let m = self.t.fmt(Msg::of("expression of type '"), range_type);
                self.error(
                    c.iter_range,
                    m.s("' cannot be range of a comprehension (must be list, map, or dynamic)"),
                );
                (ERROR, ERROR)
            }
        };
        let inner = self.locals_mark();
        self.push_local(c.iter_var, var);
        if let Some(v2) = c.iter_var2 {
            self.push_local(v2, var2);
        }
        self.check(c.loop_condition);
        self.assert_type(c.loop_condition, BOOL);
        self.check(c.loop_step);
        self.assert_type(c.loop_step, accu_type);
        self.pop_locals(inner);
        self.check(c.result);
        self.pop_locals(outer);
        let t = self.t.substitute(self.get_type(c.result), false);
        self.set_type(id, t);
    }

    const fn assert_type(&mut self, e: u32, t: TyId) {
        let actual = self.get_type(e);
        if !self.t.is_assignable(t, actual) {
            self.type_mismatch(e, t, actual);
        }
    }
}
