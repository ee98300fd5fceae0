//! cel-go `checker/cost.go`: the walk over a checked expression that tracks, for every node,
//! its path into the schema (`self`, `spec`, `@items`, …), its size and, for aggregates, the
//! sizes of its entries, and sums the cost of every operation.
//!
//! One known difference: Go appends to shared path slices, so in rare expressions a path can be
//! overwritten by a sibling's; paths here are never shared.

use std::collections::HashMap;

use super::k8s::{self, Node, Sizes};
use super::{CostEstimate, SizeEstimate, ext};
use super::{LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR};
use super::{REGEX_STRING_LENGTH_COST_FACTOR, SELECT_AND_IDENT_COST, STRUCT_CREATE_BASE_COST};
use crate::cel::check::{CheckedAst, Reference};
use crate::cel::env::Version;
use crate::cel::types::{Kind, Type};
use crate::cel::{ExprId, ExprKind, Literal};

/// The sizes of an aggregate's keys and values (cel-go `entrySizeEstimate`).
#[derive(Clone, Copy, Debug)]
pub(super) struct EntrySize {
    list: bool,
    key: SizeEstimate,
    val: SizeEstimate,
}

impl EntrySize {
    fn union(self, o: EntrySize) -> EntrySize {
        EntrySize {
            list: self.list,
            key: self.key.union(o.key),
            val: self.val.union(o.val),
        }
    }
}

struct LocalVar {
    path: Vec<String>,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

pub(super) struct Coster<'a> {
    c: &'a CheckedAst,
    root: Sizes<'a>,
    version: Version,
    paths: HashMap<ExprId, Vec<String>>,
    locals: HashMap<String, Vec<LocalVar>>,
    sizes: HashMap<ExprId, SizeEstimate>,
    entries: HashMap<ExprId, EntrySize>,
}

const ONE: CostEstimate = CostEstimate::fixed(1);

impl<'a> Coster<'a> {
    pub(super) fn new(c: &'a CheckedAst, root: Sizes<'a>, version: Version) -> Self {
        Coster {
            c,
            root,
            version,
            paths: HashMap::new(),
            locals: HashMap::new(),
            sizes: HashMap::new(),
            entries: HashMap::new(),
        }
    }

    pub(super) fn run(mut self) -> CostEstimate {
        self.cost(self.c.ast.root)
    }

    fn ty(&self, id: ExprId) -> Type {
        self.c.type_of(id).cloned().unwrap_or(Type::Dyn)
    }

    fn local(&self, name: &str) -> Option<&LocalVar> {
        self.locals.get(name).and_then(|s| s.last())
    }

    fn ident_name(&self, id: ExprId) -> Option<&str> {
        match (&self.c.ast.expr(id).kind, self.c.reference(id)) {
            (ExprKind::Select { .. }, Some(Reference::Ident(n))) => Some(n),
            (ExprKind::Ident(n), _) => Some(n),
            _ => None,
        }
    }

    fn path(&self, id: ExprId) -> Vec<String> {
        if let Some(v) = self.ident_name(id).and_then(|n| self.local(n)) {
            return v.path.clone();
        }
        self.paths.get(&id).cloned().unwrap_or_default()
    }

    fn cost(&mut self, id: ExprId) -> CostEstimate {
        if let Some(name) = self.ident_name(id).map(str::to_string) {
            let path = match self.local(&name) {
                Some(v) => v.path.clone(),
                None => vec![name],
            };
            self.paths.insert(id, path);
            return CostEstimate::fixed(SELECT_AND_IDENT_COST);
        }
        let ast = &self.c.ast;
        match &ast.expr(id).kind {
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                // `has()` costs nothing in Kubernetes (`PresenceTestHasCost(false)`).
                let mut sum = self.cost(*operand);
                if *test_only {
                    return sum;
                }
                if matches!(
                    self.ty(*operand).kind(),
                    Kind::Map | Kind::Object | Kind::Param
                ) {
                    sum = sum.add(CostEstimate::fixed(SELECT_AND_IDENT_COST));
                }
                let mut path = self.path(*operand);
                path.push(field.clone());
                self.paths.insert(id, path);
                sum
            }
            ExprKind::Call { function, args, .. } => self.cost_call(id, function, args),
            ExprKind::List { elems, .. } => {
                let mut sum = CostEstimate::default();
                let mut item = SizeEstimate {
                    min: if elems.is_empty() { 0 } else { u64::MAX },
                    max: 0,
                };
                for &e in elems {
                    sum = sum.add(self.cost(e));
                    item = item.union(self.size_or_unknown(e));
                }
                self.entries.insert(
                    id,
                    EntrySize {
                        list: true,
                        key: SizeEstimate::fixed(1),
                        val: item,
                    },
                );
                sum.add(CostEstimate::fixed(LIST_CREATE_BASE_COST))
            }
            ExprKind::Map { entries } => {
                let mut sum = CostEstimate::default();
                let start = if entries.is_empty() { 0 } else { u64::MAX };
                let mut key = SizeEstimate { min: start, max: 0 };
                let mut val = key;
                for e in entries {
                    sum = sum.add(self.cost(e.key));
                    sum = sum.add(self.cost(e.value));
                    key = key.union(self.size_or_unknown(e.key));
                    val = val.union(self.size_or_unknown(e.value));
                }
                self.entries.insert(
                    id,
                    EntrySize {
                        list: false,
                        key,
                        val,
                    },
                );
                sum.add(CostEstimate::fixed(MAP_CREATE_BASE_COST))
            }
            ExprKind::Struct { fields, .. } => {
                let mut sum = CostEstimate::default();
                for f in fields {
                    sum = sum.add(self.cost(f.value));
                }
                sum.add(CostEstimate::fixed(STRUCT_CREATE_BASE_COST))
            }
            ExprKind::Comprehension(comp) => {
                let comp = comp.clone();
                let range = comp.iter_range;
                let mut sum = self.cost(range).add(self.cost(comp.accu_init));
                let bind = matches!(&ast.expr(range).kind, ExprKind::List { elems, .. } if elems.is_empty())
                    && matches!(
                        ast.expr(comp.loop_condition).kind,
                        ExprKind::Literal(Literal::Bool(false))
                    )
                    && comp.accu_var != "__result__";
                self.push_local(&comp.accu_var, comp.accu_init);
                if bind {
                    sum = sum.add(self.cost(comp.result));
                    self.pop_local(&comp.accu_var);
                    self.copy_sizes(id, comp.result);
                    return sum;
                }
                match &comp.iter_var2 {
                    Some(v2) => {
                        self.push_iter(&comp.iter_var, range, IterRole::Key);
                        self.push_iter(v2, range, IterRole::Value);
                    }
                    None => self.push_iter(&comp.iter_var, range, IterRole::Single),
                }
                let loop_cost = self.cost(comp.loop_condition);
                let step_cost = self.cost(comp.loop_step);
                self.pop_local(&comp.iter_var);
                if let Some(v2) = &comp.iter_var2 {
                    self.pop_local(v2);
                }
                sum = sum.add(self.cost(comp.result));
                self.pop_local(&comp.accu_var);
                let range_count = self.size_or_unknown(range);
                sum = sum.add(range_count.multiply_by_cost(step_cost.add(loop_cost)));
                match &ast.expr(comp.accu_init).kind {
                    ExprKind::Literal(_) => {
                        if let Some(s) = self.compute_size(comp.accu_init) {
                            self.sizes.insert(id, s);
                        }
                    }
                    ExprKind::List { .. } | ExprKind::Map { .. } => {
                        self.sizes.insert(id, range_count);
                        if let Some(e) = self.entry_size(comp.loop_step) {
                            self.entries.insert(id, e);
                        }
                    }
                    _ => {}
                }
                sum
            }
            ExprKind::Literal(_) | ExprKind::Unspecified | ExprKind::Ident(_) => {
                CostEstimate::default()
            }
        }
    }

    fn push_local(&mut self, name: &str, e: ExprId) {
        let v = LocalVar {
            path: self.path(e),
            size: self.compute_size(e),
            entry: self.entry_size(e),
        };
        self.locals.entry(name.to_string()).or_default().push(v);
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(s) = self.locals.get_mut(name) {
            s.pop();
        }
    }

    /// cel-go `pushIterSingle`, `pushIterKey` and `pushIterValue`.
    fn push_iter(&mut self, name: &str, range: ExprId, role: IterRole) {
        let entry = self.entry_size(range);
        let list = match entry {
            Some(e) => e.list,
            None => self.ty(range).kind() == Kind::List,
        };
        let (size, sub) = match role {
            IterRole::Single if list => (entry.map(|e| e.val), "@items"),
            IterRole::Single | IterRole::Key => (
                entry.map(|e| e.key),
                if list { "@indices" } else { "@keys" },
            ),
            IterRole::Value => (
                entry.map(|e| e.val),
                if list { "@items" } else { "@values" },
            ),
        };
        let mut path = self.path(range);
        path.push(sub.to_string());
        self.locals
            .entry(name.to_string())
            .or_default()
            .push(LocalVar {
                path,
                size,
                entry: None,
            });
    }

    /// cel-go `newAstNode` (an empty path is Go's nil path).
    pub(super) fn node(&mut self, id: ExprId) -> Node {
        let mut path = self.path(id);
        if path
            .first()
            .is_some_and(|f| f == "@result" || f == "__result__")
        {
            path.clear();
        }
        let int_literal = match self.c.ast.expr(id).kind {
            ExprKind::Literal(Literal::Int(i)) => Some(i),
            _ => None,
        };
        Node {
            path,
            ty: self.ty(id),
            expr: Some(id),
            computed: self.compute_size(id),
            int_literal,
        }
    }

    fn size_or_unknown(&mut self, id: ExprId) -> SizeEstimate {
        self.compute_size(id).unwrap_or(SizeEstimate::UNKNOWN)
    }

    fn copy_sizes(&mut self, dst: ExprId, src: ExprId) {
        if let Some(s) = self.compute_size(src) {
            self.sizes.insert(dst, s);
        }
        if let Some(e) = self.entry_size(src) {
            self.entries.insert(dst, e);
        }
    }

    /// cel-go `computeSize`.
    pub(super) fn compute_size(&mut self, id: ExprId) -> Option<SizeEstimate> {
        if let Some(s) = self.sizes.get(&id) {
            return Some(*s);
        }
        let fixed = match &self.c.ast.expr(id).kind {
            ExprKind::Literal(Literal::String(s)) => Some(s.chars().count() as u64),
            ExprKind::Literal(Literal::Bytes(b)) => Some(b.len() as u64),
            ExprKind::Literal(_) => Some(1),
            ExprKind::List { elems, .. } => Some(elems.len() as u64),
            ExprKind::Map { entries } => Some(entries.len() as u64),
            _ => None,
        };
        if let Some(n) = fixed {
            return Some(SizeEstimate::fixed(n));
        }
        let node = Node {
            path: self.path(id),
            ty: self.ty(id),
            expr: Some(id),
            computed: None,
            int_literal: None,
        };
        if let Some(s) = k8s::estimate_size(self.root, &node) {
            self.sizes.insert(id, s);
            return Some(s);
        }
        if is_scalar(&node.ty) {
            return Some(SizeEstimate::fixed(1));
        }
        self.ident_name(id)
            .and_then(|n| self.local(n))
            .and_then(|v| v.size)
    }

    fn entry_size(&self, id: ExprId) -> Option<EntrySize> {
        if let Some(e) = self.entries.get(&id) {
            return Some(*e);
        }
        self.ident_name(id)
            .and_then(|n| self.local(n))
            .and_then(|v| v.entry)
    }

    fn cost_call(&mut self, id: ExprId, function: &str, args: &[ExprId]) -> CostEstimate {
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

#[derive(Clone, Copy)]
enum IterRole {
    Single,
    Key,
    Value,
}

/// cel-go `isScalar`: one unit of size.
fn is_scalar(t: &Type) -> bool {
    match t {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => {
            true
        }
        Type::Opaque(_, ps) if t.is_optional() => is_scalar(&ps[0]),
        _ => false,
    }
}
