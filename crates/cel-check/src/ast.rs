//! The parsed expression: a flat arena mirroring cel-go `common/ast` (`expr.go`, `ast.go`'s
//! `SourceInfo` offset ranges and macro calls).
//!
//! Ids are cel-go's: assigned in the order cel-go's parser assigns them, starting at 1, so
//! `exprs[id.index()]` is the node with that id and cel-go's test tables (`^#3:...#`) and checker
//! output can be compared id for id. Some slots are not reachable from the root: map entries and
//! struct fields own an id (as in cel-go) whose slot is [`ExprKind::Unspecified`], and so does a
//! macro call's id that cel-go deleted after expansion; an expanded macro's original arguments
//! stay in the arena (see [`Ast::macro_calls`]).

use std::collections::BTreeMap;

/// A node id: cel-go's expression id (1-based).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ExprId(pub u32);

impl ExprId {
    /// Position of the node in [`Ast::exprs`]; use it to index side tables.
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

/// A byte range of the source. For an operator or call it is the token cel-go attaches the id
/// to (the operator, the `(` of a call, the `[` of an index, the `.` of a select), so
/// `span.start` is exactly where cel-go reports errors about the node. Nodes created by a macro
/// expansion have an empty span at the macro call's position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset past the last byte (equal to `start` for an empty span).
    pub end: u32,
}

/// A constant as written in the source, after unescaping (cel-go `ast.Constant` values).
#[derive(Clone, PartialEq, Debug)]
pub enum Literal {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// `1`, `0x1F`, `-5`: the sign is part of the literal, so `-9223372036854775808` parses.
    Int(i64),
    /// `1u`, `0xFFu`.
    Uint(u64),
    /// `1.5`, `1e3`, `.5`.
    Double(f64),
    /// `'a'`, `"a"`, `'''a'''`, `r'\d'`: the value, escapes decoded (raw strings have none).
    String(String),
    /// `b'abc'`, `b'\xff'`: the decoded bytes.
    Bytes(Vec<u8>),
}

/// One `key: value` of a map literal `{k: v, ?k2: v2}`.
#[derive(Clone, PartialEq, Debug)]
pub struct MapEntry {
    /// The entry's own id (cel-go gives entries ids: the `:` token).
    pub id: ExprId,
    /// The key expression.
    pub key: ExprId,
    /// The value expression.
    pub value: ExprId,
    /// `{?k: v}`
    pub optional: bool,
}

/// One `field: value` of a message construction `Msg{f: v}`.
#[derive(Clone, PartialEq, Debug)]
pub struct StructField {
    /// The initializer's own id (cel-go gives initializers ids: the `:` token).
    pub id: ExprId,
    /// The field name as written.
    pub field: String,
    /// The value expression.
    pub value: ExprId,
    /// `Msg{?f: v}`
    pub optional: bool,
}

/// A fold, as cel-go's `ComprehensionExpr`; every comprehension comes from a macro.
#[derive(Clone, PartialEq, Debug)]
pub struct Comprehension {
    /// The variable bound to each element of a list or each key of a map (the index or key in
    /// two-variable comprehensions).
    pub iter_var: String,
    /// The second variable of two-variable comprehensions (`m.all(k, v, …)`).
    pub iter_var2: Option<String>,
    /// The list or map iterated over.
    pub iter_range: ExprId,
    /// The accumulator's name: `@result`, or `__result__` when the
    /// [`ParseOptions`](crate::ParseOptions) turn `hidden_accumulator_name` off. `@result`
    /// cannot be written in an expression, so no user variable shadows it.
    pub accu_var: String,
    /// The accumulator's initial value (`true` for `all`, `[]` for `map`).
    pub accu_init: ExprId,
    /// Checked before each step; when it is false the loop stops early (`all` stops at the first
    /// `false`). A plain `true` for macros that visit every element.
    pub loop_condition: ExprId,
    /// The accumulator's next value, computed from the current one and the iteration variables.
    pub loop_step: ExprId,
    /// The comprehension's value, computed from the final accumulator.
    pub result: ExprId,
}

/// What a node is: one variant per cel-go expression kind.
#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    /// An id without an expression: entry ids, deleted macro-call ids, error placeholders.
    Unspecified,
    /// A constant: `1`, `'a'`, `null`.
    Literal(Literal),
    /// A bare name: `self`, `oldSelf`, a comprehension variable. A qualified name such as
    /// `a.b.c` is parsed as a chain of [`ExprKind::Select`]s that the checker resolves.
    Ident(String),
    /// `operand.field`; `test_only` is the presence test `has(operand.field)`. (`a.?b` is the
    /// call `_?._(a, "b")`, as in cel-go.)
    Select {
        /// The value selected from.
        operand: ExprId,
        /// The field name.
        field: String,
        /// Set for the presence test `has(operand.field)`.
        test_only: bool,
    },
    /// Functions and operators (`_+_`, `_[_]`, `@in`, `_?_:_`, …); `target` for receiver calls.
    Call {
        /// The receiver of `target.function(args)`; `None` for global calls and operators.
        target: Option<ExprId>,
        /// The function name, or the operator's internal name (`_+_`, `_&&_`, `@in`).
        function: String,
        /// The arguments in order, without the receiver.
        args: Vec<ExprId>,
    },
    /// `[a, ?b]`: `optional_indices` lists the positions written with `?`.
    List {
        /// The elements in order.
        elems: Vec<ExprId>,
        /// Indices into `elems` of the elements written `?e`: absent optionals are left out.
        optional_indices: Vec<u32>,
    },
    /// A map literal `{k: v, ?k2: v2}`.
    Map {
        /// The entries in source order.
        entries: Vec<MapEntry>,
    },
    /// Message construction `pkg.Msg{f: v}` (parsed as cel-go does; Kubernetes has no messages).
    Struct {
        /// The message name as written (`pkg.Msg`).
        type_name: String,
        /// The initializers in source order.
        fields: Vec<StructField>,
    },
    /// A fold: the expansion of a macro such as `all`, `exists` or `map`.
    Comprehension(Box<Comprehension>),
}

/// One node of the arena.
#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    /// The node's own id; `ast.exprs[id.index()]` is this node.
    pub id: ExprId,
    /// Where cel-go reports errors about the node (see [`Span`]).
    pub span: Span,
    /// What the node is, with the ids of its children.
    pub kind: ExprKind,
}

/// The call a macro expansion replaced (cel-go `SourceInfo.MacroCalls`). Arguments that were
/// themselves macros refer to their expansion, which has its own entry.
#[derive(Clone, PartialEq, Debug)]
pub struct MacroCall {
    /// The macro's name as written: `has`, `all`, `exists_one`, `map`, …
    pub function: String,
    /// The receiver of a receiver-style macro (`list` in `list.all(x, p)`); `None` for `has(..)`.
    pub target: Option<ExprId>,
    /// The arguments as written, still in the arena though no longer reachable from the root.
    pub args: Vec<ExprId>,
}

/// A parsed expression: every node in one arena, addressed by [`ExprId`].
#[derive(Clone, PartialEq, Debug)]
pub struct Ast {
    /// All nodes, in id order (see [`ExprId::index`]); not all are reachable from [`Ast::root`].
    pub exprs: Vec<Expr>,
    /// The whole expression.
    pub root: ExprId,
    /// Keyed by the id of the expansion (usually a comprehension).
    pub macro_calls: BTreeMap<ExprId, MacroCall>,
}

impl Ast {
    /// `a.b.c` as the name `a.b.c` when every part is an identifier or a plain selection (cel-go
    /// `containers.ToQualifiedName`).
    #[must_use]
    pub fn qualified_name(&self, id: ExprId) -> Option<String> {
        match &self.expr(id).kind {
            ExprKind::Ident(n) => Some(n.clone()),
            ExprKind::Select {
                operand,
                field,
                test_only: false,
            } => Some(format!("{}.{field}", self.qualified_name(*operand)?)),
            _ => None,
        }
    }

    /// The names of a chain of selections ending in an identifier, outermost first (cel-go
    /// `qualifiers`); `None` when a part is a test-only selection or not a name.
    #[must_use]
    pub fn qualifiers(&self, mut id: ExprId) -> Option<Vec<String>> {
        let mut out = Vec::new();
        while let ExprKind::Select {
            operand,
            field,
            test_only,
        } = &self.expr(id).kind
        {
            if *test_only {
                return None;
            }
            out.push(field.clone());
            id = *operand;
            if let ExprKind::Ident(name) = &self.expr(id).kind {
                out.push(name.clone());
                out.reverse();
                return Some(out);
            }
        }
        None
    }

    /// The node with id `id`.
    ///
    /// # Panics
    /// When `id` is not an id of this AST.
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }

    /// What the node with id `id` is; shorthand for `&ast.expr(id).kind`.
    ///
    /// # Panics
    /// When `id` is not an id of this AST.
    pub fn kind(&self, id: ExprId) -> &ExprKind {
        &self.exprs[id.index()].kind
    }
}

impl std::ops::Index<ExprId> for Ast {
    type Output = Expr;
    fn index(&self, id: ExprId) -> &Expr {
        self.expr(id)
    }
}
