//! Regular expressions: the regex engine behind `matches` and the Kubernetes regex library
//! (`find`, `findAll`, apiserver `pkg/cel/library/regex.go`), with a bounded cache for
//! patterns known only at run time (constant patterns are compiled once by the planner).
//!
//! Go's RE2 and Rust's `regex` share syntax and linear-time semantics; a pattern whose
//! compiled program would be huge is an error, never a hang. Patterns are first checked
//! against Go's syntax rules (`re2_syntax.rs`), so what Go rejects fails with Go's message.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use regex::Regex;

use super::{Env, FnDef, REGEX_FACTOR, TRAVERSAL, actual_size, ceil_factor};
use crate::cel::eval::{EvalError, EvalResult};
use crate::cel::value::{List, ListKind, Value};

/// Compiled size limit (RE2's default program budget is of the same order).
const SIZE_LIMIT: usize = 8 << 20;
/// Patterns kept in the run-time cache.
const CACHE_CAPACITY: usize = 256;

/// Compiles a pattern with RE2-like limits; the error is Go's `regexp.Compile` text for the
/// patterns Go rejects.
pub(crate) fn compile(pattern: &str) -> Result<Regex, String> {
    super::re2_syntax::check(pattern).map_err(|e| e.to_string())?;
    regex::RegexBuilder::new(pattern)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| format!("error parsing regexp: {}", first_line(&e.to_string())))
}

fn first_line(s: &str) -> String {
    s.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .trim_start_matches("error: ")
        .to_string()
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
    let out: Vec<Value<'a>> = if n == 0 {
        Vec::new()
    } else {
        let it = re.find_iter(s).map(|m| Value::string(m.as_str()));
        if n < 0 {
            it.collect()
        } else {
            it.take(usize::try_from(n).unwrap_or(usize::MAX)).collect()
        }
    };
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
