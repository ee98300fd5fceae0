//! The serde attributes that change a type's JSON form, read as serde reads them.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// `#[serde(..)]` on a struct or enum.
#[derive(Default)]
pub struct SerdeContainer {
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub tag: Option<String>,
    pub content: Option<String>,
    pub untagged: bool,
    pub transparent: bool,
    /// `default` or `default = "path"`: missing fields come from the container's default.
    pub default: Option<SerdeDefault>,
    /// `from`, `try_from` or `into`: the JSON form is that type's.
    pub proxy: Option<syn::Type>,
}

/// `#[serde(default)]` or `#[serde(default = "path")]`.
#[derive(Clone)]
pub enum SerdeDefault {
    /// The type's `Default`.
    Trait,
    /// A function returning the value.
    Path(syn::ExprPath),
}

/// How serde writes a field other than through its type's `Serialize`.
#[derive(Clone)]
pub enum SerdeWith {
    /// `with = "module"`: `module::serialize`.
    Module(syn::Path),
    /// `serialize_with = "path"`.
    Function(syn::ExprPath),
    /// `deserialize_with` alone: written as the type writes itself.
    DeserializeOnly,
}

/// `#[serde(..)]` on a field.
#[derive(Default)]
pub struct SerdeField {
    pub rename: Option<String>,
    pub skip_serializing: bool,
    pub skip_deserializing: bool,
    pub default: Option<SerdeDefault>,
    pub flatten: bool,
    /// `skip_serializing_if = "path"`: the predicate.
    pub skip_serializing_if: Option<syn::ExprPath>,
    /// `with`, `serialize_with` or `deserialize_with`: the JSON form is the function's; the
    /// span of the key.
    pub with: Option<Span>,
    /// What writes the field when it is not its type's `Serialize`.
    pub serialize: Option<SerdeWith>,
}

/// `#[serde(..)]` on a variant.
#[derive(Default)]
pub struct SerdeVariant {
    pub rename: Option<String>,
    pub rename_all: Option<RenameRule>,
    pub skip: bool,
    pub other: bool,
    pub untagged: Option<Span>,
    pub with: Option<Span>,
}

fn string(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    Ok(meta.value()?.parse::<syn::LitStr>()?.value())
}

/// `rename = "x"` or `rename(serialize = "x", deserialize = "y")`: the serialized name wins.
fn ser_de_string(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    if meta.input.peek(syn::Token![=]) {
        return string(meta);
    }
    let (mut ser, mut de) = (None, None);
    meta.parse_nested_meta(|m| {
        if m.path.is_ident("serialize") {
            ser = Some(string(&m)?);
        } else if m.path.is_ident("deserialize") {
            de = Some(string(&m)?);
        }
        Ok(())
    })?;
    ser.or(de)
        .ok_or_else(|| meta.error("expected `serialize` or `deserialize`"))
}

/// `default` or `default = "path"`.
fn default(meta: &ParseNestedMeta<'_>) -> syn::Result<SerdeDefault> {
    if meta.input.peek(syn::Token![=]) {
        Ok(SerdeDefault::Path(syn::parse_str(&string(meta)?)?))
    } else {
        Ok(SerdeDefault::Trait)
    }
}

fn rule(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<RenameRule>> {
    let s = ser_de_string(meta)?;
    let r = RenameRule::parse(&s);
    if r.is_none() {
        cx.error_spanned_by(&meta.path, format!("unknown rename rule `{s}`"));
    }
    Ok(r)
}

/// Skips the value of a serde key we do not need.
fn skip(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|m| skip(&m))?;
    }
    Ok(())
}

fn each(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    mut f: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let res = attr.parse_nested_meta(|meta| {
            if !f(&meta)? {
                skip(&meta)?;
            }
            Ok(())
        });
        if let Err(e) = res {
            cx.syn_error(e);
        }
    }
}

impl SerdeContainer {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> SerdeContainer {
        let mut c = SerdeContainer::default();
        each(cx, attrs, |meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "rename_all" => c.rename_all = rule(cx, meta)?,
                "rename_all_fields" => c.rename_all_fields = rule(cx, meta)?,
                "tag" => c.tag = Some(string(meta)?),
                "content" => c.content = Some(string(meta)?),
                "untagged" => c.untagged = true,
                "transparent" => c.transparent = true,
                "default" => c.default = Some(default(meta)?),
                "from" | "try_from" => c.proxy = Some(syn::parse_str(&string(meta)?)?),
                "into" => {
                    let t = syn::parse_str(&string(meta)?)?;
                    c.proxy.get_or_insert(t);
                }
                _ => return Ok(false),
            }
            Ok(true)
        });
        c
    }
}

impl SerdeField {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> SerdeField {
        let mut f = SerdeField::default();
        each(cx, attrs, |meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "rename" => f.rename = Some(ser_de_string(meta)?),
                "skip" => {
                    f.skip_serializing = true;
                    f.skip_deserializing = true;
                }
                "skip_serializing" => f.skip_serializing = true,
                "skip_deserializing" => f.skip_deserializing = true,
                "default" => f.default = Some(default(meta)?),
                "flatten" => f.flatten = true,
                "skip_serializing_if" => {
                    f.skip_serializing_if = Some(syn::parse_str(&string(meta)?)?);
                }
                "with" => {
                    f.with = Some(meta.path.segments[0].ident.span());
                    f.serialize = Some(SerdeWith::Module(syn::parse_str(&string(meta)?)?));
                }
                "serialize_with" => {
                    f.with = Some(meta.path.segments[0].ident.span());
                    f.serialize = Some(SerdeWith::Function(syn::parse_str(&string(meta)?)?));
                }
                "deserialize_with" => {
                    f.with = Some(meta.path.segments[0].ident.span());
                    f.serialize.get_or_insert(SerdeWith::DeserializeOnly);
                    skip(meta)?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        });
        f
    }
}

impl SerdeVariant {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> SerdeVariant {
        let mut v = SerdeVariant::default();
        each(cx, attrs, |meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "rename" => v.rename = Some(ser_de_string(meta)?),
                "rename_all" => v.rename_all = rule(cx, meta)?,
                "skip" | "skip_serializing" | "skip_deserializing" => v.skip = true,
                "other" => v.other = true,
                "untagged" => v.untagged = Some(meta.path.segments[0].ident.span()),
                "with" | "serialize_with" | "deserialize_with" => {
                    v.with = Some(meta.path.segments[0].ident.span());
                    skip(meta)?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        });
        v
    }
}
