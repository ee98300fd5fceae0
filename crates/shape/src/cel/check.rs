//! Mirrors `crates/cel-check/src/check/checker.rs` in `const fn`s.
//!
//! The `const` type checker: the run-time checker ([`crdkit_cel_check::check`], cel-go
//! `checker/checker.go`) over a [`super::ast::Ast`] and the shape graph, with the same walk
//! order, substitutions and messages. Calls are in `call.rs`, aggregates and comprehensions in
//! `aggregate.rs`, the AST validators in `validate.rs`.

use super::ast::{Ast, Global, NodeKind};
use super::schema::{self, NodeRef};
use super::types::{BOOL, DYN, ERROR, NONE, TKind, Ty, TyId, Types};
use crate::Msg;
use crdkit_cel_check::env::TYPE_IDENTS;

pub use super::ast::MAX_NODES;
/// Capacity of the comprehension scopes.
const MAX_LOCALS: usize = 64;
/// Errors kept (cel-go keeps 100; more than a few means the rule is garbled anyway).
pub const MAX_ISSUES: usize = 6;

/// What an identifier or call resolved to (the parts of cel-go's references that matter).
#[derive(Clone, Copy, Debug)]
pub enum Ref {
    /// No reference: the node is not an identifier or call, or did not resolve.
    None,
    /// A variable or type name; `old_self` when it is `oldSelf` (a transition rule).
    Ident {
        /// The identifier is `oldSelf`.
        old_self: bool,
    },
    /// A call: the candidate overloads that matched (a bit per candidate), and whether the
    /// function is namespaced (`sets.contains`): then the target is not an argument.
    Function {
        /// Bit `i` is set when `Call::overloads[i]` matched.
        mask: u32,
        /// The candidates are those of the namespaced function, whose target is part of the name.
        namespaced: bool,
    },
    /// `a.?b`
    OptSelect,
}

/// One error, with cel-go's location.
#[derive(Clone, Copy)]
pub struct Issue {
    /// 1-based line.
    pub line: u32,
    /// 0-based column, in code points.
    pub col: u32,
    /// cel-go's message.
    pub message: Msg,
}

/// The environment of a rule: `self` is the schema node, `oldSelf` the same or optional.
#[derive(Clone, Copy, Debug)]
pub struct Env {
    /// The schema node the rule is on: the type of `self`.
    pub node: NodeRef,
    /// `optionalOldSelf`: `oldSelf` is `optional_type(T)` rather than `T`.
    pub optional_old_self: bool,
}

/// The checker's state over one expression (cel-go `checker`): types and references by node,
/// comprehension scopes, errors.
pub struct Checker {
    /// The expression checked.
    pub ast: &'static Ast,
    /// The type arenas.
    pub t: Types,
    /// The type of each node ([`NONE`] until checked).
    pub types: [TyId; MAX_NODES],
    /// What each identifier and call resolved to.
    pub refs: [Ref; MAX_NODES],
    locals: [(&'static str, TyId); MAX_LOCALS],
    locals_len: usize,
    /// The first [`MAX_ISSUES`] errors, in the order found.
    pub issues: [Issue; MAX_ISSUES],
    /// How many errors `issues` holds.
    pub issues_len: usize,
    /// The type of `self`.
    pub self_ty: TyId,
    /// The type of `oldSelf`: `self`'s, or its optional with `optionalOldSelf`.
    pub old_self_ty: TyId,
}

const NO_ISSUE: Issue = Issue {
    line: 0,
    col: 0,
    message: Msg::new(),
};

impl Checker {
    /// A checker of `ast` in the rule environment `env`.
    #[must_use]
    pub const fn new(ast: &'static Ast, env: Env) -> Checker {
        let mut t = Types::new();
        let self_ty = t.of_node(env.node, 0);
        let old_self_ty = if env.optional_old_self {
            t.optional(self_ty)
        } else {
            self_ty
        };
        Checker {
            ast,
            t,
            types: [NONE; MAX_NODES],
            refs: [Ref::None; MAX_NODES],
            locals: [("", NONE); MAX_LOCALS],
            locals_len: 0,
            issues: [NO_ISSUE; MAX_ISSUES],
            issues_len: 0,
            self_ty,
            old_self_ty,
        }
    }

    /// Checks the expression and substitutes every type (unbound parameters become `dyn`).
    pub const fn run(&mut self) {
        self.check(self.ast.root);
        let mut i = 0;
        while i < self.ast.nodes.len() {
            if self.types[i] != NONE {
                self.types[i] = self.t.substitute(self.types[i], true);
            }
            i += 1;
        }
    }

    /// Reports an error at node `id`.
    pub const fn error(&mut self, id: u32, message: Msg) {
        if self.issues_len < MAX_ISSUES {
            let n = self.ast.node(id);
            self.issues[self.issues_len] = Issue {
                line: n.line,
                col: n.col,
                message,
            };
            self.issues_len += 1;
        }
    }

    /// `expected type 'E' but found 'A'`.
    pub const fn type_mismatch(&mut self, id: u32, expected: TyId, actual: TyId) {
        let m = self.t.fmt(Msg::of("expected type '"), expected);
        let m = self.t.fmt(m.s("' but found '"), actual).s("'");
        self.error(id, m);
    }

    /// Reports `undeclared reference to 'name' (in container '')` at node `id`.
    pub const fn undeclared(&mut self, id: u32, name: &str) {
        self.error(
            id,
            Msg::of("undeclared reference to '")
                .s(name)
                .s("' (in container '')"),
        );
    }

    /// The type of a checked node ([`ERROR`] if it has none).
    #[must_use]
    pub const fn get_type(&self, id: u32) -> TyId {
        let t = self.types[id as usize];
        if t == NONE { ERROR } else { t }
    }

    /// Records the type of node `id`; a different type already recorded is reported as cel-go does
    /// (`incompatible type already exists for expression`).
    pub const fn set_type(&mut self, id: u32, t: TyId) {
        let old = self.types[id as usize];
        if old != NONE && !self.t.exact(old, t) {
            let m = Msg::of("incompatible type already exists for expression: (")
                .int(id as i128 + 1)
                .s(") old:");
            let m = self.t.fmt(m, old).s(", new:");
            let m = self.t.fmt(m, t);
            self.error(id, m);
        } else {
            self.types[id as usize] = t;
        }
    }

    /// Declares the comprehension variable `name` of type `t` in the innermost scope.
    pub const fn push_local(&mut self, name: &'static str, t: TyId) {
        if self.locals_len < MAX_LOCALS {
            self.locals[self.locals_len] = (name, t);
            self.locals_len += 1;
        } else {
            self.t.overflow = true;
        }
    }

    /// The current scope depth, to restore with [`Checker::pop_locals`].
    #[must_use]
    pub const fn locals_mark(&self) -> usize {
        self.locals_len
    }

    /// Drops the comprehension variables declared since `mark`.
    pub const fn pop_locals(&mut self, mark: usize) {
        self.locals_len = mark;
    }

    /// The innermost local of that name (a leading dot is ignored).
    #[must_use]
    pub const fn lookup_local(&self, name: &str) -> TyId {
        let name = strip_dot(name);
        let mut i = self.locals_len;
        while i > 0 {
            i -= 1;
            if crate::msg::str_eq(self.locals[i].0, name) {
                return self.locals[i].1;
            }
        }
        NONE
    }

    /// Checks node `id` and its children (cel-go `checker.check`), recording types, references and
    /// errors.
    pub const fn check(&mut self, id: u32) {
        match *self.ast.kind(id) {
            NodeKind::Null => self.set_type(id, super::types::NULL),
            NodeKind::Bool(_) => self.set_type(id, BOOL),
            NodeKind::Int(_) => self.set_type(id, super::types::INT),
            NodeKind::Uint(_) => self.set_type(id, super::types::UINT),
            NodeKind::Double(_) => self.set_type(id, super::types::DOUBLE),
            NodeKind::String(_) => self.set_type(id, super::types::STRING),
            NodeKind::Bytes(_) => self.set_type(id, super::types::BYTES),
            NodeKind::Ident { name, global } => self.check_ident(id, name, global),
            NodeKind::Select {
                operand,
                field,
                test_only,
                head,
                qualified,
            } => self.check_select(id, operand, field, test_only, head, qualified),
            NodeKind::Call(c) => self.check_call(id, c),
            NodeKind::List { elems, optional } => self.check_list(id, elems, optional),
            NodeKind::Map { entries } => self.check_map(id, entries),
            NodeKind::Struct {
                type_name,
                resolved,
                fields,
            } => self.check_struct(id, type_name, resolved, fields),
            NodeKind::Comprehension(c) => self.check_comprehension(id, c),
            NodeKind::Unspecified => self.error(id, Msg::of("unexpected unspecified type: Expr")),
        }
    }

    /// The type of a global: `self`, `oldSelf`, or `type(T)` of a type name.
    const fn global_type(&mut self, g: Global) -> TyId {
        match g {
            Global::None => ERROR,
            Global::SelfVar => self.self_ty,
            Global::OldSelf => self.old_self_ty,
            Global::Type(i) => {
                let t = self.t.of_spec(&TYPE_IDENTS[i as usize].ty, &[]);
                self.t.add(Ty::Type(t))
            }
        }
    }

    const fn check_ident(&mut self, id: u32, name: &'static str, global: Global) {
        let local = self.lookup_local(name);
        let dotted = !name.is_empty() && name.as_bytes()[0] == b'.';
        if local != NONE && !dotted {
            self.set_type(id, local);
            self.refs[id as usize] = Ref::Ident {
                old_self: crate::msg::str_eq(name, "oldSelf"),
            };
            return;
        }
        if matches!(global, Global::None) {
            self.set_type(id, ERROR);
            self.undeclared(id, name);
            return;
        }
        let t = self.global_type(global);
        self.set_type(id, t);
        self.refs[id as usize] = Ref::Ident {
            old_self: matches!(global, Global::OldSelf) && local == NONE,
        };
    }

    const fn check_select(
        &mut self,
        id: u32,
        operand: u32,
        field: &'static str,
        test_only: bool,
        head: &'static str,
        qualified: Global,
    ) {
        if !head.is_empty() {
            let local = self.lookup_local(head);
            let dotted = head.as_bytes()[0] == b'.';
            if (local == NONE || dotted) && !matches!(qualified, Global::None) {
                let t = self.global_type(qualified);
                self.set_type(id, t);
                self.refs[id as usize] = Ref::Ident { old_self: false };
                return;
            }
        }
        let mut result = self.check_select_field(id, operand, field, false);
        if test_only {
            result = BOOL;
        }
        let t = self.t.substitute(result, false);
        self.set_type(id, t);
    }

    /// cel-go `checkSelectField`.
    pub const fn check_select_field(
        &mut self,
        id: u32,
        operand: u32,
        field: &'static str,
        optional: bool,
    ) -> TyId {
        self.check(operand);
        let operand_type = self.t.substitute(self.get_type(operand), false);
        let (target, is_opt) = self.t.unwrap_optional(operand_type);
        let result = match self.t.get(target) {
            Ty::Map(_, v) => v,
            Ty::Object(..) | Ty::LibObject(_) => self.lookup_field(id, target, field),
            Ty::Var(_) | Ty::Named(_) => {
                self.t.is_assignable(DYN, target);
                DYN
            }
            _ => {
                if !self.t.is_dyn_or_error(target) {
                    let m = self.t.fmt(Msg::of("type '"), target);
                    self.error(id, m.s("' does not support field selection"));
                }
                DYN
            }
        };
        if is_opt || optional {
            self.t.optional(result)
        } else {
            result
        }
    }

    /// cel-go `lookupFieldType` over the schema; reserved words also find `__word__`.
    const fn lookup_field(&mut self, id: u32, obj: TyId, field: &'static str) -> TyId {
        let (node, name) = match self.t.get(obj) {
            Ty::Object(node, name) => (node, name),
            Ty::LibObject(n) => {
                self.error(id, Msg::of("unexpected failed resolution of '").s(n).s("'"));
                return ERROR;
            }
            _ => return ERROR,
        };
        if let Some(c) = schema::find_prop(node, field, false)
            && schema::visible(c)
        {
            let n = self.t.child_name(name, field);
            return self.t.of_node(c, n);
        }
        if let Some(esc) = schema::reserved_escaped(field)
            && let Some(c) = schema::find_prop(node, esc, false)
            && schema::visible(c)
        {
            let n = self.t.child_name(name, esc);
            return self.t.of_node(c, n);
        }
        self.error(id, Msg::of("undefined field '").s(field).s("'"));
        ERROR
    }

    /// Whether `t` is `dyn` or one of the kinds.
    #[must_use]
    pub const fn kind_in(&self, t: TyId, kinds: &[TKind]) -> bool {
        let k = self.t.kind(t);
        let mut i = 0;
        while i < kinds.len() {
            if super::types::matches_kind(k, kinds[i]) {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// `name` without a leading dot.
#[must_use]
pub const fn strip_dot(name: &str) -> &str {
    match name.as_bytes() {
        [b'.', ..] => {
            let (_, rest) = name.split_at(1);
            rest
        }
        _ => name,
    }
}
