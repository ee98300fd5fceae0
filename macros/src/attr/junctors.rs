//! `all_of(..)`, `any_of(..)`, `one_of(..)` and `not(..)`: the junctors of a schema node, whose
//! branches hold value validations only (structural schemas forbid `description`, `default`,
//! `nullable` and the extensions inside them). Each branch is read into the JSON of its schema.
//!
//! ```text
//! one_of(not(any_of(required("exact"), required("prefix"))), required("exact"), required("prefix"))
//! any_of(type = "integer", type = "string")          // x-kubernetes-int-or-string's pattern
//! all_of(branch(required("a"), min_properties = 2), property("a", min_length = 1))
//! ```
//!
//! In `all_of`/`any_of`/`one_of` a branch of one keyword is that keyword; `branch(..)` groups
//! several. `not(..)`, `items(..)`, `values(..)` and `property("name", ..)` hold the keywords of
//! one schema.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser as _;

use super::json::JsonLit;
use super::{Sp, closest};
use crate::ctxt::Ctxt;

/// The keywords a branch may hold.
pub const BRANCH_KEYS: &[&str] = &[
    "type",
    "format",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "multiple_of",
    "min_length",
    "max_length",
    "pattern",
    "min_items",
    "max_items",
    "min_properties",
    "max_properties",
    "enum",
    "required",
    "items",
    "values",
    "property",
    "all_of",
    "any_of",
    "one_of",
    "not",
];

const TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];

/// `all_of(..)`, `any_of(..)`, `one_of(..)`: the branches.
pub fn parse_list(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<Vec<JsonLit>>> {
    let span = meta.path.segments[0].ident.span();
    let mut branches = Vec::new();
    let content;
    syn::parenthesized!(content in meta.input);
    if content.is_empty() {
        // `allOf: []` says nothing: the API server drops it, as every empty list of a schema.
        cx.error_at(span, "a junctor needs at least one branch");
    }
    let rest: TokenStream = content.parse()?;
    syn::meta::parser(|m| {
        let mut b = Branch::default();
        if m.path.is_ident("branch") {
            m.parse_nested_meta(|k| b.keyword(cx, &k))?;
        } else {
            b.keyword(cx, &m)?;
        }
        branches.push(b.into_json());
        Ok(())
    })
    .parse2(rest)?;
    Ok(Sp {
        value: branches,
        span,
    })
}

/// `not(..)`, `items(..)`, `values(..)`: the keywords of one schema.
pub fn parse_one(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<JsonLit>> {
    let span = meta.path.segments[0].ident.span();
    let mut b = Branch::default();
    meta.parse_nested_meta(|k| b.keyword(cx, &k))?;
    Ok(Sp {
        value: b.into_json(),
        span,
    })
}

/// One schema inside a junctor, as JSON keys and values.
#[derive(Default)]
struct Branch {
    keys: Vec<(String, JsonLit)>,
    properties: Vec<(String, JsonLit)>,
}

impl Branch {
    fn set(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>, key: &str, v: JsonLit) {
        if self.keys.iter().any(|(k, _)| k == key) {
            let written = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            cx.error_spanned_by(
                &meta.path,
                format!("`{written}` is given twice in this branch"),
            );
        } else {
            self.keys.push((key.to_owned(), v));
        }
    }

    fn keyword(&mut self, cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        let num = |f: f64| {
            #[allow(clippy::cast_possible_truncation)]
            if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
                JsonLit::Int(f as i64)
            } else {
                JsonLit::Float(f)
            }
        };
        match key.as_str() {
            "type" => {
                let t = super::string(meta)?;
                if !TYPES.contains(&t.value.as_str()) {
                    cx.error_at(
                        t.span,
                        format!(
                            "unknown type \"{}\": expected one of {}",
                            t.value,
                            TYPES.join(", ")
                        ),
                    );
                }
                self.set(cx, meta, "type", JsonLit::Str(t.value));
            }
            "format" => {
                let f = super::string(meta)?;
                self.set(cx, meta, "format", JsonLit::Str(f.value));
            }
            "pattern" => {
                let p = super::string(meta)?;
                if let Err(e) = crdkit_apimachinery::regexp::check(&p.value) {
                    cx.error_at(
                        p.span,
                        format!("`pattern` is not a valid regular expression: {e}"),
                    );
                }
                self.set(cx, meta, "pattern", JsonLit::Str(p.value));
            }
            "minimum" | "maximum" | "multiple_of" => {
                let n = super::number(meta)?;
                self.set(cx, meta, &camel(&key), num(n.value));
            }
            "exclusive_minimum" | "exclusive_maximum" => {
                if super::flag(meta)?.value {
                    self.set(cx, meta, &camel(&key), JsonLit::Bool(true));
                }
            }
            "min_length" | "max_length" | "min_items" | "max_items" | "min_properties"
            | "max_properties" => {
                let n = super::count(meta)?;
                self.set(cx, meta, &camel(&key), JsonLit::UInt(n.value));
            }
            "enum" => {
                let content;
                syn::parenthesized!(content in meta.input);
                let values = content.parse_terminated(JsonLit::parse, syn::Token![,])?;
                self.set(
                    cx,
                    meta,
                    "enum",
                    JsonLit::Array(values.into_iter().collect()),
                );
            }
            "required" => {
                let names = super::strings(meta)?;
                let v = names.into_iter().map(|n| JsonLit::Str(n.value)).collect();
                self.set(cx, meta, "required", JsonLit::Array(v));
            }
            "items" | "values" | "not" => {
                let inner = parse_one(cx, meta)?;
                let k = if key == "values" {
                    "additionalProperties"
                } else {
                    &key
                };
                self.set(cx, meta, k, inner.value);
            }
            "all_of" | "any_of" | "one_of" => {
                let list = parse_list(cx, meta)?;
                self.set(cx, meta, &camel(&key), JsonLit::Array(list.value));
            }
            "property" => {
                let content;
                syn::parenthesized!(content in meta.input);
                let name: syn::LitStr = content.parse()?;
                let mut inner = Branch::default();
                if !content.is_empty() {
                    content.parse::<syn::Token![,]>()?;
                    let rest: TokenStream = content.parse()?;
                    syn::meta::parser(|k| inner.keyword(cx, &k)).parse2(rest)?;
                }
                if self.properties.iter().any(|(n, _)| *n == name.value()) {
                    cx.error_spanned_by(
                        &name,
                        format!(
                            "property \"{}\" is given twice in this branch",
                            name.value()
                        ),
                    );
                }
                self.properties.push((name.value(), inner.into_json()));
            }
            _ => {
                let mut msg = format!(
                    "`{key}` is not allowed in a junctor: its branches hold value validations only (structural schemas forbid `description`, `default`, `nullable` and the extensions there)"
                );
                if let Some(best) = closest(&key, BRANCH_KEYS) {
                    msg.push_str(&format!("; did you mean `{best}`?"));
                }
                cx.error_spanned_by(&meta.path, msg);
                super::skip_value(meta);
            }
        }
        Ok(())
    }

    fn into_json(mut self) -> JsonLit {
        if !self.properties.is_empty() {
            self.keys
                .push(("properties".to_owned(), JsonLit::Object(self.properties)));
        }
        JsonLit::Object(self.keys)
    }
}

/// `min_length` → `minLength`
fn camel(key: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in key.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}
