//! Model → tokens. Never reports a user error: the input was checked (`check/`), and what
//! needs other types' shapes becomes `const` checks that rustc evaluates.

pub mod cel;
mod defaults;
mod keywords;
pub mod resource;
pub mod shape;

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{quote, quote_spanned};

use crate::ast::{Container, Data, Style};
use shape::{Check, Gen};

/// `impl Schema` plus the associated consts and the const checks.
pub struct SchemaImpl {
    pub tokens: TokenStream,
}

/// Expands the `Schema` impl of a container.
pub fn schema_impl(generator: &mut Gen, cont: &Container<'_>) -> SchemaImpl {
    let shape = generator.container(cont);
    let krate = &generator.krate;
    let ident = cont.ident;
    let generics = with_schema_bounds(cont.generics, krate);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let consts = &generator.consts;
    let checks = if cont.generics.params.is_empty() {
        emit_checks(&generator.checks, ident, krate)
    } else {
        TokenStream::new()
    };
    // serde writes an externally tagged unit-only enum as a string, so it can key a map.
    let map_key = if unit_only_external(cont) {
        quote! {
            impl #impl_generics #krate::__private::MapKey for #ident #ty_generics #where_clause {}
        }
    } else {
        TokenStream::new()
    };
    let tokens = quote! {
        impl #impl_generics #ident #ty_generics #where_clause {
            #(#consts)*
        }
        impl #impl_generics #krate::__private::Schema for #ident #ty_generics #where_clause {
            const SHAPE: #krate::__private::Shape = #shape;
        }
        #map_key
        #checks
    };
    SchemaImpl { tokens }
}

/// An enum whose variants are all units, written by serde as plain strings (no `tag`, not
/// `untagged`, no `from`/`into` proxy).
fn unit_only_external(cont: &Container<'_>) -> bool {
    let Data::Enum(variants) = &cont.data else {
        return false;
    };
    cont.serde.proxy.is_none()
        && cont.serde.tag.is_none()
        && !cont.serde.untagged
        && variants.iter().any(|v| !v.serde.skip)
        && variants
            .iter()
            .all(|v| v.serde.skip || (matches!(v.style, Style::Unit) && v.serde.untagged.is_none()))
}

/// `const _: () = match check { Ok(()) => (), Err(e) => panic!("{}", e.as_str()) };` per check,
/// spanned at what asked for it, so rustc's `evaluation panicked` points there.
pub fn emit_checks(checks: &[Check], ident: &Ident, krate: &TokenStream) -> TokenStream {
    let items = checks.iter().map(|c| {
        let expr = replace_self(c.expr.clone(), ident);
        let span = c.span;
        quote_spanned! {span=>
            const _: () = match #expr {
                ::core::result::Result::Ok(()) => (),
                ::core::result::Result::Err(e) => ::core::panic!("{}", #krate::__private::Msg::as_str(&e)),
            };
        }
    });
    quote!(#(#items)*)
}

/// Free items cannot say `Self`: name the type instead.
fn replace_self(ts: TokenStream, ident: &Ident) -> TokenStream {
    ts.into_iter()
        .map(|tt| match tt {
            TokenTree::Ident(i) if i == "Self" => {
                TokenTree::Ident(Ident::new(&ident.to_string(), i.span()))
            }
            TokenTree::Group(g) => {
                let mut ng =
                    proc_macro2::Group::new(g.delimiter(), replace_self(g.stream(), ident));
                ng.set_span(g.span());
                TokenTree::Group(ng)
            }
            other => other,
        })
        .collect()
}

/// Adds `T: Schema` for every type parameter.
fn with_schema_bounds(generics: &syn::Generics, krate: &TokenStream) -> syn::Generics {
    let mut g = generics.clone();
    let bounds: Vec<syn::WherePredicate> = g
        .type_params()
        .map(|t| {
            let id = &t.ident;
            syn::parse_quote!(#id: #krate::__private::Schema)
        })
        .collect();
    g.make_where_clause().predicates.extend(bounds);
    g
}
