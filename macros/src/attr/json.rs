//! JSON literals in attributes: `default = {"a": [1, 2.5, "x", null]}`, `enum = ["a", "b"]`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::ParseStream;
use syn::spanned::Spanned as _;

/// A JSON literal written in an attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum JsonLit {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Array(Vec<JsonLit>),
    Object(Vec<(String, JsonLit)>),
}

/// `default = ..`: a literal, a function to call, or the type's `Default`.
// No `Debug` here or on the attribute types holding syn values: syn's `Debug` impls need its
// `extra-traits` feature, which slows the syn build that serde_derive waits for too.
#[derive(Clone)]
pub enum DefaultAttr {
    Literal(JsonLit, Span),
    Fn(syn::ExprPath),
    TypeDefault(Span),
}

impl JsonLit {
    /// Whether the next tokens start a JSON literal (rather than a path).
    pub fn peek(input: ParseStream<'_>) -> bool {
        input.peek(syn::Lit)
            || input.peek(syn::Token![-])
            || input.peek(syn::token::Bracket)
            || input.peek(syn::token::Brace)
            || (input.peek(syn::Ident) && {
                let fork = input.fork();
                fork.parse::<syn::Ident>().is_ok_and(|i| i == "null")
                    && (fork.is_empty() || fork.peek(syn::Token![,]))
            })
    }

    pub fn parse(input: ParseStream<'_>) -> syn::Result<JsonLit> {
        if input.peek(syn::token::Bracket) {
            let content;
            syn::bracketed!(content in input);
            let items = content.parse_terminated(JsonLit::parse, syn::Token![,])?;
            return Ok(JsonLit::Array(items.into_iter().collect()));
        }
        if input.peek(syn::token::Brace) {
            let content;
            syn::braced!(content in input);
            let mut entries = Vec::new();
            while !content.is_empty() {
                let key = if content.peek(syn::LitStr) {
                    content.parse::<syn::LitStr>()?.value()
                } else {
                    content.parse::<syn::Ident>()?.to_string()
                };
                content.parse::<syn::Token![:]>()?;
                entries.push((key, JsonLit::parse(&content)?));
                if content.is_empty() {
                    break;
                }
                content.parse::<syn::Token![,]>()?;
            }
            return Ok(JsonLit::Object(entries));
        }
        if input.peek(syn::Token![-]) {
            let minus: syn::Token![-] = input.parse()?;
            return match JsonLit::parse(input)? {
                JsonLit::Int(i) => Ok(JsonLit::Int(-i)),
                JsonLit::UInt(u) => i64::try_from(u)
                    .ok()
                    .and_then(i64::checked_neg)
                    .map(JsonLit::Int)
                    .ok_or_else(|| syn::Error::new(minus.span, "integer out of range")),
                JsonLit::Float(f) => Ok(JsonLit::Float(-f)),
                _ => Err(syn::Error::new(
                    minus.span,
                    "`-` must be followed by a number",
                )),
            };
        }
        if input.peek(syn::Ident) {
            let id: syn::Ident = input.parse()?;
            return if id == "null" {
                Ok(JsonLit::Null)
            } else {
                Err(syn::Error::new(id.span(), "expected a JSON literal"))
            };
        }
        let lit: syn::Lit = input.parse()?;
        match &lit {
            syn::Lit::Str(s) => Ok(JsonLit::Str(s.value())),
            syn::Lit::Bool(b) => Ok(JsonLit::Bool(b.value)),
            syn::Lit::Int(i) => {
                if !i.suffix().is_empty() {
                    return Err(syn::Error::new(
                        i.span(),
                        "write JSON numbers without a type suffix",
                    ));
                }
                match i.base10_parse::<i64>() {
                    Ok(v) => Ok(JsonLit::Int(v)),
                    Err(_) => Ok(JsonLit::UInt(i.base10_parse::<u64>()?)),
                }
            }
            syn::Lit::Float(f) => {
                if !f.suffix().is_empty() {
                    return Err(syn::Error::new(
                        f.span(),
                        "write JSON numbers without a type suffix",
                    ));
                }
                Ok(JsonLit::Float(f.base10_parse()?))
            }
            other => Err(syn::Error::new(
                other.span(),
                "expected a JSON literal: a string, number, bool, null, [..] or {..}",
            )),
        }
    }

    /// The `::crdkit::__private::Json` constructor of this literal.
    pub fn to_tokens(&self, krate: &TokenStream) -> TokenStream {
        let j = quote!(#krate::__private::Json);
        match self {
            JsonLit::Null => quote!(#j::Null),
            JsonLit::Bool(b) => quote!(#j::Bool(#b)),
            JsonLit::Int(i) => quote!(#j::Int(#i)),
            JsonLit::UInt(u) => quote!(#j::UInt(#u)),
            JsonLit::Float(f) => {
                let f = if f.is_finite() { *f } else { 0.0 };
                quote!(#j::Float(#f))
            }
            JsonLit::Str(s) => quote!(#j::Str(#s)),
            JsonLit::Array(items) => {
                let items = items.iter().map(|i| i.to_tokens(krate));
                quote!(#j::Array(&[#(#items),*]))
            }
            JsonLit::Object(entries) => {
                let entries = entries.iter().map(|(k, v)| {
                    let v = v.to_tokens(krate);
                    quote!((#k, #v))
                });
                quote!(#j::Object(&[#(#entries),*]))
            }
        }
    }

    /// The literal as a `serde_json::Value`, for checks that run in the macro.
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            JsonLit::Null => Value::Null,
            JsonLit::Bool(b) => Value::Bool(*b),
            JsonLit::Int(i) => Value::from(*i),
            JsonLit::UInt(u) => Value::from(*u),
            JsonLit::Float(f) => {
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
            }
            JsonLit::Str(s) => Value::from(s.as_str()),
            JsonLit::Array(a) => Value::Array(a.iter().map(JsonLit::to_value).collect()),
            JsonLit::Object(o) => {
                Value::Object(o.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }
}

impl DefaultAttr {
    /// `default`, `default = <literal>` or `default = path::to::function`.
    pub fn parse(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<DefaultAttr> {
        if !meta.input.peek(syn::Token![=]) {
            return Ok(DefaultAttr::TypeDefault(meta.path.span()));
        }
        let v = meta.value()?;
        if JsonLit::peek(v) {
            let span = v.span();
            let lit = JsonLit::parse(v)?;
            Ok(DefaultAttr::Literal(lit, span))
        } else {
            let path: syn::ExprPath = v.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected a JSON literal or the path of a function that returns the default",
                )
            })?;
            Ok(DefaultAttr::Fn(path))
        }
    }
}
