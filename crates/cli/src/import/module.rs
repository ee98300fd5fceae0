//! One CRD → one Rust module: its types (shared ones in the module, the others in a module per
//! version when there are several), the versions enum, and `crds()`.

use std::fmt::Write as _;

use crdkit_apimachinery::version::compare_priority;
use crdkit_schema::crd::CustomResourceDefinition;

use super::lower::Lower;
use super::meta::{Meta, attribute};
use super::model::{Def, Role, TypeId, Types};
use super::names;
use super::naming::{self, RESERVED};
use super::render;
use super::resource::{self, Version};

/// Lints the generated code allows, each for a reason the CRD imposes.
const ALLOWS: &str = "    // Descriptions are the CRD's text, written for `kubectl explain`, not for rustdoc or clippy.
    rustdoc::all,
    clippy::doc_lazy_continuation,
    clippy::doc_overindented_list_items,
    clippy::tabs_in_doc_comments,
    clippy::too_long_first_doc_paragraph,
    // Printer columns (and junctor branches) repeat keys such as `type = \"string\"` in one
    // `#[crd(..)]`, which clippy reads as duplicated attributes.
    clippy::duplicated_attributes,";

/// One CRD's module.
pub(crate) struct Module {
    /// `pub mod name { .. }`, with its doc comment and attributes.
    pub text: String,
    /// What the derive cannot say and was left out.
    pub warnings: Vec<String>,
}

/// The module for `crd`, named `name`.
pub(crate) fn module(crd: &CustomResourceDefinition, name: &str) -> Module {
    let mut types = Types::default();
    let mut warnings = Vec::new();
    let spec = &crd.spec;
    let webhook = spec
        .conversion
        .as_ref()
        .is_some_and(|c| c.strategy == "Webhook");
    let several = spec.versions.len() > 1 || webhook;
    let versions: Vec<Version> = (0..spec.versions.len())
        .map(|i| {
            let mut lower = Lower {
                types: &mut types,
                version: i,
                warnings: &mut warnings,
            };
            resource::version(&mut lower, crd, i)
        })
        .collect();
    types.hoist_docs();
    let kind = &spec.names.kind;
    let valid_ident = kind.starts_with(|c: char| c.is_ascii_uppercase())
        && kind.chars().all(|c| c.is_ascii_alphanumeric());
    let root = if valid_ident && !RESERVED.contains(&kind.as_str()) {
        kind.clone()
    } else {
        format!("{}Resource", names::pascal(kind))
    };
    let type_prefix = names::pascal(kind);
    naming::assign(&mut types, &root, &type_prefix, versions.len());

    let mut body = String::new();
    let allow_deprecated = versions.iter().any(|v| v.unchecked_paths);
    let ind = "    ";
    let top: Vec<TypeId> = (0..types.defs.len())
        .filter(|&id| naming::placement(&types, id, several).is_none())
        .collect();
    let mut uses = render::uses_of(&types, &top);
    uses.serde = top.iter().any(|_| true);
    let _ = write!(body, "{}", uses.lines(ind));
    if !body.is_empty() {
        body.push('\n');
    }
    let _ = writeln!(
        body,
        "{ind}/// The CRD `{}`, as the derive builds it from these types.\n\
         {ind}///\n\
         {ind}/// # Errors\n\
         {ind}/// When a part of the CRD computed at run time fails (see `CustomResource::crd`).\n\
         {ind}pub fn crds() -> Result<Vec<crdkit::CustomResourceDefinition>, crdkit::CrdError> {{\n\
         {ind}    Ok(vec![{root}::crd()?])\n\
         {ind}}}",
        crd.metadata.name.as_deref().unwrap_or_default(),
    );
    let resource_attrs = |v: &Version| {
        let mut attrs = v.attrs.clone();
        if root != *kind {
            attrs.insert(3, Meta::str("root", &root));
        }
        if let Some(s) = v.status {
            attrs.insert(3, Meta::raw("status", types.defs[s].name.clone()));
        }
        attrs.insert(
            3,
            Meta::List(
                "derive".to_owned(),
                vec![Meta::flag("Default"), Meta::flag("PartialEq")],
            ),
        );
        attrs
    };
    if several {
        body.push('\n');
        versions_enum(&mut body, crd, &versions, &root);
    }
    // The CRD module's types: without versions, the specs first.
    let mut order: Vec<TypeId> = top.clone();
    order.sort_by_key(|&id| (types.defs[id].role == Role::Plain, id));
    for id in order {
        body.push('\n');
        let resource = match types.defs[id].role {
            Role::Spec(v) => resource_attrs(&versions[v]),
            _ => Vec::new(),
        };
        render::type_def(&mut body, &types.defs[id], &types, &resource, ind);
    }
    if several {
        for (i, v) in versions.iter().enumerate() {
            let ids: Vec<TypeId> = (0..types.defs.len())
                .filter(|&id| naming::placement(&types, id, true) == Some(i))
                .collect();
            let mut ids = ids;
            ids.sort_by_key(|&id| (types.defs[id].role == Role::Plain, id));
            let module = names::module_ident(&v.name);
            let _ = writeln!(body, "\n{ind}/// Version `{}`.", v.name);
            let _ = writeln!(body, "{ind}pub mod {module} {{");
            let inner = format!("{ind}    ");
            let mut uses = render::uses_of(&types, &ids);
            uses.serde = true;
            // The CRD module's types, when one is named here (an unused glob would warn).
            let shared = ids.iter().any(|&id| {
                let status = match types.defs[id].role {
                    Role::Spec(v) => versions[v].status,
                    _ => None,
                };
                let fields = match &types.defs[id].def {
                    Def::Struct(fields) => fields.iter().filter_map(|f| f.ty.named()).collect(),
                    Def::Enum(_) => Vec::new(),
                };
                fields
                    .into_iter()
                    .chain(status)
                    .any(|t| naming::placement(&types, t, true).is_none())
            });
            let lines = uses.lines(&inner);
            if shared {
                let _ = writeln!(body, "{inner}use super::*;");
                if !lines.is_empty() {
                    body.push('\n');
                }
            }
            body.push_str(&lines);
            for id in ids {
                body.push('\n');
                let resource = match types.defs[id].role {
                    Role::Spec(v) => resource_attrs(&versions[v]),
                    _ => Vec::new(),
                };
                render::type_def(&mut body, &types.defs[id], &types, &resource, &inner);
            }
            let _ = writeln!(body, "{ind}}}");
        }
    }

    let mut text = String::new();
    let crd_name = crd.metadata.name.as_deref().unwrap_or_default();
    let _ = writeln!(
        text,
        "/// `{crd_name}`: the `{kind}` kind of `{}`, from its CustomResourceDefinition.",
        spec.group
    );
    let mut allows = ALLOWS.to_owned();
    if allow_deprecated {
        allows.push_str(
            "\n    // `allow_unresolved` paths (printer columns, scale) warn that they are unchecked.\n    deprecated,",
        );
    }
    if several {
        allows.push_str(
            "\n    // The versions enum holds a whole object of one version in each variant.\n    clippy::large_enum_variant,",
        );
    }
    let _ = writeln!(text, "#[allow(\n{allows}\n)]");
    let _ = writeln!(text, "pub mod {name} {{");
    text.push_str(&body);
    text.push_str("}\n");
    Module { text, warnings }
}

/// `#[derive(Versions)] enum Kind { V1(v1::Kind), .. }`: the variants in the CRD's order
/// (`order = "declared"`) unless that is the priority order, then oldest first.
fn versions_enum(
    out: &mut String,
    crd: &CustomResourceDefinition,
    versions: &[Version],
    root: &str,
) {
    let ind = "    ";
    let names: Vec<&str> = versions.iter().map(|v| v.name.as_str()).collect();
    let mut by_priority = names.clone();
    by_priority.sort_by(|a, b| compare_priority(b, a));
    let declared = by_priority != names;
    let mut order: Vec<usize> = (0..versions.len()).collect();
    if !declared {
        order.reverse();
    }
    let mut attrs = Vec::new();
    if declared {
        attrs.push(Meta::str("order", "declared"));
    }
    match &crd.spec.conversion {
        Some(c) if c.strategy == "Webhook" => attrs.push(webhook(c)),
        _ => {
            let schemas: Vec<_> = crd
                .spec
                .versions
                .iter()
                .map(|v| serde_json::to_value(&v.schema).unwrap_or_default())
                .collect();
            if schemas.windows(2).any(|w| w[0] != w[1]) {
                attrs.push(Meta::flag("allow_different_schemas"));
            }
        }
    }
    let _ = writeln!(
        out,
        "{ind}/// The `{}` kind in each of its versions.",
        crd.spec.names.kind
    );
    let _ = writeln!(out, "{ind}#[derive(crdkit::Versions, Clone, Debug)]");
    if !attrs.is_empty() {
        for l in attribute("versions", &attrs, ind.len()) {
            let _ = writeln!(out, "{l}");
        }
    }
    let _ = writeln!(out, "{ind}pub enum {root} {{");
    for i in order {
        let v = &crd.spec.versions[i];
        if v.storage {
            let _ = writeln!(out, "{ind}    #[versions(storage)]");
        }
        let _ = writeln!(
            out,
            "{ind}    {}({}::{root}),",
            names::pascal(&v.name),
            names::module_ident(&v.name)
        );
    }
    let _ = writeln!(out, "{ind}}}");
}

/// `webhook(url = .., service(..), ca_bundle = .., review_versions(..))`
fn webhook(c: &crdkit_schema::crd::CustomResourceConversion) -> Meta {
    let mut items = Vec::new();
    if let Some(w) = &c.webhook {
        if let Some(cc) = &w.client_config {
            if let Some(url) = &cc.url {
                items.push(Meta::str("url", url));
            }
            if let Some(s) = &cc.service {
                let mut svc = vec![
                    Meta::str("namespace", &s.namespace),
                    Meta::str("name", &s.name),
                ];
                if let Some(p) = &s.path {
                    svc.push(Meta::str("path", p));
                }
                if let Some(p) = s.port {
                    svc.push(Meta::raw("port", p.to_string()));
                }
                items.push(Meta::List("service".to_owned(), svc));
            }
            if let Some(ca) = &cc.ca_bundle {
                items.push(Meta::str("ca_bundle", ca));
            }
        }
        items.push(Meta::strings(
            "review_versions",
            &w.conversion_review_versions,
        ));
    }
    Meta::List("webhook".to_owned(), items)
}
