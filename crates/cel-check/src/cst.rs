//! The concrete syntax tree: the parse-tree contexts of cel-go's generated `CELParser`
//! (`parser/gen/cel_parser.go`), reduced to what `parser.go`'s visitor reads.
//!
//! Contexts that cel-go's `unnest` skips (an `expr` without `?`, a `calc` without operator,
//! parentheses, …) are not materialised: the rule returns its child. Fields are `Option` where an
//! ANTLR context can be left half-built by error recovery.

/// Index of a node in [`Cst::nodes`].
pub(crate) type N = u32;
/// Index of a token in the token buffer (conjured tokens are appended after EOF).
pub(crate) type T = u32;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LitKind {
    Int,
    Uint,
    Double,
    String,
    Bytes,
    True,
    False,
    Null,
}

/// `optExpr: '?'? expr`
#[derive(Clone, Debug)]
pub(crate) struct OptExpr {
    pub start: T,
    pub opt: Option<T>,
    pub e: Option<N>,
}

/// `optField: '?'? escapeIdent`
#[derive(Clone, Debug)]
pub(crate) struct OptField {
    pub start: T,
    pub opt: Option<T>,
    pub ident: Option<N>,
}

/// `mapInitializerList` / `fieldInitializerList`: parallel lists, possibly ragged after errors.
#[derive(Clone, Debug)]
pub(crate) struct Inits<K> {
    pub keys: Vec<K>,
    pub cols: Vec<T>,
    pub values: Vec<N>,
}

impl<K> Default for Inits<K> {
    fn default() -> Self {
        Inits {
            keys: Vec::new(),
            cols: Vec::new(),
            values: Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// A base rule context left by a failed prediction (cel-go: "unknown parse element").
    Unknown,
    /// A bare `UnaryContext` (cel-go's `VisitUnary` yields the string `"<<error>>"`).
    UnaryError {
        start: T,
    },
    Ternary {
        cond: N,
        op: T,
        e1: Option<N>,
        e2: Option<N>,
    },
    /// `||` (`and == false`) or `&&` chains.
    Logic {
        and: bool,
        first: N,
        ops: Vec<T>,
        rest: Vec<N>,
    },
    /// `relation op relation` or `calc op calc`.
    Binary {
        lhs: N,
        op: T,
        rhs: Option<N>,
    },
    Not {
        ops: Vec<T>,
        member: Option<N>,
    },
    Neg {
        ops: Vec<T>,
        member: Option<N>,
    },
    Select {
        operand: N,
        op: Option<T>,
        opt: Option<T>,
        id: Option<N>,
    },
    MemberCall {
        operand: N,
        id: Option<T>,
        open: Option<T>,
        args: Option<Vec<N>>,
    },
    Index {
        operand: N,
        op: Option<T>,
        opt: Option<T>,
        index: Option<N>,
    },
    Ident {
        dot: Option<T>,
        id: Option<T>,
        start: T,
    },
    GlobalCall {
        dot: Option<T>,
        id: Option<T>,
        op: Option<T>,
        args: Option<Vec<N>>,
        start: T,
    },
    List {
        op: T,
        elems: Option<Vec<OptExpr>>,
    },
    Map {
        op: T,
        entries: Option<Inits<OptExpr>>,
    },
    Message {
        dot: Option<T>,
        ids: Vec<T>,
        op: Option<T>,
        entries: Option<Inits<OptField>>,
    },
    Lit {
        kind: LitKind,
        sign: Option<T>,
        tok: Option<T>,
        start: T,
    },
    /// `escapeIdent`: `IDENTIFIER` or `` `ESC_IDENTIFIER` ``.
    EscIdent {
        escaped: bool,
        id: Option<T>,
        start: T,
    },
}

#[derive(Default)]
pub(crate) struct Cst {
    pub nodes: Vec<Node>,
}

impl Cst {
    pub(crate) fn push(&mut self, n: Node) -> N {
        self.nodes.push(n);
        (self.nodes.len() - 1) as N
    }

    pub(crate) fn get(&self, n: N) -> &Node {
        &self.nodes[n as usize]
    }
}
