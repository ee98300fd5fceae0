//! The overload estimators cel-go's extension libraries register (`checker.OverloadCostEstimate`),
//! which take precedence over the Kubernetes estimator: `ext/sets.go` (Kubernetes 1.29+) and
//! `ext/lists.go` version 3 (Kubernetes 1.34+). The strings extension only registers
//! estimators from its version 5; Kubernetes uses version 2.

use super::k8s::{self, Node, Sizes};
use super::{CostEstimate, LIST_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR, SizeEstimate};
use crate::env::Version;

/// The comparable element types of `sort` and `@sortByAssociatedKeys`, as their overload ids
/// spell them, and whether they are strings or bytes.
const SORTABLE: &[(&str, bool)] = &[
    ("int", false),
    ("uint", false),
    ("double", false),
    ("bool", false),
    ("google.protobuf.Duration", false),
    ("google.protobuf.Timestamp", false),
    ("string", true),
    ("bytes", true),
];

/// cel-go ext `nodeAsUintValue`.
#[allow(clippy::cast_sign_loss)]
fn as_uint(n: &Node, default: u64) -> u64 {
    match n.int_literal {
        Some(i) if i < 0 => 0,
        Some(i) => i as u64,
        None => default,
    }
}

/// cel-go ext `estimateListCall` for an allocating call.
fn allocating_list_call(factor: f64, size: SizeEstimate) -> (CostEstimate, Option<SizeEstimate>) {
    let cost = size
        .multiply_by_cost_factor(factor)
        .add(CostEstimate::fixed(1))
        .add(CostEstimate::fixed(LIST_CREATE_BASE_COST));
    (cost, Some(size))
}

#[allow(clippy::cast_precision_loss)]
pub(super) fn estimate(
    root: Sizes<'_>,
    version: Version,
    overload: &str,
    target: Option<&Node>,
    args: &[Node],
) -> Option<(CostEstimate, Option<SizeEstimate>)> {
    let size = |n: &Node| k8s::size(root, n);
    if version >= (1, 29) {
        let factor = match overload {
            "list_sets_contains_list" | "list_sets_intersects_list" => Some(1.0),
            "list_sets_equivalent_list" => Some(2.0),
            _ => None,
        };
        if let Some(f) = factor {
            if args.len() != 2 {
                return None;
            }
            let c = size(&args[0])
                .multiply(size(&args[1]))
                .multiply_by_cost_factor(f)
                .add(CostEstimate::fixed(1));
            return Some((c, None));
        }
    }
    if version < (1, 34) {
        return None;
    }
    match overload {
        "list_slice" => {
            let (t, [start, end]) = (target?, args) else {
                return None;
            };
            let sz = size(t);
            let (s, e) = (as_uint(start, 0), as_uint(end, sz.max));
            Some(allocating_list_call(
                1.0,
                SizeEstimate::fixed(e.wrapping_sub(s)),
            ))
        }
        "lists_range" if target.is_none() && args.len() == 1 => Some(allocating_list_call(
            1.0,
            SizeEstimate::fixed(as_uint(&args[0], u64::MAX)),
        )),
        "list_reverse" if args.is_empty() => Some(allocating_list_call(1.0, size(target?))),
        "list_flatten" | "list_flatten_int" if args.len() <= 1 => {
            let t = target?;
            let depth = args.first().map_or(1, |d| as_uint(d, u64::MAX));
            Some(allocating_list_call(depth as f64, size(t)))
        }
        "list_distinct" if args.is_empty() => {
            let sz = size(target?);
            Some(allocating_list_call(2.0, sz.multiply(sz)))
        }
        _ => {
            let (elem, is_sort) = SORTABLE.iter().find_map(|(t, _)| {
                if overload == format!("list_{t}_sort") {
                    Some((*t, true))
                } else if overload == format!("list_{t}_sortByAssociatedKeys") {
                    Some((*t, false))
                } else {
                    None
                }
            })?;
            let node = if is_sort {
                if !args.is_empty() {
                    return None;
                }
                target?
            } else {
                // `list.@sortByAssociatedKeys(keys)`: the keys are sorted.
                if args.len() != 1 {
                    return None;
                }
                target?;
                &args[0]
            };
            let sz = size(node);
            let textual = SORTABLE.iter().any(|(t, s)| *t == elem && *s);
            let factor = if textual {
                2.0 + STRING_TRAVERSAL_COST_FACTOR
            } else {
                2.0
            };
            Some(allocating_list_call(factor, sz.multiply(sz)))
        }
    }
}
