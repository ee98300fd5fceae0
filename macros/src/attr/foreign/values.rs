//! Reading the literal values of other derives' attributes: `pattern("..")`,
//! `contains(pattern = "..")`, `min = 1`, `-1.5`, `"3"`, without knowing those derives'
//! grammars beyond what their rules look like.

use syn::meta::ParseNestedMeta;

/// Consumes what follows a key we need not read.
pub(super) fn skip(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

/// Whether `key(..)` holds `name = value` pairs rather than one expression.
pub(super) fn paren_is_meta(meta: &ParseNestedMeta<'_>) -> bool {
    let Ok(proc_macro2::TokenTree::Group(g)) = meta.input.fork().parse::<proc_macro2::TokenTree>()
    else {
        return false;
    };
    let mut tokens = g.stream().into_iter();
    matches!(
        (tokens.next(), tokens.next()),
        (Some(proc_macro2::TokenTree::Ident(_)), Some(proc_macro2::TokenTree::Punct(p))) if p.as_char() == '='
    )
}

/// `key("literal")`: the literal, `None` for another expression (a path to a static).
pub(super) fn paren_lit(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let e: syn::Expr = content.parse()?;
    Ok(str_lit(&e))
}

/// `key = "literal"` or `key(name = "literal", ..)`: the literal, `None` for an expression.
pub(super) fn named_lit(meta: &ParseNestedMeta<'_>, name: &str) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        let e: syn::Expr = meta.value()?.parse()?;
        return Ok(str_lit(&e));
    }
    let mut out = None;
    meta.parse_nested_meta(|m| {
        if m.path.is_ident(name) {
            let e: syn::Expr = m.value()?.parse()?;
            out = str_lit(&e);
        } else {
            skip(&m)?;
        }
        Ok(())
    })?;
    Ok(out)
}

pub(super) fn str_lit(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// A number literal, negative or not (`0`, `-1.5`, `"3"` as validator once allowed).
pub(super) fn number(e: &syn::Expr) -> Option<f64> {
    match e {
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => number(expr).map(|n| -n),
        syn::Expr::Lit(syn::ExprLit { lit, .. }) => match lit {
            syn::Lit::Int(i) => i.base10_parse().ok(),
            syn::Lit::Float(f) => f.base10_parse().ok(),
            syn::Lit::Str(s) => s.value().parse().ok(),
            _ => None,
        },
        syn::Expr::Paren(p) => number(&p.expr),
        _ => None,
    }
}

pub(super) fn count(e: &syn::Expr) -> Option<u64> {
    match e {
        syn::Expr::Lit(syn::ExprLit { lit, .. }) => match lit {
            syn::Lit::Int(i) => i.base10_parse().ok(),
            syn::Lit::Str(s) => s.value().parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

/// Go's `regexp.QuoteMeta`: the text matched literally.
pub(super) fn quote_meta(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::quote_meta;

    #[test]
    fn quotes_as_go() {
        assert_eq!(quote_meta("a.b*(c)"), r"a\.b\*\(c\)");
        assert_eq!(quote_meta("x-y/z"), "x-y/z");
    }
}
