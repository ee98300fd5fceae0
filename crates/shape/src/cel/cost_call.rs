//! Mirrors `crates/cel-check/src/cost/call.rs` in `const fn`s.
//!
//! Call costs: cel-go `costCall`, which costs each overload the checker allowed with the
//! formulas of [`crdkit_cel_check::cost::formula`] (the run-time estimator's own) and follows
//! the paths of `index_list` and `index_map`.

use super::ast::Call as AstCall;
use super::check::Ref;
use super::cost::{Cost, Coster, Node, ONE, Seg, Size, ZERO};
use super::lower::VERSION;
use super::types::TKind;
use crate::msg::str_eq;
use crdkit_cel_check::cost::EntrySize;
use crdkit_cel_check::cost::formula::{self, Call, Element, Operand};
use crdkit_cel_check::env::OVERLOADS;

const MAX_ARGS: usize = 8;

const NO_OPERAND: Operand<'static> = Operand::of_kind(TKind::Dyn);

const NO_NODE: Node = Node {
    path: 0,
    ty: 0,
    expr: u32::MAX,
    computed: None,
    int_literal: None,
};

impl Coster<'_> {
    pub(super) const fn cost_call(&mut self, id: u32, c: &'static AstCall) -> Cost {
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

    /// cel-go `functionCost` ([`formula::function_cost`]) on this walk's nodes; records the
    /// result's entry sizes where the formula says where they come from.
    const fn function_cost(
        &mut self,
        id: u32,
        function: &str,
        overload: &str,
        target: Option<Node>,
        args: &[Node],
        arg_costs: &[Cost],
    ) -> (Cost, Option<Size>) {
        let target_element = match target {
            Some(t) if formula::reads_target_element(function) => {
                match self.list_element_node(&t) {
                    Some(el) => Some(Element {
                        kind: self.c.t.kind(el.ty),
                        size: self.size(&el),
                    }),
                    None => None,
                }
            }
            _ => None,
        };
        let mut operands = [NO_OPERAND; MAX_ARGS];
        let mut i = 0;
        while i < args.len() && i < MAX_ARGS {
            operands[i] = self.operand(&args[i]);
            i += 1;
        }
        let (operands, _) = operands.split_at(i);
        let call = Call {
            function,
            overload,
            version: VERSION,
            target: match target {
                Some(t) => Some(self.operand(&t)),
                None => None,
            },
            args: operands,
            arg_costs,
            target_element,
        };
        let out = formula::function_cost(&call);
        if let Some((a, b)) = out.entries_of
            && let (Some(a), Some(b)) = (self.entry_arg(&args[a]), self.entry_arg(&args[b]))
        {
            self.union_entries(id, a, b);
        }
        (out.cost, out.size)
    }

    /// The operand the formulas see: sizes, literal value and type.
    const fn operand(&self, n: &Node) -> Operand<'static> {
        Operand {
            computed: n.computed,
            size: self.size(n),
            int_literal: n.int_literal,
            kind: self.c.t.kind(n.ty),
            // Schema objects are named by a chain of names, which the formulas never read.
            type_name: self.c.t.simple_name(n.ty),
        }
    }

    const fn entry_arg(&self, n: &Node) -> Option<EntrySize> {
        if n.expr == u32::MAX {
            None
        } else {
            self.entry_size(n.expr)
        }
    }
}
