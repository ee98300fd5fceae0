//! Calls: cel-go `checker/checker.go` `checkCall`, `checkOptSelect`, `resolveOverload` and the
//! `found no matching overload` message of `checker/errors.go`.

use super::Reference;
use super::checker::Checker;
use super::unify::{self, Mapping};
use crate::types::Type;
use crate::{Adorner, ExprId, ExprKind, Literal, debug_string};

impl Checker<'_> {
    pub(super) fn check_call(
        &mut self,
        id: ExprId,
        target: Option<ExprId>,
        function: &str,
        args: &[ExprId],
    ) {
        if function == "_?._" {
            self.check_opt_select(id, target, args);
            return;
        }
        for &a in args {
            self.check(a);
        }
        let Some(target) = target else {
            match self.lookup_function(function) {
                Some(name) => self.resolve_overload_or_error(id, &name, None, args, false),
                None => {
                    self.undeclared(id, function);
                    self.set_type(id, Type::Error);
                }
            }
            return;
        };
        // `a.b.f()` may name the function `a.b.f` rather than `f` called on `a.b`.
        if let Some(prefix) = self.ast.qualified_name(target)
            && let Some(name) = self.lookup_function(&format!("{prefix}.{function}"))
        {
            self.resolve_overload_or_error(id, &name, None, args, true);
            return;
        }
        self.check(target);
        match self.lookup_function(function) {
            Some(name) => self.resolve_overload_or_error(id, &name, Some(target), args, false),
            None => {
                self.set_type(id, Type::Error);
                self.undeclared(id, function);
            }
        }
    }

    fn lookup_function(&self, name: &str) -> Option<String> {
        self.env
            .candidate_names(name)
            .into_iter()
            .find(|c| self.env.has_function(c))
    }

    /// `a.?b`, which the parser writes as `_?._(a, "b")`.
    fn check_opt_select(&mut self, id: ExprId, target: Option<ExprId>, args: &[ExprId]) {
        if args.len() != 2 || target.is_some() {
            let member = if target.is_some() {
                " member call with"
            } else {
                ""
            };
            self.error(
                id,
                format!(
                    "unsupported optional field selection: incorrect signature.{member} argument count: {}",
                    args.len()
                ),
            );
            return;
        }
        let (operand, field) = (args[0], args[1]);
        let ExprKind::Literal(Literal::String(name)) = &self.ast.expr(field).kind else {
            let text = debug_string(self.ast, field, Adorner::None, None);
            self.error(
                field,
                format!("unsupported optional field selection: {text}"),
            );
            return;
        };
        let result = self.check_select_field(id, operand, name, true);
        let t = unify::substitute(&self.mappings, &result, false);
        self.set_type(id, t);
        self.set_ref(
            id,
            Reference::Function {
                function: "_?._".into(),
                overloads: vec!["select_optional_field".into()],
                namespaced: false,
            },
        );
    }

    fn resolve_overload_or_error(
        &mut self,
        id: ExprId,
        function: &str,
        target: Option<ExprId>,
        args: &[ExprId],
        namespaced: bool,
    ) {
        match self.resolve_overload(id, function, target, args) {
            Some((overloads, t)) => {
                self.set_type(id, t);
                self.set_ref(
                    id,
                    Reference::Function {
                        function: function.to_string(),
                        overloads,
                        namespaced,
                    },
                );
            }
            None => self.set_type(id, Type::Error),
        }
    }

    /// cel-go `resolveOverload`: every overload whose signature accepts the argument types, in
    /// declaration order; the first one decides the result type unless they disagree (`dyn`).
    fn resolve_overload(
        &mut self,
        id: ExprId,
        function: &str,
        target: Option<ExprId>,
        args: &[ExprId],
    ) -> Option<(Vec<String>, Type)> {
        let mut arg_types: Vec<Type> = target.iter().map(|&t| self.get_type(t)).collect();
        arg_types.extend(args.iter().map(|&a| self.get_type(a)));
        let mut result: Option<Type> = None;
        let mut refs: Vec<String> = Vec::new();
        for o in self.env.overloads(function) {
            if !self.in_comprehension() && self.env.overload_disabled(&o.id) {
                continue;
            }
            if target.is_some() != o.receiver_style {
                continue;
            }
            if function == "_&&_" || function == "_||_" {
                let mut failed = false;
                for (i, at) in arg_types.iter().enumerate() {
                    if !self.is_assignable(at, &Type::Bool) {
                        self.type_mismatch(args[i], &Type::Bool, at);
                        failed = true;
                    }
                }
                return (!failed).then(|| (vec![o.id.to_string()], Type::Bool));
            }
            let (mut params, mut result_type) = (o.params.clone(), o.result.clone());
            if !o.type_params.is_empty() {
                let mut subs = Mapping::default();
                for tp in &o.type_params {
                    let fresh = self.new_type_var();
                    subs.add(&Type::param(tp), fresh);
                }
                params = params
                    .iter()
                    .map(|p| unify::substitute(&subs, p, false))
                    .collect();
                result_type = unify::substitute(&subs, &result_type, false);
            }
            if let Some(m) = unify::is_assignable_list(&self.mappings, &arg_types, &params) {
                self.mappings = m;
                refs.push(o.id.to_string());
                let fn_result = unify::substitute(&self.mappings, &result_type, false);
                result = Some(match result {
                    None => fn_result,
                    Some(r) if !unify::is_dyn(&r) && fn_result != r => Type::Dyn,
                    Some(r) => r,
                });
            }
        }
        if let Some(r) = result {
            return Some((refs, r));
        }
        let shown: Vec<String> = arg_types
            .iter()
            .map(|t| unify::substitute(&self.mappings, t, true).to_string())
            .collect();
        let signature = match target {
            Some(_) => format!("{}.({})", shown[0], shown[1..].join(", ")),
            None => format!("({})", shown.join(", ")),
        };
        self.error(
            id,
            format!("found no matching overload for '{function}' applied to '{signature}'"),
        );
        None
    }
}
