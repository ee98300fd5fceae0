//! A checked versions enum → `Versioned`, serde by `apiVersion`, `From` each version, and the
//! `const` checks between the versions.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;

use super::Kind;
use crate::attr::conversion::ConversionAttr;

pub fn expand(kind: &Kind<'_>) -> TokenStream {
    let krate = kind.krate();
    let p = quote!(#krate::__private);
    let v = quote!(#p::versions);
    let ident = kind.ident;
    let vis = kind.vis;
    // Checked: every variant has a type, one is the storage version.
    let types: Vec<&syn::Type> = kind.variants.iter().filter_map(|v| v.ty).collect();
    let idents: Vec<&syn::Ident> = kind.variants.iter().map(|v| v.ident).collect();
    let storage = kind
        .variants
        .iter()
        .position(|v| v.storage.is_some())
        .unwrap_or_default();
    let resources: Vec<TokenStream> = types
        .iter()
        .map(|t| quote_spanned!(t.span()=> &<#t as #p::CustomResource>::RESOURCE))
        .collect();
    let none = ConversionAttr::None;
    let conversion = kind.conversion.as_ref().unwrap_or(&none);
    let webhook = matches!(conversion, ConversionAttr::Webhook(_));
    let conversion = conversion.to_tokens(&p);
    let declared_order = kind.declared_order;
    // Webhook: a typed step each way between neighbours; the bound `ConvertFrom` fails at the
    // later variant when a conversion is missing.
    let steps = if webhook {
        types
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                quote_spanned! {b.span()=>
                    (#v::step::<#a, #b> as #v::Step, #v::step::<#b, #a> as #v::Step)
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let checks = checks(kind, &p, &types);
    let serde_arms = types.iter().zip(&idents).map(|(t, i)| {
        quote! {
            x if x == <#t as #p::CustomResource>::API_VERSION => #p::serde_json::from_value(value).map(Self::#i).map_err(<D::Error as #p::serde::de::Error>::custom),
        }
    });
    quote! {
        impl #p::Versioned for #ident {
            const DECL: #v::KindDecl = #v::KindDecl {
                versions: &[#(#resources),*],
                storage: #storage,
                conversion: #conversion,
                declared_order: #declared_order,
            };

            fn convert(
                object: #p::serde_json::Value,
                to: &str,
            ) -> ::core::result::Result<#p::serde_json::Value, #v::ConversionError> {
                #v::convert(&<Self as #p::Versioned>::DECL, &[#(#steps),*], object, to)
            }
        }

        #[allow(dead_code)]
        impl #ident {
            /// The CustomResourceDefinition with every version, listed by priority, and the
            /// conversion strategy.
            ///
            /// # Errors
            /// When a run-time part of a version's schema fails.
            #vis fn crd() -> ::core::result::Result<#p::CustomResourceDefinition, #p::CrdError> {
                <Self as #p::Versioned>::crd()
            }

            /// The object's `apiVersion`.
            #vis fn api_version(&self) -> &'static str {
                match self {
                    #(Self::#idents(_) => <#types as #p::CustomResource>::API_VERSION,)*
                }
            }

            /// The object in version `version` (`v1` or `example.com/v1`), through the
            /// conversions between neighbouring versions.
            ///
            /// # Errors
            /// An unknown version, or a conversion that fails.
            #vis fn into_version(self, version: &str) -> ::core::result::Result<Self, #v::ConversionError> {
                #v::into_version(self, version)
            }

            /// The object in the storage version.
            ///
            /// # Errors
            /// A conversion that fails.
            #vis fn into_storage(self) -> ::core::result::Result<Self, #v::ConversionError> {
                let storage = <Self as #p::Versioned>::DECL.storage_version().map_or("", |d| d.version);
                #v::into_version(self, storage)
            }
        }

        #(
            impl ::core::convert::From<#types> for #ident {
                fn from(object: #types) -> Self {
                    Self::#idents(object)
                }
            }
        )*

        impl #p::serde::Serialize for #ident {
            fn serialize<S: #p::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    #(Self::#idents(object) => #p::serde::Serialize::serialize(object, serializer),)*
                }
            }
        }

        impl<'de> #p::serde::Deserialize<'de> for #ident {
            fn deserialize<D: #p::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let value = <#p::serde_json::Value as #p::serde::Deserialize>::deserialize(deserializer)?;
                let api_version = #v::api_version_of(&value);
                match api_version.as_str() {
                    #(#serde_arms)*
                    other => ::core::result::Result::Err(<D::Error as #p::serde::de::Error>::custom(
                        #v::unknown_version(&<Self as #p::Versioned>::DECL, other),
                    )),
                }
            }
        }

        #checks
    }
}

/// `const` checks between the versions, each spanned at the later variant's type.
fn checks(kind: &Kind<'_>, p: &TokenStream, types: &[&syn::Type]) -> TokenStream {
    let c = quote!(#p::versions::check);
    let res = |t: &syn::Type| quote!(&<#t as #p::CustomResource>::RESOURCE);
    let none = !matches!(kind.conversion, Some(ConversionAttr::Webhook(_)))
        && kind.allow_different_schemas.is_none();
    let mut out = Vec::new();
    let first = res(types[0]);
    for (i, t) in types.iter().enumerate().skip(1) {
        let this = res(t);
        let mut exprs = vec![quote!(#c::check_same_resource(#first, #this))];
        for earlier in &types[..i] {
            let e = res(earlier);
            exprs.push(quote!(#c::check_distinct(#e, #this)));
        }
        if none {
            let prev = res(types[i - 1]);
            exprs.push(quote!(#c::check_same_schema(#prev, #this)));
        }
        for expr in exprs {
            out.push(quote_spanned! {t.span()=>
                const _: () = match #expr {
                    ::core::result::Result::Ok(()) => (),
                    ::core::result::Result::Err(e) => ::core::panic!("{}", #p::Msg::as_str(&e)),
                };
            });
        }
    }
    quote!(#(#out)*)
}
