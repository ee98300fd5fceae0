//! Call costs: cel-go `costCall` and `functionCost` (extension estimators of `ext/sets.go` and
//! `ext/lists.go`, then apiserver `library.CostEstimator`, then cel-go's built-in rules), as
//! [`crdkit_cel_check::cost`] computes them.

use super::ast::Call;
use super::check::Ref;
use super::cost::{Cost, Coster, EntrySize, Node, ONE, Seg, Size, UNKNOWN, ZERO};
use super::lower::VERSION;
use super::types::TKind;
use crate::msg::str_eq;
use crdkit_cel_check::decl::{MAX_FORMAT_SIZE, MAX_NAME_FORMAT_REGEX_SIZE};
use crdkit_cel_check::env::OVERLOADS;

/// cel-go `ListCreateBaseCost`.
pub const LIST_CREATE_BASE_COST: u64 = 10;
const STRUCT_CREATE_BASE_COST: u64 = 40;
/// cel-go `StringTraversalCostFactor`.
const ST: f64 = 0.1;
/// cel-go `RegexStringLengthCostFactor`.
const RE: f64 = 0.25;
const MAX_ARGS: usize = 8;

const NO_NODE: Node = Node {
    path: 0,
    ty: 0,
    expr: u32::MAX,
    computed: None,
    int_literal: None,
};

impl Coster<'_> {
    pub(super) const fn cost_call(&mut self, id: u32, c: &'static Call) -> Cost {
        if str_eq(c.function, "dyn") && c.args.len() == 1 {
            let cost = self.cost(c.args[0]);
            self.copy_sizes(id, c.args[0]);
            return ONE.add(cost);
        }
        let mut arg_costs = [ZERO; MAX_ARGS];
        let mut arg_nodes = [NO_NODE; MAX_ARGS];
        let n = if c.args.len() < MAX_ARGS {
            c.args.len()
        } else {
            MAX_ARGS
        };
        let mut i = 0;
        while i < n {
            arg_costs[i] = self.cost(c.args[i]);
            arg_nodes[i] = self.node(c.args[i]);
            i += 1;
        }
        let (mask, namespaced) = match self.c.refs[id as usize] {
            Ref::Function { mask, namespaced } => (mask, namespaced),
            // `_?._` resolves to `select_optional_field`, which has no estimator.
            Ref::OptSelect => (0, false),
            _ => return ZERO,
        };
        let (function, overloads) = match (namespaced, c.namespaced) {
            (true, Some(ns)) => (ns.function, ns.overloads),
            _ => (c.function, c.overloads),
        };
        let (arg_costs, _) = arg_costs.split_at(n);
        let (arg_nodes, _) = arg_nodes.split_at(n);
        let mut sum = ZERO;
        let target = match self.c.call_target(id) {
            Some(t) => {
                sum = sum.add(self.cost(t));
                Some(self.node(t))
            }
            None => None,
        };
        let mut fn_cost = Cost {
            min: u64::MAX,
            max: 0,
        };
        let mut result_size: Option<Size> = None;
        let count = if matches!(self.c.refs[id as usize], Ref::OptSelect) {
            1
        } else {
            overloads.len()
        };
        let mut k = 0;
        while k < count {
            let selected =
                matches!(self.c.refs[id as usize], Ref::OptSelect) || mask & (1 << k) != 0;
            if !selected {
                k += 1;
                continue;
            }
            let overload = if matches!(self.c.refs[id as usize], Ref::OptSelect) {
                "select_optional_field"
            } else {
                OVERLOADS[overloads[k] as usize].id
            };
            let (cost, size) =
                self.function_cost(id, function, overload, target, arg_nodes, arg_costs);
            fn_cost = fn_cost.union(cost);
            if let Some(s) = size {
                result_size = Some(match result_size {
                    Some(r) => r.union(s),
                    None => s,
                });
            }
            let sub = if str_eq(overload, "index_list") {
                Some(Seg::Items)
            } else if str_eq(overload, "index_map") {
                Some(Seg::Values)
            } else {
                None
            };
            if let Some(sub) = sub
                && !c.args.is_empty()
            {
                let a0 = c.args[0];
                result_size = match self.entry_size(a0) {
                    Some(e) => Some(e.val),
                    None => None,
                };
                let p = self.path(a0);
                let p = self.extend(p, sub);
                self.set_path(id, p);
            }
            if result_size.is_none() {
                result_size = self.compute_size(id);
            }
            k += 1;
        }
        if let Some(s) = result_size {
            self.sizes[id as usize] = Some(s);
        }
        sum.add(fn_cost)
    }

    /// cel-go `functionCost`.
    const fn function_cost(
        &mut self,
        id: u32,
        function: &str,
        overload: &str,
        target: Option<Node>,
        args: &[Node],
        arg_costs: &[Cost],
    ) -> (Cost, Option<Size>) {
        let mut arg_sum = ZERO;
        let mut i = 0;
        while i < arg_costs.len() {
            arg_sum = arg_sum.add(arg_costs[i]);
            i += 1;
        }
        if let Some((c, s)) = self.ext_estimate(overload, target, args) {
            return (c.add(arg_sum), s);
        }
        if let Some((c, s)) = self.k8s_estimate(function, overload, target, args) {
            return (c.add(arg_sum), s);
        }
        let o = overload.as_bytes();
        match o {
            b"string_format" => {
                if let Some(t) = target {
                    return (computed(&t).by_factor(ST).add(arg_sum), None);
                }
            }
            b"string_to_bytes" | b"bytes_to_string" | b"strings_quote" if args.len() == 1 => {
                let sz = computed(&args[0]);
                let result = match o {
                    b"string_to_bytes" => Size {
                        min: sz.min,
                        max: sz.max.saturating_mul(4),
                    },
                    b"bytes_to_string" => Size {
                        min: sz.min / 4,
                        max: sz.max,
                    },
                    _ => Size {
                        min: sz.min.saturating_add(2),
                        max: sz.max.saturating_mul(2).saturating_add(2),
                    },
                };
                return (sz.by_factor(ST).add(arg_sum), Some(result));
            }
            b"starts_with_string" | b"ends_with_string" if args.len() == 1 => {
                return (computed(&args[0]).by_factor(ST).add(arg_sum), None);
            }
            b"in_list" if args.len() == 2 => {
                return (computed(&args[1]).by_factor(1.0).add(arg_sum), None);
            }
            b"matches_string" => {
                if let Some(t) = target
                    && args.len() == 1
                {
                    let s = computed(&t).add(Size::fixed(1)).by_factor(ST);
                    let r = computed(&args[0]).by_factor(RE);
                    return (s.multiply(r).add(arg_sum), None);
                }
            }
            b"contains_string" => {
                if let Some(t) = target
                    && args.len() == 1
                {
                    let s = computed(&t).by_factor(ST);
                    let sub = computed(&args[0]).by_factor(ST);
                    return (s.multiply(sub).add(arg_sum), None);
                }
            }
            b"logical_or" | b"logical_and" => {
                let (l, r) = (arg_costs[0], arg_costs[1]);
                return (
                    Cost {
                        min: l.min,
                        max: l.add(r).max,
                    },
                    None,
                );
            }
            b"conditional" => {
                let result = computed(&args[1]).union(computed(&args[2]));
                let e1 = self.entry_arg(&args[1]);
                let e2 = self.entry_arg(&args[2]);
                if let (Some(a), Some(b)) = (e1, e2) {
                    self.union_entries(id, a, b);
                }
                let c = arg_costs[0].add(arg_costs[1].union(arg_costs[2]));
                return (c, Some(result));
            }
            b"add_string" | b"add_bytes" | b"add_list" if args.len() == 2 => {
                let result = computed(&args[0]).add(computed(&args[1]));
                let e1 = self.entry_arg(&args[0]);
                let e2 = self.entry_arg(&args[1]);
                if let (Some(a), Some(b)) = (e1, e2) {
                    self.union_entries(id, a, b);
                }
                if str_eq(overload, "add_list") {
                    return (ONE.add(arg_sum), Some(result));
                }
                return (result.by_factor(ST).add(arg_sum), Some(result));
            }
            b"less_string"
            | b"greater_string"
            | b"less_equals_string"
            | b"greater_equals_string"
            | b"less_bytes"
            | b"greater_bytes"
            | b"less_equals_bytes"
            | b"greater_equals_bytes"
            | b"equals"
            | b"not_equals" => {
                let a = computed(&args[0]).max;
                let b = computed(&args[1]).max;
                let smallest = if a < b { a } else { b };
                let c = Cost {
                    min: (smallest > 0) as u64,
                    max: smallest,
                };
                return (c.by_factor(ST).add(arg_sum), None);
            }
            _ => {}
        }
        (ONE.add(arg_sum), None)
    }

    const fn entry_arg(&self, n: &Node) -> Option<EntrySize> {
        if n.expr == u32::MAX {
            None
        } else {
            self.entry_size(n.expr)
        }
    }

    /// The extension estimators (`ext/sets.go` from 1.29, `ext/lists.go` v3 from 1.34).
    const fn ext_estimate(
        &mut self,
        overload: &str,
        target: Option<Node>,
        args: &[Node],
    ) -> Option<(Cost, Option<Size>)> {
        let o = overload.as_bytes();
        let factor = match o {
            b"list_sets_contains_list" | b"list_sets_intersects_list" => 1.0,
            b"list_sets_equivalent_list" => 2.0,
            _ => 0.0,
        };
        if factor > 0.0 {
            if args.len() != 2 {
                return None;
            }
            let c = self
                .size(&args[0])
                .multiply(self.size(&args[1]))
                .by_factor(factor)
                .add(ONE);
            return Some((c, None));
        }
        if VERSION.0 == 1 && VERSION.1 < 34 {
            return None;
        }
        match o {
            b"list_slice" => {
                let Some(t) = target else { return None };
                if args.len() != 2 {
                    return None;
                }
                let sz = self.size(&t);
                let s = as_uint(&args[0], 0);
                let e = as_uint(&args[1], sz.max);
                Some(allocating(1.0, Size::fixed(e.wrapping_sub(s))))
            }
            b"lists_range" => {
                if target.is_none() && args.len() == 1 {
                    Some(allocating(1.0, Size::fixed(as_uint(&args[0], u64::MAX))))
                } else {
                    None
                }
            }
            b"list_reverse" => match target {
                Some(t) if args.is_empty() => Some(allocating(1.0, self.size(&t))),
                _ => None,
            },
            b"list_flatten" | b"list_flatten_int" => match target {
                Some(t) if args.len() <= 1 => {
                    let depth = if args.is_empty() {
                        1
                    } else {
                        as_uint(&args[0], u64::MAX)
                    };
                    Some(allocating(depth as f64, self.size(&t)))
                }
                _ => None,
            },
            b"list_distinct" => match target {
                Some(t) if args.is_empty() => {
                    let sz = self.size(&t);
                    Some(allocating(2.0, sz.multiply(sz)))
                }
                _ => None,
            },
            _ => {
                let (textual, is_sort) = match o {
                    b"list_int_sort"
                    | b"list_uint_sort"
                    | b"list_double_sort"
                    | b"list_bool_sort"
                    | b"list_google.protobuf.Duration_sort"
                    | b"list_google.protobuf.Timestamp_sort" => (false, true),
                    b"list_string_sort" | b"list_bytes_sort" => (true, true),
                    b"list_int_sortByAssociatedKeys"
                    | b"list_uint_sortByAssociatedKeys"
                    | b"list_double_sortByAssociatedKeys"
                    | b"list_bool_sortByAssociatedKeys"
                    | b"list_google.protobuf.Duration_sortByAssociatedKeys"
                    | b"list_google.protobuf.Timestamp_sortByAssociatedKeys" => (false, false),
                    b"list_string_sortByAssociatedKeys" | b"list_bytes_sortByAssociatedKeys" => {
                        (true, false)
                    }
                    _ => return None,
                };
                let Some(t) = target else { return None };
                let node = if is_sort {
                    if !args.is_empty() {
                        return None;
                    }
                    t
                } else {
                    if args.len() != 1 {
                        return None;
                    }
                    args[0]
                };
                let sz = self.size(&node);
                let factor = if textual { 2.0 + ST } else { 2.0 };
                Some(allocating(factor, sz.multiply(sz)))
            }
        }
    }

    /// apiserver `library.CostEstimator.EstimateCallCost`, keyed by function name.
    #[allow(clippy::too_many_lines)]
    const fn k8s_estimate(
        &mut self,
        function: &str,
        overload: &str,
        target: Option<Node>,
        args: &[Node],
    ) -> Option<(Cost, Option<Size>)> {
        let f = function.as_bytes();
        match f {
            b"check" => Some((Cost::fixed(350_000), None)),
            b"serviceAccount" | b"path" | b"group" | b"resource" | b"subresource"
            | b"namespace" | b"name" | b"allowed" | b"reason" | b"error" | b"errored" => {
                Some((ONE, None))
            }
            b"fieldSelector" | b"labelSelector" => {
                if args.len() == 1 {
                    Some((selector_cost(self.size(&args[0])), None))
                } else {
                    None
                }
            }
            b"isSorted" | b"sum" | b"max" | b"min" | b"indexOf" | b"lastIndexOf" | b"includes" => {
                let Some(t) = target else { return None };
                let mut el = ONE;
                match self.list_element_node(&t) {
                    Some(el_node) => {
                        if matches!(self.c.t.kind(el_node.ty), TKind::String | TKind::Bytes) {
                            el = el.add(self.size(&el_node).by_factor(ST));
                        }
                        Some((self.size(&t).by_cost(el), None))
                    }
                    None => {
                        if str_eq(function, "includes") {
                            Some((self.size(&t).by_cost(el), None))
                        } else {
                            Some((self.size(&t).by_factor(ST), None))
                        }
                    }
                }
            }
            b"url" | b"jsonpatch.escapeKey" => {
                if args.len() == 1 {
                    let sz = self.size(&args[0]);
                    Some((sz.by_factor(ST), Some(sz)))
                } else {
                    None
                }
            }
            b"lowerAscii" | b"upperAscii" | b"substring" | b"trim" => {
                let Some(t) = target else { return None };
                let sz = self.size(&t);
                Some((sz.by_factor(ST), Some(sz)))
            }
            b"replace" => match target {
                Some(t) if args.len() >= 2 => Some(replace_cost(
                    self.size(&t),
                    self.size(&args[0]),
                    self.size(&args[1]),
                )),
                _ => None,
            },
            b"split" => {
                let Some(t) = target else { return None };
                let sz = self.size(&t);
                let mut max = sz.max;
                if args.len() > 1
                    && let Some(n) = args[1].int_literal
                {
                    max = n as u64;
                }
                Some((sz.by_factor(2.0 * ST), Some(Size { min: 0, max })))
            }
            b"join" => {
                let Some(t) = target else { return None };
                let list_size = self.size(&t);
                let mut sz = Size::fixed(0);
                if let Some(el) = self.list_element_node(&t) {
                    sz = list_size.multiply(self.size(&el));
                }
                if !args.is_empty() {
                    let separators = Size {
                        min: list_size.min.saturating_sub(1),
                        max: list_size.max.saturating_sub(1),
                    };
                    sz = sz.add(self.size(&args[0]).multiply(separators));
                }
                Some((sz.by_factor(ST), Some(sz)))
            }
            b"find" | b"findAll" => match target {
                Some(t) if !args.is_empty() => {
                    let sz = self.size(&t);
                    let str_cost = sz.add(Size::fixed(1)).by_factor(ST);
                    let regex_cost = self.size(&args[0]).by_factor(RE);
                    Some((
                        str_cost.multiply(regex_cost),
                        Some(Size {
                            min: 0,
                            max: sz.max,
                        }),
                    ))
                }
                _ => None,
            },
            b"cidr" | b"isIP" | b"isCIDR" | b"quantity" | b"isQuantity" | b"semver"
            | b"isSemver" => {
                if args.is_empty() {
                    None
                } else {
                    Some((self.size(&args[0]).by_factor(ST), None))
                }
            }
            b"ip" => {
                if str_eq(overload, "cidr_ip") {
                    Some((ONE, None))
                } else if !args.is_empty() {
                    Some((self.size(&args[0]).by_factor(ST), None))
                } else {
                    None
                }
            }
            b"ip.isCanonical" => {
                if args.is_empty() {
                    None
                } else {
                    Some((self.size(&args[0]).by_factor(2.0 * ST), None))
                }
            }
            b"masked"
            | b"prefixLength"
            | b"family"
            | b"isUnspecified"
            | b"isLoopback"
            | b"isLinkLocalMulticast"
            | b"isLinkLocalUnicast"
            | b"isGlobalUnicast" => Some((ONE, None)),
            b"containsIP" | b"containsCIDR" => {
                if args.is_empty() {
                    return None;
                }
                let ip = Size { min: 4, max: 16 };
                let mut c = ip.add(ip).by_factor(ST);
                if str_eq(function, "containsCIDR") {
                    c = c.add(ip.by_factor(ST)).add(ONE);
                }
                if str_eq(overload, "cidr_contains_ip_string")
                    || str_eq(overload, "cidr_contains_cidr_string")
                {
                    let s = self.size(&args[0]);
                    c = c.add(
                        Cost {
                            min: s.min,
                            max: s.max,
                        }
                        .by_factor(ST),
                    );
                }
                Some((c, None))
            }
            b"validate" => {
                if args.is_empty() {
                    return None;
                }
                let factor = MAX_NAME_FORMAT_REGEX_SIZE as f64 * RE;
                let c = self.size(&args[0]).by_factor(ST).by_factor(factor);
                Some((c, None))
            }
            b"format.named" => Some((ONE, None)),
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
            | b"patch" => Some((ONE, None)),
            b"getScheme" | b"getHostname" | b"getHost" | b"getPort" | b"getEscapedPath"
            | b"getQuery" => Some((ONE, None)),
            b"_==_" => {
                if args.len() == 2 {
                    self.equality(&args[0], &args[1])
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// `==` on the Kubernetes library types.
    const fn equality(&self, lhs: &Node, rhs: &Node) -> Option<(Cost, Option<Size>)> {
        let t = &self.c.t;
        if !t.same_name(lhs.ty, rhs.ty) {
            return None;
        }
        let kind = t.kind(lhs.ty);
        let name = t.simple_name(lhs.ty);
        match name.as_bytes() {
            b"net.IP" | b"net.CIDR" if matches!(kind, TKind::Opaque) => Some((ONE, None)),
            _ if !matches!(kind, TKind::Object) => None,
            b"kubernetes.Quantity"
            | b"kubernetes.Semver"
            | b"kubernetes.authorization.Authorizer"
            | b"kubernetes.authorization.PathCheck"
            | b"kubernetes.authorization.GroupCheck"
            | b"kubernetes.authorization.ResourceCheck"
            | b"kubernetes.authorization.Decision" => Some((ONE, None)),
            b"kubernetes.NamedFormat" => Some((
                Cost {
                    min: 1,
                    max: MAX_FORMAT_SIZE,
                }
                .by_factor(ST),
                None,
            )),
            b"kubernetes.URL" => {
                let s = match rhs.computed {
                    Some(r) => r.union(r),
                    None => Size::fixed(1),
                };
                Some((Cost { min: 1, max: s.max }.by_factor(ST), None))
            }
            _ => None,
        }
    }
}

/// What the built-in rules read: the computed size only.
const fn computed(n: &Node) -> Size {
    match n.computed {
        Some(s) => s,
        None => UNKNOWN,
    }
}

/// cel-go ext `nodeAsUintValue`.
const fn as_uint(n: &Node, default: u64) -> u64 {
    match n.int_literal {
        Some(i) if i < 0 => 0,
        Some(i) => i as u64,
        None => default,
    }
}

/// cel-go ext `estimateListCall` for an allocating call.
const fn allocating(factor: f64, size: Size) -> (Cost, Option<Size>) {
    let cost = size
        .by_factor(factor)
        .add(ONE)
        .add(Cost::fixed(LIST_CREATE_BASE_COST));
    (cost, Some(size))
}

/// library `selectorCostEstimate`.
const fn selector_cost(len: Size) -> Cost {
    let parse = len.by_factor(ST);
    let requirements = len.by_factor(0.5);
    let per = (LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST) as f64;
    let requirement_cost = requirements.by_factor(per);
    Cost::fixed(LIST_CREATE_BASE_COST)
        .add(parse)
        .add(requirement_cost)
}

const fn replace_cost(sz: Size, to_replace: Size, replace_with: Size) -> (Cost, Option<Size>) {
    let (mut count, mut retained) = (Size::fixed(0), Size::fixed(0));
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
        count.max = super::cost::ceil(sz.max as f64 / to_replace.min as f64) as u64;
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
        count.min = super::cost::ceil(sz.min as f64 / to_replace.max as f64) as u64;
    }
    let result = count.multiply(replace_with).add(retained);
    (sz.by_factor(2.0 * ST), Some(result))
}
