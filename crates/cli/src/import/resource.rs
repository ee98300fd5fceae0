//! The resource-level attributes of each version (`#[crd(group = .., version = .., ..)]` on its
//! spec type) and of the kind (`#[versions(..)]`), from the CRD's names, versions, columns,
//! subresources, selectable fields and conversion.

use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};
use crdkit_schema::props::JsonSchemaProps;

use super::lower::{Implied, Lower};
use super::meta::Meta;
use super::model::{Hint, Role, TypeId};
use super::paths;

/// Root properties the derive writes itself.
const TYPE_META: &[&str] = &["apiVersion", "kind", "metadata"];

/// One version, lowered.
pub(crate) struct Version {
    pub name: String,
    /// `status = ..`
    pub status: Option<TypeId>,
    /// The resource keys of `#[crd(..)]` on the spec type, in order.
    pub attrs: Vec<Meta>,
    /// Some printer column or scale path is left unchecked (`allow_unresolved`, a
    /// `deprecated` warning the module allows).
    pub unchecked_paths: bool,
}

/// Lowers version `index` of `crd`.
pub(crate) fn version(
    lower: &mut Lower<'_>,
    crd: &CustomResourceDefinition,
    index: usize,
) -> Version {
    let v = &crd.spec.versions[index];
    let empty = JsonSchemaProps::default();
    let root = v
        .schema
        .as_ref()
        .and_then(|s| s.open_api_v3_schema.as_ref())
        .unwrap_or(&empty);
    let path = format!("version {}", v.name);
    let props = &root.properties;
    let has_status_sub = v.subresources.as_ref().is_some_and(|s| s.status.is_some());
    let is_struct = |p: Option<&JsonSchemaProps>| {
        p.is_some_and(|p| {
            p.ty == "object"
                && p.additional_properties.is_none()
                && !p.x_int_or_string
                && (p.x_preserve_unknown_fields != Some(true) || !p.properties.is_empty())
                && !p.nullable
        })
    };
    let status_type = has_status_sub && is_struct(props.get("status"));
    let flatten = !is_struct(props.get("spec"))
        || props
            .keys()
            .any(|k| !TYPE_META.contains(&k.as_str()) && k != "spec" && k != "status")
        || (props.contains_key("status") && !status_type);

    let mut attrs = names(crd, v);
    attrs.extend(type_meta(lower, root, &path));
    let mut skip: Vec<&str> = TYPE_META.to_vec();
    if status_type {
        skip.push("status");
    }
    // The type carrying `#[derive(CustomResource)]`, with its doc comment.
    let (spec, spec_doc) = if flatten {
        attrs.push(Meta::flag("flatten"));
        let (type_attrs, doc) = root_keywords(lower, root, &path);
        let id = lower.object(
            root,
            &path,
            Role::Spec(index),
            type_attrs,
            Hint::default(),
            &skip,
        );
        (id, doc)
    } else {
        if let Some(d) = (!root.description.is_empty()).then_some(&root.description) {
            attrs.push(Meta::str("root_description", d));
        }
        for r in lower.keywords(root, &path, &Implied::default()) {
            match r {
                Meta::List(k, items) if k == "validation" => {
                    attrs.push(Meta::List("root_validation".to_owned(), items));
                }
                other => lower.warnings.push(format!(
                    "{path}: `{other:?}` on the root schema is left out: the derive writes the root"
                )),
            }
        }
        if !root.required.iter().any(|r| r == "spec") {
            attrs.push(Meta::flag("optional_spec"));
        }
        let spec_node = &props["spec"];
        let (type_attrs, doc) = root_keywords(lower, spec_node, &format!("{path}.spec"));
        let id = lower.object(
            spec_node,
            &format!("{path}.spec"),
            Role::Spec(index),
            type_attrs,
            Hint::default(),
            &[],
        );
        (id, doc)
    };
    lower.types.defs[spec].doc = spec_doc;
    let status = if status_type {
        let node = &props["status"];
        let (type_attrs, doc) = root_keywords(lower, node, &format!("{path}.status"));
        let id = lower.object(
            node,
            &format!("{path}.status"),
            Role::Status(index),
            type_attrs,
            Hint::default(),
            &[],
        );
        lower.types.defs[id].doc = doc;
        Some(id)
    } else {
        if has_status_sub {
            attrs.push(Meta::flag("status_subresource"));
        }
        None
    };
    if v.subresources
        .as_ref()
        .is_some_and(|s| s.status.is_none() && s.scale.is_none())
    {
        attrs.push(Meta::flag("empty_subresources"));
    }
    let mut unchecked_paths = false;
    if let Some(scale) = v.subresources.as_ref().and_then(|s| s.scale.as_ref()) {
        let mut items = vec![
            Meta::str("spec_replicas", &scale.spec_replicas_path),
            Meta::str("status_replicas", &scale.status_replicas_path),
        ];
        if let Some(l) = &scale.label_selector_path {
            items.push(Meta::str("label_selector", l));
        }
        let resolved = paths::resolves(root, &scale.spec_replicas_path, "integer")
            && paths::resolves(root, &scale.status_replicas_path, "integer")
            && scale
                .label_selector_path
                .as_ref()
                .is_none_or(|l| paths::resolves(root, l, "string"));
        if !resolved {
            items.push(Meta::flag("allow_unresolved"));
            unchecked_paths = true;
        }
        attrs.push(Meta::List("scale".to_owned(), items));
    }
    for c in &v.additional_printer_columns {
        let mut items = vec![
            Meta::str("name", &c.name),
            Meta::str("json_path", &c.json_path),
            Meta::str("type", &c.ty),
        ];
        if !c.format.is_empty() {
            items.push(Meta::str("format", &c.format));
        }
        if !c.description.is_empty() {
            items.push(Meta::str("description", &c.description));
        }
        if c.priority != 0 {
            items.push(Meta::raw("priority", c.priority.to_string()));
        }
        if !paths::resolves(root, &c.json_path, &c.ty) {
            items.push(Meta::flag("allow_unresolved"));
            unchecked_paths = true;
        }
        attrs.push(Meta::List("print_column".to_owned(), items));
    }
    for f in &v.selectable_fields {
        attrs.push(Meta::str("selectable_field", &f.json_path));
    }
    Version {
        name: v.name.clone(),
        status,
        attrs,
        unchecked_paths,
    }
}

/// Names, scope, served/deprecated, the CRD's labels and annotations.
fn names(crd: &CustomResourceDefinition, v: &CustomResourceDefinitionVersion) -> Vec<Meta> {
    let n = &crd.spec.names;
    let mut attrs = vec![
        Meta::str("group", &crd.spec.group),
        Meta::str("version", &v.name),
        Meta::str("kind", &n.kind),
    ];
    if crd.spec.scope == "Namespaced" {
        attrs.push(Meta::flag("namespaced"));
    } else {
        attrs.push(Meta::str("scope", &crd.spec.scope));
    }
    attrs.push(Meta::str("plural", &n.plural));
    // Names the API server would default to are left to the derive's defaults.
    let mut defaults = crdkit_schema::crd::CustomResourceDefinitionNames {
        kind: n.kind.clone(),
        ..Default::default()
    };
    defaults.set_defaults();
    if !n.singular.is_empty() && n.singular != defaults.singular {
        attrs.push(Meta::str("singular", &n.singular));
    }
    if !n.list_kind.is_empty() && n.list_kind != defaults.list_kind {
        attrs.push(Meta::str("list_kind", &n.list_kind));
    }
    if !n.short_names.is_empty() {
        attrs.push(Meta::strings("short_name", &n.short_names));
    }
    if !n.categories.is_empty() {
        attrs.push(Meta::strings("category", &n.categories));
    }
    if !v.served {
        attrs.push(Meta::raw("served", "false"));
    }
    if v.deprecated {
        attrs.push(Meta::flag("deprecated"));
    }
    if let Some(w) = &v.deprecation_warning {
        attrs.push(Meta::str("deprecation_warning", w));
    }
    for (key, map) in [
        ("annotation", &crd.metadata.annotations),
        ("label", &crd.metadata.labels),
    ] {
        for (k, val) in map.iter().flatten() {
            attrs.push(Meta::List(
                key.to_owned(),
                vec![
                    Meta::Lit(super::meta::string_lit(k)),
                    Meta::Lit(super::meta::string_lit(val)),
                ],
            ));
        }
    }
    attrs
}

/// `api_version_property`, `kind_property`, `metadata_property`: the root's `apiVersion`,
/// `kind` and `metadata`, with their descriptions, as controller-gen writes them.
fn type_meta(lower: &mut Lower<'_>, root: &JsonSchemaProps, path: &str) -> Vec<Meta> {
    let mut attrs = Vec::new();
    for (name, key, ty) in [
        ("apiVersion", "api_version_property", "string"),
        ("kind", "kind_property", "string"),
        ("metadata", "metadata_property", "object"),
    ] {
        let Some(p) = root.properties.get(name) else {
            continue;
        };
        let mut items = Vec::new();
        if name == "metadata" && root.required.iter().any(|r| r == "metadata") {
            items.push(Meta::flag("required"));
        }
        if !p.description.is_empty() {
            items.push(Meta::str("description", &p.description));
        }
        let plain = JsonSchemaProps {
            description: p.description.clone(),
            ty: ty.to_owned(),
            ..JsonSchemaProps::default()
        };
        if *p != plain {
            lower.warnings.push(format!(
                "{path}.{name}: only its type ({ty}) and description are kept: the API server \
                 knows the rest"
            ));
        }
        attrs.push(if items.is_empty() {
            Meta::flag(key)
        } else {
            Meta::List(key.to_owned(), items)
        });
    }
    attrs
}

/// The type-level keywords of a spec, status or flattened root, and its description.
fn root_keywords(
    lower: &mut Lower<'_>,
    n: &JsonSchemaProps,
    path: &str,
) -> (Vec<Meta>, Option<String>) {
    let keeps_unknown = n.x_preserve_unknown_fields == Some(true);
    let implied = Implied {
        preserve: keeps_unknown && !n.properties.is_empty(),
        ..Implied::default()
    };
    let mut attrs = Vec::new();
    if keeps_unknown && n.properties.is_empty() {
        attrs.push(Meta::flag("preserve_unknown_fields"));
    }
    attrs.extend(lower.keywords(n, path, &implied));
    (
        attrs,
        (!n.description.is_empty()).then(|| n.description.clone()),
    )
}
