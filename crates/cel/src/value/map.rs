//! Maps built during evaluation and key lookup on every map kind: mirrors cel-go
//! `common/types/map.go` (`Find` with heterogeneous numeric keys: `{1: 'a'}[1u]`, `[1.0]`) and
//! apiserver `unstructuredMap.Find` for JSON views.

use std::collections::HashMap;
use std::sync::Arc;

use super::error::{EvalError, EvalResult};
use crate::value::{Map, Str, Value};

/// A hashable map key: CEL allows bool, int, uint and string keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MapKey {
    /// A `bool` key.
    Bool(bool),
    /// An `int` key; [`OwnedMap::find`] also matches it with an equal `uint` or `double`.
    Int(i64),
    /// A `uint` key; [`OwnedMap::find`] also matches it with an equal `int` or `double`.
    Uint(u64),
    /// A `string` key.
    String(Arc<str>),
}

impl MapKey {
    /// The key for a value, or `None` for a type that cannot be a key.
    #[must_use]
    pub fn of(v: &Value<'_>) -> Option<MapKey> {
        Some(match v {
            Value::Bool(b) => MapKey::Bool(*b),
            Value::Int(i) => MapKey::Int(*i),
            Value::Uint(u) => MapKey::Uint(*u),
            Value::String(s) => MapKey::String(Arc::from(s.as_str())),
            _ => return None,
        })
    }
}

/// An insertion-ordered map with hashed lookup.
#[derive(Clone, Debug, Default)]
pub struct OwnedMap<'a> {
    entries: Vec<(Value<'a>, Value<'a>)>,
    index: HashMap<MapKey, usize>,
}

impl<'a> OwnedMap<'a> {
    /// An empty map.
    #[must_use]
    pub fn new() -> OwnedMap<'a> {
        OwnedMap::default()
    }

    /// Inserts or replaces.
    ///
    /// # Errors
    ///
    /// `unsupported key type` when `k` is not a bool, int, uint or string.
    pub fn insert(&mut self, k: Value<'a>, v: Value<'a>) -> Result<(), EvalError> {
        let key = MapKey::of(&k)
            .ok_or_else(|| EvalError::other(format!("unsupported key type: {}", k.type_name())))?;
        match self.index.get(&key) {
            Some(&i) => self.entries[i].1 = v,
            None => {
                self.index.insert(key, self.entries.len());
                self.entries.push((k, v));
            }
        }
        Ok(())
    }

    /// Whether the exact key (no numeric conversion) is present.
    #[must_use]
    pub fn contains_exact(&self, k: &Value<'a>) -> bool {
        MapKey::of(k).is_some_and(|key| self.index.contains_key(&key))
    }

    fn get_exact(&self, key: &MapKey) -> Option<&Value<'a>> {
        self.index.get(key).map(|&i| &self.entries[i].1)
    }

    /// cel-go `Find`: exact key, then the numerically equal int or uint key.
    #[must_use]
    pub fn find(&self, k: &Value<'_>) -> Option<&Value<'a>> {
        if let Some(key) = MapKey::of(k)
            && let Some(v) = self.get_exact(&key)
        {
            return Some(v);
        }
        match *k {
            Value::Double(d) => {
                if let Some(i) = super::convert::double_to_int_lossless(d)
                    && let Some(v) = self.get_exact(&MapKey::Int(i))
                {
                    return Some(v);
                }
                super::convert::double_to_uint_lossless(d)
                    .and_then(|u| self.get_exact(&MapKey::Uint(u)))
            }
            Value::Int(i) => u64::try_from(i)
                .ok()
                .and_then(|u| self.get_exact(&MapKey::Uint(u))),
            Value::Uint(u) => i64::try_from(u)
                .ok()
                .and_then(|i| self.get_exact(&MapKey::Int(i))),
            _ => None,
        }
    }

    /// The entries in insertion order.
    #[must_use]
    pub fn entries(&self) -> &[(Value<'a>, Value<'a>)] {
        &self.entries
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// `size(m)`.
pub(crate) fn len(m: &Map<'_>) -> usize {
    match m {
        Map::Owned(o) => o.len(),
        Map::Json(j) => j.len(),
    }
}

/// cel-go `Find`: `None` when absent, `Some(Err)` when the value cannot be converted or the key
/// has the wrong type for a JSON object.
pub(crate) fn find<'a>(m: &Map<'a>, k: &Value<'_>) -> Option<EvalResult<'a>> {
    match m {
        Map::Owned(o) => o.find(k).cloned().map(Ok),
        Map::Json(j) => match k {
            Value::String(s) => j.find_key(s),
            _ => Some(Err(EvalError::no_such_overload())),
        },
    }
}

/// `k in m`.
pub(crate) fn contains(m: &Map<'_>, k: &Value<'_>) -> Result<bool, EvalError> {
    match find(m, k) {
        None => Ok(false),
        Some(Ok(_)) => Ok(true),
        Some(Err(e)) => Err(e),
    }
}

/// The entries, in iteration order.
pub(crate) fn entries<'a>(m: &Map<'a>) -> Vec<(Value<'a>, EvalResult<'a>)> {
    match m {
        Map::Owned(o) => o
            .entries()
            .iter()
            .map(|(k, v)| (k.clone(), Ok(v.clone())))
            .collect(),
        Map::Json(j) => j.entries(),
    }
}

/// A string key borrowed for lookups.
pub(crate) fn str_key(s: &str) -> Value<'_> {
    Value::String(Str::Borrowed(s))
}
