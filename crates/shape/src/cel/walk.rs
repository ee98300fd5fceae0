//! Mirrors `crates/crd/src/crd_check/cel.rs` (the run time's whole-CRD check) in `const fn`s.
//!
//! The checks of a whole CRD's rules, from its root (apiextensions `validation.go` and
//! `cel_validation.go`): each rule's estimated cost times how often its node can repeat in a
//! request (the product of `maxItems`/`maxProperties` of the lists and maps above it, or, under
//! an unbounded one, what fits in 3 MiB) must stay within the per-rule limit, all rules together
//! within the CRD limit, and `oldSelf` is only usable where old and new values correlate (below
//! lists only through `x-kubernetes-list-type: map`).
//!
//! The walk follows the built schema ([`crate::build()`]): rules of flattened structs
//! land on the struct that flattens them; enum payloads are laid out as the build lays them out.

use super::rule::{RuleInfo, cost_error, total_cost_error};
use super::schema::{self, NodeRef};
use crate::msg::str_eq;
use crate::{Enum, Field, Kind, Msg, Repr, Rule, Rules, Shape, VariantKind};
use crdkit_cel_check::cost::{
    MOST_EXPENSIVE_RULES, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT,
    is_expensive,
};
use crdkit_schema::ListType;

const MAX_DEPTH: usize = 48;
const TOP: usize = MOST_EXPENSIVE_RULES;
/// Property names remembered per object (to skip duplicates the build drops).
const MAX_SEEN: usize = 96;

#[derive(Clone, Copy)]
struct Seg {
    name: &'static str,
    /// `[*]` rather than `.name`.
    elem: bool,
}

struct Walk {
    path: [Seg; MAX_DEPTH],
    depth: usize,
    total: u64,
    top: [Option<(u64, &'static str)>; TOP],
    top_paths: [Msg; TOP],
    error: Option<Msg>,
}

/// Where the walk is: how often the node repeats (`None`: under an unbounded list or map) and
/// the depth of the highest uncorrelatable list above it.
#[derive(Clone, Copy)]
struct At {
    card: Option<u64>,
    uncorrelatable: Option<usize>,
}

/// Checks every rule of a resource whose root schema is `root`, the root's own rules being
/// `root_rules`.
///
/// # Errors
/// The first rule over its limits, or the total over the CRD limit.
pub const fn check_crd(root: &'static Shape, root_rules: &'static [Rule]) -> Result<(), Msg> {
    let mut w = Walk {
        path: [Seg {
            name: "",
            elem: false,
        }; MAX_DEPTH],
        depth: 0,
        total: 0,
        top: [None; TOP],
        top_paths: [Msg::new(); TOP],
        error: None,
    };
    let at = At {
        card: Some(1),
        uncorrelatable: None,
    };
    w.rule_list(root_rules, at);
    w.node(NodeRef::Resource(root), at);
    if let Some(e) = w.error {
        return Err(e);
    }
    if w.total > STATIC_ESTIMATED_CRD_COST_LIMIT {
        let mut m = total_cost_error(Msg::new(), w.total).s("; the most expensive rules:");
        let mut i = 0;
        while i < TOP {
            if let Some((cost, site)) = w.top[i] {
                m = m
                    .s("\n  `")
                    .s(site)
                    .s("` at ")
                    .s(w.top_paths[i].as_str())
                    .s(": ")
                    .int(cost as i128);
            }
            i += 1;
        }
        return Err(m);
    }
    Ok(())
}

const fn times(card: Option<u64>, max: Option<u64>) -> Option<u64> {
    match (card, max) {
        (Some(c), Some(m)) => Some(c.saturating_mul(m)),
        _ => None,
    }
}

impl Walk {
    const fn render_path(&self, upto: usize) -> Msg {
        let mut m = Msg::new();
        let mut i = 0;
        while i < upto && i < self.depth {
            let s = self.path[i];
            if s.elem {
                m = m.s("[*]");
            } else {
                if i > 0 {
                    m = m.s(".");
                }
                m = m.s(s.name);
            }
            i += 1;
        }
        if upto == 0 || self.depth == 0 {
            m = m.s("<root>");
        }
        m
    }

    const fn push(&mut self, name: &'static str, elem: bool) -> bool {
        if self.depth >= MAX_DEPTH {
            return false;
        }
        self.path[self.depth] = Seg { name, elem };
        self.depth += 1;
        true
    }

    const fn pop(&mut self) {
        self.depth -= 1;
    }

    const fn rule(&mut self, r: &Rule, at: At) {
        if self.error.is_some() {
            return;
        }
        let Some(info) = r.info else { return };
        let info: &RuleInfo = info;
        if !info.ok {
            return;
        }
        let card = match at.card {
            Some(c) => c,
            None => info.max_cardinality,
        };
        let cost = info.cost.saturating_mul(card);
        if cost > STATIC_ESTIMATED_COST_LIMIT {
            let head = Msg::of("invalid rule on `")
                .s(info.site)
                .s("` at ")
                .s(self.render_path(self.depth).as_str())
                .s(": ");
            let m = cost_error(
                head,
                "estimated rule cost",
                cost,
                STATIC_ESTIMATED_COST_LIMIT,
            )
            .s("; the rule runs for every item of the lists and maps above it (")
            .int(card as i128)
            .s(" times at most)\n | ")
            .s(r.rule);
            self.error = Some(m);
            return;
        }
        self.observe(cost, info.site);
        if info.message_cost > 0 {
            self.observe(info.message_cost, info.site);
        }
        if info.uses_old_self
            && let Some(d) = at.uncorrelatable
        {
            let m = Msg::of("invalid rule on `")
                .s(info.site)
                .s("` at ")
                .s(self.render_path(self.depth).as_str())
                .s(": oldSelf cannot be used on the uncorrelatable portion of the schema within ")
                .s(self.render_path(d).as_str())
                .s(" (old and new items of a list correlate only with `list_type = \"map\"`)\n | ")
                .s(r.rule);
            self.error = Some(m);
        }
    }

    /// cel_validation.go `TotalCost.ObserveExpressionCost`.
    const fn observe(&mut self, cost: u64, site: &'static str) {
        self.total = self.total.saturating_add(cost);
        if !is_expensive(cost) {
            return;
        }
        let mut i = 0;
        while i < TOP {
            let smaller = match self.top[i] {
                None => true,
                Some((c, _)) => c < cost,
            };
            if smaller {
                let mut j = TOP - 1;
                while j > i {
                    self.top[j] = self.top[j - 1];
                    self.top_paths[j] = self.top_paths[j - 1];
                    j -= 1;
                }
                self.top[i] = Some((cost, site));
                self.top_paths[i] = self.render_path(self.depth);
                return;
            }
            i += 1;
        }
    }

    const fn rule_list(&mut self, rules: &'static [Rule], at: At) {
        let mut i = 0;
        while i < rules.len() {
            self.rule(&rules[i], at);
            i += 1;
        }
    }

    const fn rule_chain(&mut self, rules: &'static Rules, at: At) {
        self.rule_list(rules.own, at);
        if let Some(r) = rules.inherited {
            self.rule_chain(r, at);
        }
    }

    /// The rules that land on a node: its own, those of flattened structs, and a scalar
    /// union's first payload's.
    const fn rules_at(&mut self, n: NodeRef, at: At) {
        match n {
            NodeRef::Shape(s) | NodeRef::Resource(s) => {
                self.rule_chain(&s.rules, at);
                match s.kind {
                    Kind::Struct(fields) if !s.object_meta => self.flattened_rules(fields, at),
                    Kind::Enum(e) if matches!(e.repr, Repr::Untagged) => {
                        self.rules_at(NodeRef::Union(e), at);
                    }
                    _ => {}
                }
            }
            NodeRef::Fields(fields) => self.flattened_rules(fields, at),
            NodeRef::Union(e) => {
                if let Some(first) = union_first(e) {
                    self.rules_at(schema::child(first), at);
                }
            }
            _ => {}
        }
    }

    const fn flattened_rules(&mut self, fields: &'static [Field], at: At) {
        let mut i = 0;
        while i < fields.len() {
            if fields[i].flatten {
                self.rules_at(NodeRef::Shape(fields[i].shape), at);
            }
            i += 1;
        }
    }

    const fn node(&mut self, n: NodeRef, at: At) {
        if self.error.is_some() {
            return;
        }
        self.rules_at(n, at);
        self.children(n, at);
    }

    const fn children(&mut self, n: NodeRef, at: At) {
        let mut seen: [&'static str; MAX_SEEN] = [""; MAX_SEEN];
        let mut seen_len = 0;
        match n {
            NodeRef::Shape(s) | NodeRef::Resource(s) => match s.kind {
                Kind::Struct(fields) if !s.object_meta => {
                    self.fields(fields, at, &mut seen, &mut seen_len);
                    self.extra(n, s.max_properties, at);
                }
                Kind::Array(items) => {
                    let uncorrelatable = match at.uncorrelatable {
                        Some(d) => Some(d),
                        None => {
                            if matches!(s.list_type, Some(ListType::Map)) {
                                None
                            } else {
                                Some(self.depth)
                            }
                        }
                    };
                    let sub = At {
                        card: times(at.card, s.max_items),
                        uncorrelatable,
                    };
                    if self.push("", true) {
                        self.node(schema::child(items), sub);
                        self.pop();
                    }
                }
                Kind::Map(values) => {
                    let sub = At {
                        card: times(at.card, s.max_properties),
                        uncorrelatable: at.uncorrelatable,
                    };
                    if self.push("", true) {
                        self.node(schema::child(values), sub);
                        self.pop();
                    }
                }
                Kind::Enum(e) => self.enumeration(e, at, &mut seen, &mut seen_len),
                _ => {}
            },
            NodeRef::Fields(fields) => {
                self.fields(fields, at, &mut seen, &mut seen_len);
                self.extra(n, None, at);
            }
            NodeRef::Union(e) => self.union(e, at, &mut seen, &mut seen_len),
            _ => {}
        }
    }

    /// The entries of a struct that only a flattened map fills (`additionalProperties`).
    const fn extra(&mut self, n: NodeRef, max_properties: Option<u64>, at: At) {
        if let Some(v) = schema::additional_props(n) {
            let sub = At {
                card: times(at.card, max_properties),
                uncorrelatable: at.uncorrelatable,
            };
            if self.push("", true) {
                self.node(v, sub);
                self.pop();
            }
        }
    }

    const fn prop(
        &mut self,
        name: &'static str,
        n: NodeRef,
        at: At,
        seen: &mut [&'static str; MAX_SEEN],
        seen_len: &mut usize,
    ) {
        let mut i = 0;
        while i < *seen_len {
            if str_eq(seen[i], name) {
                return;
            }
            i += 1;
        }
        if *seen_len < MAX_SEEN {
            seen[*seen_len] = name;
            *seen_len += 1;
        }
        if self.push(name, false) {
            self.node(n, at);
            self.pop();
        }
    }

    const fn fields(
        &mut self,
        fields: &'static [Field],
        at: At,
        seen: &mut [&'static str; MAX_SEEN],
        seen_len: &mut usize,
    ) {
        let mut i = 0;
        while i < fields.len() {
            let f = &fields[i];
            if f.flatten {
                self.flattened(f.shape, at, seen, seen_len);
            } else {
                self.prop(f.name, schema::child(f.shape), at, seen, seen_len);
            }
            i += 1;
        }
    }

    /// The properties a flattened shape brings.
    const fn flattened(
        &mut self,
        s: &'static Shape,
        at: At,
        seen: &mut [&'static str; MAX_SEEN],
        seen_len: &mut usize,
    ) {
        match s.kind {
            Kind::Struct(fields) if !s.object_meta => self.fields(fields, at, seen, seen_len),
            Kind::Enum(e) => self.enumeration(e, at, seen, seen_len),
            _ => {}
        }
    }

    const fn enumeration(
        &mut self,
        e: &'static Enum,
        at: At,
        seen: &mut [&'static str; MAX_SEEN],
        seen_len: &mut usize,
    ) {
        match e.repr {
            Repr::External => {
                let mut i = 0;
                while i < e.variants.len() {
                    let v = &e.variants[i];
                    match v.kind {
                        VariantKind::Unit => {}
                        VariantKind::Newtype(s) => {
                            self.prop(v.name, schema::child(s), at, seen, seen_len);
                        }
                        VariantKind::Struct(f) => {
                            self.prop(v.name, NodeRef::Fields(f), at, seen, seen_len);
                        }
                    }
                    i += 1;
                }
            }
            Repr::Internal { .. } => {
                let mut i = 0;
                while i < e.variants.len() {
                    match e.variants[i].kind {
                        VariantKind::Unit => {}
                        VariantKind::Newtype(s) => self.flattened(s, at, seen, seen_len),
                        VariantKind::Struct(f) => self.fields(f, at, seen, seen_len),
                    }
                    i += 1;
                }
            }
            Repr::Adjacent { content, .. } => {
                let mut any = false;
                let mut i = 0;
                while i < e.variants.len() {
                    any |= !matches!(e.variants[i].kind, VariantKind::Unit);
                    i += 1;
                }
                if any {
                    self.prop(content, NodeRef::Union(e), at, seen, seen_len);
                }
            }
            Repr::Untagged => self.union(e, at, seen, seen_len),
        }
    }

    const fn union(
        &mut self,
        e: &'static Enum,
        at: At,
        seen: &mut [&'static str; MAX_SEEN],
        seen_len: &mut usize,
    ) {
        if let Some(first) = union_first(e) {
            self.children(schema::child(first), at);
            return;
        }
        if !matches!(
            schema::layout(NodeRef::Union(e)),
            schema::Layout::Object | schema::Layout::Map(_)
        ) {
            return;
        }
        let mut i = 0;
        while i < e.variants.len() {
            match e.variants[i].kind {
                VariantKind::Unit => {}
                VariantKind::Newtype(s) => self.flattened(s, at, seen, seen_len),
                VariantKind::Struct(f) => self.fields(f, at, seen, seen_len),
            }
            i += 1;
        }
        self.extra(NodeRef::Union(e), None, at);
    }
}

use schema::union_first;
