//! Checks that need more than one attribute or the whole type, in the order they run.
//!
//! Every user error of this derive's own tokens is reported here or in `attr/`, before
//! expansion: `expand` assumes checked input. What needs other types' shapes is emitted as
//! `const` checks (see `expand::shape`).

pub mod jsonpath;
pub mod paths;
pub mod resource;
pub mod structural;

use crate::ast::{Container, Data};
use crate::ctxt::Ctxt;
use resource::Resource;

/// `#[derive(Schema)]`: the container's rules, then its shape.
pub fn schema(cx: &Ctxt, cont: &Container<'_>) {
    container(cx, cont);
    structural::check_shape(cx, cont);
}

/// `#[derive(CustomResource)]`: as [`schema`], with the resource's names, versions and paths
/// between them; `None` when the resource is too broken to expand.
pub fn resource(cx: &Ctxt, cont: &Container<'_>) -> Option<Resource> {
    container(cx, cont);
    let resource = resource::check(cx, cont);
    structural::check_shape(cx, cont);
    resource
}

/// Checks on any derived container.
fn container(cx: &Ctxt, cont: &Container<'_>) {
    structural::check_recursion(cx, cont);
    check_rules(cx, &cont.attrs.keywords.rules);
    for f in fields(cont) {
        check_rules(cx, &f.attrs.keywords.rules);
        if let Some(items) = &f.attrs.keywords.items {
            check_rules(cx, &items.rules);
        }
        if let Some(values) = &f.attrs.keywords.values {
            check_rules(cx, &values.rules);
        }
    }
}

pub fn fields<'a>(cont: &'a Container<'a>) -> Vec<&'a crate::ast::Field<'a>> {
    match &cont.data {
        Data::Struct(_, f) => f.iter().collect(),
        Data::Enum(v) => v.iter().flat_map(|v| v.fields.iter()).collect(),
    }
}

/// CEL rules must at least parse; type checking against the schema is a `const` check.
pub fn check_rules(cx: &Ctxt, rules: &[crate::attr::rule::RuleAttr]) {
    for r in rules {
        // An empty rule is reported once, as the API server does ("rule is not specified").
        if !r.rule.value().trim().is_empty()
            && let Err(e) = cel_syntax(&r.rule.value())
        {
            cx.error_spanned_by(&r.rule, format!("invalid CEL rule: {e}"));
        }
        if let Some(m) = &r.message_expression
            && !m.value().trim().is_empty()
            && let Err(e) = cel_syntax(&m.value())
        {
            cx.error_spanned_by(m, format!("invalid CEL `message_expression`: {e}"));
        }
        if let Some(p) = &r.field_path
            && let Err(e) = jsonpath::field_path(&p.value(), true)
        {
            cx.error_spanned_by(p, format!("`field_path` must be a valid path: {e}"));
        }
    }
}

/// CEL syntax, in the API server's words.
fn cel_syntax(src: &str) -> Result<(), String> {
    crdkit_cel_check::parse(src)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
