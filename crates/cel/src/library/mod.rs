//! The function libraries of the Kubernetes CEL environment and their registry: the standard
//! library (`stdlib.rs`, operators in `ops.rs`), cel-go extensions (strings v2, sets, lists v3, optionals,
//! two-variable comprehensions are macros) and the Kubernetes libraries of apiserver
//! `pkg/cel/library` (lists, regex, urls, ip, cidr, quantity, semver, format), each with the
//! Kubernetes version that introduced it (`pkg/cel/environment/base.go`).
//!
//! A function is found at compile time by name, call style and argument count; overloads on
//! argument types are chosen at run time, as cel-go's dynamic dispatch does.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::value::{EvalResult, Value};

pub(crate) mod ip;
pub(crate) mod k8s_formats;
pub(crate) mod k8s_lists;
pub(crate) mod lists_ext;
pub(crate) mod ops;
pub(crate) mod optional;
pub(crate) mod quantity;
pub(crate) mod regex_lib;
pub(crate) mod semver;
pub(crate) mod sets;
pub(crate) mod stdlib;
pub(crate) mod strings;
pub(crate) mod strings_format;
pub(crate) mod url;

/// A function implementation: receives the receiver (if any) then the arguments.
pub(crate) type Impl = for<'a> fn(&Env, &[Value<'a>]) -> EvalResult<'a>;
/// The runtime cost of one call, from its arguments and result (cel-go `CostTracker.costCall`
/// and apiserver `library.CostEstimator.CallCost`).
pub(crate) type CostFn = for<'a> fn(&[Value<'a>], &Value<'a>) -> u64;

/// One function (all its overloads of one call style and arity range).
pub(crate) struct FnDef {
    pub name: &'static str,
    /// Receiver style `x.f(..)`.
    pub member: bool,
    /// Accepted argument counts, receiver included.
    pub min_args: usize,
    pub max_args: usize,
    /// The Kubernetes version that made it available.
    pub since: (u32, u32),
    pub imp: Impl,
    pub cost: CostFn,
}

impl FnDef {
    pub(crate) const fn new(name: &'static str, member: bool, args: usize, imp: Impl) -> FnDef {
        FnDef {
            name,
            member,
            min_args: args,
            max_args: args,
            since: (1, 0),
            imp,
            cost: cost_one,
        }
    }

    pub(crate) const fn arity(mut self, min: usize, max: usize) -> FnDef {
        self.min_args = min;
        self.max_args = max;
        self
    }

    pub(crate) const fn since(mut self, major: u32, minor: u32) -> FnDef {
        self.since = (major, minor);
        self
    }

    pub(crate) const fn cost(mut self, cost: CostFn) -> FnDef {
        self.cost = cost;
        self
    }
}

/// Shared state of a program available to functions (compiled regexes).
pub struct Env {
    pub(crate) regexes: regex_lib::RegexCache,
}

impl Env {
    pub(crate) fn new() -> Env {
        Env {
            regexes: regex_lib::RegexCache::default(),
        }
    }
}

impl std::fmt::Debug for Env {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Env")
    }
}

/// The default call cost.
pub(crate) fn cost_one<'a>(_: &[Value<'a>], _: &Value<'a>) -> u64 {
    1
}

/// cel-go `actualSize`: the size of strings, bytes, lists and maps (through optionals), else 1.
pub(crate) fn actual_size(v: &Value<'_>) -> u64 {
    match v {
        Value::String(s) => s.chars().count() as u64,
        Value::Bytes(b) => b.len() as u64,
        Value::List(l) => crate::value::list::len(l) as u64,
        Value::Map(m) => crate::value::map::len(m) as u64,
        Value::Optional(Some(x)) => actual_size(x),
        Value::Ext(e) => e.actual_size(),
        _ => 1,
    }
}

/// `RegexStringLengthCostFactor`.
pub(crate) use crate::cost::REGEX_STRING_LENGTH_COST_FACTOR as REGEX_FACTOR;
/// `StringTraversalCostFactor`.
pub(crate) use crate::cost::STRING_TRAVERSAL_COST_FACTOR as TRAVERSAL;
/// `ceil(size * factor)` as Go computes it in float64 (saturating).
pub(crate) use crate::cost::mul_factor as ceil_factor;

/// Cost of a traversal of argument 0 (`url`, `lowerAscii`, `trim`, ...).
pub(crate) fn cost_traverse0<'a>(args: &[Value<'a>], _: &Value<'a>) -> u64 {
    args.first()
        .map_or(1, |a| ceil_factor(actual_size(a), TRAVERSAL))
}

static ALL: LazyLock<Vec<&'static FnDef>> = LazyLock::new(|| {
    let tables: [&'static [FnDef]; 14] = [
        stdlib::FUNCTIONS,
        stdlib::TIME_FUNCTIONS,
        optional::FUNCTIONS,
        strings::FUNCTIONS,
        sets::FUNCTIONS,
        lists_ext::FUNCTIONS,
        k8s_lists::FUNCTIONS,
        regex_lib::FUNCTIONS,
        url::FUNCTIONS,
        ip::FUNCTIONS,
        quantity::FUNCTIONS,
        semver::FUNCTIONS,
        k8s_formats::FUNCTIONS,
        strings_format::FUNCTIONS,
    ];
    tables.iter().flat_map(|t| t.iter()).collect()
});

static BY_NAME: LazyLock<HashMap<(&'static str, bool), Vec<&'static FnDef>>> =
    LazyLock::new(|| {
        let mut m: HashMap<_, Vec<_>> = HashMap::new();
        for f in ALL.iter() {
            m.entry((f.name, f.member)).or_default().push(*f);
        }
        m
    });

/// Finds the function for a call; `None` when undeclared at `version`.
pub(crate) fn lookup(
    name: &str,
    member: bool,
    argc: usize,
    version: (u32, u32),
) -> Option<&'static FnDef> {
    BY_NAME
        .get(&(name, member))?
        .iter()
        .copied()
        .find(|f| f.min_args <= argc && argc <= f.max_args && f.since <= version)
}

/// Whether a global function of that name exists at `version` (to resolve `a.b.f()` as a
/// qualified function name).
pub(crate) fn has_global(name: &str, version: (u32, u32)) -> bool {
    BY_NAME
        .get(&(name, false))
        .is_some_and(|fs| fs.iter().any(|f| f.since <= version))
}

/// Every function with the version that introduced it: `(name, member, since)`, sorted (the
/// inventory of apiserver `library_compatibility_test.go`).
#[must_use]
pub fn inventory() -> Vec<(&'static str, bool, (u32, u32))> {
    let mut v: Vec<_> = ALL.iter().map(|f| (f.name, f.member, f.since)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// A `no such overload: f(t1, t2)` error for arguments no overload accepts.
pub(crate) fn no_overload<'a>(name: &str, args: &[Value<'a>]) -> EvalResult<'a> {
    let types: Vec<&str> = args.iter().map(Value::type_name).collect();
    Err(crate::value::EvalError::new(
        crate::value::EvalErrorKind::NoSuchOverload,
        format!("no such overload: {name}({})", types.join(", ")),
    ))
}
