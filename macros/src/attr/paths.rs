//! The attributes that hold JSON paths into the schema: `print_column(..)` and `scale(..)`.
//! Their paths are parsed and resolved in `check::resource`; `allow_unresolved` leaves a path
//! whose target the type graph cannot show (written by another controller, a run-time schema)
//! unchecked, as the API server leaves it.

use proc_macro2::Span;

use super::{Sp, unknown};
use crate::ctxt::Ctxt;

/// `scale(spec_replicas = .., status_replicas = .., label_selector = ..)`
#[derive(Clone, Debug)]
pub struct ScaleAttr {
    pub spec_replicas: Option<Sp<String>>,
    pub status_replicas: Option<Sp<String>>,
    pub label_selector: Option<Sp<String>>,
    pub span: Span,
    /// `allow_unresolved`: the paths are not checked against the schema (a warning says so).
    pub allow_unresolved: Option<Span>,
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
    /// `allow_unresolved`: the path is not checked against the schema (a warning says so).
    pub allow_unresolved: Option<Span>,
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

/// `print_column(..)`; `None` after reporting errors.
pub fn parse_column(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<Option<ColumnAttr>> {
    let span = meta.path.segments[0].ident.span();
    if meta.input.peek(syn::Token![=]) {
        // kube-derive's `printcolumn = r#"{"name": .., "jsonPath": ..}"#`
        let lit = super::lit_str(meta)?;
        cx.error_spanned_by(&lit, super::kube::column_json_hint(&lit.value()));
        return Ok(None);
    }
    let (mut name, mut json_path, mut ty, mut format, mut description, mut priority) =
        (None, None, None, None, None, None);
    let mut allow_unresolved = None;
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
                // `priority = 1`, or kube-derive's `priority = "1"`
                let lit: syn::Lit = m.value()?.parse()?;
                let value = match &lit {
                    syn::Lit::Int(i) => i.base10_parse::<i32>()?,
                    syn::Lit::Str(s) => s
                        .value()
                        .parse::<i32>()
                        .map_err(|_| syn::Error::new(s.span(), "expected an integer"))?,
                    _ => return Err(syn::Error::new(lit.span(), "expected an integer")),
                };
                once(
                    cx,
                    &mut priority,
                    "priority",
                    Sp {
                        value,
                        span: lit.span(),
                    },
                );
            }
            "allow_unresolved" => allow_unresolved = Some(m.path.segments[0].ident.span()),
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
                    "allow_unresolved",
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
        allow_unresolved,
    }))
}

/// `scale(..)`; `None` after reporting errors.
pub fn parse_scale(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<Option<ScaleAttr>> {
    let span = meta.path.segments[0].ident.span();
    if meta.input.peek(syn::Token![=]) {
        // kube-derive's `scale = r#"{"specReplicasPath": ..}"#`
        let lit = super::lit_str(meta)?;
        cx.error_spanned_by(&lit, super::kube::scale_json_hint(&lit.value()));
        return Ok(None);
    }
    let mut s = ScaleAttr {
        spec_replicas: None,
        status_replicas: None,
        label_selector: None,
        span,
        allow_unresolved: None,
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
            "allow_unresolved" => s.allow_unresolved = Some(m.path.segments[0].ident.span()),
            _ => unknown(
                cx,
                &m,
                "`scale(..)`",
                &[
                    "spec_replicas",
                    "status_replicas",
                    "label_selector",
                    "allow_unresolved",
                ],
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
    Ok(Some(s))
}

fn once<T>(cx: &Ctxt, slot: &mut Option<Sp<T>>, name: &str, v: Sp<T>) {
    if slot.is_some() {
        cx.error_at(v.span, format!("duplicate crd attribute `{name}`"));
    } else {
        *slot = Some(v);
    }
}
