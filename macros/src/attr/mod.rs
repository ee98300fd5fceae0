//! `#[crd(..)]` attributes: typed values with the span of the tokens that set them.
//!
//! Simple rules live here (a duplicate key, a wrong literal, an unknown key with a "did you mean");
//! rules that need several attributes or the whole type live in `check/`.

pub mod container;
pub mod conversion;
pub mod field;
pub mod foreign;
pub mod json;
pub mod junctors;
pub mod keywords;
mod kube;
pub mod paths;
pub mod rule;

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;

use crate::ctxt::Ctxt;

/// A value and the span of the attribute that set it.
#[derive(Clone, Debug)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
}

/// An attribute that may be set once.
pub struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: &'static str,
    value: Option<Sp<T>>,
}

impl<'c, T> Attr<'c, T> {
    pub fn none(cx: &'c Ctxt, name: &'static str) -> Self {
        Attr {
            cx,
            name,
            value: None,
        }
    }

    pub fn set(&mut self, span: Span, value: T) {
        if self.value.is_some() {
            self.cx
                .error_at(span, format!("duplicate crd attribute `{}`", self.name));
        } else {
            self.value = Some(Sp { value, span });
        }
    }

    pub fn get(self) -> Option<Sp<T>> {
        self.value
    }
}

/// `key = "string"`
pub fn string(meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<String>> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    Ok(Sp {
        value: lit.value(),
        span: lit.span(),
    })
}

/// `key = "string"` as the literal, for spans into rule text.
pub fn lit_str(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::LitStr> {
    meta.value()?.parse()
}

/// `key = 1`, `key = -1.5`
pub fn number(meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<f64>> {
    let expr: syn::Expr = meta.value()?.parse()?;
    let span = expr.span();
    let (neg, lit) = match &expr {
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        e => (false, e),
    };
    let v = match lit {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<f64>()?,
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Float(f),
            ..
        }) => f.base10_parse::<f64>()?,
        _ => return Err(syn::Error::new(span, "expected a number literal")),
    };
    Ok(Sp {
        value: if neg { -v } else { v },
        span,
    })
}

/// `key = 10`: a non-negative integer.
pub fn count(meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<u64>> {
    let lit: syn::LitInt = meta
        .value()
        .and_then(|v| v.parse())
        .map_err(|e| syn::Error::new(e.span(), "expected a non-negative integer literal"))?;
    Ok(Sp {
        value: lit.base10_parse()?,
        span: lit.span(),
    })
}

/// `key` or `key = true|false`
pub fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<bool>> {
    if meta.input.peek(syn::Token![=]) {
        let lit: syn::LitBool = meta.value()?.parse()?;
        Ok(Sp {
            value: lit.value,
            span: lit.span(),
        })
    } else {
        Ok(Sp {
            value: true,
            span: meta.path.span(),
        })
    }
}

/// `key = "a"` repeated, or `key("a", "b")`, or `key = ["a", "b"]`.
pub fn strings(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<Sp<String>>> {
    let lits: Vec<syn::LitStr> = if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content
            .parse_terminated(<syn::LitStr as syn::parse::Parse>::parse, syn::Token![,])?
            .into_iter()
            .collect()
    } else {
        let v = meta.value()?;
        if v.peek(syn::token::Bracket) {
            let content;
            syn::bracketed!(content in v);
            content
                .parse_terminated(<syn::LitStr as syn::parse::Parse>::parse, syn::Token![,])?
                .into_iter()
                .collect()
        } else {
            vec![v.parse()?]
        }
    };
    Ok(lits
        .into_iter()
        .map(|l| Sp {
            value: l.value(),
            span: l.span(),
        })
        .collect())
}

/// `key = Type` or `key = "Type"`
pub fn ty(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::Type> {
    let v = meta.value()?;
    if v.peek(syn::LitStr) {
        let lit: syn::LitStr = v.parse()?;
        lit.parse()
    } else {
        v.parse()
    }
}

/// Reports an unknown key of `#[crd(..)]`, suggesting the closest known one.
pub fn unknown(cx: &Ctxt, meta: &ParseNestedMeta<'_>, what: &str, known: &[&str]) {
    unknown_in(cx, "crd", meta, what, known);
}

/// Reports an unknown key of the attribute `attr` (`crd`, `versions`, `versioned`).
pub fn unknown_in(cx: &Ctxt, attr: &str, meta: &ParseNestedMeta<'_>, what: &str, known: &[&str]) {
    let key = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| {
            quote::ToTokens::to_token_stream(&meta.path)
                .to_string()
                .replace(' ', "")
        });
    let mut msg = format!("unknown {attr} attribute `{key}` on {what}");
    if let Some(best) = closest(&key, known) {
        msg.push_str(&format!("; did you mean `{best}`?"));
    } else {
        msg.push_str(&format!("; expected one of: {}", known.join(", ")));
    }
    cx.error_spanned_by(&meta.path, msg);
    skip_value(meta);
}

/// Consumes whatever follows an unknown key so parsing can go on.
pub fn skip_value(meta: &ParseNestedMeta<'_>) {
    if meta.input.peek(syn::Token![=]) {
        let _ = meta.value().and_then(|v| v.parse::<syn::Expr>());
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|m| {
            skip_value(&m);
            Ok(())
        });
    }
}

/// The known key nearest to `key` by edit distance, if near enough to be a typo.
pub fn closest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace(['-', '_'], "");
    let k = norm(key);
    known
        .iter()
        .map(|c| (levenshtein(&k, &norm(c)), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn suggests_near_keys_only() {
        let known = ["max_length", "min_length", "maximum", "pattern"];
        assert_eq!(closest("maxLength", &known), Some("max_length"));
        assert_eq!(closest("patern", &known), Some("pattern"));
        assert_eq!(closest("frobnicate", &known), None);
    }
}
