//! A checked versioned spec → a module per version, conversions between neighbours, and the
//! versions enum.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::attr::{Action, ActionKind, VersionArg};
use super::{Input, VField};

/// A field in each version.
struct History<'a> {
    f: &'a VField<'a>,
    present: Vec<bool>,
    ident: Vec<syn::Ident>,
    ty: Vec<syn::Type>,
    deprecated: Vec<Option<String>>,
}

impl<'a> History<'a> {
    fn of(f: &'a VField<'a>, versions: &[VersionArg]) -> History<'a> {
        let n = versions.len();
        let find = |name: &str| f.actions.iter().find(|a| a.name() == name);
        let added = find("added").map_or(0, |a| a.index);
        let removed = find("removed").map_or(n, |a| a.index);
        let mut renames: Vec<&Action> =
            f.actions.iter().filter(|a| a.name() == "renamed").collect();
        renames.sort_by_key(|a| a.index);
        let mut changes: Vec<&Action> =
            f.actions.iter().filter(|a| a.name() == "changed").collect();
        changes.sort_by_key(|a| a.index);
        let deprecated = find("deprecated");
        let mut h = History {
            f,
            present: Vec::new(),
            ident: Vec::new(),
            ty: Vec::new(),
            deprecated: Vec::new(),
        };
        for i in 0..n {
            h.present.push(added <= i && i < removed);
            // The name and type before the first change after this version.
            h.ident.push(
                renames
                    .iter()
                    .find(|a| a.index > i)
                    .and_then(|a| match &a.kind {
                        ActionKind::Renamed { from } => Some(from.clone()),
                        _ => None,
                    })
                    .unwrap_or_else(|| f.ident.clone()),
            );
            h.ty.push(
                changes
                    .iter()
                    .find(|a| a.index > i)
                    .and_then(|a| match &a.kind {
                        ActionKind::Changed { from_type, .. } => Some(from_type.clone()),
                        _ => None,
                    })
                    .unwrap_or_else(|| f.field.ty.clone()),
            );
            h.deprecated
                .push(deprecated.filter(|a| a.index <= i).map(|a| match &a.kind {
                    ActionKind::Deprecated { note: Some(n) } => format!("Deprecated: {n}"),
                    _ => format!("Deprecated since {}.", a.since.value),
                }));
        }
        h
    }

    /// The `changed` action that takes effect in version `at`.
    fn change_at(&self, at: usize) -> Option<&'a Action> {
        self.f
            .actions
            .iter()
            .find(|a| a.index == at && matches!(a.kind, ActionKind::Changed { .. }))
    }

    /// The value for objects of a version without the field: the action's `default`, or the
    /// type's `Default`.
    fn default(&self, action: &str, ty: &syn::Type, p: &TokenStream) -> TokenStream {
        let act = self.f.actions.iter().find(|a| a.name() == action);
        match act.map(|a| &a.kind) {
            Some(
                ActionKind::Added { default: Some(d) } | ActionKind::Removed { default: Some(d) },
            ) => quote!(#d()),
            _ => {
                let span = act.map_or_else(proc_macro2::Span::call_site, |a| a.span);
                quote_spanned!(span=> <#ty as #p::versions::AddedDefault>::added_default())
            }
        }
    }
}

pub fn expand(input: &Input<'_>) -> TokenStream {
    let krate = match &input.crd.krate {
        Some(k) => quote!(#k),
        None => quote!(::crdkit),
    };
    let p = quote!(#krate::__private);
    let versions = &input.args.versions;
    let histories: Vec<History<'_>> = input
        .fields
        .iter()
        .map(|f| History::of(f, versions))
        .collect();
    let modules = versions
        .iter()
        .enumerate()
        .map(|(i, v)| module(input, &histories, i, v));
    let conversions = (0..versions.len().saturating_sub(1)).map(|i| {
        let up = conversion(input, &histories, &p, i, i + 1);
        let down = conversion(input, &histories, &p, i + 1, i);
        quote!(#up #down)
    });
    let vis = &input.item.vis;
    let kind = &input.kind;
    let root = &input.root;
    let variants = versions.iter().map(|v| {
        let m = module_ident(&v.name.value);
        let variant = variant_ident(&v.name.value);
        let storage = v.storage.map(|_| quote!(#[versions(storage)]));
        let doc = format!("`{}`", v.name.value);
        quote!(#[doc = #doc] #storage #variant(#m::#root))
    });
    let conversion_attr = input.args.conversion.as_ref().map(|c| quote!(, #c));
    let doc = format!(
        "`{kind}` in any of its versions, oldest first; the CRD with all of them is `{kind}::crd()`."
    );
    quote! {
        #(#modules)*
        #(#conversions)*

        #[doc = #doc]
        #[derive(#p::Versions, ::core::clone::Clone, ::core::fmt::Debug)]
        #[versions(crate = #krate #conversion_attr)]
        #vis enum #kind {
            #(#variants),*
        }
    }
}

fn module_ident(version: &str) -> syn::Ident {
    format_ident!("{}", version.replace('-', "_"))
}

fn variant_ident(version: &str) -> syn::Ident {
    let name: String = version
        .split('-')
        .map(|part| {
            let mut c = part.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    format_ident!("{}", name)
}

/// The visibility of an item moved one module down that keeps the reach it had.
fn inner_vis(vis: &syn::Visibility) -> TokenStream {
    match vis {
        syn::Visibility::Public(_) => quote!(pub),
        syn::Visibility::Inherited => quote!(pub(super)),
        syn::Visibility::Restricted(r) => {
            let path = &r.path;
            let first = path.segments.first().map(|s| s.ident.to_string());
            match first.as_deref() {
                Some("crate") => quote!(#vis),
                Some("self") if path.segments.len() == 1 => quote!(pub(super)),
                _ => quote!(pub(in super::#path)),
            }
        }
    }
}

fn module(input: &Input<'_>, histories: &[History<'_>], i: usize, v: &VersionArg) -> TokenStream {
    let item = input.item;
    let m = module_ident(&v.name.value);
    let ident = &item.ident;
    let vis = &item.vis;
    let inner = inner_vis(vis);
    let attrs = &item.attrs;
    let name = &v.name.value;
    let served = v.served.unwrap_or(true);
    let deprecated = v.deprecated.unwrap_or(false);
    let warning = v
        .deprecation_warning
        .as_ref()
        .map(|w| quote!(, deprecation_warning = #w));
    let extra = v.crd.as_ref().map(|c| quote!(, #c));
    let fields = histories.iter().filter(|h| h.present[i]).map(|h| {
        let f = h.f.field;
        let attrs = f.attrs.iter().filter(|a| !a.path().is_ident("versioned"));
        let fvis = inner_vis(&f.vis);
        let (fident, ty) = (&h.ident[i], &h.ty[i]);
        let deprecated = h.deprecated[i].as_ref().map(|note| {
            let doc = format!(" {note}");
            quote!(#[doc = ""] #[doc = #doc] #[deprecated(note = #note)])
        });
        quote!(#(#attrs)* #deprecated #fvis #fident: #ty)
    });
    let doc = format!("`{name}` of `{}`.", input.kind);
    quote! {
        #[doc = #doc]
        #vis mod #m {
            #[allow(unused_imports)]
            use super::*;

            #(#attrs)*
            #[crd(version = #name, served = #served, deprecated = #deprecated #warning #extra)]
            #[allow(non_snake_case)]
            #inner struct #ident {
                #(#fields),*
            }
        }
    }
}

/// `From` (or `TryFrom`, when a field's type changes) from version `from` to its neighbour
/// `to`, for the spec and for the root.
fn conversion(
    input: &Input<'_>,
    histories: &[History<'_>],
    p: &TokenStream,
    from: usize,
    to: usize,
) -> TokenStream {
    let versions = &input.args.versions;
    let (mf, mt) = (
        module_ident(&versions[from].name.value),
        module_ident(&versions[to].name.value),
    );
    let spec = &input.item.ident;
    let root = &input.root;
    let v = quote!(#p::versions);
    // The change between the two versions sits in the later one.
    let later = from.max(to);
    let fallible = histories
        .iter()
        .any(|h| h.present[from] && h.present[to] && h.change_at(later).is_some());
    let assignments = histories.iter().filter(|h| h.present[to]).map(|h| {
        let target = &h.ident[to];
        if !h.present[from] {
            let which = if to > from { "added" } else { "removed" };
            let d = h.default(which, &h.ty[to], p);
            return quote!(#target: #d);
        }
        let source = &h.ident[from];
        let Some(change) = h.change_at(later) else {
            return quote!(#target: old.#source);
        };
        let ActionKind::Changed { upgrade_with, downgrade_with, .. } = &change.kind else {
            unreachable!("change_at finds `changed` actions")
        };
        let with = if to > from { upgrade_with } else { downgrade_with };
        let (ty_from, ty_to) = (&h.ty[from], &h.ty[to]);
        let field = format!("{}: ", h.f.ident);
        let span = change.span;
        let converted = match with {
            Some(path) => quote_spanned!(span=> #v::Converted::<#ty_to>::converted(#path(old.#source))),
            None => quote_spanned!(span=> #v::convert_field::<#ty_from, #ty_to>(old.#source)),
        };
        quote!(#target: #converted.map_err(|m| #v::ConversionError::Failed(::std::format!("{}{}", #field, m)))?)
    });
    let status = input.crd.status.then(|| quote!(status: old.status,));
    if fallible {
        quote! {
            #[allow(deprecated)]
            impl ::core::convert::TryFrom<#mf::#spec> for #mt::#spec {
                type Error = #v::ConversionError;
                fn try_from(old: #mf::#spec) -> ::core::result::Result<Self, Self::Error> {
                    ::core::result::Result::Ok(#mt::#spec { #(#assignments),* })
                }
            }

            impl ::core::convert::TryFrom<#mf::#root> for #mt::#root {
                type Error = #v::ConversionError;
                fn try_from(old: #mf::#root) -> ::core::result::Result<Self, Self::Error> {
                    ::core::result::Result::Ok(#mt::#root {
                        metadata: old.metadata,
                        spec: ::core::convert::TryFrom::try_from(old.spec)?,
                        #status
                    })
                }
            }
        }
    } else {
        quote! {
            #[allow(deprecated)]
            impl ::core::convert::From<#mf::#spec> for #mt::#spec {
                fn from(old: #mf::#spec) -> Self {
                    #mt::#spec { #(#assignments),* }
                }
            }

            impl ::core::convert::From<#mf::#root> for #mt::#root {
                fn from(old: #mf::#root) -> Self {
                    #mt::#root {
                        metadata: old.metadata,
                        spec: ::core::convert::From::from(old.spec),
                        #status
                    }
                }
            }
        }
    }
}
