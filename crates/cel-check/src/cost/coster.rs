//! cel-go `checker/cost.go`: the walk over a checked expression that tracks, for every node,
//! its path into the schema (`self`, `spec`, `@items`, …), its size and, for aggregates, the
//! sizes of its entries, and sums the cost of every operation.
//!
//! One known difference: Go appends to shared path slices, so in rare expressions a path can be
//! overwritten by a sibling's; paths here are never shared.

use std::collections::HashMap;

use super::{CostEstimate, EntrySize, SizeEstimate, SizeEstimator};
use super::{LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST};
use super::{SELECT_AND_IDENT_COST, STRUCT_CREATE_BASE_COST};
use crate::check::{CheckedAst, Reference};
use crate::env::Version;
use crate::types::{Kind, Type};
use crate::{ExprId, ExprKind, Literal};

/// The size estimator of an estimation, if any.
pub(super) type Sizes<'a> = Option<&'a dyn SizeEstimator>;

/// cel-go `AstNode`: a call's target or argument as the estimators see it.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The path into the schema; empty when unknown.
    pub(super) path: Vec<String>,
    pub(super) ty: Type,
    pub(super) expr: Option<ExprId>,
    /// The size the coster derived (`ComputedSize`).
    pub(super) computed: Option<SizeEstimate>,
    /// The value of an int literal node (estimators read literal counts and indexes).
    pub(super) int_literal: Option<i64>,
}

/// library `CostEstimator.EstimateSize`, delegating to the rule's size estimator.
pub(super) fn estimate_size(sizes: Sizes<'_>, node: &Node) -> Option<SizeEstimate> {
    sizes?.estimate_size(&node.path, &node.ty)
}

struct LocalVar {
    path: Vec<String>,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

pub(super) struct Coster<'a> {
    pub(super) c: &'a CheckedAst,
    pub(super) root: Sizes<'a>,
    pub(super) version: Version,
    pub(super) paths: HashMap<ExprId, Vec<String>>,
    locals: HashMap<String, Vec<LocalVar>>,
    pub(super) sizes: HashMap<ExprId, SizeEstimate>,
    pub(super) entries: HashMap<ExprId, EntrySize>,
}

pub(super) const ONE: CostEstimate = CostEstimate::ONE;

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

    pub(super) fn ty(&self, id: ExprId) -> Type {
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

    pub(super) fn path(&self, id: ExprId) -> Vec<String> {
        if let Some(v) = self.ident_name(id).and_then(|n| self.local(n)) {
            return v.path.clone();
        }
        self.paths.get(&id).cloned().unwrap_or_default()
    }

    pub(super) fn cost(&mut self, id: ExprId) -> CostEstimate {
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

    pub(super) fn size_or_unknown(&mut self, id: ExprId) -> SizeEstimate {
        self.compute_size(id).unwrap_or(SizeEstimate::UNKNOWN)
    }

    pub(super) fn copy_sizes(&mut self, dst: ExprId, src: ExprId) {
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
        if let Some(s) = estimate_size(self.root, &node) {
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

    pub(super) fn entry_size(&self, id: ExprId) -> Option<EntrySize> {
        if let Some(e) = self.entries.get(&id) {
            return Some(*e);
        }
        self.ident_name(id)
            .and_then(|n| self.local(n))
            .and_then(|v| v.entry)
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
