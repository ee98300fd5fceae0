//! Attribute evaluation: variables, selections, indexes and presence tests. Mirrors cel-go
//! `interpreter/attributes.go` (`absoluteAttribute`, `relativeAttribute`, `applyQualifiers`,
//! `refQualify`, the `missingKey`/`missingIndex` errors) and the observation points of
//! `evalWatchAttr`/`evalWatchConstQual`, which decide the cost: 1 per evaluated qualifier and 1
//! per attribute (a presence test's attribute costs nothing in Kubernetes).

use super::cx::{Cx, cancelled};
use super::node::{Attr, Base, QualKind};
use crate::value::{EvalError, EvalErrorKind, EvalResult};
use crate::value::{List, Map, Value};

/// A resolved qualifier key.
enum Key<'k, 'a> {
    Field(&'k str, Option<&'k str>),
    Val(Value<'a>),
}

impl Key<'_, '_> {
    fn value(&self) -> Value<'_> {
        match self {
            Key::Field(n, _) => crate::value::map::str_key(n),
            Key::Val(v) => v.clone(),
        }
    }
}

impl Attr {
    pub(crate) fn eval<'a>(&'a self, cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
        let mut r = self.resolve(cx);
        if self.test_only
            && let Ok(Value::Optional(o)) = &r
        {
            r = Ok(Value::Bool(o.is_some()));
        }
        cancelled(&r)?;
        if self.charge && (!self.test_only || cx.presence_test_cost) {
            cx.charge(1)?;
        }
        r
    }

    /// An int read through field selections on a JSON object (`self.spec.replicas`) without
    /// building the intermediate values; `None` when anything is off the fast path (the caller
    /// then evaluates normally). Nothing is charged here: the caller charges
    /// `self.quals.len() + 1` on success.
    #[inline]
    pub(crate) fn peek_int(&self, cx: &Cx<'_, '_>) -> Option<i64> {
        if self.test_only || !self.charge {
            return None;
        }
        let Base::Var(i) = self.base else {
            return None;
        };
        let Some(Some(Ok(Value::Map(Map::Json(root))))) = cx.vars.get(i) else {
            return None;
        };
        if let Some(r) = &self.resolved
            && crate::schema::address(root.schema) == cx.anchor
        {
            return r.read_int(root, cx.memos);
        }
        let mut obj = *root;
        let (last, init) = self.quals.split_last()?;
        for q in init {
            let QualKind::Field { name, unescaped } = &q.kind else {
                return None;
            };
            if q.optional {
                return None;
            }
            let (raw, schema) = obj.find_raw(name, unescaped.as_deref())?;
            match crate::value::json::from_json(raw, schema, false) {
                Ok(Value::Map(Map::Json(j))) => obj = j,
                _ => return None,
            }
        }
        let QualKind::Field { name, unescaped } = &last.kind else {
            return None;
        };
        if last.optional {
            return None;
        }
        let (raw, schema) = obj.find_raw(name, unescaped.as_deref())?;
        if schema.ty() != Some(crate::schema::Type::Integer) || schema.int_or_string() {
            return None;
        }
        raw.as_i64()
    }

    /// Resolves without the attribute's own charge (qualifiers are charged).
    pub(crate) fn resolve<'a>(&'a self, cx: &mut Cx<'a, '_>) -> EvalResult<'a> {
        let vars = cx.vars;
        if let Some(r) = &self.resolved
            && let Base::Var(i) = self.base
            && let Some(Some(Ok(Value::Map(Map::Json(root))))) = vars.get(i)
            && crate::schema::address(root.schema) == cx.anchor
            && let Some(v) = r.read(root, cx.memos)
        {
            for _ in &self.quals {
                cx.charge(1)?;
            }
            return Ok(v);
        }
        let owned;
        let base: &Value<'a> = match &self.base {
            Base::Var(i) => match vars.get(*i) {
                Some(Some(Ok(v))) => v,
                Some(Some(Err(e))) => return Err(e.clone()),
                _ => {
                    let name = cx.names.get(*i).map_or("", String::as_str);
                    return Err(missing_attr(name));
                }
            },
            Base::Local(i) => match &cx.locals[*i] {
                Ok(v) if self.quals.is_empty() => return Ok(v.fast_clone()),
                Ok(v) => {
                    owned = v.fast_clone();
                    &owned
                }
                Err(e) => return Err(e.clone()),
            },
            Base::Expr(n) => {
                owned = n.eval(cx)?;
                &owned
            }
            Base::Missing(name) => return Err(missing_attr(name)),
        };
        if self.quals.is_empty() {
            return Ok(base.fast_clone());
        }
        let mut is_opt = false;
        let unwrapped;
        let base = match base {
            Value::Optional(None) => return Ok(Value::Optional(None)),
            Value::Optional(Some(v)) => {
                is_opt = true;
                unwrapped = (**v).clone();
                &unwrapped
            }
            other => other,
        };
        let mut cur: Option<Value<'a>> = None;
        let last = self.quals.len() - 1;
        for (i, q) in self.quals.iter().enumerate() {
            is_opt |= q.optional;
            let key = match &q.kind {
                QualKind::Field { name, unescaped } => Key::Field(name, unescaped.as_deref()),
                QualKind::Const(v) => Key::Val(v.clone()),
                QualKind::Attr(a) => match a.resolve(cx) {
                    Ok(v) => Key::Val(v),
                    Err(e) => {
                        cancelled(&Err(e.clone()))?;
                        cx.charge(1)?;
                        return Err(e);
                    }
                },
                QualKind::Expr(n) => match n.eval(cx) {
                    Ok(v) => Key::Val(v),
                    Err(e) => {
                        cancelled(&Err(e.clone()))?;
                        cx.charge(1)?;
                        return Err(e);
                    }
                },
            };
            if self.test_only && i == last {
                if is_opt {
                    let p = present(
                        cur.as_ref().unwrap_or(base),
                        &key,
                        cx.error_on_bad_presence_test,
                    )?;
                    if p {
                        cx.charge(1)?;
                    }
                    return Ok(Value::Bool(p));
                }
                let p = present(
                    cur.as_ref().unwrap_or(base),
                    &key,
                    cx.error_on_bad_presence_test,
                );
                cx.charge(1)?;
                return p.map(Value::Bool);
            }
            if is_opt {
                match qualify_if_present(
                    cur.as_ref().unwrap_or(base),
                    &key,
                    cx.error_on_bad_presence_test,
                )? {
                    Some(v) => {
                        cx.charge(1)?;
                        cur = Some(v);
                    }
                    None => return Ok(Value::Optional(None)),
                }
            } else {
                let r = qualify(cur.as_ref().unwrap_or(base), &key);
                cx.charge(1)?;
                cur = Some(r?);
            }
        }
        let obj = cur.unwrap_or_else(|| base.clone());
        Ok(if is_opt { Value::optional_of(obj) } else { obj })
    }
}

fn missing_attr(name: &str) -> EvalError {
    EvalError::new(
        EvalErrorKind::NoSuchAttribute,
        format!("no such attribute(s): {name}"),
    )
}

fn find_in_map<'a>(m: &Map<'a>, key: &Key<'_, '_>) -> Option<EvalResult<'a>> {
    match (m, key) {
        (Map::Json(j), Key::Field(n, u)) => j.find(n, *u),
        (_, k) => crate::value::map::find(m, &k.value()),
    }
}

fn list_index(l: &List<'_>, key: &Key<'_, '_>) -> Result<Option<usize>, EvalError> {
    let i = crate::value::list::index_of(&key.value())?;
    Ok((i >= 0 && (i as u64) < crate::value::list::len(l) as u64).then_some(i as usize))
}

/// `Qualify`: the selected value or cel-go's error.
fn qualify<'a>(obj: &Value<'a>, key: &Key<'_, '_>) -> EvalResult<'a> {
    match obj {
        Value::Map(m) => {
            find_in_map(m, key).unwrap_or_else(|| Err(EvalError::no_such_key(key.value())))
        }
        Value::List(l) => match list_index(l, key)? {
            Some(i) => crate::value::list::at(l, i),
            None => Err(EvalError::new(
                EvalErrorKind::IndexOutOfBounds,
                format!("index out of bounds: {}", key.value()),
            )),
        },
        _ => Err(EvalError::no_such_key(key.value())),
    }
}

/// `QualifyIfPresent`.
fn qualify_if_present<'a>(
    obj: &Value<'a>,
    key: &Key<'_, '_>,
    strict: bool,
) -> Result<Option<Value<'a>>, EvalError> {
    match obj {
        Value::Map(m) => find_in_map(m, key).transpose(),
        Value::List(l) => match list_index(l, key)? {
            Some(i) => crate::value::list::at(l, i).map(Some),
            None => Ok(None),
        },
        _ if strict => Err(EvalError::no_such_key(key.value())),
        _ => Ok(None),
    }
}

/// The presence test of `has()`; `strict` is cel-go's `EnableErrorOnBadPresenceTest`.
fn present(obj: &Value<'_>, key: &Key<'_, '_>, strict: bool) -> Result<bool, EvalError> {
    match obj {
        Value::Map(m) => match find_in_map(m, key) {
            None => Ok(false),
            Some(Ok(_)) => Ok(true),
            Some(Err(e)) => Err(e),
        },
        Value::List(l) => Ok(list_index(l, key)?.is_some()),
        _ if strict => Err(EvalError::no_such_key(key.value())),
        _ => Ok(false),
    }
}
