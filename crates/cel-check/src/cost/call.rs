//! Calls in cel-go `checker/cost.go`: `costCall`, which costs each overload the checker allowed
//! with the formulas of [`formula`] and follows the paths of `index_list` and `index_map`.

use super::coster::{Coster, Node, ONE, estimate_size};
use super::formula::{self, Call, Element, Operand};
use super::{CostEstimate, EntrySize, SizeEstimate};
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

    /// cel-go `functionCost` ([`formula::function_cost`]) on this walk's nodes; records the
    /// result's entry sizes where the formula says where they come from.
    fn function_cost(
        &mut self,
        id: ExprId,
        function: &str,
        overload: &str,
        target: Option<&Node>,
        args: &[Node],
        arg_costs: &[CostEstimate],
    ) -> (CostEstimate, Option<SizeEstimate>) {
        let target_element = match target {
            Some(t) if formula::reads_target_element(function) => {
                list_element_node(t).map(|el| Element {
                    kind: el.ty.kind(),
                    size: self.size(&el),
                })
            }
            _ => None,
        };
        let operands: Vec<Operand<'_>> = args.iter().map(|a| self.operand(a)).collect();
        let call = Call {
            function,
            overload,
            version: self.version,
            target: target.map(|t| self.operand(t)),
            args: &operands,
            arg_costs,
            target_element,
        };
        let out = formula::function_cost(&call);
        if let Some((a, b)) = out.entries_of
            && let (Some(a), Some(b)) = (self.entry_arg(&args[a]), self.entry_arg(&args[b]))
        {
            self.entries.insert(id, a.union(b));
        }
        (out.cost, out.size)
    }

    /// library `sizeEstimate`: the computed size, else the size estimator's.
    fn size(&self, n: &Node) -> SizeEstimate {
        n.computed
            .or_else(|| estimate_size(self.root, n))
            .unwrap_or(SizeEstimate::UNKNOWN)
    }

    fn operand<'n>(&self, n: &'n Node) -> Operand<'n> {
        Operand {
            computed: n.computed,
            size: self.size(n),
            int_literal: n.int_literal,
            kind: n.ty.kind(),
            type_name: n.ty.type_name(),
        }
    }

    fn entry_arg(&self, n: &Node) -> Option<EntrySize> {
        n.expr.and_then(|e| self.entry_size(e))
    }
}

/// library `listElementNode`: a node for the elements of a list-typed node (the first type
/// parameter of its type, whatever the type).
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
