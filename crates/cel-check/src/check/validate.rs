//! The AST validators of the Kubernetes environment (apiserver `environment/base.go`), run
//! after a successful check: cel-go `cel/validator.go` `ValidateHomogeneousAggregateLiterals`
//! (from 1.0, through `cel.HomogeneousAggregateLiterals()`; it skips list and map literals
//! inside `format` calls, as the strings extension configures it), `ValidateDurationLiterals`,
//! `ValidateTimestampLiterals` and `ValidateRegexLiterals` (from 1.29), and the strings
//! extension's check of literal `format` calls (from 1.29, `format.rs`).
//!
//! cel-go validates a literal by evaluating the call; here Go's `time.ParseDuration`,
//! `time.Parse(time.RFC3339, _)` with CEL's timestamp range, and RE2 syntax (Go's syntax
//! rules of `lib/re2_syntax.rs`, then the `regex` crate that evaluates the pattern) are
//! reproduced directly.

use super::walk;
use super::{CheckedAst, Reference};
use crate::env::{CheckEnv, Library};
use crate::types::Type;
use crate::{ExprId, ExprKind, Issue, Literal};
use crdkit_apimachinery::goparse::{parse_duration, parse_rfc3339};

pub(super) fn validate(checked: &CheckedAst, env: &CheckEnv) -> Vec<Issue> {
    let mut issues = Vec::new();
    // The strings extension from version 1 (Kubernetes 1.29) checks literal `format` calls
    // and exempts their arguments from the homogeneous-literal rule.
    let strings_v1 = env.libraries.contains(&Library::Strings) && env.version >= (1, 29);
    if !env.ast_validators && !strings_v1 && !env.homogeneous_aggregate_literals {
        return issues;
    }
    let nodes = reachable(checked);
    let mut report = |id: ExprId, message: String| {
        let span = checked.ast.expr(id).span;
        let location = checked
            .source
            .location(checked.source.cp_of_byte(span.start));
        issues.push(Issue {
            location: Some(location),
            message,
        });
    };
    // cel-go runs the validators in the order they were added; errors are sorted by position.
    if env.homogeneous_aggregate_literals {
        homogeneous(checked, &nodes, strings_v1, &mut report);
    }
    if env.ast_validators {
        literals(checked, &nodes, &mut report);
    }
    if strings_v1 {
        report_format_errors(checked, &nodes, &mut report);
    }
    issues
}

/// `ValidateDurationLiterals`, `ValidateTimestampLiterals` and `ValidateRegexLiterals`.
fn literals(
    checked: &CheckedAst,
    nodes: &[(ExprId, bool)],
    report: &mut impl FnMut(ExprId, String),
) {
    for (function, valid) in [
        ("duration", valid_duration_arg as fn(&Literal) -> bool),
        ("timestamp", valid_timestamp_arg),
        ("matches", valid_regex_arg),
    ] {
        for &(id, _) in nodes {
            let ExprKind::Call {
                function: f, args, ..
            } = &checked.ast.expr(id).kind
            else {
                continue;
            };
            let Some(&arg) = args.first() else { continue };
            if f != function {
                continue;
            }
            if let ExprKind::Literal(l) = &checked.ast.expr(arg).kind
                && !valid(l)
            {
                report(arg, format!("invalid {function} argument"));
            }
        }
    }
}

/// `ValidateHomogeneousAggregateLiterals`.
fn homogeneous(
    checked: &CheckedAst,
    nodes: &[(ExprId, bool)],
    format_exempt: bool,
    report: &mut impl FnMut(ExprId, String),
) {
    for &(id, exempt) in nodes {
        if exempt && format_exempt {
            continue;
        }
        let type_of = |e: ExprId| checked.type_of(e).cloned().unwrap_or(Type::Error);
        let param = |t: Type| t.parameters().first().map_or(Type::Error, |p| (*p).clone());
        match &checked.ast.expr(id).kind {
            ExprKind::List {
                elems,
                optional_indices,
            } => {
                let mut first: Option<Type> = None;
                for (i, &e) in elems.iter().enumerate() {
                    let mut t = type_of(e);
                    if optional_indices.contains(&(i as u32)) {
                        t = param(t);
                    }
                    match &first {
                        None => first = Some(t),
                        Some(f) if !f.is_type(&t, false) => {
                            report(e, format!("expected type '{f}' but found '{t}'"));
                            break;
                        }
                        Some(_) => {}
                    }
                }
            }
            ExprKind::Map { entries } => {
                let mut first: Option<(Type, Type)> = None;
                for entry in entries {
                    let kt = type_of(entry.key);
                    let mut vt = type_of(entry.value);
                    if entry.optional {
                        vt = param(vt);
                    }
                    let Some((fk, fv)) = &first else {
                        first = Some((kt, vt));
                        continue;
                    };
                    if !fk.is_type(&kt, false) {
                        report(entry.key, format!("expected type '{fk}' but found '{kt}'"));
                    }
                    if !fv.is_type(&vt, false) {
                        report(
                            entry.value,
                            format!("expected type '{fv}' but found '{vt}'"),
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

fn report_format_errors(
    checked: &CheckedAst,
    nodes: &[(ExprId, bool)],
    report: &mut impl FnMut(ExprId, String),
) {
    for &(id, _) in nodes {
        if let Some((at, message)) = super::format::check_call(checked, id) {
            report(at, message);
        }
    }
}

/// The nodes of the checked expression (without the operands of qualified names and the
/// targets of namespaced calls), each with whether it is inside a `format` call.
fn reachable(checked: &CheckedAst) -> Vec<(ExprId, bool)> {
    let ast = &checked.ast;
    let mut out = Vec::new();
    let mut stack = vec![(ast.root, false)];
    while let Some((id, in_format)) = stack.pop() {
        out.push((id, in_format));
        let kind = &ast.expr(id).kind;
        if matches!(kind, ExprKind::Select { .. })
            && matches!(checked.reference(id), Some(Reference::Ident(_)))
        {
            continue;
        }
        let in_format =
            in_format || matches!(kind, ExprKind::Call { function, .. } if function == "format");
        let skip = checked.call_target(id).is_none();
        let target = match kind {
            ExprKind::Call { target, .. } => *target,
            _ => None,
        };
        let mut children = walk::children(ast, id);
        if skip {
            children.retain(|c| Some(*c) != target);
        }
        stack.extend(children.into_iter().rev().map(|c| (c, in_format)));
    }
    out
}

/// Whether a literal first argument of `function` passes the literal validators
/// (`duration`, `timestamp`, `matches`); other functions accept anything.
pub fn valid_literal_argument(function: &str, l: &Literal) -> bool {
    match function {
        "duration" => valid_duration_arg(l),
        "timestamp" => valid_timestamp_arg(l),
        "matches" => valid_regex_arg(l),
        _ => true,
    }
}

fn valid_duration_arg(l: &Literal) -> bool {
    match l {
        Literal::String(s) => parse_duration(s).is_some(),
        _ => true,
    }
}

fn valid_timestamp_arg(l: &Literal) -> bool {
    match l {
        Literal::String(s) => parse_rfc3339(s).is_ok_and(in_timestamp_range),
        Literal::Int(i) => in_timestamp_range(*i),
        _ => true,
    }
}

fn valid_regex_arg(l: &Literal) -> bool {
    match l {
        Literal::String(s) => crdkit_apimachinery::regexp::check(s).is_ok(),
        _ => true,
    }
}

/// CEL's timestamp range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
fn in_timestamp_range(unix: i64) -> bool {
    (-62_135_596_800..=253_402_300_799).contains(&unix)
}
