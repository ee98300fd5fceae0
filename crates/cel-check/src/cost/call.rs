//! Calls in cel-go `checker/cost.go`: `costCall` and `functionCost` (extension estimators, then
//! the Kubernetes estimator, then cel-go's built-in rules for strings, lists, logic and
//! comparisons).

use super::coster::{Coster, EntrySize, ONE};
use super::k8s::{self, Node};
use super::{CostEstimate, REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR};
use super::{SizeEstimate, ext};
use crate::ExprId;
use crate::check::Reference;

impl Coster<'_> {
    pub(super) fn cost_call(
        &mut self,
        id: ExprId,
        function: &str,
        args: &[ExprId],
    ) -> CostEstimate {
        if function == "dyn" && args.len() == 1 {
            let c = self.cost(args[0]);
            self.copy_sizes(id, args[0]);
            return ONE.add(c);
        }
        let mut arg_costs = Vec::with_capacity(args.len());
        let mut arg_nodes = Vec::with_capacity(args.len());
        for &a in args {
            arg_costs.push(self.cost(a));
            arg_nodes.push(self.node(a));
        }
        let overloads = self.c.overload_ids(id).to_vec();
        if overloads.is_empty() {
            return CostEstimate::default();
        }
        let function = match self.c.reference(id) {
            Some(Reference::Function { function, .. }) => function.clone(),
            _ => function.to_string(),
        };
        let mut sum = CostEstimate::default();
        let target = self.c.call_target(id).map(|t| {
            sum = sum.add(self.cost(t));
            self.node(t)
        });
        let mut fn_cost = CostEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut result_size: Option<SizeEstimate> = None;
        for o in &overloads {
            let (cost, size) =
                self.function_cost(id, &function, o, target.as_ref(), &arg_nodes, &arg_costs);
            fn_cost = fn_cost.union(cost);
            if let Some(s) = size {
                result_size = Some(result_size.map_or(s, |r| r.union(s)));
            }
            let sub = match o.as_str() {
                "index_list" => Some("@items"),
                "index_map" => Some("@values"),
                _ => None,
            };
            if let (Some(sub), Some(&a0)) = (sub, args.first()) {
                result_size = self.entry_size(a0).map(|e| e.val);
                let mut path = self.path(a0);
                path.push(sub.to_string());
                self.paths.insert(id, path);
            }
            if result_size.is_none() {
                result_size = self.compute_size(id);
            }
        }
        if let Some(s) = result_size {
            self.sizes.insert(id, s);
        }
        sum.add(fn_cost)
    }

    /// cel-go `functionCost`: extension estimators, then the Kubernetes estimator, then the
    /// built-in rules; the result size when known.
    fn function_cost(
        &mut self,
        id: ExprId,
        function: &str,
        overload: &str,
        target: Option<&Node>,
        args: &[Node],
        arg_costs: &[CostEstimate],
    ) -> (CostEstimate, Option<SizeEstimate>) {
        let arg_sum = arg_costs
            .iter()
            .fold(CostEstimate::default(), |s, c| s.add(*c));
        if let Some((c, s)) = ext::estimate(self.root, self.version, overload, target, args) {
            return (c.add(arg_sum), s);
        }
        if let Some((c, s)) = k8s::estimate_call(self.root, function, overload, target, args) {
            return (c.add(arg_sum), s);
        }
        let size = |n: &Node| n.computed.unwrap_or(SizeEstimate::UNKNOWN);
        let st = STRING_TRAVERSAL_COST_FACTOR;
        match overload {
            "string_format" if target.is_some() => {
                return (
                    size(target.unwrap())
                        .multiply_by_cost_factor(st)
                        .add(arg_sum),
                    None,
                );
            }
            "string_to_bytes" | "bytes_to_string" | "strings_quote" if args.len() == 1 => {
                let sz = size(&args[0]);
                let result = match overload {
                    "string_to_bytes" => SizeEstimate {
                        min: sz.min,
                        max: sz.max.saturating_mul(4),
                    },
                    "bytes_to_string" => SizeEstimate {
                        min: sz.min / 4,
                        max: sz.max,
                    },
                    _ => SizeEstimate {
                        min: sz.min.saturating_add(2),
                        max: sz.max.saturating_mul(2).saturating_add(2),
                    },
                };
                return (sz.multiply_by_cost_factor(st).add(arg_sum), Some(result));
            }
            "starts_with_string" | "ends_with_string" if args.len() == 1 => {
                return (
                    size(&args[0]).multiply_by_cost_factor(st).add(arg_sum),
                    None,
                );
            }
            "in_list" if args.len() == 2 => {
                return (
                    size(&args[1]).multiply_by_cost_factor(1.0).add(arg_sum),
                    None,
                );
            }
            "matches_string" if target.is_some() && args.len() == 1 => {
                let s = size(target.unwrap())
                    .add(SizeEstimate::fixed(1))
                    .multiply_by_cost_factor(st);
                let r = size(&args[0]).multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                return (s.multiply(r).add(arg_sum), None);
            }
            "contains_string" if target.is_some() && args.len() == 1 => {
                let s = size(target.unwrap()).multiply_by_cost_factor(st);
                let sub = size(&args[0]).multiply_by_cost_factor(st);
                return (s.multiply(sub).add(arg_sum), None);
            }
            "logical_or" | "logical_and" => {
                let (l, r) = (arg_costs[0], arg_costs[1]);
                return (
                    CostEstimate {
                        min: l.min,
                        max: l.add(r).max,
                    },
                    None,
                );
            }
            "conditional" => {
                let result = size(&args[1]).union(size(&args[2]));
                let (e1, e2) = (self.entry_arg(&args[1]), self.entry_arg(&args[2]));
                if let (Some(a), Some(b)) = (e1, e2) {
                    self.entries.insert(id, a.union(b));
                }
                let c = arg_costs[0].add(arg_costs[1].union(arg_costs[2]));
                return (c, Some(result));
            }
            "add_string" | "add_bytes" | "add_list" if args.len() == 2 => {
                let result = size(&args[0]).add(size(&args[1]));
                if let (Some(a), Some(b)) = (self.entry_arg(&args[0]), self.entry_arg(&args[1])) {
                    self.entries.insert(id, a.union(b));
                }
                if overload == "add_list" {
                    return (ONE.add(arg_sum), Some(result));
                }
                return (
                    result.multiply_by_cost_factor(st).add(arg_sum),
                    Some(result),
                );
            }
            "less_string"
            | "greater_string"
            | "less_equals_string"
            | "greater_equals_string"
            | "less_bytes"
            | "greater_bytes"
            | "less_equals_bytes"
            | "greater_equals_bytes"
            | "equals"
            | "not_equals" => {
                let smallest = size(&args[0]).max.min(size(&args[1]).max);
                let c = CostEstimate {
                    min: u64::from(smallest > 0),
                    max: smallest,
                };
                return (c.multiply_by_cost_factor(st).add(arg_sum), None);
            }
            _ => {}
        }
        (ONE.add(arg_sum), None)
    }

    fn entry_arg(&self, n: &Node) -> Option<EntrySize> {
        n.expr.and_then(|e| self.entry_size(e))
    }
}
