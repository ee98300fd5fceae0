//! The validation attributes of other derives on the same type (`#[garde(..)]`,
//! `#[validate(..)]` of the validator crate, `#[schemars(..)]`), read as schemars reads them
//! for kube-derive, so that switching derives drops no rule: each rule with a schema keyword
//! becomes that keyword, every other one is a compile error naming the crdkit form, unless the
//! field (or type) says `#[crd(allow_client_only)]`.
//!
//! Mapped (schemars_derive `attr/validation.rs`, plus what has an exact keyword): `length` →
//! `minLength`/`maxLength`, `minItems`/`maxItems` or `minProperties`/`maxProperties` by the
//! field's kind; `range` → `minimum`/`maximum` (validator's `exclusive_min`/`exclusive_max`
//! with `exclusiveMinimum`/`exclusiveMaximum`); literal `pattern`/`regex`; `contains`,
//! `prefix`, `suffix`, `ascii` → a `pattern`; `email`, `url`, `ipv4`, `ipv6` → `format`;
//! `required`; `inner(..)` → `items(..)`; schemars' `description` and `title`; and serde_valid's
//! `#[validate(..)]`, which names JSON Schema's keywords (`minimum = 1`, `max_length = 5`).

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;

mod hints;
mod values;

use super::Sp;
use super::keywords::Keywords;
use crate::ctxt::Ctxt;
use values::{count, named_lit, number, paren_is_meta, paren_lit, quote_meta, skip};

/// What a field's foreign attributes add to its `#[crd(..)]`.
#[derive(Default)]
pub struct Foreign {
    pub keywords: Keywords,
    /// `required`: the field must be present (an `Option` that must be `Some`).
    pub required: Option<Sp<bool>>,
    /// schemars' `schema_with = "f"` or `with = "T"`: where a `#[crd(schemars)]` field takes
    /// its schema from.
    pub schema: Option<Sp<SchemarsSchema>>,
}

/// The schema schemars gives a field instead of its type's.
#[derive(Clone)]
pub enum SchemarsSchema {
    /// `schema_with = "f"`: `f(&mut SchemaGenerator) -> Schema`.
    With(syn::ExprPath),
    /// `with = "T"`: `T`'s `JsonSchema`.
    Type(syn::Type),
}

/// The attributes read, by name as written.
const ATTRS: &[&str] = &["garde", "validate", "schemars"];

/// Reads the foreign attributes of a field (`container: false`) or a type.
pub fn read(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    what: &str,
    container: bool,
    allow_client_only: bool,
) -> Foreign {
    let mut out = Foreign::default();
    for attr in attrs {
        let Some(name) = ATTRS.iter().find(|n| attr.path().is_ident(n)) else {
            continue;
        };
        // `#[garde]` alone, `#[validate]` alone: nothing to read.
        if !matches!(attr.meta, syn::Meta::List(_)) {
            continue;
        }
        let mut r = Reader {
            cx,
            attr: name,
            what,
            container,
            allow_client_only,
            schema: None,
        };
        if let Err(e) =
            attr.parse_nested_meta(|meta| r.rule(&meta, &mut out.keywords, &mut out.required))
        {
            cx.syn_error(e);
        }
        if let Some(s) = r.schema {
            if out.schema.is_some() {
                cx.error_at(
                    s.span,
                    "two schemars attributes give the field's schema: keep one",
                );
            }
            out.schema = Some(s);
        }
    }
    out
}

struct Reader<'c> {
    cx: &'c Ctxt,
    attr: &'static str,
    what: &'c str,
    container: bool,
    allow_client_only: bool,
    schema: Option<Sp<SchemarsSchema>>,
}

impl Reader<'_> {
    fn rule(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        kw: &mut Keywords,
        required: &mut Option<Sp<bool>>,
    ) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        let span = meta.path.segments[0].ident.span();
        let garde = self.attr == "garde";
        let validate = self.attr == "validate";
        let schemars = self.attr == "schemars";
        match key.as_str() {
            // Rules of the nested type, client-side options, documentation: no schema keyword
            // belongs to them.
            "skip"
            | "dive"
            | "nested"
            | "message"
            | "code"
            | "context"
            | "allow_unvalidated"
            | "transparent"
            | "example"
            | "examples"
            | "deprecated"
            | "inline"
            | "bound"
            | "crate"
            | "deny_unknown_fields" => skip(meta)?,
            "required" | "required_nested" if !self.container => {
                skip(meta)?;
                set(self.cx, required, "required", Sp { value: true, span });
            }
            "length" | "byte_length" if !self.container => {
                let (min, max) = self.bounds(meta, &key)?;
                if min.is_some() || max.is_some() {
                    let v = Sp {
                        value: (min, max),
                        span,
                    };
                    set(self.cx, &mut kw.length, "length", v);
                }
            }
            "range" if !self.container => self.range(meta, kw, span)?,
            "email" | "url" | "ipv4" | "ipv6" if !self.container => {
                skip(meta)?;
                let f = if key == "url" { "uri" } else { key.as_str() };
                set(
                    self.cx,
                    &mut kw.format,
                    "format",
                    Sp {
                        value: f.to_owned(),
                        span,
                    },
                );
            }
            "ip" if !self.container && validate && meta.input.peek(syn::token::Paren) => {
                // validator's `ip(v4)` / `ip(v6)`
                let mut version = None;
                meta.parse_nested_meta(|m| {
                    version = m.path.get_ident().map(ToString::to_string);
                    Ok(())
                })?;
                match version.as_deref() {
                    Some("v4") => set(
                        self.cx,
                        &mut kw.format,
                        "format",
                        Sp {
                            value: "ipv4".into(),
                            span,
                        },
                    ),
                    Some("v6") => set(
                        self.cx,
                        &mut kw.format,
                        "format",
                        Sp {
                            value: "ipv6".into(),
                            span,
                        },
                    ),
                    _ => self.client_only(span, &key, hints::IP),
                }
            }
            "ip" if !self.container => {
                skip(meta)?;
                self.client_only(span, &key, hints::IP);
            }
            // serde_valid's `#[validate(..)]`: JSON Schema's keywords by name.
            "minimum" | "maximum" | "exclusive_minimum" | "exclusive_maximum" | "multiple_of"
            | "min_length" | "max_length" | "pattern" | "min_items" | "max_items"
            | "min_properties" | "max_properties"
                if validate && !self.container && meta.input.peek(syn::Token![=]) =>
            {
                self.serde_valid(meta, kw, &key, span)?;
            }
            "pattern" | "regex" if !self.container => self.pattern(meta, kw, &key, span)?,
            // validator has `contains` only; garde has `prefix` and `suffix` too.
            "contains" | "prefix" | "suffix"
                if !(self.container || validate && key != "contains") =>
            {
                let text = if garde
                    || (schemars && meta.input.peek(syn::token::Paren) && !paren_is_meta(meta))
                {
                    paren_lit(meta)?
                } else {
                    named_lit(meta, "pattern")?
                };
                match text {
                    Some(t) => {
                        let quoted = quote_meta(&t);
                        let p = match key.as_str() {
                            "prefix" => format!("^{quoted}"),
                            "suffix" => format!("{quoted}$"),
                            _ => quoted,
                        };
                        set(self.cx, &mut kw.pattern, "pattern", Sp { value: p, span });
                    }
                    None => self.needs_literal(span, &key),
                }
            }
            "ascii" if garde && !self.container => {
                skip(meta)?;
                set(
                    self.cx,
                    &mut kw.pattern,
                    "pattern",
                    Sp {
                        value: r"^[\x00-\x7F]*$".to_owned(),
                        span,
                    },
                );
            }
            "inner" if !validate && !self.container => {
                let mut inner = Keywords::default();
                let mut inner_required = None;
                meta.parse_nested_meta(|m| self.rule(&m, &mut inner, &mut inner_required))?;
                if let Some(r) = inner_required {
                    self.cx.error_at(r.span, format!("`#[{}(inner(required))]` has no schema keyword: items of a list are never missing", self.attr));
                }
                if kw.items.is_some() {
                    self.cx.error_at(span, format!("`#[{}(inner(..))]` and `#[crd(items(..))]` both restrict the items: keep one", self.attr));
                } else {
                    kw.items = Some(Box::new(inner));
                }
            }
            "description" | "title" if schemars => {
                let s = super::string(meta)?;
                let slot = if key == "title" {
                    &mut kw.title
                } else {
                    &mut kw.description
                };
                set(self.cx, slot, &key, s);
            }
            // Taken when the field is `#[crd(schemars)]` (`FieldAttrs` says so otherwise).
            "schema_with" if schemars && !self.container => {
                let f = super::string(meta)?;
                let path = syn::parse_str(&f.value)?;
                self.schema = Some(Sp {
                    value: SchemarsSchema::With(path),
                    span,
                });
            }
            "with" if schemars && !self.container => {
                let t = super::string(meta)?;
                let ty = syn::parse_str(&t.value)?;
                self.schema = Some(Sp {
                    value: SchemarsSchema::Type(ty),
                    span,
                });
            }
            "with" | "schema_with" | "extend" | "transform" | "rename" | "rename_all"
            | "skip_serializing" | "skip_deserializing" | "default" | "flatten" | "tag"
            | "content" | "untagged" | "from" | "into" | "try_from"
                if schemars =>
            {
                skip(meta)?;
                let hint = hints::schemars(&key);
                self.cx.error_at(span, format!("`#[schemars({key})]` changes the schema schemars writes, which crdkit does not read: {hint}"));
            }
            // A validation that a Rust function or an unknown rule does: the API server
            // cannot run it.
            _ if garde || validate => {
                skip(meta)?;
                let hint = hints::client_only(&key);
                self.client_only(span, &key, hint);
            }
            // schemars keys with no bearing on a CRD schema.
            _ => skip(meta)?,
        }
        Ok(())
    }

    /// serde_valid's `minimum = 1`, `max_length = 5`, `pattern = ".."`: the keyword itself.
    fn serde_valid(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        kw: &mut Keywords,
        key: &str,
        span: Span,
    ) -> syn::Result<()> {
        let e: syn::Expr = meta.value()?.parse()?;
        let (num, cnt) = (number(&e), count(&e));
        let yes = Sp { value: true, span };
        let cx = self.cx;
        match (key, num, cnt) {
            ("minimum", Some(n), _) => set(cx, &mut kw.minimum, key, Sp { value: n, span }),
            ("maximum", Some(n), _) => set(cx, &mut kw.maximum, key, Sp { value: n, span }),
            ("exclusive_minimum", Some(n), _) => {
                set(cx, &mut kw.minimum, "minimum", Sp { value: n, span });
                set(cx, &mut kw.exclusive_minimum, key, yes);
            }
            ("exclusive_maximum", Some(n), _) => {
                set(cx, &mut kw.maximum, "maximum", Sp { value: n, span });
                set(cx, &mut kw.exclusive_maximum, key, yes);
            }
            ("multiple_of", Some(n), _) => set(cx, &mut kw.multiple_of, key, Sp { value: n, span }),
            ("min_length", _, Some(n)) => set(cx, &mut kw.min_length, key, Sp { value: n, span }),
            ("max_length", _, Some(n)) => set(cx, &mut kw.max_length, key, Sp { value: n, span }),
            ("min_items", _, Some(n)) => set(cx, &mut kw.min_items, key, Sp { value: n, span }),
            ("max_items", _, Some(n)) => set(cx, &mut kw.max_items, key, Sp { value: n, span }),
            ("min_properties", _, Some(n)) => {
                set(cx, &mut kw.min_properties, key, Sp { value: n, span });
            }
            ("max_properties", _, Some(n)) => {
                set(cx, &mut kw.max_properties, key, Sp { value: n, span });
            }
            ("pattern", _, _) => match values::str_lit(&e) {
                Some(p) => {
                    if let Err(err) = crdkit_apimachinery::regexp::check(&p) {
                        cx.error_at(span, format!("`#[validate(pattern)]` is not a regular expression the API server reads: {err}"));
                    }
                    set(cx, &mut kw.pattern, key, Sp { value: p, span });
                }
                None => self.needs_literal(span, key),
            },
            _ => self.needs_literal(span, key),
        }
        Ok(())
    }

    /// `length(min = 1, max = 10)`, `length(equal = 3)`, garde's mode (`length(chars, ..)`).
    fn bounds(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        key: &str,
    ) -> syn::Result<(Option<u64>, Option<u64>)> {
        let (mut min, mut max) = (None, None);
        meta.parse_nested_meta(|m| {
            let k = m
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match k.as_str() {
                "min" | "max" | "equal" => {
                    let e: syn::Expr = m.value()?.parse()?;
                    match count(&e) {
                        Some(n) => {
                            if k != "max" {
                                min = Some(n);
                            }
                            if k != "min" {
                                max = Some(n);
                            }
                        }
                        None => self.needs_literal(m.path.segments[0].ident.span(), key),
                    }
                }
                _ => skip(&m)?,
            }
            Ok(())
        })?;
        Ok((min, max))
    }

    /// `range(min = 0, max = 10)`, `range(equal = 1)`, validator's `exclusive_min`/`exclusive_max`.
    fn range(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        kw: &mut Keywords,
        span: Span,
    ) -> syn::Result<()> {
        meta.parse_nested_meta(|m| {
            let k = m
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            let at = m.path.segments[0].ident.span();
            if !matches!(
                k.as_str(),
                "min" | "max" | "equal" | "exclusive_min" | "exclusive_max"
            ) {
                return skip(&m);
            }
            let e: syn::Expr = m.value()?.parse()?;
            let Some(n) = number(&e) else {
                self.needs_literal(at, "range");
                return Ok(());
            };
            let v = Sp { value: n, span };
            let yes = Sp { value: true, span };
            match k.as_str() {
                "min" => set(self.cx, &mut kw.minimum, "minimum", v),
                "max" => set(self.cx, &mut kw.maximum, "maximum", v),
                "equal" => {
                    set(self.cx, &mut kw.minimum, "minimum", v.clone());
                    set(self.cx, &mut kw.maximum, "maximum", v);
                }
                "exclusive_min" => {
                    set(self.cx, &mut kw.minimum, "minimum", v);
                    set(self.cx, &mut kw.exclusive_minimum, "exclusive_minimum", yes);
                }
                _ => {
                    set(self.cx, &mut kw.maximum, "maximum", v);
                    set(self.cx, &mut kw.exclusive_maximum, "exclusive_maximum", yes);
                }
            }
            Ok(())
        })
    }

    /// garde `pattern("..")`, schemars `regex(pattern = "..")`, validator `regex(path = ..)`.
    fn pattern(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        kw: &mut Keywords,
        key: &str,
        span: Span,
    ) -> syn::Result<()> {
        let text = match self.attr {
            "garde" => paren_lit(meta)?,
            "schemars" if key == "regex" => named_lit(meta, "pattern")?,
            "schemars" => paren_lit(meta)?,
            _ => {
                // validator names a `Regex` static: its text is known only at run time.
                skip(meta)?;
                None
            }
        };
        match text {
            Some(p) => {
                if let Err(e) = crdkit_apimachinery::regexp::check(&p) {
                    self.cx.error_at(
                        span,
                        format!(
                            "`#[{}({key})]` is not a regular expression the API server reads: {e}",
                            self.attr
                        ),
                    );
                }
                set(self.cx, &mut kw.pattern, "pattern", Sp { value: p, span });
            }
            None => self.needs_literal(span, key),
        }
        Ok(())
    }

    fn needs_literal(&self, span: Span, key: &str) {
        let example = hints::literal(key);
        self.cx.error_at(span, format!("`#[{}({key})]` on {} is not a literal, so crdkit cannot write it into the schema at compile time: write it as {example}", self.attr, self.what));
    }

    fn client_only(&self, span: Span, key: &str, hint: &str) {
        if !self.allow_client_only {
            self.cx.error_at(span, format!("`#[{}({key})]` on {} has no schema keyword, so the API server would not check it: {hint}; or keep it a client-side check with `#[crd(allow_client_only)]`", self.attr, self.what));
        }
    }
}

fn set<T>(cx: &Ctxt, slot: &mut Option<Sp<T>>, name: &str, v: Sp<T>) {
    if slot.is_some() {
        cx.error_at(
            v.span,
            format!("two validation attributes set `{name}`: keep one"),
        );
    } else {
        *slot = Some(v);
    }
}
