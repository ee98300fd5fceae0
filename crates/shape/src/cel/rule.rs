//! Mirrors `crates/cel-check/src/check/compile.rs` in `const fn`s.
//!
//! One `x-kubernetes-validations` rule checked as the API server checks it when the CRD is
//! written (apiextensions `compilation.go` `compileRule`, and the rule's part of
//! `validation.go`): the rule must compile in the environment of its schema node and be a
//! `bool`, its `messageExpression` a `string`, each within the estimated cost limit;
//! `optionalOldSelf` needs `oldSelf`; `fieldPath` must lead to a field of the node.
//!
//! What depends on where the node sits in a CRD (how often it repeats under lists and maps,
//! whether `oldSelf` can be correlated, the CRD's total cost) is checked from the root, by
//! [`super::walk`], with the [`RuleInfo`] found here.

use super::ast::Ast;
use super::check::{Checker, Env, Ref};
use super::schema::{self, NodeRef};
use super::types::{BOOL, STRING};
use super::{cost, report};
use crate::msg::str_eq;
use crate::{Msg, Shape};
use crdkit_cel_check::cost::{
    COST_ERROR_HINT, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, exceed_factor,
    fixed_decimal, max_cardinality,
};
use crdkit_cel_check::env::OVERLOADS;
use crdkit_schema::ListType;

/// What the compile-time check of a rule found, for the checks of the whole CRD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    /// The rule compiled and passed every check of its own.
    pub ok: bool,
    /// The type (and field) that carries the rule, for messages.
    pub site: &'static str,
    /// The estimated cost of one evaluation.
    pub cost: u64,
    /// The estimated cost of the `messageExpression` (0 without one).
    pub message_cost: u64,
    /// The rule refers to `oldSelf` (a transition rule).
    pub uses_old_self: bool,
    /// How often the node can repeat in a request when under unbounded lists or maps
    /// (compilation.go `maxCardinality` of the node's smallest serialization).
    pub max_cardinality: u64,
}

impl RuleInfo {
    /// A rule that was not checked (no parsed form, or a failed check).
    pub const UNCHECKED: RuleInfo = RuleInfo {
        ok: false,
        site: "",
        cost: 0,
        message_cost: 0,
        uses_old_self: false,
        max_cardinality: 0,
    };
}

/// A rule as the derive wrote it, with its parsed forms.
#[derive(Clone, Copy, Debug)]
pub struct RuleSrc {
    /// `rule`: the CEL expression as written.
    pub rule: &'static str,
    /// The rule, parsed and lowered.
    pub ast: &'static Ast,
    /// `messageExpression`, parsed and lowered.
    pub message_ast: Option<&'static Ast>,
    /// `optionalOldSelf`
    pub optional_old_self: bool,
    /// `fieldPath` and its steps (`.a['b']` → `["a", "b"]`).
    pub field_path: Option<(&'static str, &'static [&'static str])>,
}

/// Where a rule sits, for messages and the transition-rule check.
#[derive(Clone, Copy, Debug)]
pub struct Site {
    /// `Type` or `Type.field` (or `Type.field[*]` for `items(..)`).
    pub name: &'static str,
    /// The list whose items carry the rule (`items(validation(..))`).
    pub items_of: Option<&'static Shape>,
    /// A root rule of a custom resource: its schema in the CRD has only `spec` and `status`
    /// (CEL sees `apiVersion`, `kind` and `metadata` too, field paths do not).
    pub resource_root: bool,
}

/// The attribute an error is about, to point at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// `rule`: it does not compile, is not a `bool` or costs too much, or its `oldSelf` is
    /// wrong (`optionalOldSelf` without it, or it is used where it cannot be correlated).
    Rule,
    /// `messageExpression`: it does not compile, is not a `string`, or costs too much.
    MessageExpression,
    /// `fieldPath`: it does not lead to a field of the node.
    FieldPath,
}

/// Checks a rule on the schema node `node`: `Ok` with what the CRD-wide checks need, or the
/// API server's message.
///
/// # Errors
/// The message, prefixed with the site and followed by the expression it is about.
pub const fn check_rule(site: Site, node: NodeRef, r: &RuleSrc) -> Result<RuleInfo, Msg> {
    match check(site, node, r) {
        Ok(i) => Ok(i),
        Err((_, m)) => Err(m),
    }
}

/// The error of [`check_rule`] if it is about `part`.
///
/// # Errors
/// The message, when the rule fails on `part`.
pub const fn check_part(site: Site, node: NodeRef, r: &RuleSrc, part: Part) -> Result<(), Msg> {
    match check(site, node, r) {
        Err((p, m)) if p as u8 == part as u8 => Err(m),
        _ => Ok(()),
    }
}

/// [`check_part`]'s result for a type-level rule on a custom resource's spec type, with a hint
/// when the rule reads a field of the whole object (`self.spec`, `self.metadata`, ...): `self`
/// is the spec there, and such rules belong on the root.
///
/// # Errors
/// The message of `r`, with the hint when it applies.
pub const fn spec_hint(r: Result<(), Msg>) -> Result<(), Msg> {
    const ROOT_FIELDS: [&str; 5] = [
        "undefined field 'spec'",
        "undefined field 'metadata'",
        "undefined field 'status'",
        "undefined field 'apiVersion'",
        "undefined field 'kind'",
    ];
    let Err(m) = r else { return r };
    let mut i = 0;
    while i < ROOT_FIELDS.len() {
        if contains(m.as_str(), ROOT_FIELDS[i]) {
            return Err(m.s("\n = help: `self` is the spec in a rule on the spec type; rules about the whole object go in the resource's `root_validation(..)`"));
        }
        i += 1;
    }
    Err(m)
}

const fn contains(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let mut i = 0;
    while i + n.len() <= h.len() {
        let mut j = 0;
        while j < n.len() && h[i + j] == n[j] {
            j += 1;
        }
        if j == n.len() {
            return true;
        }
        i += 1;
    }
    false
}

const fn check(site: Site, node: NodeRef, r: &RuleSrc) -> Result<RuleInfo, (Part, Msg)> {
    let head = Msg::of("invalid rule on `").s(site.name).s("`: ");
    if r.ast.table_len as usize != OVERLOADS.len() {
        return Err((Part::Rule, head.s(
            "crdkit-macros and crdkit-shape are different versions: use the same version of both",
        )));
    }
    if !schema::visible(node) {
        return Err((Part::Rule, report::source_lines(
            head.s("internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations"),
            r.rule,
        )));
    }
    let env = Env {
        node,
        optional_old_self: r.optional_old_self,
    };
    let mut c = Checker::new(r.ast, env);
    c.run();
    if c.issues_len == 0 {
        c.validate();
    }
    if c.t.overflow {
        // Never silently accept: say that the rule is beyond what the derive can check.
        return Err((
            Part::Rule,
            report::source_lines(
                head.s("the rule is too large to check at compile time; split it"),
                r.rule,
            ),
        ));
    }
    if c.issues_len > 0 {
        return Err((
            Part::Rule,
            report::issues(&c, r.rule, head.s("compilation failed: ")),
        ));
    }
    if !c.t.exact(c.get_type(r.ast.root), BOOL) {
        return Err((
            Part::Rule,
            report::source_lines(head.s("cel expression must evaluate to a bool"), r.rule),
        ));
    }
    let uses_old_self = uses_old_self(&c);
    let rule_cost = cost::estimate(&mut c, node).max;
    let mut info = RuleInfo {
        ok: true,
        site: site.name,
        cost: rule_cost,
        message_cost: 0,
        uses_old_self,
        max_cardinality: max_cardinality(schema::min_size(node)),
    };
    if rule_cost > STATIC_ESTIMATED_COST_LIMIT {
        let m = cost_error(
            head,
            "estimated rule cost",
            rule_cost,
            STATIC_ESTIMATED_COST_LIMIT,
        );
        return Err((Part::Rule, report::source_lines(m, r.rule)));
    }
    if let Some(m) = r.message_ast {
        let mut mc = Checker::new(m, env);
        mc.run();
        if mc.issues_len == 0 {
            mc.validate();
        }
        if mc.t.overflow {
            return Err((
                Part::MessageExpression,
                report::source_lines(
                    head.s("the messageExpression is too large to check at compile time; split it"),
                    m.source,
                ),
            ));
        }
        if mc.issues_len > 0 {
            return Err((
                Part::MessageExpression,
                report::issues(
                    &mc,
                    m.source,
                    head.s("messageExpression compilation failed: "),
                ),
            ));
        }
        if !mc.t.exact(mc.get_type(m.root), STRING) {
            return Err((
                Part::MessageExpression,
                report::source_lines(
                    head.s("messageExpression must evaluate to a string"),
                    m.source,
                ),
            ));
        }
        info.message_cost = cost::estimate(&mut mc, node).max;
        if info.message_cost > STATIC_ESTIMATED_COST_LIMIT {
            let m2 = cost_error(
                head,
                "estimated messageExpression cost",
                info.message_cost,
                STATIC_ESTIMATED_COST_LIMIT,
            );
            return Err((Part::MessageExpression, report::source_lines(m2, m.source)));
        }
    }
    if r.optional_old_self && !uses_old_self {
        return Err((
            Part::Rule,
            report::source_lines(
                head.s("`optional_old_self` may not be set if oldSelf is not used in rule"),
                r.rule,
            ),
        ));
    }
    if uses_old_self
        && let Some(list) = site.items_of
        && !matches!(list.list_type, Some(ListType::Map))
    {
        return Err((
            Part::Rule,
            report::source_lines(
                head.s(
                    "oldSelf cannot be used on the uncorrelatable portion of the schema within `",
                )
                .s(site.name)
                .s("`: the items of a list can be correlated only in a `list_type = \"map\"`"),
                r.rule,
            ),
        ));
    }
    if let Some((text, steps)) = r.field_path
        && let Err(e) = if site.resource_root
            && let [first, ..] = steps
            && (str_eq(first, "apiVersion") || str_eq(first, "kind") || str_eq(first, "metadata"))
        {
            Err(
                Msg::of("does not refer to a valid field: the CRD's root schema has no field \"")
                    .s(first)
                    .s("\""),
            )
        } else {
            resolve_field_path(node, steps)
        }
    {
        return Err((
            Part::FieldPath,
            head.s("fieldPath \"")
                .s(text)
                .s("\" must be a valid path: ")
                .s(e.as_str()),
        ));
    }
    Ok(info)
}

/// The info of a checked rule, or [`RuleInfo::UNCHECKED`] (its messages are reported by the
/// check spanned at the rule).
#[must_use]
pub const fn rule_info(r: Result<RuleInfo, Msg>) -> RuleInfo {
    match r {
        Ok(i) => i,
        Err(_) => RuleInfo::UNCHECKED,
    }
}

const fn uses_old_self(c: &Checker) -> bool {
    let mut i = 0;
    while i < c.ast.nodes.len() {
        if let Ref::Ident { old_self: true } = c.refs[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// apiextensions `ValidFieldPath` from the rule's node: each step names a property, or a key of
/// a map.
///
/// # Errors
/// The first step that leads nowhere.
pub const fn resolve_field_path(node: NodeRef, steps: &[&str]) -> Result<(), Msg> {
    let mut cur = node;
    let mut i = 0;
    while i < steps.len() {
        let name = steps[i];
        if schema::has_props(cur) {
            match schema::find_prop(cur, name, true) {
                Some(n) => cur = n,
                None => {
                    return Err(Msg::of("does not refer to a valid field: no field \"")
                        .s(name)
                        .s("\""));
                }
            }
        } else if let Some(v) = schema::additional_props(cur) {
            cur = v;
        } else {
            return Err(Msg::of("does not refer to a valid field: \"")
                .s(name)
                .s("\" is not a field of a struct or a key of a map"));
        }
        i += 1;
    }
    Ok(())
}

/// validation.go `getCostErrorMessage` ([`crdkit_cel_check::cost::cost_error_message`]).
#[must_use]
pub const fn cost_error(m: Msg, cost_name: &str, cost: u64, limit: u64) -> Msg {
    let m = m.s(cost_name).s(" exceeds budget by factor of ");
    let m = match exceed_factor(cost, limit) {
        None => m.s("more than 100"),
        Some((factor, decimals)) => m.s(fixed_decimal(factor, decimals).as_str()),
    };
    m.s("x ").s(COST_ERROR_HINT)
}

/// The CRD total's message (validation.go).
#[must_use]
pub const fn total_cost_error(m: Msg, total: u64) -> Msg {
    cost_error(
        m,
        "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
        total,
        STATIC_ESTIMATED_CRD_COST_LIMIT,
    )
}
