//! A parsed CEL expression as `'static` data, so that a `const fn` can type-check it.
//!
//! The derive parses every rule with [`crate::cel::parse_with`] and writes the result here,
//! node for node (`nodes[id - 1]` is cel-go's expression `id`), with what needs the parser or
//! the environment's tables but not the schema worked out ahead: each node's line and column,
//! what identifiers and qualified names resolve to globally, the overloads a call may use (as
//! indices into [`crate::cel::env::OVERLOADS`]), the clauses of literal `format` strings and
//! the findings of the literal validators (durations, timestamps, regexes). The type checker in
//! [`super::check`] does the rest against the [`crate::shape::Shape`] graph.
//!
//! [`super::lower`] builds the owned equivalent ([`super::lower::Lowered`]); the derive turns it
//! into tokens and [`super::lower::Lowered::leak`] into this form at run time.

/// A rule or message expression ready for the `const` checker.
#[derive(Clone, Copy, Debug)]
pub struct Ast {
    /// The expression text.
    pub source: &'static str,
    /// Every expression id's node, `nodes[id - 1]`.
    pub nodes: &'static [Node],
    /// Index of the root node.
    pub root: u32,
    /// Errors of the literal validators (`duration('1x')`), reported when the check succeeds.
    pub validator_issues: &'static [Issue],
    /// An upper bound of the type variables the check creates.
    pub type_vars: u32,
    /// The nesting depth of the expression.
    pub depth: u32,
    /// `OVERLOADS.len()` when the indices were computed (guards against mixed versions).
    pub table_len: u32,
}

/// An error found while lowering, at a node.
#[derive(Clone, Copy, Debug)]
pub struct Issue {
    pub node: u32,
    pub message: &'static str,
}

/// One expression node with cel-go's location of its errors (1-based line, 0-based column in
/// code points).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub line: u32,
    pub col: u32,
    pub kind: NodeKind,
}

/// What a name resolves to outside comprehension scopes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    /// Nothing: an undeclared reference.
    None,
    /// `self`
    SelfVar,
    /// `oldSelf`
    OldSelf,
    /// A type name (`int`, `net.IP`): index into [`crate::cel::env::TYPE_IDENTS`].
    Type(u16),
}

/// The kinds of [`Node`] (cel-go `ExprKind`).
#[derive(Clone, Copy, Debug)]
pub enum NodeKind {
    /// An id without an expression (map entries, struct fields, deleted macro calls).
    Unspecified,
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(&'static str),
    Bytes(&'static [u8]),
    /// An identifier and its global resolution (of the name without a leading dot).
    Ident {
        name: &'static str,
        global: Global,
    },
    /// `operand.field` or `has(operand.field)`. When the selection is a chain of identifiers
    /// (`a.b.c`), `head` is its first name and `qualified` what the whole name resolves to.
    Select {
        operand: u32,
        field: &'static str,
        test_only: bool,
        head: &'static str,
        qualified: Global,
    },
    Call(&'static Call),
    /// `[a, ?b]`: the positions written with `?` are in `optional`.
    List {
        elems: &'static [u32],
        optional: &'static [u32],
    },
    Map {
        entries: &'static [Entry],
    },
    /// `T{f: v}`; `resolved` is the type ident `T` names, if any (an index into
    /// [`crate::cel::env::TYPE_IDENTS`]).
    Struct {
        type_name: &'static str,
        resolved: Option<u16>,
        fields: &'static [FieldInit],
    },
    Comprehension(&'static Comprehension),
}

/// A function or operator call.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    pub target: Option<u32>,
    pub function: &'static str,
    pub args: &'static [u32],
    /// Whether the environment declares `function`.
    pub declared: bool,
    /// The overloads of `function` whose style (receiver or global) fits the call.
    pub overloads: &'static [u16],
    /// `a.b.f(x)` naming the function `a.b.f`: its global overloads.
    pub namespaced: Option<&'static Namespaced>,
    /// `'…'.format([…])` with a literal format string and list.
    pub format: Option<&'static Format>,
    /// `_?._` whose field is not a string literal: the field's debug text.
    pub opt_select_text: Option<&'static str>,
}

/// A call that names a namespaced function (`sets.contains(a, b)`).
#[derive(Clone, Copy, Debug)]
pub struct Namespaced {
    pub function: &'static str,
    pub overloads: &'static [u16],
}

/// The parsed clauses of a literal format string: the verb of each argument in order, then
/// how parsing ended.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    pub verbs: &'static [u8],
    /// `Ok(n)`: `n` clauses requested an argument; `Err`: the parse error after `verbs`.
    pub end: Result<u32, &'static str>,
}

/// A map literal entry; `node` is the entry's own id (cel-go reports errors there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub node: u32,
    pub key: u32,
    pub value: u32,
    pub optional: bool,
}

/// A field initializer of a struct literal.
#[derive(Clone, Copy, Debug)]
pub struct FieldInit {
    pub node: u32,
    pub field: &'static str,
    pub value: u32,
    pub optional: bool,
}

/// A fold (every comprehension comes from a macro).
#[derive(Clone, Copy, Debug)]
pub struct Comprehension {
    pub iter_var: &'static str,
    pub iter_var2: Option<&'static str>,
    pub iter_range: u32,
    pub accu_var: &'static str,
    pub accu_init: u32,
    pub loop_condition: u32,
    pub loop_step: u32,
    pub result: u32,
}

impl Ast {
    /// The node at `i`.
    #[must_use]
    pub const fn node(&self, i: u32) -> &'static Node {
        &self.nodes[i as usize]
    }

    /// The kind of the node at `i`.
    #[must_use]
    pub const fn kind(&self, i: u32) -> &'static NodeKind {
        &self.nodes[i as usize].kind
    }
}
