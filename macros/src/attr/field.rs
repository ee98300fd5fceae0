//! `#[crd(..)]` on fields and variants.

use super::keywords::{KEYS, Keywords};
use super::{Sp, unknown};
use crate::ctxt::Ctxt;

const FIELD_ONLY: &[&str] = &["schemars", "with", "required", "optional", "no_default"];

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
}

impl FieldAttrs {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute], what: &str) -> FieldAttrs {
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
