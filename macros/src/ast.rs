//! The derive input, with serde's and crdkit's attributes read (serde_derive's `ast.rs`).

use crate::attr::container::ContainerAttrs;
use crate::attr::field::{FieldAttrs, variant_description};
use crate::ctxt::Ctxt;
use crate::serde_attr::{SerdeContainer, SerdeField, SerdeVariant};

pub struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub vis: &'a syn::Visibility,
    pub generics: &'a syn::Generics,
    pub attrs: ContainerAttrs,
    pub serde: SerdeContainer,
    pub doc: Option<String>,
    pub data: Data<'a>,
    pub original_attrs: &'a [syn::Attribute],
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Named fields.
    Struct,
    /// Several unnamed fields.
    Tuple,
    /// One unnamed field.
    Newtype,
    Unit,
}

pub struct Field<'a> {
    /// The serialized name (for unnamed fields, the index).
    pub name: String,
    pub ident: String,
    pub ty: &'a syn::Type,
    pub attrs: FieldAttrs,
    pub serde: SerdeField,
    pub doc: Option<String>,
    pub original: &'a syn::Field,
}

pub struct Variant<'a> {
    pub ident: &'a syn::Ident,
    pub name: String,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    pub doc: Option<String>,
    pub serde: SerdeVariant,
}

impl<'a> Container<'a> {
    pub fn from_ast(
        cx: &Ctxt,
        input: &'a syn::DeriveInput,
        resource: bool,
    ) -> Option<Container<'a>> {
        let attrs = ContainerAttrs::from_ast(cx, &input.attrs, resource);
        let serde = SerdeContainer::from_ast(cx, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(s) => {
                let (style, fields) = fields_from_ast(cx, &s.fields, serde.rename_all);
                Data::Struct(style, fields)
            }
            syn::Data::Enum(e) => Data::Enum(
                e.variants
                    .iter()
                    .map(|v| {
                        let vserde = SerdeVariant::from_ast(cx, &v.attrs);
                        let name = vserde.rename.clone().unwrap_or_else(|| {
                            serde.rename_all.map_or_else(
                                || v.ident.to_string(),
                                |r| r.variant(&v.ident.to_string()),
                            )
                        });
                        let (style, fields) = fields_from_ast(
                            cx,
                            &v.fields,
                            vserde.rename_all.or(serde.rename_all_fields),
                        );
                        let doc = variant_description(cx, &v.attrs).or_else(|| doc(&v.attrs));
                        Variant {
                            ident: &v.ident,
                            name,
                            style,
                            fields,
                            doc,
                            serde: vserde,
                        }
                    })
                    .collect(),
            ),
            syn::Data::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    "crdkit derives schemas for structs and enums, not unions",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            attrs,
            serde,
            doc: doc(&input.attrs),
            data,
            original_attrs: &input.attrs,
        })
    }
}

fn fields_from_ast<'a>(
    cx: &Ctxt,
    fields: &'a syn::Fields,
    rename_all: Option<crate::case::RenameRule>,
) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Struct,
        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let serde = SerdeField::from_ast(cx, &f.attrs);
            let ident = f
                .ident
                .as_ref()
                .map_or_else(|| i.to_string(), |id| id.unraw().to_string());
            let name = serde
                .rename
                .clone()
                .unwrap_or_else(|| rename_all.map_or_else(|| ident.clone(), |r| r.field(&ident)));
            let attrs = FieldAttrs::from_ast(cx, &f.attrs, "a field", &format!("field `{ident}`"));
            Field {
                name,
                ident,
                ty: &f.ty,
                attrs,
                serde,
                doc: doc(&f.attrs),
                original: f,
            }
        })
        .collect();
    (style, fields)
}

use syn::ext::IdentExt as _;

/// Doc comments joined into a description: one leading space per line dropped, ends trimmed.
pub fn doc(attrs: &[syn::Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }),
                ..
            }) => Some(s.value()),
            _ => None,
        })
        // An empty `///` is an empty string, whose `lines()` are none: keep it as the blank
        // line between paragraphs.
        .flat_map(|s| {
            if s.is_empty() {
                return vec![String::new()];
            }
            s.lines()
                .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    let text = lines.join("\n");
    let text = text.trim_matches('\n').trim();
    (!text.is_empty()).then(|| text.to_owned())
}
