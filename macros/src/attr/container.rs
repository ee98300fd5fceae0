//! `#[crd(..)]` on the type: schema keywords, and for `CustomResource` the resource itself.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::keywords::{KEYS, Keywords};
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
];

/// `scale(spec_replicas = .., status_replicas = .., label_selector = ..)`
#[derive(Clone, Debug)]
pub struct ScaleAttr {
    pub spec_replicas: Option<Sp<String>>,
    pub status_replicas: Option<Sp<String>>,
    pub label_selector: Option<Sp<String>>,
    pub span: Span,
}

/// `print_column(name = .., json_path = .., type = .., format = .., description = .., priority = ..)`
#[derive(Clone, Debug)]
pub struct ColumnAttr {
    pub name: Sp<String>,
    pub json_path: Sp<String>,
    /// `None`: inferred from the schema at the path.
    pub ty: Option<Sp<String>>,
    pub format: Option<Sp<String>>,
    pub description: Option<String>,
    pub priority: i32,
}

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
                if RESOURCE_KEYS.contains(&key.as_str()) {
                    if !resource {
                        cx.error_spanned_by(&meta.path, format!("`{key}` belongs on a `#[derive(CustomResource)]` type, not on `#[derive(Schema)]`"));
                        super::skip_value(&meta);
                        return Ok(());
                    }
                    out.first_resource_key.get_or_insert(meta.path.segments[0].ident.span());
                    return parse_resource_key(cx, &mut out.resource, &key, &meta);
                }
                let mut known: Vec<&str> = KEYS.to_vec();
                known.push("crate");
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
        "deprecated" => once(cx, &mut r.deprecated, key, super::flag(meta)?),
        "deprecation_warning" => once(cx, &mut r.deprecation_warning, key, super::string(meta)?),
        "root_description" => once(cx, &mut r.root_description, key, super::string(meta)?),
        "max_desc_len" => once(cx, &mut r.max_desc_len, key, super::count(meta)?),
        "flatten" => once(cx, &mut r.flatten, key, super::flag(meta)?),
        "scale" => {
            let span = meta.path.segments[0].ident.span();
            let mut s = ScaleAttr {
                spec_replicas: None,
                status_replicas: None,
                label_selector: None,
                span,
            };
            meta.parse_nested_meta(|m| {
                let k = m
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                match k.as_str() {
                    "spec_replicas" | "spec_replicas_path" => once(
                        cx,
                        &mut s.spec_replicas,
                        "spec_replicas",
                        super::string(&m)?,
                    ),
                    "status_replicas" | "status_replicas_path" => once(
                        cx,
                        &mut s.status_replicas,
                        "status_replicas",
                        super::string(&m)?,
                    ),
                    "label_selector" | "label_selector_path" => once(
                        cx,
                        &mut s.label_selector,
                        "label_selector",
                        super::string(&m)?,
                    ),
                    _ => unknown(
                        cx,
                        &m,
                        "`scale(..)`",
                        &["spec_replicas", "status_replicas", "label_selector"],
                    ),
                }
                Ok(())
            })?;
            if s.spec_replicas.is_none() {
                cx.error_at(
                    span,
                    "`scale(..)` needs `spec_replicas = \".spec.<field>\"`",
                );
            }
            if s.status_replicas.is_none() {
                cx.error_at(
                    span,
                    "`scale(..)` needs `status_replicas = \".status.<field>\"`",
                );
            }
            if r.scale.is_some() {
                cx.error_at(span, "duplicate crd attribute `scale`");
            }
            r.scale = Some(s);
        }
        "print_column" => {
            if let Some(c) = parse_column(cx, meta)? {
                r.columns.push(c);
            }
        }
        "selectable_field" => r.selectable_fields.extend(super::strings(meta)?),
        "root_validation" => {
            if let Some(rule) = super::rule::parse(cx, meta) {
                r.root_rules.push(rule);
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

/// Printer column types and formats the API server accepts (validation.go).
pub const COLUMN_TYPES: &[&str] = &["boolean", "date", "integer", "number", "string"];
pub const COLUMN_FORMATS: &[&str] = &[
    "byte",
    "date",
    "date-time",
    "double",
    "float",
    "int32",
    "int64",
    "password",
];

fn parse_column(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<Option<ColumnAttr>> {
    let span = meta.path.segments[0].ident.span();
    let (mut name, mut json_path, mut ty, mut format, mut description, mut priority) =
        (None, None, None, None, None, None);
    meta.parse_nested_meta(|m| {
        let k = m
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match k.as_str() {
            "name" => once(cx, &mut name, "name", super::string(&m)?),
            "json_path" | "jsonpath" => once(cx, &mut json_path, "json_path", super::string(&m)?),
            "type" | "type_" => {
                let t = super::string(&m)?;
                if !COLUMN_TYPES.contains(&t.value.as_str()) {
                    cx.error_at(
                        t.span,
                        format!(
                            "unsupported printer column type \"{}\": must be one of {}",
                            t.value,
                            COLUMN_TYPES.join(",")
                        ),
                    );
                }
                once(cx, &mut ty, "type", t);
            }
            "format" => {
                let f = super::string(&m)?;
                if !COLUMN_FORMATS.contains(&f.value.as_str()) {
                    cx.error_at(
                        f.span,
                        format!(
                            "unsupported printer column format \"{}\": must be one of {}",
                            f.value,
                            COLUMN_FORMATS.join(",")
                        ),
                    );
                }
                once(cx, &mut format, "format", f);
            }
            "description" => once(cx, &mut description, "description", super::string(&m)?),
            "priority" => {
                let lit: syn::LitInt = m.value()?.parse()?;
                once(
                    cx,
                    &mut priority,
                    "priority",
                    Sp {
                        value: lit.base10_parse::<i32>()?,
                        span: lit.span(),
                    },
                );
            }
            _ => unknown(
                cx,
                &m,
                "`print_column(..)`",
                &[
                    "name",
                    "json_path",
                    "type",
                    "format",
                    "description",
                    "priority",
                ],
            ),
        }
        Ok(())
    })?;
    let missing = |what: &str| cx.error_at(span, format!("`print_column(..)` needs `{what}`"));
    let (Some(name), Some(json_path)) = (name.clone(), json_path.clone()) else {
        if name.is_none() {
            missing("name = \"..\"");
        }
        if json_path.is_none() {
            missing("json_path = \".spec..\"");
        }
        return Ok(None);
    };
    if name.value.is_empty() {
        cx.error_at(name.span, "printer column `name` must not be empty");
    }
    Ok(Some(ColumnAttr {
        name,
        json_path,
        ty,
        format,
        description: description.map(|d: Sp<String>| d.value),
        priority: priority.map_or(0, |p: Sp<i32>| p.value),
    }))
}
