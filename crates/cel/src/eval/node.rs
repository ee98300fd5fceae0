//! The executable form of a program: a tree of nodes built once by `compile.rs`, mirroring the
//! `Interpretable`s that cel-go's planner builds (`interpreter/planner.go`,
//! `interpreter/attributes.go`), so that evaluation and cost tracking follow the same steps.

use std::collections::HashSet;

use crate::library::{CostFn, Impl};
use crate::value::EvalError;
use crate::value::Value;
use crate::value::list::SetKey;

/// A node of the executable tree.
pub(crate) enum Node {
    /// A constant (folded literals, lists and conversions): costs 0.
    Const(Value<'static>),
    /// A string literal, borrowed at evaluation.
    Str(Box<str>),
    /// A bytes literal, borrowed at evaluation.
    Bytes(Box<[u8]>),
    /// Identifiers, selections, index operations and presence tests (cel-go attributes).
    Attr(Box<Attr>),
    /// A comprehension variable read as a whole (an attribute without qualifiers: cost 1).
    Local(usize),
    /// A function or operator call.
    Call(Box<Call>),
    /// A relational or arithmetic operator with a fast path for two ints (same semantics
    /// and cost as the call).
    IntOp(Box<Call>, IntOp),
    /// `==` / `!=` (`negate`).
    Eq(Box<(Node, Node)>, bool),
    /// `&&` (`true`) or `||` (`false`), with cel-go's commutative error absorption.
    Logic(Box<[Node]>, bool),
    /// `c ? t : f` (a conditional attribute: no cost of its own).
    Cond(Box<(Node, Node, Node)>),
    /// `[a, ?b]`: the flags mark optional entries.
    List(Box<[(Node, bool)]>),
    /// `{k: v, ?k2: v2}`.
    Map(Box<[(Node, Node, bool)]>),
    /// A comprehension.
    Fold(Box<Fold>),
    /// The `all`/`exists` macros (one or two variables), run with the accumulator in a local
    /// and charged exactly as the expanded comprehension.
    Quant(Box<Quant>),
    /// `@not_strictly_false(x)`: true unless `x` is false (errors count as true).
    NotStrictlyFalse(Box<Node>),
    /// `x in [constants]`, optimised into a set lookup (costs only `x`, as cel-go's
    /// `evalSetMembership`).
    InSet(Box<Node>, HashSet<SetKey>),
    /// `s.matches('re')` and other calls whose pattern is a constant: compiled once.
    Regex(Box<RegexCall>),
    /// `a.or(b)` (`value` false) / `a.orValue(b)` (`value` true): `b` is evaluated only when
    /// `a` is `optional.none()`; no cost of its own (cel-go `evalOptionalOr`).
    OptOr(Box<(Node, Node)>, bool),
    /// An error known when compiling (an unbound identifier) raised at evaluation, as cel-go
    /// does for parsed-only expressions.
    Error(EvalError),
}

/// Operators with an int fast path.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntOp {
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
}

/// A call: the implementation and cost function chosen at compile time (by the checker's
/// overload when the program is checked, `overload.rs`) and the argument nodes (receiver
/// first).
pub(crate) struct Call {
    pub imp: Impl,
    pub cost: CostFn,
    pub args: Box<[Node]>,
}

/// A call with a pattern compiled at compile time: `args[pattern]` is that constant.
pub(crate) struct RegexCall {
    pub call: Call,
    pub regex: std::sync::Arc<crdkit_regexp::Regexp>,
    pub kind: RegexKind,
}

/// The functions with a precompiled pattern (cel-go `MatchesRegexOptimization`, apiserver
/// `ExtensionLibRegexOptimizations`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum RegexKind {
    Matches,
    Find,
    FindAll,
}

/// Where an attribute starts.
pub(crate) enum Base {
    /// A variable of the activation (slot).
    Var(usize),
    /// A comprehension variable (slot of the locals stack).
    Local(usize),
    /// Any other expression (a relative attribute).
    Expr(Node),
    /// An identifier bound nowhere: `no such attribute(s): <names>`.
    Missing(Box<str>),
}

/// One step of an attribute.
pub(crate) struct Qual {
    pub kind: QualKind,
    /// `.?f` / `[?k]`.
    pub optional: bool,
}

/// The key of a qualifier.
pub(crate) enum QualKind {
    /// A constant string (a field name or a string index); `unescaped` is the property name
    /// for JSON objects (apiserver `Unescape`).
    Field {
        name: Box<str>,
        unescaped: Option<Box<str>>,
    },
    /// A constant non-string index (`l[0]`, `m[1u]`, `m[true]`, `l[0.0]`).
    Const(Value<'static>),
    /// An index computed by another attribute (`l[i]`): its base costs nothing.
    Attr(Box<Attr>),
    /// An index computed by any expression.
    Expr(Node),
}

/// An attribute: a base followed by qualifiers.
pub(crate) struct Attr {
    pub base: Base,
    pub quals: Vec<Qual>,
    /// The attribute's own cost of 1 (cel-go charges each evaluated attribute once, except the
    /// branches of a conditional and attributes used as qualifiers).
    pub charge: bool,
    /// The last qualifier is a presence test (`has(a.b)`).
    pub test_only: bool,
    /// Field selections on a variable resolved against the schema the program was compiled
    /// for (`resolve.rs`).
    pub resolved: Option<Box<Resolved>>,
}

/// A chain of field selections on a variable whose properties the schema `self` was compiled
/// for declares: read straight from the JSON when the variable is bound to a view of that
/// schema.
pub(crate) struct Resolved {
    /// The variable's slot.
    pub var: usize,
    /// The property names (unescaped), outermost first.
    pub names: Box<[Box<str>]>,
    /// What the last property holds.
    pub leaf: Leaf,
    /// The slot remembering the value found, when the program selects the same chain more
    /// than once (`self.a <= self.b && self.b <= self.c` reads `self.b` once).
    pub memo: Option<usize>,
}

/// What a resolved chain ends in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leaf {
    /// `type: integer`: read without conversion.
    Int,
    /// `type: string` without a format that converts (duration, date, date-time, byte): read
    /// without conversion.
    String,
    /// Anything else: converted from the property's schema (found along the chain).
    View,
}

/// A comprehension (cel-go `evalFold`), with its variables resolved to local slots.
pub(crate) struct Fold {
    pub iter_slot: usize,
    /// The second variable of two-variable comprehensions.
    pub iter2_slot: Option<usize>,
    pub accu_slot: usize,
    pub range: Node,
    pub init: Node,
    pub cond: Node,
    pub step: Step,
    pub result: Node,
}

/// `all` (`exists` when `all` is false) over `range` with `pred`.
pub(crate) struct Quant {
    pub all: bool,
    pub iter_slot: usize,
    pub iter2_slot: Option<usize>,
    pub range: Node,
    pub pred: Node,
}

/// The loop step; the macros' accumulations are done in place.
pub(crate) enum Step {
    Expr(Node),
    /// `@result + [e]` (map, filter, transformList): appends `e`, with the cost of building the
    /// one-element list and of `_+_`.
    Append(Node),
    /// `@result + [e]` under a condition `c ? @result + [e] : @result` (filter).
    AppendIf(Node, Node),
}

impl Node {
    /// Whether the node is a constant for folding.
    pub(crate) fn as_const(&self) -> Option<Value<'static>> {
        match self {
            Node::Const(v) => Some(v.clone()),
            Node::Str(s) => Some(Value::string(&**s)),
            Node::Bytes(b) => Some(Value::bytes(&**b)),
            _ => None,
        }
    }

    /// Nesting depth (to choose the stack evaluation runs on).
    pub(crate) fn depth(&self) -> usize {
        1 + match self {
            Node::Const(_) | Node::Str(_) | Node::Bytes(_) | Node::Error(_) | Node::Local(_) => 0,
            Node::Attr(a) => a.depth(),
            Node::Call(c) | Node::IntOp(c, _) => c.args.iter().map(Node::depth).max().unwrap_or(0),
            Node::Regex(r) => r.call.args.iter().map(Node::depth).max().unwrap_or(0),
            Node::Eq(p, _) => p.0.depth().max(p.1.depth()),
            Node::Logic(ts, _) => ts.iter().map(Node::depth).max().unwrap_or(0),
            Node::Cond(p) => p.0.depth().max(p.1.depth()).max(p.2.depth()),
            Node::List(es) => es.iter().map(|e| e.0.depth()).max().unwrap_or(0),
            Node::Map(es) => es
                .iter()
                .map(|e| e.0.depth().max(e.1.depth()))
                .max()
                .unwrap_or(0),
            Node::Fold(f) => {
                let step = match &f.step {
                    Step::Expr(n) | Step::Append(n) => n.depth(),
                    Step::AppendIf(c, n) => c.depth().max(n.depth()),
                };
                f.range
                    .depth()
                    .max(f.init.depth())
                    .max(f.cond.depth())
                    .max(step)
                    .max(f.result.depth())
            }
            Node::NotStrictlyFalse(n) | Node::InSet(n, _) => n.depth(),
            Node::Quant(q) => q.range.depth().max(q.pred.depth()),
            Node::OptOr(p, _) => p.0.depth().max(p.1.depth()),
        }
    }
}

impl Attr {
    fn depth(&self) -> usize {
        let base = match &self.base {
            Base::Expr(n) => n.depth(),
            _ => 0,
        };
        self.quals
            .iter()
            .map(|q| match &q.kind {
                QualKind::Attr(a) => a.depth(),
                QualKind::Expr(n) => n.depth(),
                _ => 0,
            })
            .fold(base, usize::max)
            + 1
    }
}

impl Node {
    /// Replaces plain reads of comprehension variables by [`Node::Local`] (after planning, since
    /// the planner extends attributes).
    pub(crate) fn simplify(&mut self) {
        if let Node::Attr(a) = self
            && let (Base::Local(i), true, true, false) =
                (&a.base, a.quals.is_empty(), a.charge, a.test_only)
        {
            *self = Node::Local(*i);
            return;
        }
        self.for_each_child_mut(&mut Node::simplify);
    }

    /// Calls `f` on each child node (the operands of attributes and their computed qualifiers,
    /// arguments, branches, elements, comprehension parts).
    pub(crate) fn for_each_child_mut(&mut self, f: &mut impl FnMut(&mut Node)) {
        match self {
            Node::Attr(a) => {
                if let Base::Expr(n) = &mut a.base {
                    f(n);
                }
                for q in &mut a.quals {
                    if let QualKind::Expr(n) = &mut q.kind {
                        f(n);
                    }
                }
            }
            Node::Call(c) | Node::IntOp(c, _) => c.args.iter_mut().for_each(f),
            Node::Regex(r) => r.call.args.iter_mut().for_each(f),
            Node::Eq(p, _) | Node::OptOr(p, _) => {
                f(&mut p.0);
                f(&mut p.1);
            }
            Node::Logic(ts, _) => ts.iter_mut().for_each(f),
            Node::Cond(p) => {
                f(&mut p.0);
                f(&mut p.1);
                f(&mut p.2);
            }
            Node::List(es) => es.iter_mut().for_each(|e| f(&mut e.0)),
            Node::Map(es) => es.iter_mut().for_each(|e| {
                f(&mut e.0);
                f(&mut e.1);
            }),
            Node::Fold(fo) => {
                f(&mut fo.range);
                f(&mut fo.init);
                f(&mut fo.cond);
                match &mut fo.step {
                    Step::Expr(n) | Step::Append(n) => f(n),
                    Step::AppendIf(c, n) => {
                        f(c);
                        f(n);
                    }
                }
                f(&mut fo.result);
            }
            Node::NotStrictlyFalse(n) | Node::InSet(n, _) => f(n),
            Node::Quant(q) => {
                f(&mut q.range);
                f(&mut q.pred);
            }
            Node::Const(_) | Node::Str(_) | Node::Bytes(_) | Node::Local(_) | Node::Error(_) => {}
        }
    }
}
