//! The Rust shapes that have no structural schema, and the attribute pairs that contradict each
//! other inside one schema node (a literal `default` against its `pattern`).
//!
//! Mirrors the rules of apiextensions-apiserver `pkg/apiserver/schema/validation.go`
//! (`ValidateStructural`) that can be decided from one type's tokens; what needs other types'
//! shapes is a `const` check emitted by `expand::shape`. The walk visits exactly the nodes the
//! expansion turns into shapes, in the same order, so the expansion may assume them checked.

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::json::DefaultAttr;
use crate::attr::keywords::Keywords;
use crate::ctxt::Ctxt;

/// A field of the type's own type (directly, or in a box or list) makes an infinite schema:
/// structural schemas have no `$ref`. rustc would report a const cycle; say why instead.
///
/// `struct Tree { children: Vec<Tree> }`
pub fn check_recursion(cx: &Ctxt, cont: &Container<'_>) {
    let name = cont.ident.to_string();
    for f in super::fields(cont) {
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

/// Every node the container's shape is made of: `struct S(String, i32)` (a JSON array of mixed
/// types), `struct S;` (null), `#[serde(with)]` without `#[crd(with)]`, per-variant
/// `#[serde(untagged)]`, `#[serde(content)]` without `tag`, `default = "ABC"` against
/// `pattern = "^[a-z]+$"`.
pub fn check_shape(cx: &Ctxt, cont: &Container<'_>) {
    let name = cont.ident.to_string();
    // `#[serde(from/into)]`: the JSON form is the proxy type's, checked by its own derive.
    if cont.serde.proxy.is_none() {
        match &cont.data {
            Data::Struct(Style::Struct, fields) if !cont.serde.transparent => {
                check_fields(cx, fields, cont.serde.default.is_some());
            }
            Data::Struct(Style::Newtype | Style::Struct, fields) => {
                let live: Vec<&Field<'_>> = fields.iter().filter(|f| !skipped(f)).collect();
                if let [only] = live[..] {
                    check_field(cx, only, false);
                } else {
                    cx.error_spanned_by(
                        cont.ident,
                        "`#[serde(transparent)]` needs exactly one field that is not skipped",
                    );
                }
            }
            Data::Struct(Style::Tuple, _) => {
                cx.error_spanned_by(cont.ident, format!("tuple struct `{name}` is written as a JSON array of mixed types, which no structural schema allows; use named fields"));
            }
            Data::Struct(Style::Unit, _) => {
                cx.error_spanned_by(cont.ident, format!("unit struct `{name}` is written as null, which no structural schema allows; use `struct {name} {{}}` for an empty object"));
            }
            Data::Enum(variants) => check_enum(cx, cont, variants),
        }
    }
    check_keywords(cx, &cont.attrs.keywords, &name);
}

/// Neither serialized nor deserialized: not in the schema.
pub fn skipped(f: &Field<'_>) -> bool {
    f.serde.skip_serializing && f.serde.skip_deserializing
}

fn check_fields(cx: &Ctxt, fields: &[Field<'_>], container_default: bool) {
    for f in fields.iter().filter(|f| !skipped(f)) {
        check_field(cx, f, container_default);
    }
}

// #[serde(with = "my")] at: String
// #[crd(no_default)] without a serde default, or beside `#[crd(default)]`
fn check_field(cx: &Ctxt, f: &Field<'_>, container_default: bool) {
    if let Some(n) = f.attrs.no_default.as_ref().filter(|n| n.value) {
        if f.attrs.keywords.default.is_some() {
            cx.error_at(
                n.span,
                format!(
                    "`no_default` and `default` on field `{}` contradict each other: keep one",
                    f.ident
                ),
            );
        } else if f.serde.default.is_none() && !container_default {
            cx.error_at(n.span, format!("`no_default` has nothing to leave out: field `{}` has no serde default (`#[serde(default)]` on it or on its struct)", f.ident));
        }
    }
    if let Some(span) = f.serde.with
        && f.attrs.with.is_none()
        && f.attrs.schemars.is_none()
    {
        cx.error_at(span, format!("`#[serde(with)]` gives field `{}` a JSON form crdkit cannot see: name a type with that form, `#[crd(with = Type)]`", f.ident));
    }
    check_keywords(cx, &f.attrs.keywords, &f.ident);
}

fn check_enum(cx: &Ctxt, cont: &Container<'_>, variants: &[Variant<'_>]) {
    if cont.serde.content.is_some() && cont.serde.tag.is_none() && !cont.serde.untagged {
        cx.error_spanned_by(
            cont.ident,
            "`#[serde(content = ..)]` needs `#[serde(tag = ..)]`",
        );
    }
    for v in variants.iter().filter(|v| !(v.serde.skip || v.serde.other)) {
        if let Some(span) = v.serde.untagged {
            cx.error_at(span, "per-variant `#[serde(untagged)]` mixes representations; crdkit supports it on the whole enum only");
        }
        if let Some(span) = v.serde.with {
            cx.error_at(
                span,
                "`#[serde(with)]` on a variant hides its JSON form from crdkit",
            );
        }
        match v.style {
            Style::Unit => {}
            Style::Newtype => check_field(cx, &v.fields[0], false),
            Style::Struct => check_fields(cx, &v.fields, false),
            Style::Tuple => {
                cx.error_spanned_by(v.ident, format!("tuple variant `{}` is written as a JSON array of mixed types, which no structural schema allows; use a struct variant", v.ident));
            }
        }
    }
}

/// A literal default must match its node's pattern (the API server prunes and validates
/// defaults, validation.go `validateDefaults`); enums and bounds need the node's type, and are
/// `const` checks (`check_default`). The match runs without a regex engine; the rare pattern it
/// cannot decide (a script class or a case fold of a character outside ASCII) is left to
/// `crdgen check` and the API server.
///
/// `#[crd(pattern = "^[a-z]+$", default = "ABC")]`
fn check_keywords(cx: &Ctxt, kw: &Keywords, what: &str) {
    if let (Some(pat), Some(DefaultAttr::Literal(lit, span))) = (&kw.pattern, &kw.default)
        && let serde_json::Value::String(s) = lit.to_value()
        && crdkit_apimachinery::regexp::is_match(&pat.value, &s) == Ok(Some(false))
    {
        cx.error_at(
            *span,
            format!(
                "invalid `default` for `{what}`: \"{s}\" should match '{}'",
                pat.value
            ),
        );
    }
    for inner in [&kw.items, &kw.values].into_iter().flatten() {
        check_keywords(cx, inner, &format!("{what}[*]"));
    }
}
