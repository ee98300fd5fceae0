//! Comprehensions: mirrors cel-go `interpreter/interpretable.go` (`evalFold`, `folder`: the
//! loop condition, step and result, with the accumulator and iteration variables in local
//! slots), plus the in-place accumulation of `map`/`filter` and the `all`/`exists` quantifier
//! node, each charged as the expanded comprehension is.

use std::sync::Arc;

use super::cx::{Cx, LIST_CREATE, cancelled, cancelled_err};
use super::fast::str_eq_cost;
use super::node::{Fold, Node, Quant, Step};
use crate::value::json::ObjectKind;
use crate::value::{EvalError, EvalResult};
use crate::value::{List, ListKind, Map, Str, Value};

/// A comprehension (cel-go `evalFold` and `folder`).
pub(crate) fn fold<'a>(f: &'a Fold, cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
    let range = f.range.eval(cx)?;
    let init = f.init.eval(cx);
    cancelled(&init)?;
    cx.locals[f.accu_slot] = init;
    match &range {
        Value::List(l) => {
            let n = crate::value::list::len(l);
            for i in 0..n {
                let item = crate::value::list::at(l, i)?;
                if let Some(s2) = f.iter2_slot {
                    set_local(&mut cx.locals[f.iter_slot], Value::Int(i as i64));
                    set_local(&mut cx.locals[s2], item);
                } else {
                    set_local(&mut cx.locals[f.iter_slot], item);
                }
                if !iterate(f, cx)? {
                    break;
                }
            }
        }
        Value::Map(Map::Json(j)) if f.iter2_slot.is_none() && j.kind == ObjectKind::Map => {
            for k in j.map.keys() {
                set_local(&mut cx.locals[f.iter_slot], Value::String(Str::Borrowed(k)));
                if !iterate(f, cx)? {
                    break;
                }
            }
        }
        Value::Map(Map::Json(j)) if f.iter2_slot.is_none() => {
            for k in j.keys() {
                set_local(&mut cx.locals[f.iter_slot], k);
                if !iterate(f, cx)? {
                    break;
                }
            }
        }
        Value::Map(Map::Owned(o)) => {
            for (k, v) in o.entries() {
                set_local(&mut cx.locals[f.iter_slot], k.clone());
                if let Some(s2) = f.iter2_slot {
                    set_local(&mut cx.locals[s2], v.clone());
                }
                if !iterate(f, cx)? {
                    break;
                }
            }
        }
        Value::Map(m) => {
            for (k, v) in crate::value::map::entries(m) {
                set_local(&mut cx.locals[f.iter_slot], k);
                if let Some(s2) = f.iter2_slot {
                    set_local(&mut cx.locals[s2], v?);
                }
                if !iterate(f, cx)? {
                    break;
                }
            }
        }
        other if f.iter2_slot.is_some() => {
            return Err(EvalError::other(format!(
                "unsupported comprehension range type: {}",
                other.go_type_name()
            )));
        }
        other => {
            return Err(EvalError::other(format!(
                "got '{}', expected iterable type",
                other.go_type_name()
            )));
        }
    }
    let r = f.result.eval(cx);
    cx.locals[f.accu_slot] = Ok(Value::Null);
    r
}

/// `all` / `exists`: the same steps and charges as the expanded comprehension, with the
/// accumulator (a bool or an error) kept here. Per element: the loop condition
/// (`@not_strictly_false(@result)`: 2; for `exists` with `!`: 3), then the step's read of
/// `@result` (1) and the predicate; finally the result read (1).
pub(crate) fn quant<'a>(q: &'a Quant, cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
    let range = q.range.eval(cx)?;
    let mut accu: Result<bool, EvalError> = Ok(q.all);
    let cond_cost = if q.all { 2 } else { 3 };
    let body =
        |cx: &mut Cx<'a, '_>, accu: &mut Result<bool, EvalError>| -> Result<bool, EvalError> {
            cx.charge(cond_cost)?;
            if matches!(accu, Ok(b) if *b != q.all) {
                return Ok(false);
            }
            cx.charge(1)?;
            match q.pred.eval_bool(cx) {
                Ok(b) if b != q.all => *accu = Ok(b),
                // The accumulator (all's true, exists' false, or an earlier error) stays.
                Ok(_) => {}
                Err(r) => {
                    cancelled(&r)?;
                    if accu.is_ok() {
                        *accu = Err(r.err().unwrap_or_else(EvalError::no_such_overload));
                    }
                }
            }
            Ok(true)
        };
    // `m.exists(k, k == 'app')` over the keys of a map: each key compared where it is.
    if let Value::Map(Map::Json(j)) = &range
        && j.kind == ObjectKind::Map
        && q.iter2_slot.is_none()
        && let Node::Eq(p, negate) = &q.pred
        && let (Node::Local(i), Node::Str(lit)) = (&p.0, &p.1)
        && *i == q.iter_slot
    {
        // Per key: the loop condition, the step's read of `@result`, the variable (1 each), and
        // the equality (at most the literal's length·0.1).
        let most = cond_cost + 2 + str_eq_cost(lit, lit).max(1);
        let n = j.map.len() as u64;
        if cx.cost.saturating_add(n.saturating_mul(most)) < cx.limit {
            // The limit cannot be reached: charge as the steps go, without checking.
            return Ok(Value::Bool(keys_eq(
                j,
                lit,
                *negate,
                q.all,
                cond_cost,
                &mut cx.cost,
            )));
        }
        for k in j.map.keys() {
            cx.charge(cond_cost)?;
            if matches!(accu, Ok(b) if b != q.all) {
                break;
            }
            cx.charge(1)?;
            cx.charge(1)?;
            cx.charge(str_eq_cost(k, lit))?;
            let b = (k.as_str() == &**lit) != *negate;
            if b != q.all {
                accu = Ok(b);
            }
        }
        cx.charge(1)?;
        return accu.map(Value::Bool);
    }
    match &range {
        Value::List(l) => {
            for i in 0..crate::value::list::len(l) {
                let item = crate::value::list::at(l, i)?;
                if let Some(s2) = q.iter2_slot {
                    set_local(&mut cx.locals[q.iter_slot], Value::Int(i as i64));
                    set_local(&mut cx.locals[s2], item);
                } else {
                    set_local(&mut cx.locals[q.iter_slot], item);
                }
                if !body(cx, &mut accu)? {
                    break;
                }
            }
        }
        // A map (`additionalProperties`): every key is accessible, as it is written.
        Value::Map(Map::Json(j)) if q.iter2_slot.is_none() && j.kind == ObjectKind::Map => {
            for k in j.map.keys() {
                set_local(&mut cx.locals[q.iter_slot], Value::String(Str::Borrowed(k)));
                if !body(cx, &mut accu)? {
                    break;
                }
            }
        }
        Value::Map(Map::Json(j)) if q.iter2_slot.is_none() => {
            for k in j.keys() {
                set_local(&mut cx.locals[q.iter_slot], k);
                if !body(cx, &mut accu)? {
                    break;
                }
            }
        }
        Value::Map(m) => {
            for (k, v) in crate::value::map::entries(m) {
                set_local(&mut cx.locals[q.iter_slot], k);
                if let Some(s2) = q.iter2_slot {
                    set_local(&mut cx.locals[s2], v?);
                }
                if !body(cx, &mut accu)? {
                    break;
                }
            }
        }
        other if q.iter2_slot.is_some() => {
            return Err(EvalError::other(format!(
                "unsupported comprehension range type: {}",
                other.go_type_name()
            )));
        }
        other => {
            return Err(EvalError::other(format!(
                "got '{}', expected iterable type",
                other.go_type_name()
            )));
        }
    }
    cx.charge(1)?;
    accu.map(Value::Bool)
}

/// `all`/`exists` of `k == lit` (`!=` when `negate`) over the keys of a JSON map, with the
/// charges of the expanded comprehension added to `cost` (the caller made sure they stay under
/// the limit).
fn keys_eq(
    j: &crate::value::json::JsonObject<'_>,
    lit: &str,
    negate: bool,
    all: bool,
    cond_cost: u64,
    cost: &mut u64,
) -> bool {
    let mut decided = None;
    for k in j.map.keys() {
        *cost += cond_cost;
        if decided.is_some() {
            break;
        }
        *cost += 2 + str_eq_cost(k, lit);
        let b = (k.as_str() == lit) != negate;
        if b != all {
            decided = Some(b);
        }
    }
    *cost += 1;
    decided.unwrap_or(all)
}

/// One iteration; `false` once the loop condition is `false`.
fn iterate<'a>(f: &'a Fold, cx: &mut Cx<'a, '_>) -> Result<bool, EvalError> {
    let c = f.cond.eval(cx);
    cancelled(&c)?;
    if matches!(c, Ok(Value::Bool(false))) {
        return Ok(false);
    }
    match &f.step {
        Step::Expr(n) => {
            let v = n.eval(cx);
            cancelled(&v)?;
            cx.locals[f.accu_slot] = v;
        }
        Step::Append(e) => append(f, e, cx)?,
        Step::AppendIf(c, e) => match c.eval(cx) {
            Ok(Value::Bool(true)) => append(f, e, cx)?,
            Ok(Value::Bool(false)) => {}
            Ok(_) => cx.locals[f.accu_slot] = Err(EvalError::no_such_overload()),
            Err(err) => {
                cancelled_err(&err)?;
                cx.locals[f.accu_slot] = Err(err);
            }
        },
    }
    Ok(true)
}

/// `@result + [e]` done in place, charged as cel-go charges the call: the accumulator
/// identifier (1), the list literal (10, or 0 when `e` is a constant), `e` and `_+_` (1).
fn append<'a>(f: &'a Fold, e: &'a Node, cx: &mut Cx<'a, '_>) -> Result<(), EvalError> {
    cx.charge(1)?;
    let v = e.eval(cx);
    cancelled(&v)?;
    cx.charge(
        if e.as_const().is_some() {
            0
        } else {
            LIST_CREATE
        } + 1,
    )?;
    let acc = std::mem::replace(&mut cx.locals[f.accu_slot], Ok(Value::Null));
    cx.locals[f.accu_slot] = match (acc, v) {
        (Err(e), _) | (_, Err(e)) => Err(e),
        (Ok(Value::List(List::Owned(mut items, ListKind::Plain))), Ok(v)) => {
            Arc::make_mut(&mut items).push(v);
            Ok(Value::List(List::Owned(items, ListKind::Plain)))
        }
        (Ok(Value::List(l)), Ok(v)) => {
            crate::value::list::add(&l, &List::Owned(Arc::new(vec![v]), ListKind::Plain))
        }
        (Ok(_), Ok(_)) => Err(EvalError::no_such_overload()),
    };
    Ok(())
}

/// Stores an iteration variable; the previous value is usually a scalar or a view, which needs
/// no drop (the call to drop it costs more than the loop step).
#[inline]
fn set_local<'a>(slot: &mut EvalResult<'a>, v: Value<'a>) {
    let old = std::mem::replace(slot, Ok(v));
    match old {
        Ok(
            Value::Null
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::String(Str::Borrowed(_))
            | Value::Map(Map::Json(_))
            | Value::List(List::Json(_)),
        ) => std::mem::forget(old),
        other => drop(other),
    }
}
