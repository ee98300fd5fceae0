//! `#[derive(CustomResource)]`: names, versions, subresources and paths, as the API server
//! checks them when the CRD is created (apiextensions validation.go), plus what it does not
//! check but should (printer columns that lead nowhere).

use proc_macro2::{Ident, Span};

use super::paths::PathCheck;
use crate::ast::Container;
use crate::attr::Sp;
use crate::attr::paths::ColumnAttr;
use crate::attr::rule::RuleAttr;
use crate::ctxt::Ctxt;
use crdkit_apimachinery::names;

/// The checked resource, ready to expand.
pub struct Resource {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub plural: String,
    pub singular: String,
    pub list_kind: String,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
    pub namespaced: bool,
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
    pub deprecation_warning: Option<String>,
    pub root: Ident,
    pub status: Option<syn::Type>,
    pub scale: Option<(String, String, Option<String>)>,
    pub columns: Vec<ColumnAttr>,
    pub selectable_fields: Vec<String>,
    pub root_rules: Vec<RuleAttr>,
    pub root_description: Option<String>,
    pub max_desc_len: Option<u64>,
    pub derives: Vec<syn::Path>,
    pub spec_required: bool,
    pub flatten: bool,
    pub paths: Vec<PathCheck>,
    pub annotations: Vec<(String, String)>,
    pub labels: Vec<(String, String)>,
    pub attrs: Vec<syn::Meta>,
    /// The root's `apiVersion`, `kind` and `metadata` properties: their descriptions (`""`
    /// for none) when declared.
    pub api_version_property: Option<String>,
    pub kind_property: Option<String>,
    pub metadata_property: Option<String>,
    pub metadata_required: bool,
    /// `subresources.status`: with a status type, or `status_subresource`.
    pub status_subresource: bool,
    /// `empty_subresources`
    pub empty_subresources: bool,
}

fn required(cx: &Ctxt, v: &Option<Sp<String>>, key: &str, example: &str) -> Option<Sp<String>> {
    if v.is_none() {
        cx.error_at(
            Span::call_site(),
            format!("`#[derive(CustomResource)]` needs `#[crd({key} = \"{example}\")]`"),
        );
    }
    v.clone()
}

fn name_error(cx: &Ctxt, span: Span, what: &str, value: &str, err: Option<String>) {
    if let Some(e) = err {
        cx.error_at(span, format!("invalid {what} \"{value}\": {e}"));
    }
}

/// Checks the resource attributes; `None` after reporting errors that leave nothing to expand.
pub fn check(cx: &Ctxt, cont: &Container<'_>) -> Option<Resource> {
    let r = &cont.attrs.resource;
    if !cont.generics.params.is_empty() {
        cx.error_spanned_by(
            cont.generics.clone(),
            "a custom resource's spec cannot be generic: its CRD has one schema",
        );
    }
    let group = required(cx, &r.group, "group", "example.com");
    let version = required(cx, &r.version, "version", "v1");
    let kind = required(cx, &r.kind, "kind", "MyKind");
    let (group, version, kind) = (group?, version?, kind?);
    name_error(
        cx,
        group.span,
        "group",
        &group.value,
        names::group(&group.value),
    );
    name_error(
        cx,
        version.span,
        "version",
        &version.value,
        names::label(&version.value),
    );
    name_error(cx, kind.span, "kind", &kind.value, names::kind(&kind.value));
    let plural = r
        .plural
        .as_ref()
        .map_or_else(|| names::plural_of(&kind.value), |p| p.value.clone());
    if let Some(p) = &r.plural {
        name_error(cx, p.span, "plural", &p.value, names::label(&p.value));
    }
    let singular = r
        .singular
        .as_ref()
        .map_or_else(|| kind.value.to_lowercase(), |s| s.value.clone());
    if let Some(s) = &r.singular {
        name_error(cx, s.span, "singular", &s.value, names::label(&s.value));
    }
    // Left out unless given: the API server defaults it to `<kind>List`, as the docs' CRDs do.
    let list_kind = r
        .list_kind
        .as_ref()
        .map_or_else(String::new, |l| l.value.clone());
    if let Some(l) = &r.list_kind {
        name_error(cx, l.span, "list_kind", &l.value, names::kind(&l.value));
        if l.value == kind.value {
            cx.error_at(l.span, "kind and listKind may not be the same");
        }
    }
    for s in &r.short_names {
        name_error(cx, s.span, "short name", &s.value, names::label(&s.value));
    }
    for c in &r.categories {
        name_error(cx, c.span, "category", &c.value, names::label(&c.value));
    }
    let crd_name = format!("{plural}.{}", group.value);
    let errs = names::dns1123_subdomain(&crd_name);
    if !errs.is_empty() {
        cx.error_at(
            group.span,
            format!(
                "the CRD name \"{crd_name}\" (plural.group) is invalid: {}",
                errs.join(",")
            ),
        );
    }
    let deprecated = r.deprecated.as_ref().is_some_and(|d| d.value);
    let warning = r.deprecation_warning.as_ref().map(|w| w.value.clone());
    for e in names::deprecation_warning(deprecated, warning.as_deref()) {
        let span = r
            .deprecation_warning
            .as_ref()
            .map_or_else(Span::call_site, |w| w.span);
        cx.error_at(span, format!("invalid `deprecation_warning`: {e}"));
    }
    let root_name = r
        .root
        .as_ref()
        .map_or_else(|| kind.value.clone(), |s| s.value.clone());
    let root_span = r.root.as_ref().map_or(kind.span, |s| s.span);
    let root = match syn::parse_str::<Ident>(&root_name) {
        Ok(_) => Ident::new(&root_name, root_span),
        Err(_) => {
            cx.error_at(root_span, format!("the root type would be named `{root_name}`, which is not a Rust identifier; name it with `#[crd(root = \"..\")]`"));
            return None;
        }
    };
    if root == *cont.ident {
        cx.error_at(root_span, format!("the root type `{root_name}` would have the name of the spec type; name the spec `{root_name}Spec`, or the root with `#[crd(root = \"..\")]`"));
    }
    super::check_rules(cx, &r.root_rules);
    let flatten = r.flatten.as_ref().is_some_and(|f| f.value);
    if flatten {
        check_flattened_names(cx, cont, r.status.is_some());
    }

    // validation.go: "must have exactly one version marked as storage version".
    if let Some(st) = r.storage.as_ref().filter(|st| !st.value) {
        cx.error_at(st.span, format!("`storage = false` leaves the CRD of `{}`, which has this one version, with no storage version, which the API server rejects (\"must have exactly one version marked as storage version\"); with several versions, `#[derive(crdkit::Versions)]` marks the stored one with `#[versions(storage)]`", kind.value));
    }
    check_metadata(cx, r);
    check_optional_spec(cx, cont, flatten);
    if let Some(e) = r.empty_subresources.as_ref().filter(|e| e.value)
        && (r.status.is_some() || r.status_subresource.is_some() || r.scale.is_some())
    {
        cx.error_at(e.span, "`empty_subresources` writes `subresources: {}` for a version without subresources; this one has some");
    }
    if let (Some(sub), Some(_)) = (&r.status_subresource, &r.status) {
        cx.error_at(
            sub.span,
            "`status = ..` adds the status subresource already; leave out `status_subresource`",
        );
    }
    let (scale, paths) = super::paths::check(cx, r);
    let property = |p: &Option<crate::attr::container::PropertyAttr>| {
        p.as_ref()
            .map(|p| p.description.clone().unwrap_or_default())
    };
    Some(Resource {
        group: group.value,
        version: version.value,
        kind: kind.value,
        plural,
        singular,
        list_kind,
        short_names: r.short_names.iter().map(|s| s.value.clone()).collect(),
        categories: r.categories.iter().map(|s| s.value.clone()).collect(),
        namespaced: r.namespaced.as_ref().is_some_and(|n| n.value),
        served: r.served.as_ref().is_none_or(|s| s.value),
        storage: r.storage.as_ref().is_none_or(|s| s.value),
        deprecated,
        deprecation_warning: warning,
        root,
        status: r.status.clone(),
        scale,
        columns: r.columns.clone(),
        selectable_fields: r
            .selectable_fields
            .iter()
            .map(|s| s.value.clone())
            .collect(),
        root_rules: r.root_rules.clone(),
        root_description: r.root_description.as_ref().map(|d| d.value.clone()),
        max_desc_len: r.max_desc_len.as_ref().map(|n| n.value),
        derives: r.derives.clone(),
        spec_required: cont.serde.default.is_none()
            && !r.optional_spec.as_ref().is_some_and(|o| o.value),
        flatten,
        paths,
        annotations: pairs(&r.annotations),
        labels: pairs(&r.labels),
        attrs: r.attrs.clone(),
        api_version_property: property(&r.api_version_property),
        kind_property: property(&r.kind_property),
        metadata_property: property(&r.metadata_property),
        metadata_required: r.metadata_property.as_ref().is_some_and(|m| m.required),
        status_subresource: r.status.is_some()
            || r.status_subresource.as_ref().is_some_and(|s| s.value),
        empty_subresources: r.empty_subresources.as_ref().is_some_and(|s| s.value),
    })
}

/// `optional_spec` takes `spec` out of the root's `required`; a flattened spec has no `spec`
/// property, and `#[serde(default)]` on the spec already makes it optional.
///
/// `#[crd(flatten, optional_spec)]`
fn check_optional_spec(cx: &Ctxt, cont: &Container<'_>, flatten: bool) {
    let Some(o) = cont
        .attrs
        .resource
        .optional_spec
        .as_ref()
        .filter(|o| o.value)
    else {
        return;
    };
    if flatten {
        cx.error_at(o.span, "with `flatten` the spec's fields sit at the root, and there is no `spec` to make optional: leave out `optional_spec`");
    } else if cont.serde.default.is_some() {
        cx.error_at(o.span, "`#[serde(default)]` on the spec makes `spec` optional already: leave out `optional_spec`");
    }
}

/// `#[crd(flatten)]` puts the spec's fields beside `apiVersion`, `kind`, `metadata` (and
/// `status`): a field of one of those names would be written twice.
///
/// `#[crd(flatten)] struct CronTabSpec { kind: String }`
fn check_flattened_names(cx: &Ctxt, cont: &Container<'_>, status: bool) {
    let reserved: &[&str] = if status {
        &["apiVersion", "kind", "metadata", "status"]
    } else {
        &["apiVersion", "kind", "metadata"]
    };
    for f in super::fields(cont) {
        if reserved.contains(&f.name.as_str()) && !super::structural::skipped(f) {
            cx.error_spanned_by(
                &f.original.ident,
                format!(
                    "with `#[crd(flatten)]` the spec's fields sit at the root of the object, where `{}` is the object's own; rename the field",
                    f.name
                ),
            );
        }
    }
}

fn pairs(v: &[(Sp<String>, Sp<String>)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(k, v)| (k.value.clone(), v.value.clone()))
        .collect()
}

/// The CRD's labels and annotations, as apimachinery `ValidateObjectMeta` checks them:
/// label keys qualified names and values label values, annotation keys qualified names once
/// lowercased, each key once.
///
/// `annotation("api-approved.kubernetes.io", "https://github.com/..")`
fn check_metadata(cx: &Ctxt, r: &crate::attr::container::ResourceAttrs) {
    let mut seen = Vec::new();
    for (k, v) in &r.labels {
        for e in names::label_key(&k.value) {
            cx.error_at(k.span, format!("invalid label key \"{}\": {e}", k.value));
        }
        for e in names::label_value(&v.value) {
            cx.error_at(v.span, format!("invalid label value \"{}\": {e}", v.value));
        }
        if seen.contains(&("label", &k.value)) {
            cx.error_at(k.span, format!("duplicate label \"{}\"", k.value));
        }
        seen.push(("label", &k.value));
    }
    for (k, _) in &r.annotations {
        for e in names::label_key(&k.value.to_lowercase()) {
            cx.error_at(
                k.span,
                format!("invalid annotation key \"{}\": {e}", k.value),
            );
        }
        if seen.contains(&("annotation", &k.value)) {
            cx.error_at(k.span, format!("duplicate annotation \"{}\"", k.value));
        }
        seen.push(("annotation", &k.value));
    }
}
