//! The arguments of `#[crdkit::versioned(..)]` and the `#[versioned(..)]` attributes of fields.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;

use crate::attr::{Sp, unknown_in};
use crate::ctxt::Ctxt;

/// `#[crdkit::versioned(version(..), .., webhook(..))]`
#[derive(Default)]
pub struct Args {
    pub versions: Vec<VersionArg>,
    /// `webhook(..)` or `conversion = ".."`, as written, for the versions enum.
    pub conversion: Option<TokenStream>,
}

/// `version(name = "v1", storage, served = false, deprecated, deprecation_warning = "..",
/// crd(print_column(..)))`
pub struct VersionArg {
    pub name: Sp<String>,
    pub storage: Option<Span>,
    pub served: Option<bool>,
    pub deprecated: Option<bool>,
    pub deprecation_warning: Option<syn::LitStr>,
    /// `crd(..)`: attributes of this version's type only.
    pub crd: Option<TokenStream>,
}

/// What happens to a field in a version. (A few per field: the size of `Changed` does not matter.)
#[allow(clippy::large_enum_variant)]
pub enum ActionKind {
    /// `added(since = "v1", default = path)`: absent before.
    Added { default: Option<syn::ExprPath> },
    /// `removed(since = "v1", default = path)`: absent from then on.
    Removed { default: Option<syn::ExprPath> },
    /// `renamed(since = "v1", from = "old_name")`: called `from` before.
    Renamed { from: syn::Ident },
    /// `changed(since = "v1", from_type = "i32", upgrade_with = path, downgrade_with = path)`:
    /// of type `from_type` before.
    Changed {
        from_type: syn::Type,
        upgrade_with: Option<syn::ExprPath>,
        downgrade_with: Option<syn::ExprPath>,
    },
    /// `deprecated(since = "v1", note = "..")`: `#[deprecated]` from then on.
    Deprecated { note: Option<String> },
}

pub struct Action {
    pub kind: ActionKind,
    pub since: Sp<String>,
    /// The action's keyword (`added`).
    pub span: Span,
    /// The index of `since` among the versions (set by the check).
    pub index: usize,
}

impl Action {
    pub fn name(&self) -> &'static str {
        match self.kind {
            ActionKind::Added { .. } => "added",
            ActionKind::Removed { .. } => "removed",
            ActionKind::Renamed { .. } => "renamed",
            ActionKind::Changed { .. } => "changed",
            ActionKind::Deprecated { .. } => "deprecated",
        }
    }
}

const ACTIONS: &[&str] = &["added", "removed", "renamed", "changed", "deprecated"];

pub fn parse_args(cx: &Ctxt, args: TokenStream) -> Args {
    let mut out = Args::default();
    let parser = syn::meta::parser(|meta| {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "version" => {
                if let Some(v) = parse_version(cx, &meta)? {
                    out.versions.push(v);
                }
            }
            "webhook" => {
                let content;
                syn::parenthesized!(content in meta.input);
                let inner: TokenStream = content.parse()?;
                let path = &meta.path;
                conversion_once(cx, &meta, &mut out.conversion, quote!(#path(#inner)));
            }
            "conversion" => {
                let lit: syn::LitStr = meta.value()?.parse()?;
                let path = &meta.path;
                conversion_once(cx, &meta, &mut out.conversion, quote!(#path = #lit));
            }
            _ => unknown_in(
                cx,
                "versioned",
                &meta,
                "`#[crdkit::versioned(..)]`",
                &["version", "webhook", "conversion"],
            ),
        }
        Ok(())
    });
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        cx.syn_error(e);
    }
    out
}

fn conversion_once(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    slot: &mut Option<TokenStream>,
    tokens: TokenStream,
) {
    if slot.is_some() {
        cx.error_spanned_by(&meta.path, "the conversion is declared twice");
    }
    *slot = Some(tokens);
}

fn parse_version(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<VersionArg>> {
    let span = meta.path.segments[0].ident.span();
    let (mut name, mut storage, mut served, mut deprecated, mut warning, mut crd) =
        (None, None, None, None, None, None);
    meta.parse_nested_meta(|m| {
        let key = m
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "name" => name = Some(crate::attr::string(&m)?),
            "storage" => storage = Some(m.path.segments[0].ident.span()),
            "served" => served = Some(crate::attr::flag(&m)?.value),
            "deprecated" => deprecated = Some(crate::attr::flag(&m)?.value),
            "deprecation_warning" => warning = Some(crate::attr::lit_str(&m)?),
            "crd" => {
                let content;
                syn::parenthesized!(content in m.input);
                crd = Some(content.parse::<TokenStream>()?);
            }
            _ => unknown_in(
                cx,
                "versioned",
                &m,
                "`version(..)`",
                &[
                    "name",
                    "storage",
                    "served",
                    "deprecated",
                    "deprecation_warning",
                    "crd",
                ],
            ),
        }
        Ok(())
    })?;
    let Some(name) = name else {
        cx.error_at(span, "`version(..)` needs `name = \"v1\"`");
        return Ok(None);
    };
    Ok(Some(VersionArg {
        name,
        storage,
        served,
        deprecated,
        deprecation_warning: warning,
        crd,
    }))
}

/// The `#[versioned(..)]` attributes of a field, in the order written.
pub fn parse_field(cx: &Ctxt, attrs: &[syn::Attribute]) -> Vec<Action> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("versioned")) {
        let res = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if !ACTIONS.contains(&key.as_str()) {
                unknown_in(cx, "versioned", &meta, "a versioned field", ACTIONS);
                return Ok(());
            }
            if let Some(a) = parse_action(cx, &key, &meta)? {
                out.push(a);
            }
            Ok(())
        });
        if let Err(e) = res {
            cx.syn_error(e);
        }
    }
    out
}

fn parse_action(cx: &Ctxt, key: &str, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Action>> {
    let span = meta.path.segments[0].ident.span();
    let (mut since, mut default, mut from, mut from_type, mut up, mut down, mut note) =
        (None, None, None, None, None, None, None);
    let known: &[&str] = match key {
        "added" | "removed" => &["since", "default"],
        "renamed" => &["since", "from"],
        "changed" => &["since", "from_type", "upgrade_with", "downgrade_with"],
        _ => &["since", "note"],
    };
    meta.parse_nested_meta(|m| {
        let k = m
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        if !known.contains(&k.as_str()) {
            unknown_in(cx, "versioned", &m, &format!("`{key}(..)`"), known);
            return Ok(());
        }
        match k.as_str() {
            "since" => since = Some(crate::attr::string(&m)?),
            "default" => default = Some(path(&m)?),
            "from" => {
                let s = crate::attr::lit_str(&m)?;
                from = Some(s.parse::<syn::Ident>().map_err(|_| {
                    syn::Error::new(
                        s.span(),
                        "`from` is the field's Rust name in the earlier versions",
                    )
                })?);
            }
            "from_type" => from_type = Some(crate::attr::ty(&m)?),
            "upgrade_with" => up = Some(path(&m)?),
            "downgrade_with" => down = Some(path(&m)?),
            _ => note = Some(crate::attr::string(&m)?.value),
        }
        Ok(())
    })?;
    let Some(since) = since else {
        cx.error_at(span, format!("`{key}(..)` needs `since = \"<version>\"`"));
        return Ok(None);
    };
    let kind = match key {
        "added" => ActionKind::Added { default },
        "removed" => ActionKind::Removed { default },
        "renamed" => {
            let Some(from) = from else {
                cx.error_at(span, "`renamed(..)` needs `from = \"old_name\"`, the field's name in the earlier versions");
                return Ok(None);
            };
            ActionKind::Renamed { from }
        }
        "changed" => {
            let Some(from_type) = from_type else {
                cx.error_at(span, "`changed(..)` needs `from_type = \"Type\"`, the field's type in the earlier versions");
                return Ok(None);
            };
            ActionKind::Changed {
                from_type,
                upgrade_with: up,
                downgrade_with: down,
            }
        }
        _ => ActionKind::Deprecated { note },
    };
    Ok(Some(Action {
        kind,
        since,
        span,
        index: 0,
    }))
}

/// `key = path::to::function` or `key = "path::to::function"`
fn path(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::ExprPath> {
    let v = meta.value()?;
    if v.peek(syn::LitStr) {
        v.parse::<syn::LitStr>()?.parse()
    } else {
        v.parse()
    }
}

/// What the versioned macro needs from the struct's own `#[crd(..)]`: the root's name, whether
/// it has a status, the crate path; `version` is the macro's to set.
#[derive(Default)]
pub struct CrdInfo {
    pub kind: Option<String>,
    pub root: Option<String>,
    pub status: bool,
    pub krate: Option<syn::Path>,
}

pub fn crd_info(cx: &Ctxt, attrs: &[syn::Attribute]) -> CrdInfo {
    let mut info = CrdInfo::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("crd")) {
        // Errors in these attributes are the derive's to report.
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            match key.as_str() {
                "kind" => info.kind = Some(crate::attr::string(&meta)?.value),
                "root" => info.root = Some(crate::attr::string(&meta)?.value),
                "status" => {
                    info.status = true;
                    crate::attr::skip_value(&meta);
                }
                "crate" => {
                    let v = meta.value()?;
                    info.krate = Some(if v.peek(syn::LitStr) {
                        v.parse::<syn::LitStr>()?.parse()?
                    } else {
                        v.parse()?
                    });
                }
                "version" => {
                    cx.error_spanned_by(&meta.path, "`#[crdkit::versioned]` sets each version's `version`: declare the versions in its `version(name = \"..\")`");
                    crate::attr::skip_value(&meta);
                }
                "served" | "storage" | "deprecated" | "deprecation_warning" => {
                    cx.error_spanned_by(&meta.path, format!("`{key}` differs by version: give it in `#[crdkit::versioned(version(name = \"..\", {key}))]`"));
                    crate::attr::skip_value(&meta);
                }
                _ => crate::attr::skip_value(&meta),
            }
            Ok(())
        });
    }
    info
}
