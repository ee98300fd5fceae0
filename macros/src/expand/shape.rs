//! Container → `Schema::SHAPE` tokens.
//!
//! Every nested shape, field table and literal becomes an inherent associated `const` of the
//! container (`__CRDKIT_3`), with a `&'static` type: the borrow in a const's initializer lives
//! for `'static`, so no promotion rule is needed, and this works the same for generic types.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::foreign::SchemarsSchema;
use crate::check::structural::skipped;
use crate::serde_attr::SerdeDefault;

/// A const-time check to emit, spanned at the tokens that asked for it.
pub struct Check {
    pub span: Span,
    /// An expression of type `Result<(), Msg>`.
    pub expr: TokenStream,
}

/// Collects the associated consts and checks while the shape is generated.
pub struct Gen {
    pub krate: TokenStream,
    pub consts: Vec<TokenStream>,
    pub checks: Vec<Check>,
    /// The type has type parameters: no free `const _` checks (rules fail on instantiation).
    pub generic: bool,
    /// The container's name, for the sites of rules (`Spec.replicas`).
    pub type_name: String,
    /// The container is the spec of a `#[derive(CustomResource)]`.
    pub resource_spec: bool,
    next: usize,
}

impl Gen {
    pub fn new(krate: TokenStream) -> Self {
        Gen {
            krate,
            consts: Vec::new(),
            checks: Vec::new(),
            generic: false,
            type_name: String::new(),
            resource_spec: false,
            next: 0,
        }
    }

    /// Adds `const __CRDKIT_n: ty = value;` and returns `Self::__CRDKIT_n`.
    pub fn push_const(&mut self, ty: TokenStream, value: TokenStream) -> TokenStream {
        let name = format_ident!("__CRDKIT_{}", self.next);
        self.next += 1;
        self.consts.push(quote! {
            #[doc(hidden)]
            #[allow(clippy::all, clippy::pedantic)]
            const #name: #ty = #value;
        });
        quote!(Self::#name)
    }

    fn check(&mut self, span: Span, expr: TokenStream) {
        self.checks.push(Check { span, expr });
    }

    /// Adds a check (an expression of type `Result<(), Msg>`) spanned at `span`.
    pub fn check_at(&mut self, span: Span, expr: TokenStream) {
        self.check(span, expr);
    }

    /// The `Shape` expression of the container.
    pub fn container(&mut self, cont: &Container<'_>) -> TokenStream {
        let k = self.krate.clone();
        let p = quote!(#k::__private);
        let name = cont.ident.to_string();
        self.type_name.clone_from(&name);
        self.generic = !cont.generics.params.is_empty();
        let base = if let Some(proxy) = &cont.serde.proxy {
            quote_spanned!(proxy.span()=> <#proxy as #p::Schema>::SHAPE)
        } else {
            match &cont.data {
                Data::Struct(Style::Struct, fields) if !cont.serde.transparent => {
                    let fields = self.fields(fields, cont.serde.default.as_ref());
                    quote!(#p::Shape::new(#p::Kind::Struct(#fields)))
                }
                // Checked: exactly one live field (`check::structural`).
                Data::Struct(Style::Newtype | Style::Struct, fields) => {
                    let live = fields.iter().find(|f| !skipped(f)).expect("checked");
                    let s = self.field_shape(live);
                    quote!(*#s)
                }
                Data::Struct(Style::Tuple | Style::Unit, _) => {
                    unreachable!("tuple and unit structs are rejected by check::structural")
                }
                Data::Enum(variants) => self.enumeration(cont, variants),
            }
        };
        let base = quote!({ let mut s: #p::Shape = #base; s.name = #name; s });
        let shape = self.keywords(
            base,
            &cont.attrs.keywords,
            cont.doc.as_deref(),
            None,
            &name,
            cont.ident.span(),
            &name.clone(),
            None,
        );
        let span = attr_span(cont_attrs(cont)).unwrap_or_else(|| cont.ident.span());
        self.check(span, quote!(#p::check::check_keywords(#shape, #name)));
        self.check(cont.ident.span(), quote!(#p::check::check_type(#shape)));
        quote!(*#shape)
    }

    /// `&'static [Field]` for named fields; `container` is the struct's `#[serde(default)]`.
    fn fields(&mut self, fields: &[Field<'_>], container: Option<&SerdeDefault>) -> TokenStream {
        let k = self.krate.clone();
        let p = quote!(#k::__private);
        let mut out = Vec::new();
        for f in fields {
            if skipped(f) {
                continue;
            }
            let mut shape = self.field_shape(f);
            if let Some(default) = self.serde_default(f, container) {
                let k = &self.krate;
                shape = self.push_const(
                    quote!(&'static #k::__private::Shape),
                    quote!(&{ let mut s: #k::__private::Shape = *#shape; s.default = ::core::option::Option::Some(#default); s }),
                );
            }
            let name = &f.name;
            let ident = &f.ident;
            let flatten = f.serde.flatten;
            let required = match &f.attrs.required {
                Some(r) => {
                    let v = r.value;
                    quote!(#v)
                }
                None if f.serde.default.is_some()
                    || container.is_some()
                    || f.serde.skip_serializing_if.is_some()
                    || f.serde.skip_serializing
                    || f.serde.skip_deserializing =>
                {
                    quote!(false)
                }
                None => quote!(!#shape.optional),
            };
            out.push(quote!(#p::Field { name: #name, ident: #ident, shape: #shape, required: #required, flatten: #flatten }));
        }
        self.push_const(quote!(&'static [#p::Field]), quote!(&[#(#out),*]))
    }

    /// `&'static Shape` for a field: its type's shape refined by the field's keywords.
    pub fn field_shape(&mut self, f: &Field<'_>) -> TokenStream {
        let k = self.krate.clone();
        let p = quote!(#k::__private);
        let ty = f.attrs.with.as_ref().unwrap_or(f.ty);
        let base = if f.attrs.schemars.as_ref().is_some_and(|s| s.value) {
            // An `Option` is optional and nullable as `Option<T: Schema>` is; the schema of
            // what it holds comes from schemars.
            // schemars' own `schema_with`/`with` on the field win, as they do in schemars.
            let (inner, optional) = match option_inner(ty) {
                Some(inner) => (inner, true),
                None => (ty, false),
            };
            let dynamic = match f.attrs.schemars_schema.as_ref().map(|s| &s.value) {
                Some(SchemarsSchema::With(path)) => {
                    let c = self.push_const(
                        quote!(fn() -> ::core::result::Result<#p::Structural, #p::NotStructural>),
                        quote_spanned!(path.span()=> || #p::schemars_schema_with(#path)),
                    );
                    quote!(#p::Kind::Dynamic(#c))
                }
                Some(SchemarsSchema::Type(t)) => {
                    quote_spanned!(t.span()=> #p::Kind::Dynamic(#p::schemars_schema::<#t>))
                }
                None => {
                    quote_spanned!(ty.span()=> #p::Kind::Dynamic(#p::schemars_schema::<#inner>))
                }
            };
            if optional {
                quote_spanned!(ty.span()=> #p::Shape { nullable: true, optional: true, ..#p::Shape::new(#dynamic) })
            } else {
                quote_spanned!(ty.span()=> #p::Shape::new(#dynamic))
            }
        } else {
            quote_spanned!(ty.span()=> <#ty as #p::Schema>::SHAPE)
        };
        let nullable =
            if f.attrs.keywords.nullable.is_none() && f.serde.skip_serializing_if.is_some() {
                Some(false)
            } else {
                None
            };
        let span = attr_span(&f.original.attrs).unwrap_or_else(|| f.ty.span());
        let site = format!("{}.{}", self.type_name, f.ident);
        let shape = self.keywords(
            base.clone(),
            &f.attrs.keywords,
            f.doc.as_deref(),
            nullable,
            &f.ident,
            span,
            &site,
            None,
        );
        let ident = &f.ident;
        self.check(span, quote!(#p::check::check_keywords(#shape, #ident)));
        shape
    }

    fn enumeration(&mut self, cont: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
        let k = self.krate.clone();
        let p = quote!(#k::__private);
        let repr = match (&cont.serde.tag, &cont.serde.content, cont.serde.untagged) {
            (_, _, true) => quote!(#p::Repr::Untagged),
            (Some(tag), Some(content), false) => {
                quote!(#p::Repr::Adjacent { tag: #tag, content: #content })
            }
            (Some(tag), None, false) => quote!(#p::Repr::Internal { tag: #tag }),
            // `content` without `tag` is rejected by `check::structural`.
            (None, _, false) => quote!(#p::Repr::External),
        };
        let mut out = Vec::new();
        for v in variants {
            if v.serde.skip || v.serde.other {
                continue;
            }
            let kind = match v.style {
                Style::Unit => quote!(#p::VariantKind::Unit),
                Style::Newtype => {
                    let s = self.field_shape(&v.fields[0]);
                    quote!(#p::VariantKind::Newtype(#s))
                }
                Style::Struct => {
                    let f = self.fields(&v.fields, None);
                    quote!(#p::VariantKind::Struct(#f))
                }
                Style::Tuple => {
                    unreachable!("tuple variants are rejected by check::structural")
                }
            };
            let name = &v.name;
            let doc = match &v.doc {
                Some(d) => quote!(Some(#d)),
                None => quote!(None),
            };
            out.push(quote!(#p::Variant { name: #name, description: #doc, kind: #kind }));
        }
        let variants = self.push_const(
            quote!(&'static #p::Enum),
            quote!(&#p::Enum { repr: #repr, variants: &[#(#out),*] }),
        );
        quote!(#p::Shape::new(#p::Kind::Enum(#variants)))
    }
}

fn cont_attrs<'a>(cont: &'a Container<'_>) -> &'a [syn::Attribute] {
    cont.original_attrs
}

/// The span of the first `#[crd(..)]` attribute, to point checks at.
pub fn attr_span(attrs: &[syn::Attribute]) -> Option<Span> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("crd"))
        .map(|a| a.meta.span())
}

/// `T` of `Option<T>` (also written `std::option::Option<T>` or `core::option::Option<T>`).
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
    let is_option = matches!(
        segs.as_slice(),
        ["Option"] | ["std" | "core", "option", "Option"]
    );
    let last = p.path.segments.last()?;
    match (&last.arguments, is_option) {
        (syn::PathArguments::AngleBracketed(a), true) if a.args.len() == 1 => match &a.args[0] {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}
