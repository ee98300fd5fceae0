//! Mirrors `crates/cel-check/src/cost/coster.rs` in `const fn`s.
//!
//! The static cost estimate of a checked rule: the walk of cel-go `checker/cost.go` over the
//! `const` checker's output, the counterpart of [`crdkit_cel_check::cost`]'s walk over a
//! `CheckedAst`. The sizes and costs ([`SizeEstimate`], [`CostEstimate`]) and the formula of
//! every call ([`crdkit_cel_check::cost::formula`]) are that crate's `const fn`s; calls are in
//! `cost_call.rs`.
//!
//! A node's path into the schema (`self`, field names, `@items`, `@values`, `@keys`) is kept
//! resolved: each path entry holds the schema node it leads to, found as apiextensions'
//! `sizeEstimator` finds it (starting at the rule's node whatever the path's first name).

use super::ast::NodeKind;
use super::check::{Checker, MAX_NODES, Ref};
use super::schema::{self, Layout, NodeRef};
use super::types::{DYN, NONE, TKind, TyId};
use crate::msg::str_eq;
use crdkit_cel_check::cost::{
    CostEstimate, EntrySize, LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST, SELECT_AND_IDENT_COST,
    STRUCT_CREATE_BASE_COST, SizeEstimate,
};

/// cel-go `SizeEstimate`: the one of [`crdkit_cel_check::cost`].
pub(crate) type Size = SizeEstimate;
/// cel-go `CostEstimate`: the one of [`crdkit_cel_check::cost`].
pub(crate) type Cost = CostEstimate;

/// A size nothing bounds: 0 to `u64::MAX`.
pub const UNKNOWN: Size = SizeEstimate::UNKNOWN;
/// No cost (`has(x.f)` in Kubernetes).
pub const ZERO: Cost = CostEstimate::ZERO;
/// The cost of an identifier or a select.
pub const ONE: Cost = CostEstimate::fixed(SELECT_AND_IDENT_COST);

/// A path segment.
#[derive(Clone, Copy)]
pub enum Seg {
    /// A field name.
    Field(&'static str),
    /// `@items` (also the values of a map)
    Items,
    /// `@values`
    Values,
    /// `@keys`
    Keys,
    /// `@indices`
    Indices,
}

/// A path: the schema node it leads to, and whether its first name is the accumulator.
#[derive(Clone, Copy)]
struct PathEntry {
    node: Option<NodeRef>,
    result: bool,
}

/// The empty (nil) path.
pub const EMPTY: u16 = 0;
const MAX_PATHS: usize = 2 * MAX_NODES;
const MAX_LOCALS: usize = 64;

#[derive(Clone, Copy)]
struct Local {
    name: &'static str,
    path: u16,
    size: Option<Size>,
    entry: Option<EntrySize>,
}

/// cel-go `AstNode`: a call's target or argument as the estimators see it.
#[derive(Clone, Copy)]
pub struct Node {
    /// The node's path into the schema ([`EMPTY`] when it has none).
    pub path: u16,
    /// The node's checked type.
    pub ty: TyId,
    /// The expression node, or `u32::MAX` for a node the estimator made up (a list's element).
    pub expr: u32,
    /// The size worked out from the expression itself (literals, earlier results), if any.
    pub computed: Option<Size>,
    /// The value, when the expression is an `int` literal (`split(s, 3)`'s limit).
    pub int_literal: Option<i64>,
}

/// The estimator's state over one checked expression (cel-go `coster`).
pub struct Coster<'c> {
    /// The checker whose types and references are estimated.
    pub c: &'c mut Checker,
    /// The schema node of the rule: where every path into the schema starts.
    pub root: NodeRef,
    paths: [PathEntry; MAX_PATHS],
    paths_len: usize,
    node_paths: [u16; MAX_NODES],
    /// The size of each node, once computed.
    pub sizes: [Option<Size>; MAX_NODES],
    /// The key and element sizes of each list or map node, once known.
    pub entries: [Option<EntrySize>; MAX_NODES],
    locals: [Local; MAX_LOCALS],
    locals_len: usize,
}

const NO_LOCAL: Local = Local {
    name: "",
    path: EMPTY,
    size: None,
    entry: None,
};

/// Estimates the cost of the checked expression in `c`, sizes read from `root`'s schema.
#[must_use]
pub const fn estimate(c: &mut Checker, root: NodeRef) -> Cost {
    let mut k = Coster {
        c,
        root,
        paths: [PathEntry {
            node: None,
            result: false,
        }; MAX_PATHS],
        paths_len: 1,
        node_paths: [EMPTY; MAX_NODES],
        sizes: [None; MAX_NODES],
        entries: [None; MAX_NODES],
        locals: [NO_LOCAL; MAX_LOCALS],
        locals_len: 0,
    };
    let root_id = k.c.ast.root;
    k.cost(root_id)
}

/// cel-go `isScalar`.
const fn is_scalar(c: &Checker, t: TyId) -> bool {
    match c.t.kind(t) {
        TKind::Bool
        | TKind::Double
        | TKind::Duration
        | TKind::Int
        | TKind::Timestamp
        | TKind::Uint => true,
        TKind::Opaque => c.t.is_optional(t) && is_scalar(c, c.t.params(t).0),
        _ => false,
    }
}

impl Coster<'_> {
    /// The final type of a node (`dyn` when it has none).
    pub const fn ty(&self, id: u32) -> TyId {
        let t = self.c.types[id as usize];
        if t == NONE { DYN } else { t }
    }

    const fn new_path(&mut self, e: PathEntry) -> u16 {
        if self.paths_len >= MAX_PATHS {
            return EMPTY;
        }
        self.paths[self.paths_len] = e;
        self.paths_len += 1;
        (self.paths_len - 1) as u16
    }

    /// The path `[name]` (which the size estimator reads as the rule's node).
    const fn head(&mut self, name: &str) -> u16 {
        self.new_path(PathEntry {
            node: Some(self.root),
            result: str_eq(name, "@result") || str_eq(name, "__result__"),
        })
    }

    /// `path + [seg]`.
    pub const fn extend(&mut self, p: u16, seg: Seg) -> u16 {
        if p == EMPTY {
            return self.new_path(PathEntry {
                node: Some(self.root),
                result: false,
            });
        }
        let e = self.paths[p as usize];
        let node = match e.node {
            Some(n) => step(n, seg),
            None => None,
        };
        self.new_path(PathEntry {
            node,
            result: e.result,
        })
    }

    /// apiextensions `sizeEstimator.EstimateSize` of a path.
    pub const fn estimate_path(&self, p: u16) -> Option<Size> {
        if p == EMPTY {
            return None;
        }
        match self.paths[p as usize].node {
            Some(n) => Some(Size {
                min: 0,
                max: schema::max_elements(n) as u64,
            }),
            None => None,
        }
    }

    /// The name of an identifier, or of a selection resolved as one.
    pub const fn ident_name(&self, id: u32) -> Option<&'static str> {
        match *self.c.ast.kind(id) {
            NodeKind::Ident { name, .. } => Some(name),
            NodeKind::Select { field, .. } => match self.c.refs[id as usize] {
                // A qualified name (it has a dot, so it is never a local).
                Ref::Ident { .. } => Some(field),
                _ => None,
            },
            _ => None,
        }
    }

    const fn local(&self, id: u32) -> Option<Local> {
        let name = match self.ident_name(id) {
            Some(n) => n,
            None => return None,
        };
        if matches!(self.c.ast.kind(id), NodeKind::Select { .. }) {
            return None;
        }
        self.local_named(name)
    }

    const fn local_named(&self, name: &str) -> Option<Local> {
        let mut i = self.locals_len;
        while i > 0 {
            i -= 1;
            if str_eq(self.locals[i].name, name) {
                return Some(self.locals[i]);
            }
        }
        None
    }

    const fn push_local_var(&mut self, l: Local) {
        if self.locals_len < MAX_LOCALS {
            self.locals[self.locals_len] = l;
            self.locals_len += 1;
        }
    }

    /// Removes the innermost local of that name.
    const fn pop_local(&mut self, name: &str) {
        let mut i = self.locals_len;
        while i > 0 {
            i -= 1;
            if str_eq(self.locals[i].name, name) {
                let mut j = i;
                while j + 1 < self.locals_len {
                    self.locals[j] = self.locals[j + 1];
                    j += 1;
                }
                self.locals_len -= 1;
                return;
            }
        }
    }

    /// The path of node `id` (of the comprehension variable it names, if it names one).
    pub const fn path(&self, id: u32) -> u16 {
        if let Some(l) = self.local(id) {
            return l.path;
        }
        self.node_paths[id as usize]
    }

    /// Records the path of node `id`.
    pub const fn set_path(&mut self, id: u32, p: u16) {
        self.node_paths[id as usize] = p;
    }

    /// The cost of node `id` and its children (cel-go `coster.cost`); records sizes and paths on
    /// the way.
    pub const fn cost(&mut self, id: u32) -> Cost {
        if let Some(name) = self.ident_name(id) {
            let path = match self.local(id) {
                Some(l) => l.path,
                None => self.head(name),
            };
            self.set_path(id, path);
            return ONE;
        }
        match *self.c.ast.kind(id) {
            NodeKind::Select {
                operand,
                field,
                test_only,
                ..
            } => {
                // `has()` costs nothing in Kubernetes (`PresenceTestHasCost(false)`).
                let mut sum = self.cost(operand);
                if test_only {
                    return sum;
                }
                if matches!(
                    self.c.t.kind(self.ty(operand)),
                    TKind::Map | TKind::Object | TKind::Param
                ) {
                    sum = sum.add(ONE);
                }
                let p = self.path(operand);
                let p = self.extend(p, Seg::Field(field));
                self.set_path(id, p);
                sum
            }
            NodeKind::Call(c) => self.cost_call(id, c),
            NodeKind::List { elems, .. } => {
                let mut sum = ZERO;
                let mut item = Size {
                    min: if elems.is_empty() { 0 } else { u64::MAX },
                    max: 0,
                };
                let mut i = 0;
                while i < elems.len() {
                    sum = sum.add(self.cost(elems[i]));
                    item = item.union(self.size_or_unknown(elems[i]));
                    i += 1;
                }
                self.entries[id as usize] = Some(EntrySize {
                    list: true,
                    key: Size::fixed(1),
                    val: item,
                });
                sum.add(Cost::fixed(LIST_CREATE_BASE_COST))
            }
            NodeKind::Map { entries } => {
                let mut sum = ZERO;
                let start = if entries.is_empty() { 0 } else { u64::MAX };
                let mut key = Size { min: start, max: 0 };
                let mut val = key;
                let mut i = 0;
                while i < entries.len() {
                    let e = entries[i];
                    sum = sum.add(self.cost(e.key));
                    sum = sum.add(self.cost(e.value));
                    key = key.union(self.size_or_unknown(e.key));
                    val = val.union(self.size_or_unknown(e.value));
                    i += 1;
                }
                self.entries[id as usize] = Some(EntrySize {
                    list: false,
                    key,
                    val,
                });
                sum.add(Cost::fixed(MAP_CREATE_BASE_COST))
            }
            NodeKind::Struct { fields, .. } => {
                let mut sum = ZERO;
                let mut i = 0;
                while i < fields.len() {
                    sum = sum.add(self.cost(fields[i].value));
                    i += 1;
                }
                sum.add(Cost::fixed(STRUCT_CREATE_BASE_COST))
            }
            NodeKind::Comprehension(comp) => self.cost_comprehension(id, comp),
            _ => ZERO,
        }
    }

    const fn cost_comprehension(&mut self, id: u32, comp: &super::ast::Comprehension) -> Cost {
        let range = comp.iter_range;
        let mut sum = self.cost(range).add(self.cost(comp.accu_init));
        let bind = matches!(*self.c.ast.kind(range), NodeKind::List { elems, .. } if elems.is_empty())
            && matches!(*self.c.ast.kind(comp.loop_condition), NodeKind::Bool(false))
            && !str_eq(comp.accu_var, "__result__");
        let accu = Local {
            name: comp.accu_var,
            path: self.path(comp.accu_init),
            size: self.compute_size(comp.accu_init),
            entry: self.entry_size(comp.accu_init),
        };
        self.push_local_var(accu);
        if bind {
            sum = sum.add(self.cost(comp.result));
            self.pop_local(comp.accu_var);
            self.copy_sizes(id, comp.result);
            return sum;
        }
        match comp.iter_var2 {
            Some(v2) => {
                self.push_iter(comp.iter_var, range, 1);
                self.push_iter(v2, range, 2);
            }
            None => self.push_iter(comp.iter_var, range, 0),
        }
        let loop_cost = self.cost(comp.loop_condition);
        let step_cost = self.cost(comp.loop_step);
        self.pop_local(comp.iter_var);
        if let Some(v2) = comp.iter_var2 {
            self.pop_local(v2);
        }
        sum = sum.add(self.cost(comp.result));
        self.pop_local(comp.accu_var);
        let range_count = self.size_or_unknown(range);
        sum = sum.add(range_count.multiply_by_cost(step_cost.add(loop_cost)));
        match *self.c.ast.kind(comp.accu_init) {
            NodeKind::Null
            | NodeKind::Bool(_)
            | NodeKind::Int(_)
            | NodeKind::Uint(_)
            | NodeKind::Double(_)
            | NodeKind::String(_)
            | NodeKind::Bytes(_) => {
                if let Some(s) = self.compute_size(comp.accu_init) {
                    self.sizes[id as usize] = Some(s);
                }
            }
            NodeKind::List { .. } | NodeKind::Map { .. } => {
                self.sizes[id as usize] = Some(range_count);
                if let Some(e) = self.entry_size(comp.loop_step) {
                    self.entries[id as usize] = Some(e);
                }
            }
            _ => {}
        }
        sum
    }

    /// cel-go `pushIterSingle` (role 0), `pushIterKey` (1) and `pushIterValue` (2).
    const fn push_iter(&mut self, name: &'static str, range: u32, role: u8) {
        let entry = self.entry_size(range);
        let list = match entry {
            Some(e) => e.list,
            None => matches!(self.c.t.kind(self.ty(range)), TKind::List),
        };
        let (size, seg) = match role {
            0 if list => (
                match entry {
                    Some(e) => Some(e.val),
                    None => None,
                },
                Seg::Items,
            ),
            0 | 1 => (
                match entry {
                    Some(e) => Some(e.key),
                    None => None,
                },
                if list { Seg::Indices } else { Seg::Keys },
            ),
            _ => (
                match entry {
                    Some(e) => Some(e.val),
                    None => None,
                },
                if list { Seg::Items } else { Seg::Values },
            ),
        };
        let p = self.path(range);
        let path = self.extend(p, seg);
        self.push_local_var(Local {
            name,
            path,
            size,
            entry: None,
        });
    }

    /// cel-go `newAstNode` (a path starting with the accumulator is dropped).
    pub const fn node(&mut self, id: u32) -> Node {
        let mut path = self.path(id);
        if path != EMPTY && self.paths[path as usize].result {
            path = EMPTY;
        }
        let int_literal = match *self.c.ast.kind(id) {
            NodeKind::Int(i) => Some(i),
            _ => None,
        };
        Node {
            path,
            ty: self.ty(id),
            expr: id,
            computed: self.compute_size(id),
            int_literal,
        }
    }

    /// The size of node `id`, or [`UNKNOWN`].
    pub const fn size_or_unknown(&mut self, id: u32) -> Size {
        match self.compute_size(id) {
            Some(s) => s,
            None => UNKNOWN,
        }
    }

    /// Gives node `dst` the size and entry sizes of node `src` (an expression that passes its
    /// operand through, such as `dyn(x)`).
    pub const fn copy_sizes(&mut self, dst: u32, src: u32) {
        if let Some(s) = self.compute_size(src) {
            self.sizes[dst as usize] = Some(s);
        }
        if let Some(e) = self.entry_size(src) {
            self.entries[dst as usize] = Some(e);
        }
    }

    /// cel-go `computeSize`.
    pub const fn compute_size(&mut self, id: u32) -> Option<Size> {
        if let Some(s) = self.sizes[id as usize] {
            return Some(s);
        }
        let fixed = match *self.c.ast.kind(id) {
            NodeKind::String(s) => Some(char_count(s)),
            NodeKind::Bytes(b) => Some(b.len() as u64),
            NodeKind::Null
            | NodeKind::Bool(_)
            | NodeKind::Int(_)
            | NodeKind::Uint(_)
            | NodeKind::Double(_) => Some(1),
            NodeKind::List { elems, .. } => Some(elems.len() as u64),
            NodeKind::Map { entries } => Some(entries.len() as u64),
            _ => None,
        };
        if let Some(n) = fixed {
            return Some(Size::fixed(n));
        }
        let path = self.path(id);
        if let Some(s) = self.estimate_path(path) {
            self.sizes[id as usize] = Some(s);
            return Some(s);
        }
        if is_scalar(self.c, self.ty(id)) {
            return Some(Size::fixed(1));
        }
        match self.local(id) {
            Some(l) => l.size,
            None => None,
        }
    }

    /// The key and element sizes of node `id` (or of the comprehension variable it names), if
    /// known.
    pub const fn entry_size(&self, id: u32) -> Option<EntrySize> {
        if let Some(e) = self.entries[id as usize] {
            return Some(e);
        }
        match self.local(id) {
            Some(l) => l.entry,
            None => None,
        }
    }

    /// The estimator's size of a node: computed, or from its path (library `sizeEstimate`).
    pub const fn size(&self, n: &Node) -> Size {
        if let Some(s) = n.computed {
            return s;
        }
        match self.estimate_path(n.path) {
            Some(s) => s,
            None => UNKNOWN,
        }
    }

    /// library `listElementNode`.
    pub const fn list_element_node(&mut self, n: &Node) -> Option<Node> {
        let elem = self.c.t.params(n.ty).0;
        if elem == NONE {
            return None;
        }
        let path = if n.path == EMPTY {
            EMPTY
        } else {
            self.extend(n.path, Seg::Items)
        };
        Some(Node {
            path,
            ty: elem,
            expr: u32::MAX,
            computed: None,
            int_literal: None,
        })
    }

    /// Records for node `id` entry sizes that cover both `a` and `b`.
    pub const fn union_entries(&mut self, id: u32, a: EntrySize, b: EntrySize) {
        self.entries[id as usize] = Some(a.union(b));
    }
}

/// One step of the size estimator through the declarations.
const fn step(n: NodeRef, seg: Seg) -> Option<NodeRef> {
    match seg {
        Seg::Items | Seg::Values => match schema::layout(n) {
            Layout::List(i) => Some(i),
            Layout::Map(v) => Some(v),
            _ => None,
        },
        Seg::Keys => match schema::layout(n) {
            Layout::Map(_) => Some(NodeRef::Key),
            _ => None,
        },
        Seg::Field(name) => match schema::layout(n) {
            Layout::Object => match schema::find_prop(n, name, false) {
                Some(c) => {
                    if schema::visible(c) {
                        Some(c)
                    } else {
                        None
                    }
                }
                None => None,
            },
            _ => None,
        },
        Seg::Indices => None,
    }
}

const fn char_count(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] & 0xC0 != 0x80 {
            n += 1;
        }
        i += 1;
    }
    n
}
