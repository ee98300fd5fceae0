//! The type checker: cel-go `checker/checker.go` (the walk, identifiers, selections) and
//! `checker/errors.go` (the messages). Aggregate literals and comprehensions are in
//! `aggregate.rs`, calls and overload resolution in `call.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Reference;
use super::unify::{self, Mapping};
use crate::env::CheckEnv;
use crate::types::{ObjectType, Type};
use crate::{Ast, ExprId, ExprKind, Issue, Literal, Source};

pub(super) struct Checker<'a> {
    pub(super) ast: &'a Ast,
    pub(super) source: &'a Source,
    pub(super) env: &'a CheckEnv,
    pub(super) types: Vec<Option<Type>>,
    pub(super) refs: Vec<Option<Reference>>,
    pub(super) mappings: Mapping,
    free_type_vars: usize,
    /// Comprehension scopes, innermost last (cel-go `Scopes` above the global scope).
    pub(super) scopes: Vec<BTreeMap<String, Type>>,
    pub(super) issues: Vec<Issue>,
}

impl<'a> Checker<'a> {
    pub(super) fn new(ast: &'a Ast, source: &'a Source, env: &'a CheckEnv) -> Self {
        Checker {
            ast,
            source,
            env,
            types: vec![None; ast.exprs.len()],
            refs: vec![None; ast.exprs.len()],
            mappings: Mapping::default(),
            free_type_vars: 0,
            scopes: Vec::new(),
            issues: Vec::new(),
        }
    }

    /// Checks the whole expression and substitutes every type (unbound parameters become `dyn`).
    pub(super) fn run(&mut self) {
        self.check(self.ast.root);
        for t in self.types.iter_mut().flatten() {
            *t = unify::substitute(&self.mappings, t, true);
        }
    }

    pub(super) fn error(&mut self, id: ExprId, message: String) {
        let location = self.ast.exprs.get(id.index()).map(|e| {
            let cp = self.source.cp_of_byte(e.span.start);
            self.source.location(cp)
        });
        self.issues.push(Issue { location, message });
    }

    pub(super) fn type_mismatch(&mut self, id: ExprId, expected: &Type, actual: &Type) {
        self.error(
            id,
            format!("expected type '{expected}' but found '{actual}'"),
        );
    }

    pub(super) fn undeclared(&mut self, id: ExprId, name: &str) {
        let container = self.env.container.clone();
        self.error(
            id,
            format!("undeclared reference to '{name}' (in container '{container}')"),
        );
    }

    pub(super) fn get_type(&self, id: ExprId) -> Type {
        self.types[id.index()].clone().unwrap_or(Type::Error)
    }

    pub(super) fn set_type(&mut self, id: ExprId, t: Type) {
        match &self.types[id.index()] {
            Some(old) if *old != t => {
                let old = old.clone();
                self.error(
                    id,
                    format!(
                        "incompatible type already exists for expression: ({}) old:{old}, new:{t}",
                        id.0
                    ),
                );
            }
            _ => self.types[id.index()] = Some(t),
        }
    }

    pub(super) fn set_ref(&mut self, id: ExprId, r: Reference) {
        self.refs[id.index()] = Some(r);
    }

    pub(super) fn new_type_var(&mut self) -> Type {
        let t = Type::param(&format!("_var{}", self.free_type_vars));
        self.free_type_vars += 1;
        t
    }

    /// Updates the substitutions and returns true if `t2` is assignable to `t1`.
    pub(super) fn is_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        match unify::is_assignable(&self.mappings, t1, t2) {
            Some(m) => {
                self.mappings = m;
                true
            }
            None => false,
        }
    }

    /// Inside a comprehension cel-go's checker environment drops the overload filter.
    pub(super) fn in_comprehension(&self) -> bool {
        !self.scopes.is_empty()
    }

    pub(super) fn check(&mut self, id: ExprId) {
        let ast = self.ast;
        match &ast.expr(id).kind {
            ExprKind::Literal(l) => {
                let t = match l {
                    Literal::Null => Type::Null,
                    Literal::Bool(_) => Type::Bool,
                    Literal::Int(_) => Type::Int,
                    Literal::Uint(_) => Type::Uint,
                    Literal::Double(_) => Type::Double,
                    Literal::String(_) => Type::String,
                    Literal::Bytes(_) => Type::Bytes,
                };
                self.set_type(id, t);
            }
            ExprKind::Ident(name) => self.check_ident(id, name),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => self.check_select(id, *operand, field, *test_only),
            ExprKind::Call {
                target,
                function,
                args,
            } => self.check_call(id, *target, function, args),
            ExprKind::List {
                elems,
                optional_indices,
            } => self.check_list(id, elems, optional_indices),
            ExprKind::Map { entries } => self.check_map(id, entries),
            ExprKind::Struct { type_name, fields } => {
                let fields: Vec<_> = fields
                    .iter()
                    .map(|f| (f.id, f.field.as_str(), f.value, f.optional))
                    .collect();
                self.check_struct(id, type_name, &fields);
            }
            ExprKind::Comprehension(c) => self.check_comprehension(id, c),
            ExprKind::Unspecified => self.error(id, "unexpected unspecified type: Expr".into()),
        }
    }

    fn lookup_local(&self, name: &str) -> Option<Type> {
        let name = name.strip_prefix('.').unwrap_or(name);
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    /// cel-go `resolveSimpleIdent`: the resolved name (dot-prefixed when a local variable
    /// shadows it) and type.
    fn resolve_simple_ident(&self, name: &str) -> Option<(String, Type)> {
        let local = self.lookup_local(name);
        if let Some(t) = &local
            && !name.starts_with('.')
        {
            return Some((name.to_string(), t.clone()));
        }
        self.resolve_global(name, local.is_some())
    }

    fn resolve_global(&self, name: &str, shadowed: bool) -> Option<(String, Type)> {
        for candidate in self.env.candidate_names(name) {
            if let Some(t) = self.env.global_ident(&candidate) {
                let name = if shadowed {
                    format!(".{candidate}")
                } else {
                    candidate
                };
                return Some((name, t));
            }
        }
        None
    }

    fn check_ident(&mut self, id: ExprId, name: &str) {
        match self.resolve_simple_ident(name) {
            Some((resolved, t)) => {
                self.set_type(id, t);
                self.set_ref(id, Reference::Ident(resolved));
            }
            None => {
                self.set_type(id, Type::Error);
                self.undeclared(id, name);
            }
        }
    }

    fn check_select(&mut self, id: ExprId, operand: ExprId, field: &str, test_only: bool) {
        if let Some(q) = self.ast.qualifiers(id) {
            let resolved = if q.len() == 1 {
                self.resolve_simple_ident(&q[0])
            } else {
                let local = self.lookup_local(&q[0]);
                if local.is_some() && !q[0].starts_with('.') {
                    None
                } else {
                    self.resolve_global(&q.join("."), local.is_some())
                }
            };
            if let Some((name, t)) = resolved {
                // A qualified variable name: the node stands for the identifier `name`.
                self.set_type(id, t);
                self.set_ref(id, Reference::Ident(name));
                return;
            }
        }
        let mut result = self.check_select_field(id, operand, field, false);
        if test_only {
            result = Type::Bool;
        }
        let t = unify::substitute(&self.mappings, &result, false);
        self.set_type(id, t);
    }

    /// cel-go `checkSelectField`.
    pub(super) fn check_select_field(
        &mut self,
        id: ExprId,
        operand: ExprId,
        field: &str,
        optional: bool,
    ) -> Type {
        self.check(operand);
        let operand_type = unify::substitute(&self.mappings, &self.get_type(operand), false);
        let (target, is_opt) = unify::maybe_unwrap_optional(&operand_type);
        let result = match &target {
            Type::Map(_, v) => (**v).clone(),
            Type::Object(o) => self.lookup_field(id, o, field).unwrap_or(Type::Error),
            Type::Param(_) => {
                self.is_assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            other => {
                if !unify::is_dyn_or_error(other) {
                    self.error(
                        id,
                        format!("type '{other}' does not support field selection"),
                    );
                }
                Type::Dyn
            }
        };
        if is_opt || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    /// cel-go `lookupFieldType` over the Kubernetes type provider (which also finds `__name__`
    /// for a reserved word from 1.31).
    pub(super) fn lookup_field(
        &mut self,
        id: ExprId,
        o: &Arc<ObjectType>,
        field: &str,
    ) -> Option<Type> {
        if !o.known {
            self.error(id, format!("unexpected failed resolution of '{}'", o.name));
            return None;
        }
        if let Some(t) = o.fields.get(field) {
            return Some(t.clone());
        }
        if self.env.keyword_field_names
            && let Some(escaped) = crate::escaping::reserved_escaped(field)
            && let Some(t) = o.fields.get(escaped)
        {
            return Some(t.clone());
        }
        self.error(id, format!("undefined field '{field}'"));
        None
    }
}
