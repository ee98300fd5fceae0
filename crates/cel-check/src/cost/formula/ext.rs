//! The overload estimators cel-go's extension libraries register (`checker.OverloadCostEstimate`),
//! which take precedence over the Kubernetes estimator: `ext/sets.go` (Kubernetes 1.29+) and
//! `ext/lists.go` version 3 (Kubernetes 1.34+). The strings extension only registers
//! estimators from its version 5; Kubernetes uses version 2.

use super::{Call, Operand};
use crate::cost::{
    CostEstimate, LIST_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
};

/// cel-go ext `nodeAsUintValue`.
#[allow(clippy::cast_sign_loss)]
const fn as_uint(n: &Operand<'_>, default: u64) -> u64 {
    match n.int_literal {
        Some(i) if i < 0 => 0,
        Some(i) => i as u64,
        None => default,
    }
}

/// cel-go ext `estimateListCall` for an allocating call.
const fn allocating(
    factor: f64,
    size: SizeEstimate,
) -> Option<(CostEstimate, Option<SizeEstimate>)> {
    let cost = size
        .multiply_by_cost_factor(factor)
        .add(CostEstimate::ONE)
        .add(CostEstimate::fixed(LIST_CREATE_BASE_COST));
    Some((cost, Some(size)))
}

/// The sort overloads of lists v3, by overload id: `(sortByAssociatedKeys, textual)` — the
/// keys rather than the receiver are sorted, and the elements are strings or bytes.
const fn sort_overload(o: &[u8]) -> Option<(bool, bool)> {
    match o {
        b"list_int_sort"
        | b"list_uint_sort"
        | b"list_double_sort"
        | b"list_bool_sort"
        | b"list_google.protobuf.Duration_sort"
        | b"list_google.protobuf.Timestamp_sort" => Some((false, false)),
        b"list_string_sort" | b"list_bytes_sort" => Some((false, true)),
        b"list_int_sortByAssociatedKeys"
        | b"list_uint_sortByAssociatedKeys"
        | b"list_double_sortByAssociatedKeys"
        | b"list_bool_sortByAssociatedKeys"
        | b"list_google.protobuf.Duration_sortByAssociatedKeys"
        | b"list_google.protobuf.Timestamp_sortByAssociatedKeys" => Some((true, false)),
        b"list_string_sortByAssociatedKeys" | b"list_bytes_sortByAssociatedKeys" => {
            Some((true, true))
        }
        _ => None,
    }
}

const fn at_least(v: (u32, u32), min: (u32, u32)) -> bool {
    v.0 > min.0 || (v.0 == min.0 && v.1 >= min.1)
}

#[allow(clippy::cast_precision_loss)]
pub(super) const fn estimate(c: &Call<'_>) -> Option<(CostEstimate, Option<SizeEstimate>)> {
    let o = c.overload.as_bytes();
    let args = c.args;
    if at_least(c.version, (1, 29)) {
        let factor = match o {
            b"list_sets_contains_list" | b"list_sets_intersects_list" => 1.0,
            b"list_sets_equivalent_list" => 2.0,
            _ => 0.0,
        };
        if factor > 0.0 {
            if args.len() != 2 {
                return None;
            }
            let cost = args[0]
                .size
                .multiply(args[1].size)
                .multiply_by_cost_factor(factor)
                .add(CostEstimate::ONE);
            return Some((cost, None));
        }
    }
    if !at_least(c.version, (1, 34)) {
        return None;
    }
    match o {
        b"list_slice" => {
            let (Some(t), [start, end]) = (c.target, args) else {
                return None;
            };
            let (s, e) = (as_uint(start, 0), as_uint(end, t.size.max));
            allocating(1.0, SizeEstimate::fixed(e.wrapping_sub(s)))
        }
        b"lists_range" => {
            if c.target.is_none() && args.len() == 1 {
                allocating(1.0, SizeEstimate::fixed(as_uint(&args[0], u64::MAX)))
            } else {
                None
            }
        }
        b"list_reverse" => match c.target {
            Some(t) if args.is_empty() => allocating(1.0, t.size),
            _ => None,
        },
        b"list_flatten" | b"list_flatten_int" => match c.target {
            Some(t) if args.len() <= 1 => {
                let depth = if args.is_empty() {
                    1
                } else {
                    as_uint(&args[0], u64::MAX)
                };
                allocating(depth as f64, t.size)
            }
            _ => None,
        },
        b"list_distinct" => match c.target {
            Some(t) if args.is_empty() => allocating(2.0, t.size.multiply(t.size)),
            _ => None,
        },
        _ => {
            let Some((by_keys, textual)) = sort_overload(o) else {
                return None;
            };
            let Some(t) = c.target else { return None };
            let sorted = if by_keys {
                // `list.@sortByAssociatedKeys(keys)`: the keys are sorted.
                if args.len() != 1 {
                    return None;
                }
                args[0]
            } else {
                if !args.is_empty() {
                    return None;
                }
                t
            };
            let factor = if textual {
                2.0 + STRING_TRAVERSAL_COST_FACTOR
            } else {
                2.0
            };
            allocating(factor, sorted.size.multiply(sorted.size))
        }
    }
}
