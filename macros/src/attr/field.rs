//! `#[crd(..)]` on fields and variants.

use super::keywords::{KEYS, Keywords};
use super::{Sp, unknown};
use crate::ctxt::Ctxt;

const FIELD_ONLY: &[&str] = &[
    "schemars",
    "with",
    "required",
    "optional",
    "no_default",
    "allow_client_only",
];

/// The crd attributes of a field.
#[derive(Default)]
pub struct FieldAttrs {
    pub keywords: Keywords,
    /// `schemars`: take the schema from `schemars::JsonSchema`, converted at run time.
    pub schemars: Option<Sp<bool>>,
    /// `with = Type`: take the schema of another type.
    pub with: Option<syn::Type>,
    /// `required` / `optional`: override what serde's attributes imply.
    pub required: Option<Sp<bool>>,
    /// `no_default`: serde's default is not the schema's.
    pub no_default: Option<Sp<bool>>,
    /// `allow_client_only`: garde's and validator's rules without a schema keyword stay
    /// client-side checks instead of errors.
    pub allow_client_only: Option<Sp<bool>>,
    /// schemars' `schema_with`/`with`, taken by a `#[crd(schemars)]` field.
    pub schemars_schema: Option<Sp<super::foreign::SchemarsSchema>>,
}

impl FieldAttrs {
    /// `what` names the kind of item in messages about `#[crd(..)]` (`a field`), `field` the
    /// field itself in messages about other derives' attributes.
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute], what: &str, field: &str) -> FieldAttrs {
        let mut out = FieldAttrs::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("crd")) {
            let res = attr.parse_nested_meta(|meta| {
                let key = meta
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                if out.keywords.parse(cx, &key, &meta)? {
                    return Ok(());
                }
                match key.as_str() {
                    "schemars" => out.schemars = Some(super::flag(&meta)?),
                    "allow_client_only" => {
                        let f = super::flag(&meta)?;
                        if out.allow_client_only.is_some() {
                            cx.error_at(f.span, "duplicate crd attribute `allow_client_only`");
                        }
                        out.allow_client_only = Some(f);
                    }
                    "no_default" => {
                        let f = super::flag(&meta)?;
                        if out.no_default.is_some() {
                            cx.error_at(f.span, "duplicate crd attribute `no_default`");
                        }
                        out.no_default = Some(f);
                    }
                    "with" => {
                        if out.with.is_some() {
                            cx.error_spanned_by(&meta.path, "duplicate crd attribute `with`");
                        }
                        out.with = Some(super::ty(&meta)?);
                    }
                    "required" | "optional" => {
                        let f = super::flag(&meta)?;
                        if out.required.is_some() {
                            cx.error_spanned_by(
                                &meta.path,
                                "`required` and `optional` may be given once",
                            );
                        }
                        out.required = Some(Sp {
                            value: f.value == (key == "required"),
                            span: f.span,
                        });
                    }
                    _ if super::kube::field_key(cx, &key, &meta) => {}
                    _ => {
                        let known: Vec<&str> = KEYS.iter().chain(FIELD_ONLY).copied().collect();
                        unknown(cx, &meta, what, &known);
                    }
                }
                Ok(())
            });
            if let Err(e) = res {
                cx.syn_error(e);
            }
        }
        let allow = out.allow_client_only.as_ref().is_some_and(|a| a.value);
        let foreign = super::foreign::read(cx, attrs, field, false, allow);
        out.keywords
            .absorb(cx, foreign.keywords, "a validation attribute");
        if let Some(schema) = foreign.schema {
            if out.schemars.as_ref().is_some_and(|s| s.value) {
                out.schemars_schema = Some(schema);
            } else {
                let key = match schema.value {
                    super::foreign::SchemarsSchema::With(_) => "schema_with",
                    super::foreign::SchemarsSchema::Type(_) => "with",
                };
                cx.error_at(schema.span, format!("`#[schemars({key})]` gives {field} a schema crdkit does not read by default: add `#[crd(schemars)]` to take it (feature `schemars`), or let crdkit take the schema from the type (`#[crd(with = Type)]`, `#[crd(..)]` keywords; k8s-openapi's `Condition`, `LabelSelector`, `Quantity`, `IntOrString`, `Time` have schemas with the `kube` feature)"));
            }
        }
        if let Some(r) = foreign.required {
            match &out.required {
                Some(mine) if !mine.value => cx.error_at(r.span, "`required` from a validation attribute contradicts `#[crd(optional)]`: keep one"),
                Some(_) => {}
                None => out.required = Some(r),
            }
        }
        out
    }
}

/// The crd attributes of an enum variant: only a description.
pub fn variant_description(cx: &Ctxt, attrs: &[syn::Attribute]) -> Option<String> {
    let mut description = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("crd")) {
        let res = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("description") {
                description = Some(super::string(&meta)?.value);
            } else {
                unknown(cx, &meta, "a variant", &["description"]);
            }
            Ok(())
        });
        if let Err(e) = res {
            cx.syn_error(e);
        }
    }
    description
}
