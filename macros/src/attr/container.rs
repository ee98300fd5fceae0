//! `#[crd(..)]` on the type: schema keywords, and for `CustomResource` the resource itself.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::keywords::{KEYS, Keywords};
use super::paths::{ColumnAttr, ScaleAttr};
use super::rule::RuleAttr;
use super::{Sp, unknown};
use crate::ctxt::Ctxt;

const RESOURCE_KEYS: &[&str] = &[
    "group",
    "version",
    "kind",
    "namespaced",
    "scope",
    "plural",
    "singular",
    "list_kind",
    "short_name",
    "category",
    "status",
    "root",
    "served",
    "storage",
    "deprecated",
    "deprecation_warning",
    "scale",
    "print_column",
    "selectable_field",
    "root_validation",
    "root_description",
    "max_desc_len",
    "derive",
    "flatten",
    "annotation",
    "label",
    "attr",
    "api_version_property",
    "kind_property",
    "metadata_property",
    "optional_spec",
    "status_subresource",
    "empty_subresources",
];

/// The resource-level attributes of `#[derive(CustomResource)]`.
#[derive(Default)]
pub struct ResourceAttrs {
    pub group: Option<Sp<String>>,
    pub version: Option<Sp<String>>,
    pub kind: Option<Sp<String>>,
    pub namespaced: Option<Sp<bool>>,
    pub plural: Option<Sp<String>>,
    pub singular: Option<Sp<String>>,
    pub list_kind: Option<Sp<String>>,
    pub short_names: Vec<Sp<String>>,
    pub categories: Vec<Sp<String>>,
    pub status: Option<syn::Type>,
    pub root: Option<Sp<String>>,
    pub served: Option<Sp<bool>>,
    pub storage: Option<Sp<bool>>,
    pub deprecated: Option<Sp<bool>>,
    pub deprecation_warning: Option<Sp<String>>,
    pub scale: Option<ScaleAttr>,
    pub columns: Vec<ColumnAttr>,
    pub selectable_fields: Vec<Sp<String>>,
    pub root_rules: Vec<RuleAttr>,
    pub root_description: Option<Sp<String>>,
    /// `max_desc_len = N`: descriptions cut to N bytes as controller-gen's `crd:maxDescLen`
    /// cuts them (0 drops them).
    pub max_desc_len: Option<Sp<u64>>,
    pub derives: Vec<syn::Path>,
    /// `flatten`: the spec's fields at the root of the object.
    pub flatten: Option<Sp<bool>>,
    /// `annotation("key", "value")`: the CRD's `metadata.annotations`.
    pub annotations: Vec<(Sp<String>, Sp<String>)>,
    /// `label("key", "value")`: the CRD's `metadata.labels`.
    pub labels: Vec<(Sp<String>, Sp<String>)>,
    /// `attr(..)`: attributes of the generated root type.
    pub attrs: Vec<syn::Meta>,
    /// `api_version_property`, `api_version_property = "description"`: the root schema's
    /// `apiVersion` property, as controller-gen writes it.
    pub api_version_property: Option<PropertyAttr>,
    /// `kind_property`: the root schema's `kind` property.
    pub kind_property: Option<PropertyAttr>,
    /// `metadata_property`, `metadata_property(required, description = "..")`: the root
    /// schema's `metadata` property (`type: object`), in the root's `required` with `required`.
    pub metadata_property: Option<PropertyAttr>,
    /// `optional_spec`: `spec` is not in the root's `required`.
    pub optional_spec: Option<Sp<bool>>,
    /// `status_subresource`: `subresources.status` without a status type.
    pub status_subresource: Option<Sp<bool>>,
    /// `empty_subresources`: `subresources: {}` without a subresource, as controller-gen
    /// writes it for a version without status or scale.
    pub empty_subresources: Option<Sp<bool>>,
}

/// `api_version_property`, `kind_property` and `metadata_property`: a root property the derive
/// writes itself, declared in the schema.
#[derive(Clone, Debug)]
pub struct PropertyAttr {
    pub description: Option<String>,
    /// `metadata_property(required)`
    pub required: bool,
    pub span: Span,
}

/// Everything in `#[crd(..)]` on a type.
#[derive(Default)]
pub struct ContainerAttrs {
    pub keywords: Keywords,
    /// `crate = "path"`: where the generated code finds crdkit.
    pub krate: Option<syn::Path>,
    pub resource: ResourceAttrs,
    /// Whether resource keys were seen (they belong on `CustomResource` only).
    pub first_resource_key: Option<Span>,
    /// `allow_client_only`: garde's and validator's rules on the type without a schema
    /// keyword stay client-side checks.
    pub allow_client_only: Option<Sp<bool>>,
}

fn once<T>(cx: &Ctxt, slot: &mut Option<Sp<T>>, name: &str, v: Sp<T>) {
    if slot.is_some() {
        cx.error_at(v.span, format!("duplicate crd attribute `{name}`"));
    } else {
        *slot = Some(v);
    }
}

impl ContainerAttrs {
    /// Parses `#[crd(..)]`; `resource` says whether the resource keys are allowed.
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute], resource: bool) -> ContainerAttrs {
        let mut out = ContainerAttrs::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("crd")) {
            let res = attr.parse_nested_meta(|meta| {
                let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
                if key == "crate" {
                    let v = meta.value()?;
                    let path: syn::Path = if v.peek(syn::LitStr) { v.parse::<syn::LitStr>()?.parse()? } else { v.parse()? };
                    out.krate = Some(path);
                    return Ok(());
                }
                if out.keywords.parse(cx, &key, &meta)? {
                    return Ok(());
                }
                if key == "allow_client_only" {
                    once(cx, &mut out.allow_client_only, &key, super::flag(&meta)?);
                    return Ok(());
                }
                if RESOURCE_KEYS.contains(&key.as_str()) {
                    if !resource {
                        cx.error_spanned_by(&meta.path, format!("`{key}` belongs on a `#[derive(CustomResource)]` type, not on `#[derive(Schema)]`"));
                        super::skip_value(&meta);
                        return Ok(());
                    }
                    out.first_resource_key.get_or_insert(meta.path.segments[0].ident.span());
                    return parse_resource_key(cx, &mut out.resource, &key, &meta);
                }
                if resource && super::kube::container_key(cx, &key, &meta) {
                    return Ok(());
                }
                let mut known: Vec<&str> = KEYS.to_vec();
                known.extend(["crate", "allow_client_only"]);
                if resource {
                    known.extend(RESOURCE_KEYS);
                }
                unknown(cx, &meta, "a type", &known);
                Ok(())
            });
            if let Err(e) = res {
                cx.syn_error(e);
            }
        }
        let allow = out.allow_client_only.as_ref().is_some_and(|a| a.value);
        let foreign = super::foreign::read(cx, attrs, "the type", true, allow);
        out.keywords
            .absorb(cx, foreign.keywords, "`#[schemars(..)]`");
        out
    }

    /// The path to crdkit in generated code.
    pub fn krate(&self) -> TokenStream {
        match &self.krate {
            Some(p) => quote!(#p),
            None => quote!(::crdkit),
        }
    }
}

fn parse_resource_key(
    cx: &Ctxt,
    r: &mut ResourceAttrs,
    key: &str,
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<()> {
    match key {
        "group" => once(cx, &mut r.group, key, super::string(meta)?),
        "version" => once(cx, &mut r.version, key, super::string(meta)?),
        "kind" => once(cx, &mut r.kind, key, super::string(meta)?),
        "namespaced" => once(
            cx,
            &mut r.namespaced,
            "namespaced` or `scope",
            super::flag(meta)?,
        ),
        "scope" => {
            let s = super::string(meta)?;
            let namespaced = match s.value.as_str() {
                "Namespaced" => true,
                "Cluster" => false,
                other => {
                    cx.error_at(s.span, format!("unsupported scope \"{other}\": supported values: \"Cluster\", \"Namespaced\""));
                    false
                }
            };
            once(
                cx,
                &mut r.namespaced,
                "namespaced` or `scope",
                Sp {
                    value: namespaced,
                    span: s.span,
                },
            );
        }
        "plural" => once(cx, &mut r.plural, key, super::string(meta)?),
        "singular" => once(cx, &mut r.singular, key, super::string(meta)?),
        "list_kind" => once(cx, &mut r.list_kind, key, super::string(meta)?),
        "short_name" => r.short_names.extend(super::strings(meta)?),
        "category" => r.categories.extend(super::strings(meta)?),
        "status" => {
            if r.status.is_some() {
                cx.error_spanned_by(&meta.path, "duplicate crd attribute `status`");
            }
            r.status = Some(super::ty(meta)?);
        }
        "root" => once(cx, &mut r.root, key, super::string(meta)?),
        "served" => once(cx, &mut r.served, key, super::flag(meta)?),
        "storage" => once(cx, &mut r.storage, key, super::flag(meta)?),
        "deprecated" => {
            if meta.input.peek(syn::Token![=]) && meta.input.peek2(syn::LitStr) {
                // kube-derive's `deprecated = "warning"`
                let w = super::lit_str(meta)?;
                cx.error_spanned_by(&w, format!("`deprecated = \"..\"` is kube-derive's: write `deprecated, deprecation_warning = {}`", quote::ToTokens::to_token_stream(&w)));
            } else {
                once(cx, &mut r.deprecated, key, super::flag(meta)?);
            }
        }
        "deprecation_warning" => once(cx, &mut r.deprecation_warning, key, super::string(meta)?),
        "api_version_property" | "kind_property" | "metadata_property" => {
            let p = parse_property(cx, key, meta)?;
            let slot = match key {
                "api_version_property" => &mut r.api_version_property,
                "kind_property" => &mut r.kind_property,
                _ => &mut r.metadata_property,
            };
            if slot.is_some() {
                cx.error_at(p.span, format!("duplicate crd attribute `{key}`"));
            }
            *slot = Some(p);
        }
        "optional_spec" => once(cx, &mut r.optional_spec, key, super::flag(meta)?),
        "status_subresource" => once(cx, &mut r.status_subresource, key, super::flag(meta)?),
        "empty_subresources" => once(cx, &mut r.empty_subresources, key, super::flag(meta)?),
        "root_description" => once(cx, &mut r.root_description, key, super::string(meta)?),
        "max_desc_len" => once(cx, &mut r.max_desc_len, key, super::count(meta)?),
        "flatten" => once(cx, &mut r.flatten, key, super::flag(meta)?),
        "scale" => {
            if let Some(scale) = super::paths::parse_scale(cx, meta)? {
                if r.scale.is_some() {
                    cx.error_at(scale.span, "duplicate crd attribute `scale`");
                }
                r.scale = Some(scale);
            }
        }
        "print_column" => {
            if let Some(c) = super::paths::parse_column(cx, meta)? {
                r.columns.push(c);
            }
        }
        "selectable_field" => r.selectable_fields.extend(super::strings(meta)?),
        "root_validation" => {
            if let Some(rule) = super::rule::parse(cx, meta) {
                r.root_rules.push(rule);
            }
        }
        "annotation" | "label" => {
            let pair = key_value(meta)?;
            if key == "annotation" {
                r.annotations.push(pair);
            } else {
                r.labels.push(pair);
            }
        }
        "attr" => {
            if meta.input.peek(syn::Token![=]) {
                let lit = super::lit_str(meta)?;
                cx.error_spanned_by(
                    &lit,
                    format!(
                        "a string is kube-derive's spelling: write `attr({})`",
                        lit.value()
                    ),
                );
            } else {
                meta.parse_nested_meta(|m| {
                    let meta: syn::Meta = if m.input.peek(syn::token::Paren) {
                        let content;
                        syn::parenthesized!(content in m.input);
                        let tokens: TokenStream = content.parse()?;
                        let path = &m.path;
                        syn::parse_quote!(#path(#tokens))
                    } else if m.input.peek(syn::Token![=]) {
                        let value: syn::Expr = m.value()?.parse()?;
                        let path = &m.path;
                        syn::parse_quote!(#path = #value)
                    } else {
                        syn::Meta::Path(m.path.clone())
                    };
                    let name = meta
                        .path()
                        .get_ident()
                        .map(ToString::to_string)
                        .unwrap_or_default();
                    if matches!(name.as_str(), "derive" | "serde" | "crd") {
                        cx.error_spanned_by(
                            meta.path(),
                            format!(
                                "`attr({name}(..))` would change what the derive generates: {}",
                                if name == "derive" {
                                    "write `derive(..)`"
                                } else {
                                    "the root type's serde and crd attributes are the derive's"
                                }
                            ),
                        );
                    } else {
                        r.attrs.push(meta);
                    }
                    Ok(())
                })?;
            }
        }
        "derive" => {
            if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|m| {
                    r.derives.push(m.path.clone());
                    Ok(())
                })?;
            } else {
                let v = meta.value()?;
                let p: syn::Path = if v.peek(syn::LitStr) {
                    v.parse::<syn::LitStr>()?.parse()?
                } else {
                    v.parse()?
                };
                r.derives.push(p);
            }
        }
        _ => unreachable!("resource keys are listed in RESOURCE_KEYS"),
    }
    Ok(())
}

/// `key`, `key = "description"`, `key(description = "..")`; `metadata_property(required)`.
fn parse_property(
    cx: &Ctxt,
    key: &str,
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<PropertyAttr> {
    let span = meta.path.segments[0].ident.span();
    let mut p = PropertyAttr {
        description: None,
        required: false,
        span,
    };
    if meta.input.peek(syn::Token![=]) {
        p.description = Some(super::string(meta)?.value);
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|m| {
            let k = m
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match k.as_str() {
                "description" => p.description = Some(super::string(&m)?.value),
                "required" if key == "metadata_property" => p.required = super::flag(&m)?.value,
                _ => {
                    let known: &[&str] = if key == "metadata_property" {
                        &["description", "required"]
                    } else {
                        &["description"]
                    };
                    super::unknown(cx, &m, &format!("`{key}(..)`"), known);
                }
            }
            Ok(())
        })?;
    }
    Ok(p)
}

/// `key("name", "value")`
fn key_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<(Sp<String>, Sp<String>)> {
    let content;
    syn::parenthesized!(content in meta.input);
    let k: syn::LitStr = content.parse()?;
    content.parse::<syn::Token![,]>()?;
    let v: syn::LitStr = content.parse()?;
    let _ = content.parse::<Option<syn::Token![,]>>()?;
    let sp = |l: &syn::LitStr| Sp {
        value: l.value(),
        span: l.span(),
    };
    Ok((sp(&k), sp(&v)))
}
