//! The implementation and cost of a call in a checked program, chosen by the checker's
//! overloads as cel-go chooses them.
//!
//! cel-go's planner binds a call to the checker's overload when there is exactly one
//! (`interpreter/planner.go` `resolveFunction`), else to the function's dynamic dispatch; the
//! cost tracker then charges by that overload id (`interpreter/runtimecost.go` `costCall`):
//! overload trackers and the Kubernetes estimator first (apiserver `library/cost.go`, mostly by
//! function name), then cel-go's formulas for a few standard overload ids (string traversals,
//! `in` over a list, `matches`, `contains`), and 1 for everything else — including every call
//! the checker could not narrow to one overload (operands typed `dyn`: int-or-string, preserved
//! unknown fields, `dyn(..)`).
//!
//! Parsed-only programs keep the library's cost functions, which decide from run-time types.

use crate::library::{
    CostFn, FnDef, Impl, REGEX_FACTOR, TRAVERSAL, actual_size, ceil_factor, cost_one,
};
use crate::value::Value;

/// The implementation and cost function of a call to `def` whose checked overloads are
/// `overloads` (`None` for a parsed-only program).
pub(crate) fn resolve(def: &'static FnDef, overloads: Option<&[String]>) -> (Impl, CostFn) {
    let Some(overloads) = overloads else {
        return (def.imp, def.cost);
    };
    match overloads {
        [id] => (
            crate::library::k8s_lists::sum_overload(id).unwrap_or(def.imp),
            single_cost(def, id),
        ),
        _ => (def.imp, ambiguous_cost(def)),
    }
}

/// The functions cel-go charges by overload id (`costCall`'s switch and the extension
/// libraries' overload trackers); every other function keeps its cost function.
fn charged_by_overload(name: &str) -> bool {
    matches!(
        name,
        "_+_"
            | "_<_"
            | "_<=_"
            | "_>_"
            | "_>=_"
            | "@in"
            | "contains"
            | "startsWith"
            | "endsWith"
            | "matches"
            | "string"
            | "bytes"
            | "strings.quote"
            | "format"
            | "slice"
            | "flatten"
            | "distinct"
            | "lists.range"
            | "reverse"
            | "sort"
            | "@sortByAssociatedKeys"
            | "sets.contains"
            | "sets.intersects"
            | "sets.equivalent"
    )
}

/// The cost of a call resolved to the one overload `id`.
fn single_cost(def: &'static FnDef, id: &str) -> CostFn {
    match id {
        "starts_with_string" | "ends_with_string" => cost_arg1_traversal,
        "string_to_bytes" | "bytes_to_string" | "strings_quote" | "string_format" => {
            cost_arg0_traversal
        }
        "in_list" => cost_in_list,
        "less_string"
        | "greater_string"
        | "less_equals_string"
        | "greater_equals_string"
        | "less_bytes"
        | "greater_bytes"
        | "less_equals_bytes"
        | "greater_equals_bytes" => cost_min_traversal,
        "add_string" | "add_bytes" => cost_sum_traversal,
        "matches_string" => cost_matches,
        "contains_string" => cost_contains,
        "cidr_contains_ip_ip" => crate::library::ip::cost_contains_ip_parsed,
        "cidr_contains_cidr" => crate::library::ip::cost_contains_cidr_parsed,
        // The extension libraries' trackers of one overload are the library's cost functions.
        _ if matches!(
            def.name,
            "slice"
                | "flatten"
                | "distinct"
                | "lists.range"
                | "reverse"
                | "sort"
                | "@sortByAssociatedKeys"
                | "sets.contains"
                | "sets.intersects"
                | "sets.equivalent"
        ) =>
        {
            def.cost
        }
        _ if charged_by_overload(def.name) => cost_one,
        _ => def.cost,
    }
}

/// The cost of a call the checker left to dynamic dispatch: no overload id.
fn ambiguous_cost(def: &'static FnDef) -> CostFn {
    match def.name {
        // The Kubernetes estimator adds the string parse only for the string overloads.
        "containsIP" => crate::library::ip::cost_contains_ip_parsed,
        "containsCIDR" => crate::library::ip::cost_contains_cidr_parsed,
        name if charged_by_overload(name) => cost_one,
        _ => def.cost,
    }
}

/// `StartsWithString`, `EndsWithString`: the prefix or suffix length·0.1 (cel-go v0.29).
fn cost_arg1_traversal<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    a.get(1)
        .map_or(1, |x| ceil_factor(actual_size(x), TRAVERSAL))
}

/// `StringToBytes`, `BytesToString`, `ExtQuoteString`, `ExtFormatString`: length·0.1.
fn cost_arg0_traversal<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    a.first()
        .map_or(1, |x| ceil_factor(actual_size(x), TRAVERSAL))
}

/// `InList`: the list size.
fn cost_in_list<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    a.get(1).map_or(1, actual_size)
}

/// String and bytes relations: the shorter operand's length·0.1.
fn cost_min_traversal<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    match a {
        [x, y, ..] => ceil_factor(actual_size(x).min(actual_size(y)), TRAVERSAL),
        _ => 1,
    }
}

/// `AddString`, `AddBytes`: both lengths·0.1.
fn cost_sum_traversal<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    match a {
        [x, y, ..] => ceil_factor(actual_size(x) + actual_size(y), TRAVERSAL),
        _ => 1,
    }
}

/// `MatchesString`: `ceil((1+len(s))·0.1) · ceil(len(re)·0.25)`.
fn cost_matches<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    match a {
        [s, re, ..] => {
            ceil_factor(1 + actual_size(s), TRAVERSAL) * ceil_factor(actual_size(re), REGEX_FACTOR)
        }
        _ => 1,
    }
}

/// `ContainsString`: `ceil(len(s)·0.1) · ceil(len(sub)·0.1)`.
fn cost_contains<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    match a {
        [s, sub, ..] => {
            ceil_factor(actual_size(s), TRAVERSAL) * ceil_factor(actual_size(sub), TRAVERSAL)
        }
        _ => 1,
    }
}
