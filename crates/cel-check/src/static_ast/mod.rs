//! A parsed CEL expression as `'static` data, so that a `const fn` can type-check it (crdkit's
//! derive checks rules at compile time this way, in `crdkit-shape`).
//!
//! The derive parses every rule with [`crate::parse_with`] and writes the result here,
//! node for node (`nodes[id - 1]` is cel-go's expression `id`), with what needs the parser or
//! the environment's tables but not the schema worked out ahead: each node's line and column,
//! what identifiers and qualified names resolve to globally, the overloads a call may use (as
//! indices into [`crate::env::OVERLOADS`]), the clauses of literal `format` strings and
//! the findings of the literal validators (durations, timestamps, regexes). The `const` checker
//! does the rest against the schema (`crdkit_shape::cel`).
//!
//! [`lower`] builds the owned equivalent ([`lower::Lowered`]); the derive turns it into tokens
//! and [`lower::Lowered::leak`] into this form at run time. It lives here, below the const
//! checker, so that the proc-macro does not wait for the checker to build.

pub mod lower;

/// The most expression nodes a rule may have for the `const` checker (its arrays are this long).
pub const MAX_NODES: usize = 768;

/// The most type variables a `const` check may create.
pub const MAX_VARS: usize = 512;

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
    /// The node the error is reported at (an index into [`Ast::nodes`]).
    pub node: u32,
    /// cel-go's message, e.g. `invalid duration argument`.
    pub message: &'static str,
}

/// One expression node with cel-go's location of its errors (1-based line, 0-based column in
/// code points).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// 1-based line of the node's error position.
    pub line: u32,
    /// 0-based column of the node's error position, in code points.
    pub col: u32,
    /// What the node is, with the indices of its children.
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
    /// A type name (`int`, `net.IP`): index into [`crate::env::TYPE_IDENTS`].
    Type(u16),
}

/// The kinds of [`Node`] (cel-go `ExprKind`).
#[derive(Clone, Copy, Debug)]
pub enum NodeKind {
    /// An id without an expression (map entries, struct fields, deleted macro calls).
    Unspecified,
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// `1`, `-5`.
    Int(i64),
    /// `1u`.
    Uint(u64),
    /// `1.5`.
    Double(f64),
    /// `'a'`: the value, escapes decoded.
    String(&'static str),
    /// `b'a'`: the value, escapes decoded.
    Bytes(&'static [u8]),
    /// An identifier and its global resolution (of the name without a leading dot).
    Ident {
        /// The name as written.
        name: &'static str,
        /// What the name resolves to when no comprehension variable shadows it.
        global: Global,
    },
    /// `operand.field` or `has(operand.field)`. When the selection is a chain of identifiers
    /// (`a.b.c`), `head` is its first name and `qualified` what the whole name resolves to.
    Select {
        /// The node selected from.
        operand: u32,
        /// The field name.
        field: &'static str,
        /// Set for the presence test `has(operand.field)`.
        test_only: bool,
        /// The first name of an identifier chain (`a` of `a.b.c`); empty otherwise.
        head: &'static str,
        /// What the whole chain resolves to as one qualified name.
        qualified: Global,
    },
    /// A function or operator call (`f(x)`, `x.f(y)`, `_+_`).
    Call(&'static Call),
    /// `[a, ?b]`: the positions written with `?` are in `optional`.
    List {
        /// The element nodes in order.
        elems: &'static [u32],
        /// Indices into `elems` of the elements written `?e`.
        optional: &'static [u32],
    },
    /// A map literal `{k: v, ?k2: v2}`.
    Map {
        /// The entries in source order.
        entries: &'static [Entry],
    },
    /// `T{f: v}`; `resolved` is the type ident `T` names, if any (an index into
    /// [`crate::env::TYPE_IDENTS`]).
    Struct {
        /// The type name as written.
        type_name: &'static str,
        /// The type ident `type_name` resolves to, if any.
        resolved: Option<u16>,
        /// The initializers in source order.
        fields: &'static [FieldInit],
    },
    /// A fold, the expansion of a macro (`all`, `exists`, `map`, …).
    Comprehension(&'static Comprehension),
}

/// A function or operator call.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// The receiver node of `target.function(args)`; `None` for global calls and operators.
    pub target: Option<u32>,
    /// The function name, or the operator's internal name (`_+_`, `_[_]`, `@in`).
    pub function: &'static str,
    /// The argument nodes, without the receiver.
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
    /// The qualified function name (`sets.contains`).
    pub function: &'static str,
    /// Its global overloads, as indices into [`crate::env::OVERLOADS`].
    pub overloads: &'static [u16],
}

/// The parsed clauses of a literal format string: the verb of each argument in order, then
/// how parsing ended.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// The verb of each clause, in order (`b's'`, `b'd'`, `b'f'`, `b'e'`, `b'b'`, `b'x'`, `b'X'`,
    /// `b'o'`).
    pub verbs: &'static [u8],
    /// `Ok(n)`: `n` clauses requested an argument; `Err`: the parse error after `verbs`.
    pub end: Result<u32, &'static str>,
}

/// A map literal entry; `node` is the entry's own id (cel-go reports errors there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The entry's own node (cel-go's id of the `:` token).
    pub node: u32,
    /// The key node.
    pub key: u32,
    /// The value node.
    pub value: u32,
    /// Written `?k: v`: the entry is left out when the value is an empty optional.
    pub optional: bool,
}

/// A field initializer of a struct literal.
#[derive(Clone, Copy, Debug)]
pub struct FieldInit {
    /// The initializer's own node (cel-go's id of the `:` token).
    pub node: u32,
    /// The field name.
    pub field: &'static str,
    /// The value node.
    pub value: u32,
    /// Written `?f: v`.
    pub optional: bool,
}

/// A fold (every comprehension comes from a macro).
#[derive(Clone, Copy, Debug)]
pub struct Comprehension {
    /// The variable bound to each element (each key of a map).
    pub iter_var: &'static str,
    /// The second variable of two-variable comprehensions (`m.all(k, v, p)`).
    pub iter_var2: Option<&'static str>,
    /// The node iterated over.
    pub iter_range: u32,
    /// The accumulator's name (`@result`).
    pub accu_var: &'static str,
    /// The accumulator's initial value.
    pub accu_init: u32,
    /// Checked before each step; the loop stops early when it is false.
    pub loop_condition: u32,
    /// The accumulator's next value.
    pub loop_step: u32,
    /// The comprehension's value, from the final accumulator.
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
