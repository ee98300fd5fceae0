//! `validation(rule = "..", message = "..", message_expression = "..", reason = "..",
//! field_path = "..", optional_old_self)`: one `x-kubernetes-validations` entry.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;

use super::{Attr, Sp, closest};
use crate::ctxt::Ctxt;

/// The reasons the API server accepts (apiextensions validation.go `supportedValidationReason`).
pub const REASONS: &[&str] = &[
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

const KEYS: &[&str] = &[
    "rule",
    "message",
    "message_expression",
    "reason",
    "field_path",
    "optional_old_self",
];

/// One validation rule as written.
#[derive(Clone)]
pub struct RuleAttr {
    pub rule: syn::LitStr,
    pub message: Option<syn::LitStr>,
    pub message_expression: Option<syn::LitStr>,
    pub reason: Option<Sp<String>>,
    pub field_path: Option<syn::LitStr>,
    pub optional_old_self: bool,
}

/// Parses the parenthesized body of `validation(..)`; `None` after reporting errors.
pub fn parse(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> Option<RuleAttr> {
    let span = meta
        .path
        .get_ident()
        .map_or_else(Span::call_site, syn::Ident::span);
    let mut rule = Attr::none(cx, "rule");
    let mut message = Attr::none(cx, "message");
    let mut message_expression = Attr::none(cx, "message_expression");
    let mut reason = Attr::none(cx, "reason");
    let mut field_path = Attr::none(cx, "field_path");
    let mut optional_old_self = Attr::none(cx, "optional_old_self");
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            "expected `validation(rule = \"..\", message = \"..\")`",
        );
        super::skip_value(meta);
        return None;
    }
    let res = meta.parse_nested_meta(|m| {
        let key = m
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "rule" => {
                let l = super::lit_str(&m)?;
                rule.set(l.span(), l);
            }
            "message" => {
                let l = super::lit_str(&m)?;
                message.set(l.span(), l);
            }
            "message_expression" => {
                let l = super::lit_str(&m)?;
                message_expression.set(l.span(), l);
            }
            "reason" => {
                let s = super::string(&m)?;
                if !REASONS.contains(&s.value.as_str()) {
                    let hint = closest(&s.value, REASONS)
                        .map(|c| format!("; did you mean \"{c}\"?"))
                        .unwrap_or_default();
                    cx.error_at(
                        s.span,
                        format!(
                            "unsupported reason \"{}\": supported values: {}{hint}",
                            s.value,
                            REASONS
                                .iter()
                                .map(|r| format!("\"{r}\""))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                reason.set(s.span, s);
            }
            "field_path" => {
                let l = super::lit_str(&m)?;
                field_path.set(l.span(), l);
            }
            "optional_old_self" => {
                let f = super::flag(&m)?;
                optional_old_self.set(f.span, f.value);
            }
            _ => super::unknown(cx, &m, "a validation rule", KEYS),
        }
        Ok(())
    });
    if let Err(e) = res {
        cx.syn_error(e);
        return None;
    }
    let Some(rule) = rule.get() else {
        cx.error_at(span, "`validation(..)` needs `rule = \"<CEL expression>\"`");
        return None;
    };
    // An empty string is the same as no value: the API server's checks skip it and Go's
    // `omitempty` drops it from the stored CRD.
    let set = |l: Option<syn::LitStr>| l.filter(|l| !l.value().is_empty());
    let r = RuleAttr {
        rule: rule.value,
        message: set(message.get().map(|s| s.value)),
        message_expression: set(message_expression.get().map(|s| s.value)),
        reason: reason.get().map(|s| s.value),
        field_path: set(field_path.get().map(|s| s.value)),
        optional_old_self: optional_old_self.get().is_some_and(|s| s.value),
    };
    check_texts(cx, &r);
    Some(r)
}

/// The API server's checks on the rule's strings (validation.go, x-kubernetes-validations).
fn check_texts(cx: &Ctxt, r: &RuleAttr) {
    let rule = r.rule.value();
    let msg = r.message.as_ref().map(syn::LitStr::value);
    if rule.trim().is_empty() {
        cx.error_spanned_by(
            &r.rule,
            "rule is not specified: `rule` must be a CEL expression",
        );
    }
    if let Some(m) = &msg {
        if m.trim().is_empty() {
            cx.error_spanned_by(&r.message, "`message` must be non-empty if specified");
        } else if m.trim().contains(['\n', '\r']) {
            cx.error_spanned_by(&r.message, "`message` must not contain line breaks");
        }
    }
    if rule.trim().contains(['\n', '\r']) && msg.as_deref().is_none_or(|m| m.trim().is_empty()) {
        cx.error_spanned_by(
            &r.rule,
            "`message` must be specified if the rule contains line breaks",
        );
    }
    if let Some(e) = &r.message_expression
        && e.value().trim().is_empty()
    {
        cx.error_spanned_by(e, "`message_expression` must be non-empty if specified");
    }
    if let Some(p) = &r.field_path {
        let v = p.value();
        if v.trim().is_empty() {
            cx.error_spanned_by(p, "`field_path` must be non-empty if specified");
        } else if v.contains(['\n', '\r']) {
            cx.error_spanned_by(p, "`field_path` must not contain line breaks");
        }
    }
}
