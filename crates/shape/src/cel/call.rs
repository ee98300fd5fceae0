//! Mirrors `crates/cel-check/src/check/call.rs` in `const fn`s.
//!
//! Calls: cel-go `checkCall`, `checkOptSelect` and `resolveOverload`, over the overload
//! candidates the derive listed from [`crdkit_cel_check::env::OVERLOADS`].

use super::ast::{Call, NodeKind};
use super::check::{Checker, Ref};
use super::types::{BOOL, ERROR, NONE, TyId};
use crate::Msg;
use crate::msg::str_eq;
use crdkit_cel_check::env::{OVERLOADS, OverloadDecl};
use crdkit_cel_check::types::TypeSpec;

/// Most arguments (with the target) a call is checked with.
const MAX_ARGS: usize = 16;

impl Checker {
    pub(super) const fn check_call(&mut self, id: u32, c: &'static Call) {
        if str_eq(c.function, "_?._") {
            self.check_opt_select(id, c);
            return;
        }
        let mut i = 0;
        while i < c.args.len() {
            self.check(c.args[i]);
            i += 1;
        }
        let Some(target) = c.target else {
            if c.declared {
                self.resolve_or_error(id, c.function, None, c.args, c.overloads, false);
            } else {
                self.undeclared(id, c.function);
                self.set_type(id, ERROR);
            }
            return;
        };
        if let Some(ns) = c.namespaced {
            self.resolve_or_error(id, ns.function, None, c.args, ns.overloads, true);
            return;
        }
        self.check(target);
        if c.declared {
            self.resolve_or_error(id, c.function, Some(target), c.args, c.overloads, false);
        } else {
            self.set_type(id, ERROR);
            self.undeclared(id, c.function);
        }
    }

    /// `a.?b`, which the parser writes as `_?._(a, "b")`.
    const fn check_opt_select(&mut self, id: u32, c: &'static Call) {
        if c.args.len() != 2 || c.target.is_some() {
            let member = if c.target.is_some() {
                " member call with"
            } else {
                ""
            };
            self.error(
                id,
                Msg::of("unsupported optional field selection: incorrect signature.")
                    .s(member)
                    .s(" argument count: ")
                    .int(c.args.len() as i128),
            );
            return;
        }
        let (operand, field) = (c.args[0], c.args[1]);
        let NodeKind::String(name) = *self.ast.kind(field) else {
            let text = match c.opt_select_text {
                Some(t) => t,
                None => "",
            };
            self.error(
                field,
                Msg::of("unsupported optional field selection: ").s(text),
            );
            return;
        };
        let result = self.check_select_field(id, operand, name, true);
        let t = self.t.substitute(result, false);
        self.set_type(id, t);
        self.refs[id as usize] = Ref::OptSelect;
    }

    const fn resolve_or_error(
        &mut self,
        id: u32,
        function: &'static str,
        target: Option<u32>,
        args: &'static [u32],
        overloads: &'static [u16],
        namespaced: bool,
    ) {
        match self.resolve_overload(id, function, target, args, overloads) {
            Some((mask, t)) => {
                self.set_type(id, t);
                self.refs[id as usize] = Ref::Function { mask, namespaced };
            }
            None => self.set_type(id, ERROR),
        }
    }

    /// cel-go `resolveOverload`: every candidate whose signature accepts the argument types, in
    /// declaration order; the first decides the result type unless they disagree (`dyn`).
    const fn resolve_overload(
        &mut self,
        id: u32,
        function: &'static str,
        target: Option<u32>,
        args: &'static [u32],
        overloads: &'static [u16],
    ) -> Option<(u32, TyId)> {
        let mut arg_types = [NONE; MAX_ARGS];
        let mut n = 0;
        if let Some(t) = target {
            arg_types[0] = self.get_type(t);
            n = 1;
        }
        let mut i = 0;
        while i < args.len() && n < MAX_ARGS {
            arg_types[n] = self.get_type(args[i]);
            n += 1;
            i += 1;
        }
        let (arg_types, _) = arg_types.split_at(n);
        let logical = str_eq(function, "_&&_") || str_eq(function, "_||_");
        let mut result = NONE;
        let mut mask = 0u32;
        let mut k = 0;
        while k < overloads.len() {
            let o = &OVERLOADS[overloads[k] as usize];
            if logical {
                let mut failed = false;
                let mut j = 0;
                while j < arg_types.len() {
                    if !self.t.is_assignable(arg_types[j], BOOL) {
                        self.type_mismatch(args[j], BOOL, arg_types[j]);
                        failed = true;
                    }
                    j += 1;
                }
                return if failed { None } else { Some((1, BOOL)) };
            }
            let (params, ret) = self.instantiate(o);
            let (params, _) = params.split_at(o.params.len());
            if self.t.is_assignable_list(arg_types, params) {
                mask |= 1 << k;
                let fn_result = self.t.substitute(ret, false);
                result = if result == NONE {
                    fn_result
                } else if !self.t.is_dyn(result) && !self.t.exact(fn_result, result) {
                    super::types::DYN
                } else {
                    result
                };
            }
            k += 1;
        }
        if result != NONE {
            return Some((mask, result));
        }
        let mut m = Msg::of("found no matching overload for '")
            .s(function)
            .s("' applied to '");
        let mut j = 0;
        if target.is_some() {
            let t = self.t.substitute(arg_types[0], true);
            m = self.t.fmt(m, t).s(".(");
            j = 1;
        } else {
            m = m.s("(");
        }
        let first = j;
        while j < arg_types.len() {
            if j > first {
                m = m.s(", ");
            }
            let t = self.t.substitute(arg_types[j], true);
            m = self.t.fmt(m, t);
            j += 1;
        }
        self.error(id, m.s(")'"));
        None
    }

    /// An overload's parameter and result types with fresh variables for its type parameters
    /// (collected from the result, then the parameters, as cel-go declares them).
    const fn instantiate(&mut self, o: &OverloadDecl) -> ([TyId; MAX_ARGS], TyId) {
        let mut names: [&'static str; 4] = [""; 4];
        let mut count = 0;
        count = collect_params(&o.result, &mut names, count);
        let mut i = 0;
        while i < o.params.len() {
            count = collect_params(&o.params[i], &mut names, count);
            i += 1;
        }
        let mut table: [(&'static str, TyId); 4] = [("", NONE); 4];
        let mut j = 0;
        while j < count {
            table[j] = (names[j], self.t.new_var());
            j += 1;
        }
        let (table, _) = table.split_at(count);
        let mut params = [NONE; MAX_ARGS];
        let mut i = 0;
        while i < o.params.len() && i < MAX_ARGS {
            params[i] = self.t.of_spec(&o.params[i], table);
            i += 1;
        }
        let ret = self.t.of_spec(&o.result, table);
        (params, ret)
    }
}

/// Adds the type parameters `s` mentions to `out` (in order of appearance, once each).
const fn collect_params(s: &TypeSpec, out: &mut [&'static str; 4], mut n: usize) -> usize {
    match *s {
        TypeSpec::Param(p) => {
            let mut i = 0;
            while i < n {
                if str_eq(out[i], p) {
                    return n;
                }
                i += 1;
            }
            if n < out.len() {
                out[n] = p;
                n += 1;
            }
            n
        }
        TypeSpec::List(e) | TypeSpec::TypeOf(e) => collect_params(e, out, n),
        TypeSpec::Map(k, v) => {
            n = collect_params(k, out, n);
            collect_params(v, out, n)
        }
        TypeSpec::Opaque(_, ps) => {
            let mut i = 0;
            while i < ps.len() {
                n = collect_params(&ps[i], out, n);
                i += 1;
            }
            n
        }
        _ => n,
    }
}
