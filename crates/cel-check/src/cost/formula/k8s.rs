//! The Kubernetes estimator: apiserver `pkg/cel/library/cost.go` (`EstimateCallCost`, keyed by
//! function name, and `selectorCostEstimate`).

use super::{Call, Operand, str_eq};
use crate::cost::{
    CostEstimate, LIST_CREATE_BASE_COST, REGEX_STRING_LENGTH_COST_FACTOR,
    STRING_TRAVERSAL_COST_FACTOR, STRUCT_CREATE_BASE_COST, SizeEstimate, ceil,
};
use crate::decl::{MAX_FORMAT_SIZE, MAX_NAME_FORMAT_REGEX_SIZE};
use crate::types::Kind;

const ST: f64 = STRING_TRAVERSAL_COST_FACTOR;
const ONE: CostEstimate = CostEstimate::ONE;

type Estimate = Option<(CostEstimate, Option<SizeEstimate>)>;

const fn cost(c: CostEstimate) -> Estimate {
    Some((c, None))
}

const fn sized(c: CostEstimate, s: SizeEstimate) -> Estimate {
    Some((c, Some(s)))
}

/// library `selectorCostEstimate`.
#[allow(clippy::cast_precision_loss)]
const fn selector_cost(len: SizeEstimate) -> CostEstimate {
    let parse = len.multiply_by_cost_factor(ST);
    let requirements = len.multiply_by_cost_factor(0.5);
    let per_requirement = (LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST) as f64;
    let requirement_cost = requirements.multiply_by_cost_factor(per_requirement);
    CostEstimate::fixed(LIST_CREATE_BASE_COST)
        .add(parse)
        .add(requirement_cost)
}

/// library `EstimateCallCost` for `replace`: the scan, and the result's size from how many
/// replacements fit.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
const fn replace(
    sz: SizeEstimate,
    to_replace: SizeEstimate,
    replace_with: SizeEstimate,
) -> Estimate {
    let (mut count, mut retained) = (SizeEstimate::fixed(0), SizeEstimate::fixed(0));
    if to_replace.min == 0 {
        count.max = if sz.max < u64::MAX {
            sz.max + 1
        } else {
            sz.max
        };
        retained.max = sz.max;
    } else if replace_with.max <= to_replace.min {
        retained.max = sz.max;
    } else {
        count.max = ceil(sz.max as f64 / to_replace.min as f64) as u64;
    }
    if to_replace.max == 0 {
        count.min = if sz.min < u64::MAX {
            sz.min + 1
        } else {
            sz.min
        };
        retained.min = sz.min;
    } else if to_replace.max <= replace_with.min {
        retained.min = sz.min;
    } else {
        count.min = ceil(sz.min as f64 / to_replace.max as f64) as u64;
    }
    let result = count.multiply(replace_with).add(retained);
    sized(sz.multiply_by_cost_factor(2.0 * ST), result)
}

/// The traversal of a list (`isSorted`, `sum`, `indexOf`, ...): per element 1, plus a scan of
/// string and bytes elements.
const fn list_traversal(c: &Call<'_>, target: Operand<'_>) -> Estimate {
    let mut el = ONE;
    match c.target_element {
        Some(e) => {
            if matches!(e.kind, Kind::String | Kind::Bytes) {
                el = el.add(e.size.multiply_by_cost_factor(ST));
            }
            cost(target.size.multiply_by_cost(el))
        }
        None if str_eq(c.function, "includes") => cost(target.size.multiply_by_cost(el)),
        None => cost(target.size.multiply_by_cost_factor(ST)),
    }
}

/// library `CostEstimator.EstimateCallCost`: the call's own cost (arguments excluded) and,
/// for some functions, its result size.
#[allow(
    clippy::too_many_lines,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(super) const fn estimate(c: &Call<'_>) -> Estimate {
    let args = c.args;
    match c.function.as_bytes() {
        b"check" => cost(CostEstimate::fixed(350_000)),
        b"serviceAccount" | b"path" | b"group" | b"resource" | b"subresource" | b"namespace"
        | b"name" | b"allowed" | b"reason" | b"error" | b"errored" => cost(ONE),
        b"fieldSelector" | b"labelSelector" if args.len() == 1 => cost(selector_cost(args[0].size)),
        b"isSorted" | b"sum" | b"max" | b"min" | b"indexOf" | b"lastIndexOf" | b"includes" => {
            match c.target {
                Some(t) => list_traversal(c, t),
                None => None,
            }
        }
        b"url" | b"jsonpatch.escapeKey" if args.len() == 1 => {
            let sz = args[0].size;
            sized(sz.multiply_by_cost_factor(ST), sz)
        }
        b"lowerAscii" | b"upperAscii" | b"substring" | b"trim" => match c.target {
            Some(t) => sized(t.size.multiply_by_cost_factor(ST), t.size),
            None => None,
        },
        b"replace" => match c.target {
            Some(t) if args.len() >= 2 => replace(t.size, args[0].size, args[1].size),
            _ => None,
        },
        b"split" => {
            let Some(t) = c.target else { return None };
            let mut max = t.size.max;
            if args.len() > 1
                && let Some(n) = args[1].int_literal
            {
                max = n as u64;
            }
            sized(
                t.size.multiply_by_cost_factor(2.0 * ST),
                SizeEstimate { min: 0, max },
            )
        }
        b"join" => {
            let Some(t) = c.target else { return None };
            let list_size = t.size;
            let mut sz = SizeEstimate::fixed(0);
            if let Some(el) = c.target_element {
                sz = list_size.multiply(el.size);
            }
            if !args.is_empty() {
                let separators = SizeEstimate {
                    min: list_size.min.saturating_sub(1),
                    max: list_size.max.saturating_sub(1),
                };
                sz = sz.add(args[0].size.multiply(separators));
            }
            sized(sz.multiply_by_cost_factor(ST), sz)
        }
        b"find" | b"findAll" => match c.target {
            Some(t) if !args.is_empty() => {
                let str_cost = t
                    .size
                    .add(SizeEstimate::fixed(1))
                    .multiply_by_cost_factor(ST);
                let regex_cost = args[0]
                    .size
                    .multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                sized(
                    str_cost.multiply(regex_cost),
                    SizeEstimate {
                        min: 0,
                        max: t.size.max,
                    },
                )
            }
            _ => None,
        },
        b"cidr" | b"isIP" | b"isCIDR" | b"quantity" | b"isQuantity" | b"semver" | b"isSemver"
            if !args.is_empty() =>
        {
            cost(args[0].size.multiply_by_cost_factor(ST))
        }
        b"ip" if str_eq(c.overload, "cidr_ip") => cost(ONE),
        b"ip" if !args.is_empty() => cost(args[0].size.multiply_by_cost_factor(ST)),
        b"ip.isCanonical" if !args.is_empty() => {
            cost(args[0].size.multiply_by_cost_factor(2.0 * ST))
        }
        b"masked"
        | b"prefixLength"
        | b"family"
        | b"isUnspecified"
        | b"isLoopback"
        | b"isLinkLocalMulticast"
        | b"isLinkLocalUnicast"
        | b"isGlobalUnicast" => cost(ONE),
        b"containsIP" | b"containsCIDR" if !args.is_empty() => {
            // An address is 4 or 16 bytes.
            let ip = SizeEstimate { min: 4, max: 16 };
            let mut total = ip.add(ip).multiply_by_cost_factor(ST);
            if str_eq(c.function, "containsCIDR") {
                total = total.add(ip.multiply_by_cost_factor(ST)).add(ONE);
            }
            if str_eq(c.overload, "cidr_contains_ip_string")
                || str_eq(c.overload, "cidr_contains_cidr_string")
            {
                let s = args[0].size;
                total = total.add(
                    CostEstimate {
                        min: s.min,
                        max: s.max,
                    }
                    .multiply_by_cost_factor(ST),
                );
            }
            cost(total)
        }
        b"validate" if !args.is_empty() => {
            let factor = MAX_NAME_FORMAT_REGEX_SIZE as f64 * REGEX_STRING_LENGTH_COST_FACTOR;
            cost(
                args[0]
                    .size
                    .multiply_by_cost_factor(ST)
                    .multiply_by_cost_factor(factor),
            )
        }
        b"format.named" => cost(ONE),
        b"sign"
        | b"asInteger"
        | b"isInteger"
        | b"asApproximateFloat"
        | b"isGreaterThan"
        | b"isLessThan"
        | b"compareTo"
        | b"add"
        | b"sub"
        | b"major"
        | b"minor"
        | b"patch" => cost(ONE),
        b"getScheme" | b"getHostname" | b"getHost" | b"getPort" | b"getEscapedPath"
        | b"getQuery" => cost(ONE),
        b"_==_" if args.len() == 2 => equality(&args[0], &args[1]),
        _ => None,
    }
}

/// `==` on the Kubernetes types (cel-go `Type.Equal` compares type names only).
const fn equality(lhs: &Operand<'_>, rhs: &Operand<'_>) -> Estimate {
    if !str_eq(lhs.type_name, rhs.type_name) {
        return None;
    }
    match lhs.type_name.as_bytes() {
        b"net.IP" | b"net.CIDR" if matches!(lhs.kind, Kind::Opaque) => cost(ONE),
        _ if !matches!(lhs.kind, Kind::Object) => None,
        b"kubernetes.Quantity"
        | b"kubernetes.Semver"
        | b"kubernetes.authorization.Authorizer"
        | b"kubernetes.authorization.PathCheck"
        | b"kubernetes.authorization.GroupCheck"
        | b"kubernetes.authorization.ResourceCheck"
        | b"kubernetes.authorization.Decision" => cost(ONE),
        b"kubernetes.NamedFormat" => cost(
            CostEstimate {
                min: 1,
                max: MAX_FORMAT_SIZE,
            }
            .multiply_by_cost_factor(ST),
        ),
        b"kubernetes.URL" => {
            // The Go code reads the right-hand side's size twice.
            let s = match rhs.computed {
                Some(r) => r.union(r),
                None => SizeEstimate::fixed(1),
            };
            cost(CostEstimate { min: 1, max: s.max }.multiply_by_cost_factor(ST))
        }
        _ => None,
    }
}
