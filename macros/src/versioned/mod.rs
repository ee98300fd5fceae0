//! `#[crdkit::versioned(..)]`: the versions of a kind from one annotated spec struct.
//!
//! ```ignore
//! #[crdkit::versioned(
//!     version(name = "v1beta1", deprecated),
//!     version(name = "v1", storage),
//!     webhook(url = "https://conversion.example.com/convert"),
//! )]
//! #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
//! #[crd(group = "example.com", kind = "CronTab", namespaced)]
//! pub struct CronTabSpec {
//!     host: String,
//!     #[versioned(changed(since = "v1", from_type = "String", upgrade_with = parse_port, downgrade_with = port_text))]
//!     port: u16,
//!     #[versioned(added(since = "v1"))]
//!     replicas: i32,
//! }
//! ```
//!
//! becomes a module per version (`v1beta1::CronTabSpec`, `v1::CronTabSpec`, each deriving its
//! own CRD version and root type), `From`/`TryFrom` between neighbouring versions of the specs
//! and the roots, and `enum CronTab { V1beta1(v1beta1::CronTab), V1(v1::CronTab) }` deriving
//! `Versions`. parse (`attr`) → check (versions, each field's history) → expand.

mod attr;
mod check;
mod expand;

use proc_macro2::{Span, TokenStream};

use crate::ctxt::Ctxt;
use attr::{Action, Args, CrdInfo};

/// The checked input.
pub struct Input<'a> {
    pub args: Args,
    pub item: &'a syn::DeriveInput,
    pub fields: Vec<VField<'a>>,
    pub crd: CrdInfo,
    /// The root type's name (`root`, else the kind).
    pub root: syn::Ident,
    pub kind: syn::Ident,
}

/// A field and its history.
pub struct VField<'a> {
    pub field: &'a syn::Field,
    pub ident: &'a syn::Ident,
    pub actions: Vec<Action>,
}

/// The attribute's entry.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let args = attr::parse_args(&cx, args);
    let item: syn::DeriveInput = match syn::parse2(item) {
        Ok(i) => i,
        Err(_) => {
            cx.error_at(Span::call_site(), "`#[crdkit::versioned]` goes on the spec struct of a `#[derive(crdkit::CustomResource)]`, one with named fields");
            return errors(cx);
        }
    };
    let Some(mut input) = parse(&cx, args, &item) else {
        return errors(cx);
    };
    check::check(&cx, &mut input);
    match cx.check() {
        Ok(()) => expand::expand(&input),
        Err(e) => e.to_compile_error(),
    }
}

fn errors(cx: Ctxt) -> TokenStream {
    cx.check()
        .err()
        .map(|e| e.to_compile_error())
        .unwrap_or_default()
}

fn parse<'a>(cx: &Ctxt, args: Args, item: &'a syn::DeriveInput) -> Option<Input<'a>> {
    let syn::Data::Struct(syn::DataStruct {
        fields: syn::Fields::Named(named),
        ..
    }) = &item.data
    else {
        cx.error_spanned_by(
            &item.ident,
            "`#[crdkit::versioned]` needs a struct with named fields",
        );
        return None;
    };
    if !has_custom_resource_derive(&item.attrs) {
        cx.error_spanned_by(&item.ident, "`#[crdkit::versioned]` goes above `#[derive(crdkit::CustomResource)]`: each version of the spec derives its own resource");
    }
    if !item.generics.params.is_empty() {
        cx.error_spanned_by(
            &item.generics,
            "a custom resource's spec cannot be generic: its CRD has one schema",
        );
    }
    let crd = attr::crd_info(cx, &item.attrs);
    let Some(kind) = crd.kind.clone() else {
        cx.error_spanned_by(
            &item.ident,
            "`#[derive(CustomResource)]` needs `#[crd(kind = \"MyKind\")]`",
        );
        return None;
    };
    let root = crd.root.clone().unwrap_or_else(|| kind.clone());
    let (Ok(root), Ok(kind)) = (
        syn::parse_str::<syn::Ident>(&root),
        syn::parse_str::<syn::Ident>(&kind),
    ) else {
        // The derive reports names that are not identifiers.
        return None;
    };
    let fields = named
        .named
        .iter()
        .filter_map(|f| {
            Some(VField {
                field: f,
                ident: f.ident.as_ref()?,
                actions: attr::parse_field(cx, &f.attrs),
            })
        })
        .collect();
    Some(Input {
        args,
        item,
        fields,
        crd,
        root,
        kind,
    })
}

fn has_custom_resource_derive(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            let mut found = false;
            let _ = a.parse_nested_meta(|m| {
                found |= m
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "CustomResource");
                Ok(())
            });
            found
        })
}
