//! Checks that need more than one attribute, in the order they run.
//!
//! What needs other types' shapes is emitted as `const` checks (see `expand::shape`); what is
//! here needs only this derive's tokens.

pub mod jsonpath;
pub mod resource;

use crate::ast::{Container, Data};
use crate::ctxt::Ctxt;

/// Checks on any derived container.
pub fn container(cx: &Ctxt, cont: &Container<'_>) {
    check_recursion(cx, cont);
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

fn fields<'a>(cont: &'a Container<'a>) -> Vec<&'a crate::ast::Field<'a>> {
    match &cont.data {
        Data::Struct(_, f) => f.iter().collect(),
        Data::Enum(v) => v.iter().flat_map(|v| v.fields.iter()).collect(),
    }
}

/// A field of the type's own type (directly, or in a box or list) makes an infinite schema:
/// structural schemas have no `$ref`. rustc would report a const cycle; say why instead.
fn check_recursion(cx: &Ctxt, cont: &Container<'_>) {
    let name = cont.ident.to_string();
    for f in fields(cont) {
        if mentions(f.ty, &name) && f.attrs.with.is_none() && f.attrs.schemars.is_none() {
            cx.error_spanned_by(
                f.ty,
                format!("`{name}` contains itself through field `{}`: structural schemas cannot be recursive (they have no `$ref`); give the field `#[crd(with = serde_json::Value)]` to accept any JSON there", f.ident),
            );
        }
    }
}

fn mentions(ty: &syn::Type, name: &str) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.segments.iter().any(|s| {
            s.ident == name && p.path.segments.len() == 1
                || matches!(&s.arguments, syn::PathArguments::AngleBracketed(a) if a.args.iter().any(|g| matches!(g, syn::GenericArgument::Type(t) if mentions(t, name))))
        }),
        syn::Type::Reference(r) => mentions(&r.elem, name),
        syn::Type::Array(a) => mentions(&a.elem, name),
        syn::Type::Slice(s) => mentions(&s.elem, name),
        syn::Type::Paren(p) => mentions(&p.elem, name),
        syn::Type::Group(g) => mentions(&g.elem, name),
        syn::Type::Tuple(t) => t.elems.iter().any(|t| mentions(t, name)),
        _ => false,
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
