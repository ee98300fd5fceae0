//! Mirrors `crates/cel-check/src/check/validate.rs` (with `format.rs`) in `const fn`s.
//!
//! The AST validators after a successful check, as the run-time checker runs them
//! (`crdkit_cel_check::check`'s `validate.rs` and `format.rs`): homogeneous aggregate literals, the
//! literal validators the derive already ran (their findings are in the AST), and the argument
//! types of literal `format` calls.

use super::ast::{Call, Format, NodeKind};
use super::check::{Checker, MAX_NODES, Ref};
use super::types::{DYN, ERROR, NONE, TKind, TyId};
use crate::Msg;
use crate::msg::str_eq;
use crdkit_cel_check::env::OVERLOADS;

/// The nodes the validators visit, each with whether it is inside a `format` call.
struct Reachable {
    nodes: [(u32, bool); MAX_NODES],
    len: usize,
}

impl Checker {
    /// The receiver of a call as evaluated: `None` for global and namespaced calls.
    #[must_use]
    pub const fn call_target(&self, id: u32) -> Option<u32> {
        match *self.ast.kind(id) {
            NodeKind::Call(c) => match self.refs[id as usize] {
                Ref::Function {
                    namespaced: true, ..
                } => None,
                _ => c.target,
            },
            _ => None,
        }
    }

    /// The final type of a node; [`ERROR`] if it has none.
    #[must_use]
    pub const fn type_of(&self, id: u32) -> TyId {
        self.get_type(id)
    }

    const fn reachable(&self) -> Reachable {
        let mut r = Reachable {
            nodes: [(0, false); MAX_NODES],
            len: 0,
        };
        let mut stack: [(u32, bool); MAX_NODES] = [(0, false); MAX_NODES];
        let mut sp = 1;
        stack[0] = (self.ast.root, false);
        while sp > 0 {
            sp -= 1;
            let (id, in_format) = stack[sp];
            if r.len < MAX_NODES {
                r.nodes[r.len] = (id, in_format);
                r.len += 1;
            }
            let kind = *self.ast.kind(id);
            if matches!(kind, NodeKind::Select { .. })
                && matches!(self.refs[id as usize], Ref::Ident { .. })
            {
                continue;
            }
            let in_format =
                in_format || matches!(kind, NodeKind::Call(c) if str_eq(c.function, "format"));
            // Children pushed last first, so they pop in evaluation order.
            match kind {
                NodeKind::Select { operand, .. } => sp = push(&mut stack, sp, operand, in_format),
                NodeKind::Call(c) => {
                    let mut i = c.args.len();
                    while i > 0 {
                        i -= 1;
                        sp = push(&mut stack, sp, c.args[i], in_format);
                    }
                    if let Some(t) = self.call_target(id) {
                        sp = push(&mut stack, sp, t, in_format);
                    }
                }
                NodeKind::List { elems, .. } => {
                    let mut i = elems.len();
                    while i > 0 {
                        i -= 1;
                        sp = push(&mut stack, sp, elems[i], in_format);
                    }
                }
                NodeKind::Map { entries } => {
                    let mut i = entries.len();
                    while i > 0 {
                        i -= 1;
                        sp = push(&mut stack, sp, entries[i].value, in_format);
                        sp = push(&mut stack, sp, entries[i].key, in_format);
                    }
                }
                NodeKind::Struct { fields, .. } => {
                    let mut i = fields.len();
                    while i > 0 {
                        i -= 1;
                        sp = push(&mut stack, sp, fields[i].value, in_format);
                    }
                }
                NodeKind::Comprehension(c) => {
                    sp = push(&mut stack, sp, c.result, in_format);
                    sp = push(&mut stack, sp, c.loop_step, in_format);
                    sp = push(&mut stack, sp, c.loop_condition, in_format);
                    sp = push(&mut stack, sp, c.accu_init, in_format);
                    sp = push(&mut stack, sp, c.iter_range, in_format);
                }
                _ => {}
            }
        }
        r
    }

    /// Runs the validators after a check without errors.
    pub const fn validate(&mut self) {
        let r = self.reachable();
        self.homogeneous(&r);
        let mut i = 0;
        while i < self.ast.validator_issues.len() {
            let is = self.ast.validator_issues[i];
            self.error(is.node, Msg::of(is.message));
            i += 1;
        }
        let mut i = 0;
        while i < r.len {
            let (id, _) = r.nodes[i];
            if let NodeKind::Call(c) = *self.ast.kind(id) {
                self.check_format(id, c);
            }
            i += 1;
        }
    }

    /// The type parameter of a `?e` entry's optional.
    const fn first_param(&self, t: TyId) -> TyId {
        let p = self.t.params(t).0;
        if p == NONE { ERROR } else { p }
    }

    /// `ValidateHomogeneousAggregateLiterals` (literals inside `format` calls are exempt).
    const fn homogeneous(&mut self, r: &Reachable) {
        let mut n = 0;
        while n < r.len {
            let (id, in_format) = r.nodes[n];
            n += 1;
            if in_format {
                continue;
            }
            match *self.ast.kind(id) {
                NodeKind::List { elems, optional } => {
                    let mut first = NONE;
                    let mut i = 0;
                    while i < elems.len() {
                        let e = elems[i];
                        let mut t = self.type_of(e);
                        let mut k = 0;
                        while k < optional.len() {
                            if optional[k] == i as u32 {
                                t = self.first_param(t);
                            }
                            k += 1;
                        }
                        if first == NONE {
                            first = t;
                        } else if !self.t.is_type(first, t, false) {
                            self.expected(e, first, t);
                            break;
                        }
                        i += 1;
                    }
                }
                NodeKind::Map { entries } => {
                    let (mut fk, mut fv) = (NONE, NONE);
                    let mut i = 0;
                    while i < entries.len() {
                        let e = entries[i];
                        i += 1;
                        let kt = self.type_of(e.key);
                        let mut vt = self.type_of(e.value);
                        if e.optional {
                            vt = self.first_param(vt);
                        }
                        if fk == NONE {
                            (fk, fv) = (kt, vt);
                            continue;
                        }
                        if !self.t.is_type(fk, kt, false) {
                            self.expected(e.key, fk, kt);
                        }
                        if !self.t.is_type(fv, vt, false) {
                            self.expected(e.value, fv, vt);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    const fn expected(&mut self, id: u32, expected: TyId, found: TyId) {
        let m = self.t.fmt(Msg::of("expected type '"), expected);
        let m = self.t.fmt(m.s("' but found '"), found).s("'");
        self.error(id, m);
    }

    /// Whether the call resolved to `string_format` (or did not resolve).
    const fn is_string_format(&self, id: u32, c: &Call) -> bool {
        match self.refs[id as usize] {
            Ref::Function { mask, namespaced } => {
                let list = match (namespaced, c.namespaced) {
                    (true, Some(ns)) => ns.overloads,
                    _ => c.overloads,
                };
                let mut i = 0;
                while i < list.len() {
                    if mask & (1 << i) != 0
                        && str_eq(OVERLOADS[list[i] as usize].id, "string_format")
                    {
                        return true;
                    }
                    i += 1;
                }
                false
            }
            _ => true,
        }
    }

    /// The strings extension's check of `'…'.format([…])` with literal arguments.
    const fn check_format(&mut self, id: u32, c: &'static Call) {
        let Some(f) = c.format else { return };
        if !self.is_string_format(id, c) {
            return;
        }
        let elems = match c.args {
            [list] => match *self.ast.kind(*list) {
                NodeKind::List { elems, .. } => elems,
                _ => return,
            },
            _ => return,
        };
        if let Some((at, m)) = self.format_clauses(f, elems) {
            self.error(at, m);
            return;
        }
        match f.end {
            Err(e) => self.error(id, Msg::of(e)),
            Ok(requested) => {
                if elems.len() > requested as usize {
                    self.error(
                        id,
                        Msg::of("too many arguments supplied to string.format (expected ")
                            .int(requested as i128)
                            .s(", got ")
                            .int(elems.len() as i128)
                            .s(")"),
                    );
                }
            }
        }
    }

    const fn format_clauses(&self, f: &Format, elems: &[u32]) -> Option<(u32, Msg)> {
        let mut i = 0;
        while i < f.verbs.len() && i < elems.len() {
            let node = elems[i];
            let t = match self.types[node as usize] {
                NONE => DYN,
                t => t,
            };
            let (ok, what): (&[TKind], &str) = match f.verbs[i] {
                b's' => {
                    if let Some(bad) = self.unprintable(node) {
                        let m = Msg::of(
                            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ",
                        );
                        let m = match self.types[bad as usize] {
                            NONE => m.s("dyn"),
                            t => self.t.fmt_name(m, t),
                        };
                        return Some((bad, m));
                    }
                    i += 1;
                    continue;
                }
                b'd' => (
                    &[TKind::Int, TKind::Uint],
                    "decimal clause can only be used on integers",
                ),
                b'f' => (
                    &[TKind::Double, TKind::String],
                    "fixed-point clause can only be used on doubles",
                ),
                b'e' => (
                    &[TKind::Double, TKind::String],
                    "scientific clause can only be used on doubles",
                ),
                b'b' => (
                    &[TKind::Int, TKind::Uint, TKind::Bool],
                    "only integers and bools can be formatted as binary",
                ),
                b'x' | b'X' => (
                    &[TKind::Int, TKind::Uint, TKind::String, TKind::Bytes],
                    "only integers, byte buffers, and strings can be formatted as hex",
                ),
                _ => (
                    &[TKind::Int, TKind::Uint],
                    "octal clause can only be used on integers",
                ),
            };
            if !self.t.is_dyn(t) && !self.kind_in(t, ok) {
                let m = Msg::of("error during formatting: ")
                    .s(what)
                    .s(", was given ");
                return Some((node, self.t.fmt_name(m, t)));
            }
            i += 1;
        }
        None
    }

    /// `verifyString`: the first node (the argument or, inside literals, an element) that
    /// `%s` cannot print.
    const fn unprintable(&self, node: u32) -> Option<u32> {
        let t = match self.types[node as usize] {
            NONE => DYN,
            t => t,
        };
        let printable = [
            TKind::List,
            TKind::Map,
            TKind::Int,
            TKind::Uint,
            TKind::Double,
            TKind::Bool,
            TKind::String,
            TKind::Timestamp,
            TKind::Bytes,
            TKind::Duration,
            TKind::Type,
            TKind::Null,
        ];
        if !self.t.is_dyn(t) && !self.kind_in(t, &printable) {
            return Some(node);
        }
        match *self.ast.kind(node) {
            NodeKind::List { elems, .. } => {
                let mut i = 0;
                while i < elems.len() {
                    if let Some(b) = self.unprintable(elems[i]) {
                        return Some(b);
                    }
                    i += 1;
                }
                None
            }
            NodeKind::Map { entries } => {
                let mut i = 0;
                while i < entries.len() {
                    if let Some(b) = self.unprintable(entries[i].key) {
                        return Some(b);
                    }
                    if let Some(b) = self.unprintable(entries[i].value) {
                        return Some(b);
                    }
                    i += 1;
                }
                None
            }
            _ => None,
        }
    }
}

const fn push(stack: &mut [(u32, bool); MAX_NODES], sp: usize, id: u32, in_format: bool) -> usize {
    if sp < MAX_NODES {
        stack[sp] = (id, in_format);
        sp + 1
    } else {
        sp
    }
}
