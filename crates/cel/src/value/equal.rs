//! Equality and ordering: mirrors cel-go `common/types` `Equal`/`Compare` (heterogeneous
//! numeric equality and `CrossTypeNumericComparisons`, `compare.go`), plus the list-type and
//! object equality of apiserver `pkg/cel/common/valuesunstructured.go`. As in cel-go, the left
//! operand decides: `self.setList == [2, 1]` ignores order, `[2, 1] == self.setList` does not.

use std::cmp::Ordering;
use std::collections::HashSet;

use super::error::EvalError;
use super::list;
use crate::value::{List, ListKind, Map, Value};

/// `a == b`.
pub fn equals(a: &Value<'_>, b: &Value<'_>) -> Result<bool, EvalError> {
    Ok(match (a, b) {
        (Value::Null, _) | (_, Value::Null) => matches!(a, Value::Null) && matches!(b, Value::Null),
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Uint(x), Value::Uint(y)) => x == y,
        (Value::Double(x), Value::Double(y)) => x == y,
        (
            Value::Int(_) | Value::Uint(_) | Value::Double(_),
            Value::Int(_) | Value::Uint(_) | Value::Double(_),
        ) => numeric_cmp(a, b).is_some_and(|o| o == Ordering::Equal),
        (Value::String(x), Value::String(y)) => x.as_str() == y.as_str(),
        (Value::Bytes(x), Value::Bytes(y)) => x.as_slice() == y.as_slice(),
        (Value::Duration(x), Value::Duration(y)) => x == y,
        (Value::Timestamp(x), Value::Timestamp(y)) => x == y,
        (Value::Type(x), Value::Type(y)) => x == y,
        (Value::List(x), _) => return list_equals(x, b),
        (Value::Map(x), _) => return map_equals(x, b),
        (Value::Optional(x), Value::Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => equals(x, y)?,
            _ => false,
        },
        (Value::Ext(x), Value::Ext(y)) => x.equals(y),
        (Value::Ext(x), other) => return x.equals_other(other),
        (Value::Unknown(x), Value::Unknown(y)) => x == y,
        _ => false,
    })
}

fn list_equals(a: &List<'_>, b: &Value<'_>) -> Result<bool, EvalError> {
    let Value::List(b) = b else {
        return match a {
            List::Json(_) => Err(EvalError::no_such_overload()),
            List::Owned(..) => Ok(false),
        };
    };
    match list::kind(a) {
        ListKind::Set => return set_equals(a, b),
        ListKind::MapList(keys) => return map_list_equals(a, b, &keys),
        ListKind::Plain => {}
    }
    let n = list::len(a);
    if n != list::len(b) {
        return Ok(false);
    }
    let json = matches!(a, List::Json(_));
    for i in 0..n {
        let x = list::at(a, i);
        let y = list::at(b, i);
        let eq = match (x, y) {
            (Ok(x), Ok(y)) => equals(&x, &y),
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        match eq {
            Ok(true) => {}
            Ok(false) => return Ok(false),
            Err(e) if json => return Err(e),
            Err(_) => {}
        }
    }
    Ok(true)
}

fn map_equals(a: &Map<'_>, b: &Value<'_>) -> Result<bool, EvalError> {
    let Value::Map(b) = b else {
        return match a {
            Map::Json(_) => Err(EvalError::no_such_overload()),
            Map::Owned(_) => Ok(false),
        };
    };
    if super::map::len(a) != super::map::len(b) {
        return Ok(false);
    }
    match a {
        Map::Owned(o) => {
            for (k, v) in o.entries() {
                match super::map::find(b, k) {
                    None => return Ok(false),
                    Some(Ok(w)) => {
                        if !equals(v, &w).unwrap_or(true) {
                            return Ok(false);
                        }
                    }
                    Some(Err(_)) => {}
                }
            }
            Ok(true)
        }
        Map::Json(j) => {
            for (k, raw) in j.map {
                let key = match j.kind {
                    super::json::ObjectKind::Object { .. } => {
                        crdkit_cel_check::escaping::escape(k).unwrap_or_else(|| k.clone())
                    }
                    _ => k.clone(),
                };
                let key = super::map::str_key(&key);
                match j.find_key(key.as_str().unwrap_or_default()) {
                    Some(v) => {
                        let w = super::map::find(b, &key);
                        match (v, w) {
                            (_, None) => return Ok(false),
                            (v, Some(w)) => {
                                if !equals(&v?, &w?)? {
                                    return Ok(false);
                                }
                            }
                        }
                    }
                    None if accessible(j, k) => {
                        if super::map::find(b, &key).is_some() {
                            return Ok(false);
                        }
                    }
                    None => {
                        // An unknown field: compare the raw JSON (apiserver falls back to
                        // DeepEqual for unstructured data).
                        let Map::Json(bj) = b else {
                            return Err(EvalError::no_such_overload());
                        };
                        if let Some(other) = bj.map.get(k)
                            && other != raw
                        {
                            return Ok(false);
                        }
                    }
                }
            }
            Ok(true)
        }
    }
}

fn accessible(j: &super::json::JsonObject<'_>, k: &str) -> bool {
    match j.kind {
        super::json::ObjectKind::Object { meta } => {
            j.schema.property(k).is_some()
                || (meta && matches!(k, "kind" | "apiVersion" | "metadata"))
        }
        super::json::ObjectKind::Map => true,
        super::json::ObjectKind::Opaque => false,
    }
}

/// Orders numbers of any numeric type as cel-go does; `None` when a NaN is involved.
pub(crate) fn numeric_cmp(a: &Value<'_>, b: &Value<'_>) -> Option<Ordering> {
    match (a, b) {
        (&Value::Int(x), &Value::Int(y)) => Some(x.cmp(&y)),
        (&Value::Uint(x), &Value::Uint(y)) => Some(x.cmp(&y)),
        (&Value::Double(x), &Value::Double(y)) => x.partial_cmp(&y),
        (&Value::Int(x), &Value::Uint(y)) => Some(int_uint(x, y)),
        (&Value::Uint(x), &Value::Int(y)) => Some(int_uint(y, x).reverse()),
        (&Value::Int(x), &Value::Double(y)) => int_double(x, y),
        (&Value::Double(x), &Value::Int(y)) => int_double(y, x).map(Ordering::reverse),
        (&Value::Uint(x), &Value::Double(y)) => uint_double(x, y),
        (&Value::Double(x), &Value::Uint(y)) => uint_double(y, x).map(Ordering::reverse),
        _ => None,
    }
}

fn int_uint(i: i64, u: u64) -> Ordering {
    if i < 0 || u > i64::MAX as u64 {
        Ordering::Less
    } else {
        i.cmp(&(u as i64))
    }
}

#[allow(clippy::cast_precision_loss)]
fn int_double(i: i64, d: f64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < i64::MIN as f64 {
        return Some(Ordering::Greater);
    }
    if d > i64::MAX as f64 {
        return Some(Ordering::Less);
    }
    (i as f64).partial_cmp(&d)
}

#[allow(clippy::cast_precision_loss)]
fn uint_double(u: u64, d: f64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < 0.0 {
        return Some(Ordering::Greater);
    }
    if d > u64::MAX as f64 {
        return Some(Ordering::Less);
    }
    (u as f64).partial_cmp(&d)
}

/// `a < b` and friends: the ordering, or cel-go's error.
pub fn compare(a: &Value<'_>, b: &Value<'_>) -> Result<Ordering, EvalError> {
    let nan = || EvalError::other("NaN values cannot be ordered");
    match (a, b) {
        (
            Value::Int(_) | Value::Uint(_) | Value::Double(_),
            Value::Int(_) | Value::Uint(_) | Value::Double(_),
        ) => numeric_cmp(a, b).ok_or_else(nan),
        (Value::String(x), Value::String(y)) => Ok(x.as_str().cmp(y.as_str())),
        (Value::Bytes(x), Value::Bytes(y)) => Ok(x.as_slice().cmp(y.as_slice())),
        (Value::Bool(x), Value::Bool(y)) => Ok(x.cmp(y)),
        (Value::Duration(x), Value::Duration(y)) => Ok(x.cmp(y)),
        (Value::Timestamp(x), Value::Timestamp(y)) => Ok(x.cmp_instant(y)),
        (Value::Ext(x), Value::Ext(y)) => x.compare(y).ok_or_else(EvalError::no_such_overload),
        (
            Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_),
            _,
        ) => Err(EvalError::no_such_overload()),
        _ => Err(EvalError::no_such_overload_fn("_<_")),
    }
}

/// `e in l`: CEL equality against each element; for JSON lists an element error is reported if
/// nothing matched (unstructuredList.Contains).
pub(crate) fn contains(l: &List<'_>, e: &Value<'_>) -> Result<bool, EvalError> {
    let mut err = None;
    for x in list::iter(l) {
        match x.and_then(|x| equals(e, &x)) {
            Ok(true) => return Ok(true),
            Ok(false) => {}
            Err(x) => {
                if matches!(l, List::Json(_)) && err.is_none() {
                    err = Some(x);
                }
            }
        }
    }
    err.map_or(Ok(false), Err)
}

/// Order-insensitive equality of a set list with another list.
fn set_equals(a: &List<'_>, b: &List<'_>) -> Result<bool, EvalError> {
    if list::len(a) != list::len(b) {
        return Ok(false);
    }
    let mut set = HashSet::with_capacity(list::len(a));
    for x in list::iter(a) {
        set.insert(list::set_key(&x?)?);
    }
    let mut seen = HashSet::with_capacity(set.len());
    for x in list::iter(b) {
        let k = list::set_key(&x?)?;
        if !set.contains(&k) {
            return Ok(false);
        }
        seen.insert(k);
    }
    Ok(seen.len() == set.len())
}

/// Order-insensitive equality of a map list with another list: elements are matched by key and
/// compared with CEL equality.
fn map_list_equals(a: &List<'_>, b: &List<'_>, keys: &[String]) -> Result<bool, EvalError> {
    if list::len(a) != list::len(b) {
        return Ok(false);
    }
    let mut by_key = std::collections::HashMap::with_capacity(list::len(a));
    for x in list::iter(a) {
        let x = x?;
        by_key.insert(list::map_list_key(&x, keys), x);
    }
    let mut seen = HashSet::with_capacity(by_key.len());
    for y in list::iter(b) {
        let y = y?;
        let k = list::map_list_key(&y, keys);
        let Some(x) = by_key.get(&k) else {
            return Ok(false);
        };
        if !equals(x, &y)? {
            return Ok(false);
        }
        seen.insert(k);
    }
    Ok(seen.len() == by_key.len())
}
