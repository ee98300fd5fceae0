//! List operations on every list kind: mirrors cel-go `common/types/list.go` (`Get`, `Add`) and
//! the list-type semantics of apiserver `pkg/cel/common` (`unstructuredSetList`/
//! `unstructuredMapList`, `addToSetList`, `addToMapList`); `Contains` and the equality of set
//! and map lists are in [`super::equal`].

use std::collections::HashSet;
use std::sync::Arc;

use super::error::{EvalError, EvalResult};
use super::map::MapKey;
use crate::value::{List, ListKind, Value};

/// `size(l)`.
pub(crate) fn len(l: &List<'_>) -> usize {
    match l {
        List::Owned(v, _) => v.len(),
        List::Json(j) => j.items.len(),
    }
}

/// Element `i` (in range).
pub(crate) fn at<'a>(l: &List<'a>, i: usize) -> EvalResult<'a> {
    match l {
        List::Owned(v, _) => Ok(v[i].clone()),
        List::Json(j) => j.get(i),
    }
}

/// The elements in order.
pub(crate) fn iter<'a, 'l>(l: &'l List<'a>) -> impl Iterator<Item = EvalResult<'a>> + 'l {
    (0..len(l)).map(move |i| at(l, i))
}

/// The list-type semantics of the list.
pub(crate) fn kind(l: &List<'_>) -> ListKind {
    match l {
        List::Owned(_, k) => k.clone(),
        List::Json(j) => j.kind(),
    }
}

/// cel-go `IndexOrError`: an int, or a uint/double that is losslessly an int.
pub(crate) fn index_of(idx: &Value<'_>) -> Result<i64, EvalError> {
    match *idx {
        Value::Int(i) => Ok(i),
        Value::Double(d) => super::convert::double_to_int_lossless(d)
            .ok_or_else(|| EvalError::other(format!("unsupported index value {idx} in list"))),
        Value::Uint(u) => i64::try_from(u)
            .map_err(|_| EvalError::other(format!("unsupported index value {idx} in list"))),
        _ => Err(EvalError::other(format!(
            "unsupported index type '{}' in list",
            idx.type_name()
        ))),
    }
}

/// `a + b`, honouring the left operand's list type.
pub(crate) fn add<'a>(a: &List<'a>, b: &List<'a>) -> EvalResult<'a> {
    let ka = kind(a);
    let mut out: Vec<Value<'a>> = iter(a).collect::<Result<_, _>>()?;
    match ka {
        ListKind::Plain => {
            out.reserve(len(b));
            for x in iter(b) {
                out.push(x?);
            }
            Ok(Value::List(List::Owned(Arc::new(out), ListKind::Plain)))
        }
        ListKind::Set => {
            let mut seen = HashSet::with_capacity(out.len());
            for x in &out {
                seen.insert(set_key(x)?);
            }
            for x in iter(b) {
                let x = x?;
                if seen.insert(set_key(&x)?) {
                    out.push(x);
                }
            }
            Ok(Value::List(List::Owned(Arc::new(out), ListKind::Set)))
        }
        ListKind::MapList(keys) => {
            let mut pos = std::collections::HashMap::with_capacity(out.len());
            for (i, x) in out.iter().enumerate() {
                pos.insert(map_list_key(x, &keys), i);
            }
            for x in iter(b) {
                let x = x?;
                let k = map_list_key(&x, &keys);
                match pos.get(&k) {
                    Some(&i) => out[i] = x,
                    None => {
                        pos.insert(k, out.len());
                        out.push(x);
                    }
                }
            }
            Ok(Value::List(List::Owned(
                Arc::new(out),
                ListKind::MapList(keys),
            )))
        }
    }
}

/// The identity of a set element: Go's raw value (so `1` and `1.0` differ).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SetKey {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(u64),
    Str(String),
    Other(String),
}

/// apiserver `setElementKey`.
pub(crate) fn set_key(v: &Value<'_>) -> Result<SetKey, EvalError> {
    Ok(match v {
        Value::List(_) | Value::Map(_) => {
            return Err(EvalError::other(
                "listSet operations are only supported on lists of scalar values",
            ));
        }
        Value::Null => SetKey::Null,
        Value::Bool(b) => SetKey::Bool(*b),
        Value::Int(i) => SetKey::Int(*i),
        Value::Uint(u) => SetKey::Uint(*u),
        Value::Double(d) => SetKey::Double(if *d == 0.0 { 0 } else { d.to_bits() }),
        Value::String(s) => SetKey::Str(s.to_string()),
        other => SetKey::Other(format!("{}:{other}", other.type_name())),
    })
}

/// apiserver `refValMapKey`: the values of the key properties (absent keys are null).
pub(super) fn map_list_key(v: &Value<'_>, keys: &[String]) -> Vec<Option<SetKey>> {
    keys.iter()
        .map(|k| match v {
            Value::Map(m) => match super::map::find(m, &super::map::str_key(k)) {
                Some(Ok(x)) => set_key(&x).ok(),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// A hashable key for `distinct`-like operations over CEL-equal values, when one exists.
pub(crate) fn hash_key(v: &Value<'_>) -> Option<MapKey> {
    match v {
        Value::Double(d) => super::convert::double_to_int_lossless(*d).map(MapKey::Int),
        Value::Uint(u) => Some(i64::try_from(*u).map_or(MapKey::Uint(*u), MapKey::Int)),
        other => MapKey::of(other),
    }
}
