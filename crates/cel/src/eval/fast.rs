//! Boolean evaluation: the nodes whose value decides a branch (terms of `&&`/`||`, the
//! predicates of `all`/`exists`, conditions) are evaluated to a `bool` without building a
//! [`Value`] when they are comparisons on the fast paths: two ints read in place, a
//! comprehension variable compared with a string literal. Each fast path charges exactly what
//! the general path charges for the same steps.

use super::cx::{Cx, cancelled_err};
use super::node::{Call, IntOp, Node};
use crate::library::{TRAVERSAL, ceil_factor};
use crate::value::Value;
use crate::value::{EvalError, EvalResult};

impl Node {
    /// Evaluates a node whose value decides a branch: `Ok(b)` for a bool, `Err` with the whole
    /// result for anything else (an error, or a value of another type).
    #[inline]
    pub(crate) fn eval_bool<'a>(&'a self, cx: &mut Cx<'a, '_>) -> Result<bool, EvalResult<'a>> {
        let r = match self {
            Node::Eq(p, negate) => match eq_local_str(&p.0, &p.1, cx) {
                Some(r) => r.map(|eq| eq != *negate),
                None => return bool_of(self.eval(cx)),
            },
            Node::IntOp(c, op) if op.is_relation() => match int_relation(c, *op, cx) {
                Some(r) => r,
                None => return bool_of(self.eval(cx)),
            },
            Node::Logic(terms, and) => logic(terms, *and, cx),
            _ => return bool_of(self.eval(cx)),
        };
        r.map_err(Err)
    }
}

#[inline]
fn bool_of(r: EvalResult<'_>) -> Result<bool, EvalResult<'_>> {
    match r {
        Ok(Value::Bool(b)) => Ok(b),
        other => Err(other),
    }
}

impl IntOp {
    pub(crate) fn is_relation(self) -> bool {
        matches!(self, IntOp::Lt | IntOp::Le | IntOp::Gt | IntOp::Ge)
    }
}

/// `x == 'lit'` on a comprehension variable holding a string, compared in place; `None` off
/// that path. Charges as the general path: the variable 1, then the equality.
#[inline]
pub(crate) fn eq_local_str(
    a: &Node,
    b: &Node,
    cx: &mut Cx<'_, '_>,
) -> Option<Result<bool, EvalError>> {
    let (Node::Local(i), Node::Str(lit)) = (a, b) else {
        return None;
    };
    let Ok(Value::String(x)) = &cx.locals[*i] else {
        return None;
    };
    let cost = str_eq_cost(x, lit);
    let eq = x.as_str() == &**lit;
    Some(cx.charge(1).and_then(|()| cx.charge(cost)).map(|()| eq))
}

/// The cost of `==` on two strings: the shorter one's length·0.1.
#[inline]
pub(crate) fn str_eq_cost(x: &str, y: &str) -> u64 {
    // Short strings: 1 to 10 bytes hold 1 to 10 code points, ceil(n/10) = 1.
    if (1..=10).contains(&x.len()) && (1..=10).contains(&y.len()) {
        1
    } else {
        ceil_factor(
            (x.chars().count() as u64).min(y.chars().count() as u64),
            TRAVERSAL,
        )
    }
}

/// A relation of two ints read without evaluation (constants, comprehension variables, int
/// fields of JSON objects); `None` off that path. Charges the operands' reads and the call (1).
#[inline]
pub(crate) fn int_relation(
    c: &Call,
    op: IntOp,
    cx: &mut Cx<'_, '_>,
) -> Option<Result<bool, EvalError>> {
    let (x, y) = int_operands(c, cx)?;
    Some(
        cx.charge(operand_cost(&c.args[0]) + operand_cost(&c.args[1]) + 1)
            .map(|()| match op {
                IntOp::Lt => x < y,
                IntOp::Le => x <= y,
                IntOp::Gt => x > y,
                _ => x >= y,
            }),
    )
}

/// Both operands of a binary call as ints read in place.
#[inline]
pub(crate) fn int_operands(c: &Call, cx: &Cx<'_, '_>) -> Option<(i64, i64)> {
    let x = peek_int(&c.args[0], cx)?;
    let y = peek_int(&c.args[1], cx)?;
    Some((x, y))
}

/// An int operand readable without evaluation: a constant, a comprehension variable, or an
/// int field of a JSON object.
#[inline]
fn peek_int(n: &Node, cx: &Cx<'_, '_>) -> Option<i64> {
    match n {
        Node::Const(Value::Int(i)) => Some(*i),
        Node::Local(s) => match cx.locals[*s] {
            Ok(Value::Int(i)) => Some(i),
            _ => None,
        },
        Node::Attr(a) => a.peek_int(cx),
        _ => None,
    }
}

/// What evaluating a peeked operand costs: 1 for a variable, 1 per selection plus 1 for an
/// attribute.
#[inline]
pub(crate) fn operand_cost(n: &Node) -> u64 {
    match n {
        Node::Local(_) => 1,
        Node::Attr(a) => a.quals.len() as u64 + 1,
        _ => 0,
    }
}

/// `&&` / `||`: the first deciding value wins wherever it is; otherwise the first error.
pub(crate) fn logic<'a>(
    terms: &'a [Node],
    and: bool,
    cx: &mut Cx<'a, '_>,
) -> Result<bool, EvalError> {
    let mut err = None;
    for t in terms {
        match t.eval_bool(cx) {
            Ok(b) if b != and => return Ok(b),
            Ok(_) => {}
            Err(Ok(_)) => {
                if err.is_none() {
                    err = Some(EvalError::no_such_overload());
                }
            }
            Err(Err(e)) => {
                cancelled_err(&e)?;
                if err.is_none() {
                    err = Some(e);
                }
            }
        }
    }
    match err {
        Some(e) => Err(e),
        None => Ok(and),
    }
}
