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
    pub start: u32,
    pub end: u32,
}

#[derive(Clone, PartialEq, Debug)]
pub enum Literal {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(String),
    Bytes(Vec<u8>),
}

#[derive(Clone, PartialEq, Debug)]
pub struct MapEntry {
    /// The entry's own id (cel-go gives entries ids: the `:` token).
    pub id: ExprId,
    pub key: ExprId,
    pub value: ExprId,
    /// `{?k: v}`
    pub optional: bool,
}

#[derive(Clone, PartialEq, Debug)]
pub struct StructField {
    pub id: ExprId,
    pub field: String,
    pub value: ExprId,
    /// `Msg{?f: v}`
    pub optional: bool,
}

/// A fold, as cel-go's `ComprehensionExpr`; every comprehension comes from a macro.
#[derive(Clone, PartialEq, Debug)]
pub struct Comprehension {
    pub iter_var: String,
    /// The second variable of two-variable comprehensions (`m.all(k, v, …)`).
    pub iter_var2: Option<String>,
    pub iter_range: ExprId,
    pub accu_var: String,
    pub accu_init: ExprId,
    pub loop_condition: ExprId,
    pub loop_step: ExprId,
    pub result: ExprId,
}

#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    /// An id without an expression: entry ids, deleted macro-call ids, error placeholders.
    Unspecified,
    Literal(Literal),
    Ident(String),
    /// `operand.field`; `test_only` is the presence test `has(operand.field)`. (`a.?b` is the
    /// call `_?._(a, "b")`, as in cel-go.)
    Select {
        operand: ExprId,
        field: String,
        test_only: bool,
    },
    /// Functions and operators (`_+_`, `_[_]`, `@in`, `_?_:_`, …); `target` for receiver calls.
    Call {
        target: Option<ExprId>,
        function: String,
        args: Vec<ExprId>,
    },
    /// `[a, ?b]`: `optional_indices` lists the positions written with `?`.
    List {
        elems: Vec<ExprId>,
        optional_indices: Vec<u32>,
    },
    Map {
        entries: Vec<MapEntry>,
    },
    /// Message construction `pkg.Msg{f: v}` (parsed as cel-go does; Kubernetes has no messages).
    Struct {
        type_name: String,
        fields: Vec<StructField>,
    },
    Comprehension(Box<Comprehension>),
}

#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    pub id: ExprId,
    pub span: Span,
    pub kind: ExprKind,
}

/// The call a macro expansion replaced (cel-go `SourceInfo.MacroCalls`). Arguments that were
/// themselves macros refer to their expansion, which has its own entry.
#[derive(Clone, PartialEq, Debug)]
pub struct MacroCall {
    pub function: String,
    pub target: Option<ExprId>,
    pub args: Vec<ExprId>,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Ast {
    pub exprs: Vec<Expr>,
    pub root: ExprId,
    /// Keyed by the id of the expansion (usually a comprehension).
    pub macro_calls: BTreeMap<ExprId, MacroCall>,
}

impl Ast {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }

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
