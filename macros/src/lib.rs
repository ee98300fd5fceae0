//! Derive macros of crdkit: `#[derive(Schema)]` and `#[derive(CustomResource)]`.
//!
//! Each derive runs parse → check → expand: attributes are read into an `ast::Container`
//! (collecting every error in a `ctxt::Ctxt`), checked (names, regexes, CEL syntax, paths), and
//! expanded into a `Schema` impl whose shape is a `const`, plus `const` checks that rustc
//! evaluates across the whole type graph. On error, the errors are emitted along with a fallback
//! impl so that the rest of the crate still type-checks.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate proc_macro;

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod fallback;
mod serde_attr;
mod versioned;
mod versions;

use proc_macro::TokenStream;
use syn::parse_macro_input;

/// Derives `crdkit::Schema`: the structural schema of a type, from its shape and serde
/// attributes, refined by `#[crd(..)]` keywords. See the crate documentation of `crdkit`.
///
/// The validation attributes of garde, validator and schemars (`#[garde(length(max = 5))]`)
/// are read too, so they are helpers of this derive: a rule with a schema keyword becomes it,
/// any other is an error (see `attr/foreign.rs`).
#[proc_macro_derive(Schema, attributes(crd, garde, validate, schemars))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    expand_schema(&input).into()
}

/// Derives a Kubernetes custom resource from its spec struct: the root type (named after the
/// kind), its `Schema`, serde impls, `crd()`, and compile-time checks of the whole CRD.
#[proc_macro_derive(CustomResource, attributes(crd, garde, validate, schemars))]
pub fn derive_custom_resource(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    expand_resource(&input).into()
}

/// Derives `crdkit::Versioned` for an enum whose variants hold the root types of one kind's
/// versions, in conversion order, one marked `#[versions(storage)]`; `#[versions(..)]` on the
/// enum declares the conversion (`conversion = "None"` or `webhook(..)`). See `crdkit::Versions`.
#[proc_macro_derive(Versions, attributes(versions))]
pub fn derive_versions(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    versions::derive(&input).into()
}

/// The versions of a kind from one spec struct: a module per version with its own type and CRD
/// version, conversions between neighbouring versions, and the versions enum. Field histories:
/// `#[versioned(added(..), removed(..), renamed(..), changed(..), deprecated(..))]`. See
/// `crdkit::versioned`.
#[proc_macro_attribute]
pub fn versioned(args: TokenStream, item: TokenStream) -> TokenStream {
    versioned::expand(args.into(), item.into()).into()
}

fn expand_schema(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let Some(cont) = ast::Container::from_ast(&cx, input, false) else {
        return fallback::expand(input, cx.check().err());
    };
    check::schema(&cx, &cont);
    match cx.check() {
        Ok(()) => {
            let mut generator = expand::shape::Gen::new(cont.attrs.krate());
            expand::schema_impl(&mut generator, &cont).tokens
        }
        Err(e) => fallback::expand(input, Some(e)),
    }
}

fn expand_resource(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let Some(cont) = ast::Container::from_ast(&cx, input, true) else {
        return fallback::expand(input, cx.check().err());
    };
    let resource = check::resource(&cx, &cont);
    match (cx.check(), resource) {
        (Ok(()), Some(resource)) => {
            let mut generator = expand::shape::Gen::new(cont.attrs.krate());
            generator.resource_spec = true;
            let schema = expand::schema_impl(&mut generator, &cont).tokens;
            let root = expand::resource::expand(&cont, &resource);
            quote::quote!(#schema #root)
        }
        (Err(e), _) => fallback::expand_resource(input, &cont, e),
        // `check::resource` returns `None` only after reporting an error.
        (Ok(()), None) => unreachable!("a resource without an error reported"),
    }
}
