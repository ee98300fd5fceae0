//! Aggregate literals and comprehensions: cel-go `checker/checker.go` `checkCreateList`,
//! `checkCreateMap`, `checkCreateStruct`, `checkComprehension` and `joinTypes`.

use std::collections::BTreeMap;

use super::Reference;
use super::checker::Checker;
use super::unify;
use crate::types::Type;
use crate::{Comprehension, ExprId, MapEntry};

impl Checker<'_> {
    /// The most general common type of aggregate literal elements, or `dyn` (cel-go
    /// `joinTypes`; `cel.Env` never sets the checker's homogeneous mode, Kubernetes' rule is the
    /// `ValidateHomogeneousAggregateLiterals` validator).
    fn join_types(&mut self, previous: Option<Type>, current: Type) -> Type {
        let Some(previous) = previous else {
            return current;
        };
        if self.is_assignable(&previous, &current) {
            return unify::most_general(&previous, &current);
        }
        Type::Dyn
    }

    /// For `?e` entries: the type inside the optional.
    fn unwrap_optional_entry(&mut self, e: ExprId, t: Type) -> Type {
        let (inner, is_opt) = unify::maybe_unwrap_optional(&t);
        if !is_opt && !unify::is_dyn(&inner) {
            self.type_mismatch(e, &Type::optional(inner.clone()), &inner);
        }
        inner
    }

    pub(super) fn check_list(&mut self, id: ExprId, elems: &[ExprId], optional_indices: &[u32]) {
        let mut elems_type = None;
        for (i, &e) in elems.iter().enumerate() {
            self.check(e);
            let mut t = self.get_type(e);
            if optional_indices.contains(&(i as u32)) {
                t = self.unwrap_optional_entry(e, t);
            }
            elems_type = Some(self.join_types(elems_type, t));
        }
        let elem = elems_type.unwrap_or_else(|| self.new_type_var());
        self.set_type(id, Type::list(elem));
    }

    pub(super) fn check_map(&mut self, id: ExprId, entries: &[MapEntry]) {
        let (mut key_type, mut value_type) = (None, None);
        for entry in entries {
            self.check(entry.key);
            let kt = self.get_type(entry.key);
            key_type = Some(self.join_types(key_type, kt));
            self.check(entry.value);
            let mut vt = self.get_type(entry.value);
            if entry.optional {
                vt = self.unwrap_optional_entry(entry.value, vt);
            }
            value_type = Some(self.join_types(value_type, vt));
        }
        let (k, v) = match (key_type, value_type) {
            (Some(k), Some(v)) => (k, v),
            _ => (self.new_type_var(), self.new_type_var()),
        };
        self.set_type(id, Type::map(k, v));
    }

    pub(super) fn check_struct(
        &mut self,
        id: ExprId,
        type_name: &str,
        fields: &[(ExprId, &str, ExprId, bool)],
    ) {
        let resolved = self
            .env
            .candidate_names(type_name)
            .into_iter()
            .find_map(|c| {
                let t = self.env.global_ident(&c)?;
                matches!(t, Type::Type(Some(_))).then_some((c, t))
            });
        let Some((name, ident_type)) = resolved else {
            self.undeclared(id, type_name);
            self.set_type(id, Type::Error);
            return;
        };
        self.set_ref(id, Reference::Ident(name));
        let Type::Type(Some(t)) = ident_type else {
            unreachable!("filtered above")
        };
        let object = match *t {
            Type::Object(o) => Some(o),
            other => {
                self.error(id, format!("'{}' is not a message type", other.type_name()));
                None
            }
        };
        let result = object.clone().map_or(Type::Error, Type::Object);
        self.set_type(id, result);
        for &(field_id, field, value, optional) in fields {
            self.check(value);
            let field_type = match &object {
                Some(o) => self.lookup_field(field_id, o, field).unwrap_or(Type::Error),
                None => Type::Error,
            };
            let mut vt = self.get_type(value);
            if optional {
                vt = self.unwrap_optional_entry(value, vt);
            }
            if !self.is_assignable(&field_type, &vt) {
                self.error(
                    field_id,
                    format!(
                        "expected type of field '{field}' is '{field_type}' but provided type is '{vt}'"
                    ),
                );
            }
        }
    }

    pub(super) fn check_comprehension(&mut self, id: ExprId, c: &Comprehension) {
        self.check(c.iter_range);
        self.check(c.accu_init);
        let range_type = unify::substitute(&self.mappings, &self.get_type(c.iter_range), false);
        let accu_type = self.get_type(c.accu_init);
        self.scopes
            .push(BTreeMap::from([(c.accu_var.clone(), accu_type.clone())]));
        let two = c.iter_var2.is_some();
        let (var, var2) = match &range_type {
            Type::List(e) if two => (Type::Int, (**e).clone()),
            Type::List(e) => ((**e).clone(), Type::Error),
            Type::Map(k, v) => ((**k).clone(), (**v).clone()),
            Type::Dyn | Type::Error | Type::Param(_) => {
                self.is_assignable(&Type::Dyn, &range_type);
                (Type::Dyn, Type::Dyn)
            }
            other => {
                self.error(
                    c.iter_range,
                    format!(
                        "expression of type '{other}' cannot be range of a comprehension (must be list, map, or dynamic)"
                    ),
                );
                (Type::Error, Type::Error)
            }
        };
        let mut scope = BTreeMap::from([(c.iter_var.clone(), var)]);
        if let Some(v2) = &c.iter_var2 {
            scope.insert(v2.clone(), var2);
        }
        self.scopes.push(scope);
        self.check(c.loop_condition);
        self.assert_type(c.loop_condition, &Type::Bool);
        self.check(c.loop_step);
        self.assert_type(c.loop_step, &accu_type);
        self.scopes.pop();
        self.check(c.result);
        self.scopes.pop();
        let t = unify::substitute(&self.mappings, &self.get_type(c.result), false);
        self.set_type(id, t);
    }

    fn assert_type(&mut self, e: ExprId, t: &Type) {
        let actual = self.get_type(e);
        if !self.is_assignable(t, &actual) {
            self.type_mismatch(e, t, &actual);
        }
    }
}
