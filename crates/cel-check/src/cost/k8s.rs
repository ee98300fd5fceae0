//! The Kubernetes estimator: apiserver `pkg/cel/library/cost.go` (`EstimateCallCost`, keyed
//! by function name) and apiextensions compilation.go's `sizeEstimator`, which sizes a node by
//! walking its path (`self`, field names, `@items`, `@values`, `@keys`) through the rule's
//! declaration.

use super::SizeEstimator;
use super::{CostEstimate, SizeEstimate};
use super::{LIST_CREATE_BASE_COST, REGEX_STRING_LENGTH_COST_FACTOR, STRUCT_CREATE_BASE_COST};
use crate::ExprId;
use crate::decl::{MAX_FORMAT_SIZE, MAX_NAME_FORMAT_REGEX_SIZE};
use crate::types::{Kind, Type};

const ST: f64 = super::STRING_TRAVERSAL_COST_FACTOR;

/// cel-go `AstNode`: a call's target or argument as estimators see it.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// The path into the schema; empty when unknown.
    pub(crate) path: Vec<String>,
    pub(crate) ty: Type,
    pub(crate) expr: Option<ExprId>,
    /// The size the coster derived (`ComputedSize`).
    pub(crate) computed: Option<SizeEstimate>,
    /// The value of an int literal node (estimators read literal counts and indexes).
    pub(crate) int_literal: Option<i64>,
}

/// library `CostEstimator.EstimateSize`, delegating to the rule's size estimator.
pub(crate) fn estimate_size(sizes: Sizes<'_>, node: &Node) -> Option<SizeEstimate> {
    sizes?.estimate_size(&node.path, &node.ty)
}

/// The size estimator of an estimation, if any.
pub(crate) type Sizes<'a> = Option<&'a dyn SizeEstimator>;

/// library `CostEstimator.sizeEstimate` (also cel-go ext `estimateSize`).
pub(crate) fn size(root: Sizes<'_>, n: &Node) -> SizeEstimate {
    n.computed
        .or_else(|| estimate_size(root, n))
        .unwrap_or(SizeEstimate::UNKNOWN)
}

/// library `listElementNode`: a node for the elements of a list-typed node.
fn list_element_node(n: &Node) -> Option<Node> {
    let elem = n.ty.parameters().first().map(|t| (*t).clone())?;
    let mut path = n.path.clone();
    if !path.is_empty() {
        path.push("@items".into());
    }
    Some(Node {
        path,
        ty: elem,
        expr: None,
        computed: None,
        int_literal: None,
    })
}

fn fixed(n: u64) -> CostEstimate {
    CostEstimate::fixed(n)
}

/// library `selectorCostEstimate`.
fn selector_cost(len: SizeEstimate) -> CostEstimate {
    let parse = len.multiply_by_cost_factor(ST);
    let requirements = len.multiply_by_cost_factor(0.5);
    let per_requirement = (LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST) as f64;
    let requirement_cost = requirements.multiply_by_cost_factor(per_requirement);
    fixed(LIST_CREATE_BASE_COST)
        .add(parse)
        .add(requirement_cost)
}

/// library `CostEstimator.EstimateCallCost`: the call's own cost (arguments excluded) and,
/// for some functions, its result size.
#[allow(
    clippy::too_many_lines,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(crate) fn estimate_call(
    root: Sizes<'_>,
    function: &str,
    overload: &str,
    target: Option<&Node>,
    args: &[Node],
) -> Option<(CostEstimate, Option<SizeEstimate>)> {
    let size = |n: &Node| size(root, n);
    let arg0 = args.first();
    match function {
        "check" => Some((fixed(350_000), None)),
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name"
        | "allowed" | "reason" | "error" | "errored" => Some((fixed(1), None)),
        "fieldSelector" | "labelSelector" if args.len() == 1 => {
            Some((selector_cost(size(&args[0])), None))
        }
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
            let target = target?;
            let mut el = fixed(1);
            if let Some(el_node) = list_element_node(target) {
                if matches!(el_node.ty.kind(), Kind::String | Kind::Bytes) {
                    el = el.add(size(&el_node).multiply_by_cost_factor(ST));
                }
                Some((size(target).multiply_by_cost(el), None))
            } else if function == "includes" {
                Some((size(target).multiply_by_cost(el), None))
            } else {
                Some((size(target).multiply_by_cost_factor(ST), None))
            }
        }
        "url" | "jsonpatch.escapeKey" if args.len() == 1 => {
            let sz = size(&args[0]);
            Some((sz.multiply_by_cost_factor(ST), Some(sz)))
        }
        "lowerAscii" | "upperAscii" | "substring" | "trim" => {
            let sz = size(target?);
            Some((sz.multiply_by_cost_factor(ST), Some(sz)))
        }
        "replace" if target.is_some() && args.len() >= 2 => {
            let sz = size(target?);
            let to_replace = size(&args[0]);
            let replace_with = size(&args[1]);
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
                count.max = (sz.max as f64 / to_replace.min as f64).ceil() as u64;
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
                count.min = (sz.min as f64 / to_replace.max as f64).ceil() as u64;
            }
            let result = count.multiply(replace_with).add(retained);
            Some((sz.multiply_by_cost_factor(2.0 * ST), Some(result)))
        }
        "split" => {
            let sz = size(target?);
            let mut max = sz.max;
            if let Some(n) = args.get(1).and_then(int_literal) {
                max = n as u64;
            }
            Some((
                sz.multiply_by_cost_factor(2.0 * ST),
                Some(SizeEstimate { min: 0, max }),
            ))
        }
        "join" => {
            let target = target?;
            let list_size = size(target);
            let mut sz = SizeEstimate::fixed(0);
            if let Some(el) = list_element_node(target) {
                sz = list_size.multiply(size(&el));
            }
            if let Some(sep) = arg0 {
                let separators = SizeEstimate {
                    min: list_size.min.saturating_sub(1),
                    max: list_size.max.saturating_sub(1),
                };
                sz = sz.add(size(sep).multiply(separators));
            }
            Some((sz.multiply_by_cost_factor(ST), Some(sz)))
        }
        "find" | "findAll" if target.is_some() && !args.is_empty() => {
            let sz = size(target?);
            let str_cost = sz.add(SizeEstimate::fixed(1)).multiply_by_cost_factor(ST);
            let regex_cost =
                size(&args[0]).multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
            Some((
                str_cost.multiply(regex_cost),
                Some(SizeEstimate {
                    min: 0,
                    max: sz.max,
                }),
            ))
        }
        "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" | "semver" | "isSemver"
            if !args.is_empty() =>
        {
            Some((size(&args[0]).multiply_by_cost_factor(ST), None))
        }
        "ip" if overload == "cidr_ip" => Some((fixed(1), None)),
        "ip" if !args.is_empty() => Some((size(&args[0]).multiply_by_cost_factor(ST), None)),
        "ip.isCanonical" if !args.is_empty() => {
            Some((size(&args[0]).multiply_by_cost_factor(2.0 * ST), None))
        }
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => Some((fixed(1), None)),
        "containsIP" | "containsCIDR" if !args.is_empty() => {
            let ip = SizeEstimate { min: 4, max: 16 };
            let mut c = ip.add(ip).multiply_by_cost_factor(ST);
            if function == "containsCIDR" {
                c = c.add(ip.multiply_by_cost_factor(ST)).add(fixed(1));
            }
            if overload == "cidr_contains_ip_string" || overload == "cidr_contains_cidr_string" {
                let s = size(&args[0]);
                c = c.add(
                    CostEstimate {
                        min: s.min,
                        max: s.max,
                    }
                    .multiply_by_cost_factor(ST),
                );
            }
            Some((c, None))
        }
        "validate" if !args.is_empty() => {
            let factor = MAX_NAME_FORMAT_REGEX_SIZE as f64 * REGEX_STRING_LENGTH_COST_FACTOR;
            let c = size(&args[0])
                .multiply_by_cost_factor(ST)
                .multiply_by_cost_factor(factor);
            Some((c, None))
        }
        "format.named" => Some((fixed(1), None)),
        "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan"
        | "isLessThan" | "compareTo" | "add" | "sub" | "major" | "minor" | "patch" => {
            Some((fixed(1), None))
        }
        "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => {
            Some((fixed(1), None))
        }
        "_==_" if args.len() == 2 => equality(&args[0], &args[1]),
        _ => None,
    }
}

/// `==` on the Kubernetes types (cel-go `Type.Equal` compares type names only).
fn equality(lhs: &Node, rhs: &Node) -> Option<(CostEstimate, Option<SizeEstimate>)> {
    if lhs.ty.type_name() != rhs.ty.type_name() {
        return None;
    }
    match lhs.ty.type_name() {
        "net.IP" | "net.CIDR" if lhs.ty.kind() == Kind::Opaque => Some((fixed(1), None)),
        _ if lhs.ty.kind() != Kind::Object => None,
        "kubernetes.Quantity"
        | "kubernetes.Semver"
        | "kubernetes.authorization.Authorizer"
        | "kubernetes.authorization.PathCheck"
        | "kubernetes.authorization.GroupCheck"
        | "kubernetes.authorization.ResourceCheck"
        | "kubernetes.authorization.Decision" => Some((fixed(1), None)),
        "kubernetes.NamedFormat" => Some((
            CostEstimate {
                min: 1,
                max: MAX_FORMAT_SIZE,
            }
            .multiply_by_cost_factor(ST),
            None,
        )),
        "kubernetes.URL" => {
            // The Go code reads the right-hand side's size twice.
            let s = rhs.computed.map_or(SizeEstimate::fixed(1), |r| r.union(r));
            Some((
                CostEstimate { min: 1, max: s.max }.multiply_by_cost_factor(ST),
                None,
            ))
        }
        _ => None,
    }
}

fn int_literal(n: &Node) -> Option<i64> {
    n.int_literal
}
