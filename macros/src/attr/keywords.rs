//! The schema keywords, accepted on fields, on types, and inside `items(..)` / `values(..)`.

use syn::meta::ParseNestedMeta;

use super::json::{DefaultAttr, JsonLit};
use super::rule::RuleAttr;
use super::{Sp, closest};
use crate::ctxt::Ctxt;

/// Every keyword key, for "did you mean" suggestions.
pub const KEYS: &[&str] = &[
    "description",
    "title",
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
    "default",
    "nullable",
    "preserve_unknown_fields",
    "embedded_resource",
    "int_or_string",
    "list_type",
    "list_map_keys",
    "map_type",
    "validation",
    "items",
    "values",
    "all_of",
    "any_of",
    "one_of",
    "not",
    "type",
];

/// Formats the API server knows (strings, integers, numbers); others are silently dropped by it,
/// so we reject them.
fn is_known_format(f: &str) -> bool {
    crdkit_schema::STRING_FORMATS.contains(&f)
        || matches!(f, "int32" | "int64" | "float" | "double")
}

fn all_formats() -> Vec<&'static str> {
    let mut v = crdkit_schema::STRING_FORMATS.to_vec();
    v.extend(["int32", "int64", "float", "double"]);
    v
}

/// Schema keywords as written.
#[derive(Clone, Default)]
pub struct Keywords {
    pub description: Option<Sp<String>>,
    pub title: Option<Sp<String>>,
    pub format: Option<Sp<String>>,
    pub minimum: Option<Sp<f64>>,
    pub maximum: Option<Sp<f64>>,
    pub exclusive_minimum: Option<Sp<bool>>,
    pub exclusive_maximum: Option<Sp<bool>>,
    pub multiple_of: Option<Sp<f64>>,
    pub min_length: Option<Sp<u64>>,
    pub max_length: Option<Sp<u64>>,
    pub pattern: Option<Sp<String>>,
    pub min_items: Option<Sp<u64>>,
    pub max_items: Option<Sp<u64>>,
    pub min_properties: Option<Sp<u64>>,
    pub max_properties: Option<Sp<u64>>,
    pub enum_values: Option<Sp<Vec<JsonLit>>>,
    pub default: Option<DefaultAttr>,
    pub nullable: Option<Sp<bool>>,
    pub preserve_unknown_fields: Option<Sp<bool>>,
    pub embedded_resource: Option<Sp<bool>>,
    pub int_or_string: Option<Sp<bool>>,
    pub list_type: Option<Sp<String>>,
    pub list_map_keys: Option<Sp<Vec<String>>>,
    pub map_type: Option<Sp<String>>,
    pub rules: Vec<RuleAttr>,
    pub items: Option<Box<Keywords>>,
    pub values: Option<Box<Keywords>>,
    /// `all_of(..)`, `any_of(..)`, `one_of(..)`: each branch as the JSON of its schema.
    pub all_of: Option<Sp<Vec<JsonLit>>>,
    pub any_of: Option<Sp<Vec<JsonLit>>>,
    pub one_of: Option<Sp<Vec<JsonLit>>>,
    /// `not(..)`
    pub not: Option<Sp<JsonLit>>,
    /// `type = "object"`: a `serde_json::Value` that must be an object.
    pub ty: Option<Sp<String>>,
    /// A length whose keyword depends on the field's kind (`minLength`, `minItems` or
    /// `minProperties`): garde's and validator's `length`, never `#[crd(..)]`'s own.
    pub length: Option<Sp<(Option<u64>, Option<u64>)>>,
}

fn once<T>(cx: &Ctxt, slot: &mut Option<Sp<T>>, name: &str, v: Sp<T>) {
    if slot.is_some() {
        cx.error_at(v.span, format!("duplicate crd attribute `{name}`"));
    } else {
        *slot = Some(v);
    }
}

impl Keywords {
    /// Parses `meta` if its key is a schema keyword; `Ok(false)` when it is not one.
    pub fn parse(&mut self, cx: &Ctxt, key: &str, meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
        match key {
            "description" => once(cx, &mut self.description, key, super::string(meta)?),
            "title" => once(cx, &mut self.title, key, super::string(meta)?),
            "format" => {
                let f = super::string(meta)?;
                if !is_known_format(&f.value) {
                    let hint = closest(&f.value, &all_formats())
                        .map(|c| format!("; did you mean \"{c}\"?"))
                        .unwrap_or_default();
                    cx.error_at(f.span, format!("unknown format \"{}\": the API server ignores formats it does not know{hint}", f.value));
                }
                once(cx, &mut self.format, key, f);
            }
            "minimum" => once(cx, &mut self.minimum, key, super::number(meta)?),
            "maximum" => once(cx, &mut self.maximum, key, super::number(meta)?),
            "exclusive_minimum" => once(cx, &mut self.exclusive_minimum, key, super::flag(meta)?),
            "exclusive_maximum" => once(cx, &mut self.exclusive_maximum, key, super::flag(meta)?),
            "multiple_of" => once(cx, &mut self.multiple_of, key, super::number(meta)?),
            "min_length" => once(cx, &mut self.min_length, key, super::count(meta)?),
            "max_length" => once(cx, &mut self.max_length, key, super::count(meta)?),
            "pattern" => {
                let p = super::string(meta)?;
                if let Err(e) = crdkit_apimachinery::regexp::check(&p.value) {
                    cx.error_at(
                        p.span,
                        format!("`pattern` is not a valid regular expression: {e}"),
                    );
                }
                once(cx, &mut self.pattern, key, p);
            }
            "min_items" => once(cx, &mut self.min_items, key, super::count(meta)?),
            "max_items" => once(cx, &mut self.max_items, key, super::count(meta)?),
            "min_properties" => once(cx, &mut self.min_properties, key, super::count(meta)?),
            "max_properties" => once(cx, &mut self.max_properties, key, super::count(meta)?),
            "enum" | "enum_values" => {
                let span = meta.path.segments[0].ident.span();
                let values = if meta.input.peek(syn::token::Paren) {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    content
                        .parse_terminated(JsonLit::parse, syn::Token![,])?
                        .into_iter()
                        .collect()
                } else {
                    match JsonLit::parse(meta.value()?)? {
                        JsonLit::Array(a) => a,
                        _ => {
                            return Err(syn::Error::new(
                                span,
                                "expected `enum = [..]` or `enum(..)`",
                            ));
                        }
                    }
                };
                if values.is_empty() {
                    cx.error_at(span, "`enum` needs at least one value");
                }
                once(
                    cx,
                    &mut self.enum_values,
                    "enum",
                    Sp {
                        value: values,
                        span,
                    },
                );
            }
            "default" => {
                let d = DefaultAttr::parse(meta)?;
                if self.default.is_some() {
                    cx.error_spanned_by(&meta.path, "duplicate crd attribute `default`");
                } else {
                    self.default = Some(d);
                }
            }
            "nullable" => once(cx, &mut self.nullable, key, super::flag(meta)?),
            "preserve_unknown_fields" => once(
                cx,
                &mut self.preserve_unknown_fields,
                key,
                super::flag(meta)?,
            ),
            "embedded_resource" => once(cx, &mut self.embedded_resource, key, super::flag(meta)?),
            "int_or_string" => once(cx, &mut self.int_or_string, key, super::flag(meta)?),
            "list_type" => {
                let t = super::string(meta)?;
                if !["atomic", "set", "map"].contains(&t.value.as_str()) {
                    cx.error_at(t.span, format!("unsupported `list_type` \"{}\": supported values: \"atomic\", \"map\", \"set\"", t.value));
                }
                once(cx, &mut self.list_type, key, t);
            }
            "list_map_keys" => {
                let span = meta.path.segments[0].ident.span();
                let keys = super::strings(meta)?;
                if keys.is_empty() {
                    cx.error_at(span, "`list_map_keys` needs at least one key");
                }
                once(
                    cx,
                    &mut self.list_map_keys,
                    key,
                    Sp {
                        value: keys.into_iter().map(|k| k.value).collect(),
                        span,
                    },
                );
            }
            "map_type" => {
                let t = super::string(meta)?;
                if !["atomic", "granular"].contains(&t.value.as_str()) {
                    cx.error_at(t.span, format!("unsupported `map_type` \"{}\": supported values: \"atomic\", \"granular\"", t.value));
                }
                once(cx, &mut self.map_type, key, t);
            }
            // #[crd(one_of(required("a"), required("b")))]
            "all_of" | "any_of" | "one_of" => {
                let list = super::junctors::parse_list(cx, meta)?;
                let slot = match key {
                    "all_of" => &mut self.all_of,
                    "any_of" => &mut self.any_of,
                    _ => &mut self.one_of,
                };
                once(cx, slot, key, list);
            }
            // #[crd(not(required("a")))]
            "not" => {
                let b = super::junctors::parse_one(cx, meta)?;
                once(cx, &mut self.not, key, b);
            }
            // #[crd(type = "object")]
            "type" => {
                let t = super::string(meta)?;
                if t.value != "object" {
                    cx.error_at(t.span, format!("unsupported `type = \"{}\"`: the type comes from the Rust type; `type = \"object\"` makes a `serde_json::Value` an object", t.value));
                }
                once(cx, &mut self.ty, key, t);
            }
            "validation" if meta.input.peek(syn::Token![=]) => {
                let e: syn::Expr = meta.value()?.parse()?;
                cx.error_spanned_by(&meta.path, super::kube::rule_hint(&e));
            }
            "validation" => {
                if let Some(r) = super::rule::parse(cx, meta) {
                    self.rules.push(r);
                }
            }
            "items" | "values" => {
                let mut inner = Keywords::default();
                if !meta.input.peek(syn::token::Paren) {
                    return Err(meta.error(format!(
                        "expected `{key}(..)` with the keywords for the {}",
                        if key == "items" {
                            "list's items"
                        } else {
                            "map's values"
                        }
                    )));
                }
                meta.parse_nested_meta(|m| {
                    let k = m
                        .path
                        .get_ident()
                        .map(ToString::to_string)
                        .unwrap_or_default();
                    if !inner.parse(cx, &k, &m)? {
                        super::unknown(
                            cx,
                            &m,
                            if key == "items" {
                                "`items(..)`"
                            } else {
                                "`values(..)`"
                            },
                            KEYS,
                        );
                    }
                    Ok(())
                })?;
                let slot = if key == "items" {
                    &mut self.items
                } else {
                    &mut self.values
                };
                if slot.is_some() {
                    cx.error_spanned_by(&meta.path, format!("duplicate crd attribute `{key}`"));
                }
                *slot = Some(Box::new(inner));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl Keywords {
    /// Adds the keywords that another derive's attributes give, reporting each one that
    /// `#[crd(..)]` gives too (`from` names where they come from in messages).
    pub fn absorb(&mut self, cx: &Ctxt, other: Keywords, from: &str) {
        fn take<T>(
            cx: &Ctxt,
            mine: &mut Option<Sp<T>>,
            theirs: Option<Sp<T>>,
            name: &str,
            from: &str,
        ) {
            if let Some(t) = theirs {
                if mine.is_some() {
                    cx.error_at(
                        t.span,
                        format!("{from} and `#[crd(..)]` both set `{name}`: keep one"),
                    );
                } else {
                    *mine = Some(t);
                }
            }
        }
        let Keywords {
            description,
            title,
            format,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            min_length,
            max_length,
            min_items,
            max_items,
            min_properties,
            max_properties,
            pattern,
            items,
            length,
            ..
        } = other;
        take(cx, &mut self.description, description, "description", from);
        take(cx, &mut self.title, title, "title", from);
        take(cx, &mut self.format, format, "format", from);
        take(cx, &mut self.minimum, minimum, "minimum", from);
        take(cx, &mut self.maximum, maximum, "maximum", from);
        take(
            cx,
            &mut self.exclusive_minimum,
            exclusive_minimum,
            "exclusive_minimum",
            from,
        );
        take(
            cx,
            &mut self.exclusive_maximum,
            exclusive_maximum,
            "exclusive_maximum",
            from,
        );
        take(cx, &mut self.pattern, pattern, "pattern", from);
        take(cx, &mut self.multiple_of, multiple_of, "multiple_of", from);
        take(cx, &mut self.min_length, min_length, "min_length", from);
        take(cx, &mut self.max_length, max_length, "max_length", from);
        take(cx, &mut self.min_items, min_items, "min_items", from);
        take(cx, &mut self.max_items, max_items, "max_items", from);
        take(
            cx,
            &mut self.min_properties,
            min_properties,
            "min_properties",
            from,
        );
        take(
            cx,
            &mut self.max_properties,
            max_properties,
            "max_properties",
            from,
        );
        if let Some(l) = length {
            let crd_lengths = [
                &self.min_length,
                &self.max_length,
                &self.min_items,
                &self.max_items,
                &self.min_properties,
                &self.max_properties,
            ];
            if crd_lengths.iter().any(|k| k.is_some()) {
                cx.error_at(
                    l.span,
                    format!(
                        "{from} and a `#[crd(..)]` length keyword both bound the length: keep one"
                    ),
                );
            } else {
                self.length = Some(l);
            }
        }
        if let Some(inner) = items {
            match &mut self.items {
                Some(mine) => mine.absorb(cx, *inner, from),
                None => self.items = Some(inner),
            }
        }
    }
}
