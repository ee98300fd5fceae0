//! What to emit when the derive fails: the errors, plus impls with the right signatures so the
//! rest of the user's crate still type-checks and only the real errors are shown (thiserror).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::Container;

/// The errors and a `Schema` impl that accepts anything.
pub fn expand(input: &syn::DeriveInput, err: Option<syn::Error>) -> TokenStream {
    let errors = err.map(|e| e.to_compile_error()).unwrap_or_default();
    let ident = &input.ident;
    let krate = krate(input);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #errors
        impl #impl_generics #krate::__private::Schema for #ident #ty_generics #where_clause {
            const SHAPE: #krate::__private::Shape = #krate::__private::Shape::any();
        }
    }
}

/// As [`expand`], plus the root type so that code naming it still resolves.
pub fn expand_resource(
    input: &syn::DeriveInput,
    cont: &Container<'_>,
    err: syn::Error,
) -> TokenStream {
    let base = expand(input, Some(err));
    let r = &cont.attrs.resource;
    let name = r
        .root
        .as_ref()
        .map(|s| s.value.clone())
        .or_else(|| r.kind.as_ref().map(|k| k.value.clone()));
    let Some(name) = name.filter(|n| syn::parse_str::<syn::Ident>(n).is_ok()) else {
        return base;
    };
    let root = format_ident!("{}", name);
    let spec = &input.ident;
    let vis = &input.vis;
    let krate = krate(input);
    quote! {
        #base
        #[allow(dead_code)]
        #vis struct #root {
            pub metadata: #krate::__private::ObjectMeta,
            pub spec: #spec,
        }

        // Never runs: the crate does not compile. It keeps code that uses the root type from
        // piling more errors on the real one.
        #[allow(dead_code, clippy::all)]
        impl #root {
            pub fn new(_name: &str, _spec: #spec) -> Self {
                ::core::unreachable!()
            }
            pub fn crd() -> ::core::result::Result<#krate::__private::CustomResourceDefinition, #krate::__private::CrdError> {
                ::core::unreachable!()
            }
        }
    }
}

fn krate(input: &syn::DeriveInput) -> TokenStream {
    let cx = crate::ctxt::Ctxt::new();
    let attrs = crate::attr::container::ContainerAttrs::from_ast(&cx, &input.attrs, true);
    let _ = cx.check();
    attrs.krate()
}
