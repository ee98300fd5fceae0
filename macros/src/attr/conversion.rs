//! `conversion = "None"` and `webhook(..)`: the CRD's `spec.conversion`, on a
//! `#[derive(Versions)]` enum (`#[versions(..)]`) and in `#[crdkit::versioned(..)]`.
//!
//! The client configuration is checked here, when it is literal, with the API server's own
//! checks (apiserver `pkg/util/webhook/validation.go`, via `crdkit_apimachinery::webhook`) and
//! apiextensions `validateConversionReviewVersions`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;

use super::{Sp, unknown_in};
use crate::ctxt::Ctxt;
use crdkit_apimachinery::field::FieldPath;
use crdkit_apimachinery::{names, webhook};

/// `spec.conversion` as written.
pub enum ConversionAttr {
    /// `conversion = "None"`
    None,
    /// `webhook(..)`
    Webhook(WebhookAttr),
}

/// `webhook(url = "..", service(..), ca_bundle = "..", review_versions("v1", "v1beta1"))`
#[derive(Default)]
pub struct WebhookAttr {
    pub url: Option<Sp<String>>,
    pub service: Option<ServiceAttr>,
    pub ca_bundle: Option<Sp<String>>,
    pub review_versions: Vec<Sp<String>>,
}

/// `service(namespace = "..", name = "..", path = "/..", port = 443)`
pub struct ServiceAttr {
    pub namespace: Sp<String>,
    pub name: Sp<String>,
    pub path: Option<Sp<String>>,
    pub port: Option<Sp<i32>>,
}

/// The `ConversionReview` versions written when `review_versions` is left out: both that the
/// API server sends (the page's example lists them so).
const DEFAULT_REVIEW_VERSIONS: &[&str] = &["v1", "v1beta1"];

/// `conversion = "None"`; `conversion = "Webhook"` asks for `webhook(..)`.
pub fn parse_strategy(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Option<ConversionAttr>> {
    let s = super::string(meta)?;
    match s.value.as_str() {
        "None" => Ok(Some(ConversionAttr::None)),
        "Webhook" => {
            cx.error_at(s.span, "a webhook conversion is declared with its client configuration: `webhook(url = \"https://..\")` or `webhook(service(namespace = \"..\", name = \"..\"))`");
            Ok(None)
        }
        other => {
            cx.error_at(s.span, format!("unsupported conversion strategy \"{other}\": supported values: \"None\", \"Webhook\""));
            Ok(None)
        }
    }
}

/// The body of `webhook(..)`, checked as the API server checks it.
pub fn parse_webhook(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<WebhookAttr>> {
    let span = meta.path.segments[0].ident.span();
    let mut w = WebhookAttr::default();
    let mut review_span = None;
    meta.parse_nested_meta(|m| {
        let key = m
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "url" => {
                let url = super::string(&m)?;
                // webhook.go requires https for conversion webhooks (`forceHttps`).
                for e in webhook::validate_webhook_url(&FieldPath::new("url"), &url.value, true) {
                    cx.error_at(
                        url.span,
                        format!("invalid webhook `url` \"{}\": {}", url.value, e.detail),
                    );
                }
                dup(cx, &m, w.url.is_some());
                w.url = Some(url);
            }
            "service" => {
                dup(cx, &m, w.service.is_some());
                w.service = parse_service(cx, &m)?;
            }
            "ca_bundle" => {
                dup(cx, &m, w.ca_bundle.is_some());
                w.ca_bundle = Some(super::string(&m)?);
            }
            "review_versions" | "conversion_review_versions" => {
                dup(cx, &m, review_span.is_some());
                review_span = Some(m.path.segments[0].ident.span());
                w.review_versions = super::strings(&m)?;
            }
            _ => unknown_in(
                cx,
                "versions",
                &m,
                "`webhook(..)`",
                &["url", "service", "ca_bundle", "review_versions"],
            ),
        }
        Ok(())
    })?;
    // validateCustomResourceConversion: `exactly one of url or service is required`.
    if w.url.is_some() == w.service.is_some() {
        cx.error_at(span, "`webhook(..)` needs exactly one of `url = \"https://host[/path]\"` or `service(namespace = \"..\", name = \"..\")`");
    }
    check_review_versions(cx, &w.review_versions, review_span);
    Ok(Some(w))
}

fn dup(cx: &Ctxt, m: &ParseNestedMeta<'_>, seen: bool) {
    if seen {
        cx.error_spanned_by(&m.path, "duplicate attribute");
    }
}

// service(namespace = "default", name = "example-conversion-webhook-server", path = "/crdconvert", port = 443)
fn parse_service(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<ServiceAttr>> {
    let span = meta.path.segments[0].ident.span();
    let (mut namespace, mut name, mut path, mut port) = (None, None, None, None);
    meta.parse_nested_meta(|m| {
        let key = m
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "namespace" => namespace = Some(super::string(&m)?),
            "name" => name = Some(super::string(&m)?),
            "path" => path = Some(super::string(&m)?),
            "port" => {
                let lit: syn::LitInt = m.value()?.parse()?;
                port = Some(Sp {
                    value: lit.base10_parse::<i32>()?,
                    span: lit.span(),
                });
            }
            _ => unknown_in(
                cx,
                "versions",
                &m,
                "`service(..)`",
                &["namespace", "name", "path", "port"],
            ),
        }
        Ok(())
    })?;
    let (Some(namespace), Some(name)) = (namespace, name) else {
        cx.error_at(
            span,
            "`service(..)` needs `namespace = \"..\"` and `name = \"..\"`",
        );
        return Ok(None);
    };
    let errors = webhook::validate_webhook_service(
        &FieldPath::new("service"),
        &namespace.value,
        &name.value,
        path.as_ref().map(|p: &Sp<String>| p.value.as_str()),
        port.as_ref().map_or(443, |p: &Sp<i32>| p.value),
    );
    for e in errors {
        let (what, at) = match e.field.to_string().as_str() {
            "service.name" => ("name", name.span),
            "service.namespace" => ("namespace", namespace.span),
            "service.port" => ("port", port.as_ref().map_or(span, |p| p.span)),
            _ => ("path", path.as_ref().map_or(span, |p| p.span)),
        };
        cx.error_at(
            at,
            format!("invalid webhook service `{what}`: {}", e.detail),
        );
    }
    Ok(Some(ServiceAttr {
        namespace,
        name,
        path,
        port,
    }))
}

/// validateConversionReviewVersions: DNS-1035 labels, no duplicates, one the API server sends.
fn check_review_versions(cx: &Ctxt, versions: &[Sp<String>], span: Option<Span>) {
    let Some(span) = span else { return };
    if versions.is_empty() {
        cx.error_at(
            span,
            "`review_versions` needs at least one version: \"v1\" or \"v1beta1\"",
        );
        return;
    }
    let mut seen = Vec::new();
    for v in versions {
        if seen.contains(&v.value.as_str()) {
            cx.error_at(
                v.span,
                format!("invalid review version \"{}\": duplicate version", v.value),
            );
            continue;
        }
        seen.push(v.value.as_str());
        for e in names::dns1035_label(&v.value) {
            cx.error_at(
                v.span,
                format!("invalid review version \"{}\": {e}", v.value),
            );
        }
    }
    if !seen.iter().any(|v| DEFAULT_REVIEW_VERSIONS.contains(v)) {
        cx.error_at(
            span,
            "`review_versions` must include at least one of v1, v1beta1",
        );
    }
}

impl ConversionAttr {
    /// The `Conversion` expression (`p` is the path of `crdkit::__private`).
    pub fn to_tokens(&self, p: &TokenStream) -> TokenStream {
        let v = quote!(#p::versions);
        let WebhookAttr {
            url,
            service,
            ca_bundle,
            review_versions,
        } = match self {
            ConversionAttr::None => return quote!(#v::Conversion::None),
            ConversionAttr::Webhook(w) => w,
        };
        let opt = |o: Option<&str>| match o {
            Some(s) => quote!(::core::option::Option::Some(#s)),
            None => quote!(::core::option::Option::None),
        };
        let url = opt(url.as_ref().map(|u| u.value.as_str()));
        let ca_bundle = opt(ca_bundle.as_ref().map(|c| c.value.as_str()));
        let service = match service {
            Some(s) => {
                let (ns, name) = (&s.namespace.value, &s.name.value);
                let path = opt(s.path.as_ref().map(|p| p.value.as_str()));
                let port = match &s.port {
                    Some(p) => {
                        let p = p.value;
                        quote!(::core::option::Option::Some(#p))
                    }
                    None => quote!(::core::option::Option::None),
                };
                quote!(::core::option::Option::Some(#v::Service { namespace: #ns, name: #name, path: #path, port: #port }))
            }
            None => quote!(::core::option::Option::None),
        };
        let reviews: Vec<&str> = if review_versions.is_empty() {
            DEFAULT_REVIEW_VERSIONS.to_vec()
        } else {
            review_versions.iter().map(|r| r.value.as_str()).collect()
        };
        quote!(#v::Conversion::Webhook(#v::Webhook { review_versions: &[#(#reviews),*], url: #url, service: #service, ca_bundle: #ca_bundle }))
    }
}
