//! Regular expressions: the regex engine behind `matches` and the Kubernetes regex library
//! (`find`, `findAll`, apiserver `pkg/cel/library/regex.go`), with a bounded cache for
//! patterns known only at run time (constant patterns are compiled once by the planner).
//!
//! Patterns are Go's ([`crdkit_regexp`]): Go's syntax and error messages, ASCII `\d \w \s \b`,
//! Go's `FindAllString`; a pattern whose compiled program would be huge is an error, never a
//! hang.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crdkit_regexp::Regexp as Regex;

use super::{Env, FnDef, REGEX_FACTOR, TRAVERSAL, actual_size, ceil_factor};
use crate::value::{EvalError, EvalResult};
use crate::value::{List, ListKind, Value};

/// Patterns kept in the run-time cache.
const CACHE_CAPACITY: usize = 256;

/// Go's `regexp.Compile`; the error is Go's text.
pub(crate) fn compile(pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|e| e.to_string())
}

/// A bounded cache of compiled run-time patterns.
#[derive(Default)]
pub(crate) struct RegexCache {
    map: Mutex<HashMap<String, Arc<Regex>>>,
}

impl RegexCache {
    /// The compiled pattern, from the cache when possible.
    pub(crate) fn get(&self, pattern: &str) -> Result<Arc<Regex>, EvalError> {
        if let Ok(m) = self.map.lock()
            && let Some(r) = m.get(pattern)
        {
            return Ok(r.clone());
        }
        let re = Arc::new(compile(pattern).map_err(EvalError::other)?);
        if let Ok(mut m) = self.map.lock() {
            if m.len() >= CACHE_CAPACITY {
                m.clear();
            }
            m.insert(pattern.to_string(), re.clone());
        }
        Ok(re)
    }
}

/// `s.find(re)`: the leftmost match or ''.
pub(crate) fn find<'a>(re: &Regex, s: &str) -> Value<'a> {
    Value::string(re.find(s).map_or("", |m| m.as_str()))
}

/// `s.findAll(re[, n])`: Go's `FindAllString(s, n)` (n < 0: all).
pub(crate) fn find_all<'a>(re: &Regex, s: &str, limit: Option<&Value<'_>>) -> EvalResult<'a> {
    let n = match limit {
        None => -1,
        Some(Value::Int(n)) => *n,
        Some(_) => return Err(EvalError::no_such_overload()),
    };
    let out: Vec<Value<'a>> = re
        .find_all(s, n)
        .into_iter()
        .map(|m| Value::string(m.as_str()))
        .collect();
    Ok(Value::List(List::Owned(Arc::new(out), ListKind::Plain)))
}

fn illegal(e: &EvalError) -> EvalError {
    EvalError::other(format!("Illegal regex: {e}"))
}

fn find_fn<'a>(env: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match (&a[0], &a[1]) {
        (Value::String(s), Value::String(p)) => {
            let re = env.regexes.get(p).map_err(|e| illegal(&e))?;
            Ok(find(&re, s))
        }
        _ => Err(EvalError::no_such_overload()),
    }
}

fn find_all_fn<'a>(env: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match (&a[0], &a[1]) {
        (Value::String(s), Value::String(p)) => {
            let re = env.regexes.get(p).map_err(|e| illegal(&e))?;
            find_all(&re, s, a.get(2))
        }
        _ => Err(EvalError::no_such_overload()),
    }
}

/// `ceil((1+len(s))·0.1) · ceil(len(re)·0.25)`.
fn cost_find<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    ceil_factor(1 + actual_size(&a[0]), TRAVERSAL) * ceil_factor(actual_size(&a[1]), REGEX_FACTOR)
}

/// The Kubernetes regex library (Kubernetes 1.23).
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("find", true, 2, find_fn).cost(cost_find),
    FnDef::new("findAll", true, 2, find_all_fn)
        .arity(2, 3)
        .cost(cost_find),
];
