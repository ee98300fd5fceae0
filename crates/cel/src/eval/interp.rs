//! Evaluation of the node tree: mirrors cel-go `interpreter/interpretable.go` (`evalAnd`,
//! `evalOr`, `evalEq`, `evalList`, `evalMap`, `evalFold`, strict calls) and charges costs at
//! the points where cel-go's `CostObserver` observes a step (`interpreter/runtimecost.go`).

use std::sync::Arc;

use super::cx::{Cx, LIST_CREATE, cancelled, cancelled_err};
use super::fast::{eq_local_str, int_operands, logic, operand_cost};
use super::node::{Call, IntOp, Node, RegexCall, RegexKind};
use crate::library::{TRAVERSAL, actual_size, ceil_factor};
use crate::value::{Bytes, EvalError, EvalResult, List, ListKind, Map, Str, Value};

use crate::cost::MAP_CREATE_BASE_COST as MAP_CREATE;

impl Node {
    pub(crate) fn eval<'a>(&'a self, cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
        match self {
            Node::Const(v) => Ok(v.clone()),
            Node::Str(s) => Ok(Value::String(Str::Borrowed(s))),
            Node::Bytes(b) => Ok(Value::Bytes(Bytes::Borrowed(b))),
            Node::Attr(a) => a.eval(cx),
            Node::Local(i) => {
                cx.charge(1)?;
                match &cx.locals[*i] {
                    Ok(v) => Ok(v.fast_clone()),
                    Err(e) => Err(e.clone()),
                }
            }
            Node::Call(c) => call(c, cx),
            Node::IntOp(c, op) => {
                if let Some((x, y)) = int_operands(c, cx) {
                    cx.charge(operand_cost(&c.args[0]) + operand_cost(&c.args[1]) + 1)?;
                    return int_op(*op, x, y);
                }
                let a = c.args[0].eval(cx);
                cancelled(&a)?;
                if let Ok(Value::Int(x)) = a {
                    let b = c.args[1].eval(cx);
                    cancelled(&b)?;
                    if let Ok(Value::Int(y)) = b {
                        cx.charge(1)?;
                        return int_op(*op, x, y);
                    }
                    return call_with(c, Ok(Value::Int(x)), b, cx);
                }
                let b = c.args[1].eval(cx);
                cancelled(&b)?;
                call_with(c, a, b, cx)
            }
            Node::Regex(r) => regex_call(r, cx),
            Node::Eq(p, negate) => {
                // `x == 'lit'` on a comprehension variable: compare in place.
                if let Some(eq) = eq_local_str(&p.0, &p.1, cx) {
                    return Ok(Value::Bool(eq? != *negate));
                }
                let l = p.0.eval(cx);
                let r = p.1.eval(cx);
                cancelled(&l)?;
                cancelled(&r)?;
                let cost = match (&l, &r) {
                    (Ok(Value::Ext(_)), _) => 1,
                    // Short strings: 1 to 10 bytes hold 1 to 10 code points, ceil(n/10) = 1.
                    (Ok(Value::String(a)), Ok(Value::String(b)))
                        if (1..=10).contains(&a.len()) && (1..=10).contains(&b.len()) =>
                    {
                        1
                    }
                    (Ok(a), Ok(b)) => ceil_factor(actual_size(a).min(actual_size(b)), TRAVERSAL),
                    (Ok(a), Err(_)) | (Err(_), Ok(a)) => {
                        ceil_factor(actual_size(a).min(1), TRAVERSAL)
                    }
                    _ => 1,
                };
                cx.charge(cost)?;
                let eq = crate::value::equal::equals(&l?, &r?)?;
                Ok(Value::Bool(eq != *negate))
            }
            Node::Logic(terms, and) => logic(terms, *and, cx).map(Value::Bool),
            Node::Cond(p) => match p.0.eval_bool(cx) {
                Ok(true) => p.1.eval(cx),
                Ok(false) => p.2.eval(cx),
                Err(Ok(_)) => Err(EvalError::no_such_overload()),
                Err(Err(e)) => Err(e),
            },
            Node::List(elems) => {
                let mut out = Vec::with_capacity(elems.len());
                let mut err = None;
                for (e, opt) in elems.iter() {
                    match e.eval(cx) {
                        Ok(v) if *opt => match v {
                            Value::Optional(Some(x)) => out.push((*x).clone()),
                            Value::Optional(None) => {}
                            other => {
                                err = Some(EvalError::other(format!(
                                    "cannot initialize optional list element from non-optional value {other}"
                                )));
                                break;
                            }
                        },
                        Ok(v) => out.push(v),
                        Err(e) => {
                            cancelled_err(&e)?;
                            err = Some(e);
                            break;
                        }
                    }
                }
                cx.charge(LIST_CREATE)?;
                match err {
                    Some(e) => Err(e),
                    None => Ok(Value::List(List::Owned(Arc::new(out), ListKind::Plain))),
                }
            }
            Node::Map(entries) => {
                let r = build_map(entries, cx);
                cancelled(&r)?;
                cx.charge(MAP_CREATE)?;
                r
            }
            Node::Fold(f) => super::fold::fold(f, cx),
            Node::Quant(q) => super::fold::quant(q, cx),
            Node::NotStrictlyFalse(n) => {
                let v = n.eval_bool(cx);
                if let Err(r) = &v {
                    cancelled(r)?;
                }
                cx.charge(1)?;
                Ok(Value::Bool(!matches!(v, Ok(false))))
            }
            Node::InSet(n, set) => {
                let v = n.eval(cx)?;
                let key = match &v {
                    Value::Double(d) if *d == 0.0 => {
                        Some(crate::value::list::SetKey::Double(0f64.to_bits()))
                    }
                    Value::Bool(_)
                    | Value::String(_)
                    | Value::Int(_)
                    | Value::Uint(_)
                    | Value::Double(_) => crate::value::list::set_key(&v).ok(),
                    _ => None,
                };
                Ok(Value::Bool(key.is_some_and(|k| set.contains(&k))))
            }
            Node::OptOr(p, value) => match p.0.eval(cx)? {
                Value::Optional(Some(v)) if *value => Ok((*v).clone()),
                v @ Value::Optional(Some(_)) => Ok(v),
                Value::Optional(None) => p.1.eval(cx),
                _ => Err(EvalError::no_such_overload()),
            },
            Node::Error(e) => Err(e.clone()),
        }
    }
}

#[inline]
fn int_op<'a>(op: IntOp, x: i64, y: i64) -> EvalResult<'a> {
    match op {
        IntOp::Lt => Ok(Value::Bool(x < y)),
        IntOp::Le => Ok(Value::Bool(x <= y)),
        IntOp::Gt => Ok(Value::Bool(x > y)),
        IntOp::Ge => Ok(Value::Bool(x >= y)),
        IntOp::Add => x
            .checked_add(y)
            .map(Value::Int)
            .ok_or_else(EvalError::int_overflow),
        IntOp::Sub => x
            .checked_sub(y)
            .map(Value::Int)
            .ok_or_else(EvalError::int_overflow),
    }
}

fn build_map<'a>(entries: &'a [(Node, Node, bool)], cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
    let mut m = crate::value::map::OwnedMap::new();
    for (k, v, opt) in entries {
        let k = k.eval(cx)?;
        let v = v.eval(cx)?;
        if *opt {
            match v {
                Value::Optional(Some(x)) => m.insert(k, (*x).clone())?,
                Value::Optional(None) => {}
                other => {
                    return Err(EvalError::other(format!(
                        "cannot initialize optional entry '{k}' from non-optional value {other}"
                    )));
                }
            }
        } else {
            m.insert(k, v)?;
        }
    }
    Ok(Value::Map(Map::Owned(Arc::new(m))))
}

/// A strict call: unary and binary calls evaluate every argument and are charged even when
/// one is an error; calls with more arguments stop at the first error, uncharged.
fn call<'a>(c: &'a Call, cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
    match &*c.args {
        [a] => {
            let a = a.eval(cx);
            cancelled(&a)?;
            match a {
                Ok(a) => finish(c, std::slice::from_ref(&a), cx),
                Err(e) => {
                    cx.charge((c.cost)(&[Value::Null], &Value::Null))?;
                    Err(e)
                }
            }
        }
        [a, b] => {
            let a = a.eval(cx);
            cancelled(&a)?;
            let b = b.eval(cx);
            cancelled(&b)?;
            call_with(c, a, b, cx)
        }
        args => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args.iter() {
                vals.push(a.eval(cx)?);
            }
            finish(c, &vals, cx)
        }
    }
}

/// A binary call whose arguments are evaluated.
fn call_with<'a>(
    c: &'a Call,
    a: EvalResult<'a>,
    b: EvalResult<'a>,
    cx: &mut Cx<'a, '_>,
) -> EvalResult<'a> {
    match (a, b) {
        (Ok(a), Ok(b)) => finish(c, &[a, b], cx),
        (a, b) => {
            let args = [
                a.as_ref().map_or(Value::Null, Clone::clone),
                b.as_ref().map_or(Value::Null, Clone::clone),
            ];
            cx.charge((c.cost)(&args, &Value::Null))?;
            Err(a
                .err()
                .or(b.err())
                .unwrap_or_else(EvalError::no_such_overload))
        }
    }
}

#[inline]
fn finish<'a>(c: &'a Call, args: &[Value<'a>], cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
    let r = (c.imp)(cx.env, args);
    let cost = match &r {
        Ok(v) => (c.cost)(args, v),
        Err(_) => (c.cost)(args, &Value::Null),
    };
    cx.charge(cost)?;
    r
}

fn regex_call<'a>(r: &'a RegexCall, cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
    let mut vals = Vec::with_capacity(r.call.args.len());
    for a in r.call.args.iter() {
        let v = a.eval(cx);
        cancelled(&v)?;
        vals.push(v?);
    }
    let out = match (r.kind, vals.first()) {
        (RegexKind::Matches, Some(Value::String(s))) => Ok(Value::Bool(r.regex.is_match(s))),
        (RegexKind::Find, Some(Value::String(s))) => {
            Ok(crate::library::regex_lib::find(&r.regex, s))
        }
        (RegexKind::FindAll, Some(Value::String(s))) => {
            crate::library::regex_lib::find_all(&r.regex, s, vals.get(2))
        }
        _ => (r.call.imp)(cx.env, &vals),
    };
    let cost = (r.call.cost)(&vals, out.as_ref().unwrap_or(&Value::Null));
    cx.charge(cost)?;
    out
}
