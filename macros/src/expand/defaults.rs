//! serde's defaults as the schema's `default`: the value serde fills in for a missing field
//! (`#[serde(default)]`, `#[serde(default = "path")]`, or the container's `#[serde(default)]`)
//! is what the API server should store, so the CRD says it. The value is serialized when the
//! CRD is built, as serde writes the field (through `with`/`serialize_with`), and left out
//! when serde would not write it (null, or `skip_serializing_if` holds).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;

use super::shape::Gen;
use crate::ast::Field;
use crate::serde_attr::{SerdeDefault, SerdeWith};

impl Gen {
    /// The `DefaultValue` of `f`'s serde default, if the schema takes one: a field without
    /// its own `#[crd(default)]` or `#[crd(no_default)]`, read by serde (not skipped when
    /// deserializing, not flattened), in a type without type parameters (the value needs
    /// `Serialize`, which the impl does not bound). `container` is the struct's own
    /// `#[serde(default)]`, which fills the fields it names.
    pub(super) fn serde_default(
        &mut self,
        f: &Field<'_>,
        container: Option<&SerdeDefault>,
    ) -> Option<TokenStream> {
        let p = {
            let k = &self.krate;
            quote!(#k::__private)
        };
        if self.generic
            || f.attrs.keywords.default.is_some()
            || f.attrs.no_default.as_ref().is_some_and(|n| n.value)
            || f.serde.flatten
            || f.serde.skip_deserializing
        {
            return None;
        }
        let ty = f.ty;
        let value = match (&f.serde.default, container, &f.original.ident) {
            (Some(SerdeDefault::Trait), _, _) => {
                quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
            }
            (Some(SerdeDefault::Path(path)), _, _) => quote_spanned!(path.span()=> #path()),
            (None, Some(SerdeDefault::Trait), Some(ident)) => {
                quote!({ let c: Self = ::core::default::Default::default(); c.#ident })
            }
            (None, Some(SerdeDefault::Path(path)), Some(ident)) => {
                quote_spanned!(path.span()=> { let c: Self = #path(); c.#ident })
            }
            _ => return None,
        };
        let write = match &f.serde.serialize {
            Some(SerdeWith::Module(m)) => {
                quote!(#m::serialize(&v, #p::serde_json::value::Serializer))
            }
            Some(SerdeWith::Function(w)) => quote!(#w(&v, #p::serde_json::value::Serializer)),
            None | Some(SerdeWith::DeserializeOnly) => quote!(#p::serde_json::to_value(&v)),
        };
        let skip = f.serde.skip_serializing_if.as_ref().map(|pred| {
            quote!(if #pred(&v) { return ::core::result::Result::Ok(::core::option::Option::None); })
        });
        let c = self.push_const(
            quote!(fn() -> ::core::result::Result<::core::option::Option<#p::serde_json::Value>, #p::serde_json::Error>),
            quote!(|| {
                let v: #ty = #value;
                #skip
                #p::serde_default(#write)
            }),
        );
        Some(quote!(#p::DefaultValue::Fn(#c)))
    }
}
