//! What a versions enum's own tokens must satisfy; what needs the versions' declarations is a
//! `const` check (`crdkit_shape::versions::check`).

use quote::ToTokens as _;

use super::Kind;
use crate::attr::conversion::ConversionAttr;
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, kind: &Kind<'_>) {
    if !kind.generics.params.is_empty() {
        cx.error_spanned_by(
            kind.generics,
            "a versions enum cannot be generic: it declares one CRD",
        );
    }
    if kind.variants.is_empty() {
        cx.error_spanned_by(
            kind.ident,
            "a kind needs at least one version: `V1(v1::CronTab)`",
        );
        return;
    }
    check_newtypes(cx, kind);
    if let (Some(at), Some(ConversionAttr::Webhook(_))) =
        (kind.allow_different_schemas, &kind.conversion)
    {
        cx.error_at(at, "a webhook converts between versions whatever their schemas: `allow_different_schemas` is for the `None` strategy");
    }
    check_storage(cx, kind);
    check_listed_once(cx, kind);
}

// V1(v1::CronTab)
fn check_newtypes(cx: &Ctxt, kind: &Kind<'_>) {
    for v in kind.variants.iter().filter(|v| v.ty.is_none()) {
        cx.error_spanned_by(
            v.ident,
            format!(
                "each variant holds the root type of one version: `{}(v1::MyKind)`",
                v.ident
            ),
        );
    }
}

/// One version is the storage version (apiextensions validation.go: "must have exactly one
/// version marked as storage version").
///
/// `enum CronTab { V1beta1(v1beta1::CronTab), V1(v1::CronTab) }`
fn check_storage(cx: &Ctxt, kind: &Kind<'_>) {
    let marked: Vec<_> = kind
        .variants
        .iter()
        .filter(|v| v.storage.is_some())
        .collect();
    match marked.as_slice() {
        [] => cx.error_spanned_by(
            kind.ident,
            "no storage version: mark the version objects are stored in, `#[versions(storage)]`; the API server stores every object in exactly one version",
        ),
        [_] => {}
        [first, rest @ ..] => {
            for v in rest {
                cx.error_at(
                    v.storage.unwrap_or_else(|| v.ident.span()),
                    format!(
                        "two storage versions, `{}` and `{}`: the API server stores every object in exactly one version",
                        first.ident, v.ident
                    ),
                );
            }
        }
    }
}

/// A type names one version; two variants of one type list it twice. (Two types of the same
/// version name are a `const` check.)
///
/// `enum CronTab { V1(v1::CronTab), #[versions(storage)] Again(v1::CronTab) }`
fn check_listed_once(cx: &Ctxt, kind: &Kind<'_>) {
    let mut seen: Vec<(String, &syn::Ident)> = Vec::new();
    for v in &kind.variants {
        let Some(ty) = v.ty else { continue };
        let text = ty.to_token_stream().to_string();
        if let Some((_, first)) = seen.iter().find(|(t, _)| *t == text) {
            cx.error_spanned_by(
                ty,
                format!("version `{text}` is listed twice, as `{first}` and `{}`: a CRD lists each version once", v.ident).replace(" :: ", "::"),
            );
        } else {
            seen.push((text, v.ident));
        }
    }
}
