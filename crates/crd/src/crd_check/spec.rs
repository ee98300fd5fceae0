//! The CRD's `spec` and the options that tune its checks: `validateCustomResourceDefinitionSpec`
//! with `validationOptions`.
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`. A create
//! uses [`Opts::create`]; an update relaxes the options for what the old CRD already broke
//! ([`super::update`]).

use super::{CheckOptions, enum_string, internal, openapi, parts};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_schema::JsonSchemaProps;
use crdkit_schema::crd::CustomResourceDefinition;

/// Go's `validationOptions`: what a create requires, and what an update relaxes for a CRD
/// that already broke a rule (so that a stored CRD stays updatable).
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)]
pub(super) struct Opts<'a> {
    pub(super) hooks: CheckOptions<'a>,
    /// `allowDefaults`, `requireValidPropertyType`, `requireStructuralSchema`,
    /// `requirePrunedDefaults`, `requireAtomicSetType`, `requireMapListKeysMapSetValidation`.
    pub(super) schema: openapi::SchemaOpts<'a>,
    pub(super) require_recognized_review_version: bool,
    pub(super) require_immutable_names: bool,
    pub(super) require_open_api_schema: bool,
    pub(super) allow_invalid_ca_bundle: bool,
    /// `versionsWithUnchangedSchemas`.
    pub(super) unchanged_schemas: std::collections::BTreeSet<String>,
    /// `allowTooManySelectableFields`, by version (`""`: the top-level fields).
    pub(super) too_many_selectable_allowed: std::collections::BTreeSet<String>,
}

impl<'a> Opts<'a> {
    /// `ValidateCustomResourceDefinition`'s options.
    pub(super) fn create(hooks: CheckOptions<'a>) -> Opts<'a> {
        Opts {
            hooks,
            schema: openapi::SchemaOpts::CREATE,
            require_recognized_review_version: true,
            require_immutable_names: false,
            require_open_api_schema: true,
            // The CRD is not established yet.
            allow_invalid_ca_bundle: true,
            unchanged_schemas: std::collections::BTreeSet::new(),
            too_many_selectable_allowed: std::collections::BTreeSet::new(),
        }
    }

    /// The schema options for version `version` (`""`: the top-level schema, checked under
    /// the name of the first version as Go's `spec.Version`).
    fn schema_for(&self, version: &str) -> openapi::SchemaOpts<'a> {
        openapi::SchemaOpts {
            suppress_cost: self.unchanged_schemas.contains(version),
            ..self.schema
        }
    }
}

// validateCustomResourceDefinitionSpec
#[allow(clippy::too_many_lines)]
pub(super) fn spec(
    crd: &CustomResourceDefinition,
    view: &internal::View<'_>,
    o: &Opts<'_>,
) -> Vec<FieldError> {
    let spec = &crd.spec;
    let p = FieldPath::new("spec");
    let mut errs = Vec::new();
    let group = p.child("group");
    if spec.group.is_empty() {
        errs.push(FieldError::required(&group, ""));
    } else if let errs_g @ [_, ..] = &crdkit_apimachinery::names::dns1123_subdomain(&spec.group)[..]
    {
        errs.push(FieldError::invalid(&group, &spec.group, errs_g.join(",")));
    } else if !spec.group.contains('.') {
        errs.push(FieldError::invalid(
            &group,
            &spec.group,
            "should be a domain with at least one dot",
        ));
    }
    errs.extend(enum_string(
        &p.child("scope"),
        &spec.scope,
        &["Cluster", "Namespaced"],
    ));

    let mut o = o.clone();
    // Pruning needs structural schemas.
    if !spec.preserve_unknown_fields {
        o.schema.structural = true;
    }
    let has_top_schema = view
        .validation
        .and_then(|v| v.open_api_v3_schema.as_ref())
        .is_some();
    if !has_top_schema {
        for (i, v) in view.versions.iter().enumerate() {
            let missing = v
                .schema
                .and_then(|s| s.open_api_v3_schema.as_ref())
                .is_none();
            let at = p
                .child("versions")
                .index(i)
                .child("schema")
                .child("openAPIV3Schema");
            if o.require_open_api_schema && missing {
                errs.push(FieldError::required(&at, ""));
            } else if !o.require_open_api_schema
                && !spec.preserve_unknown_fields
                && v.version.served
                && missing
            {
                errs.push(FieldError::required(
                    &at,
                    "because otherwise all fields are pruned",
                ));
            }
        }
    }
    if o.schema.allow_defaults
        && view.any_schema(|s| openapi::schema_has(s, 0, &|n| crdkit_schema::check::has_default(n)))
    {
        o.schema.structural = true;
        if spec.preserve_unknown_fields {
            errs.push(FieldError::invalid(
                &p.child("preserveUnknownFields"),
                true,
                "must be false in order to use defaults in the schema",
            ));
        }
    }
    if view.any_schema(|s| openapi::schema_has(s, 0, &has_kubernetes_extensions)) {
        o.schema.structural = true;
    }

    let mut storage = 0;
    let mut seen = std::collections::BTreeSet::new();
    let mut unique = true;
    for (i, v) in view.versions.iter().enumerate() {
        let at = p.child("versions").index(i);
        storage += usize::from(v.version.storage);
        unique &= seen.insert(v.version.name.as_str());
        if let Some(e) = crdkit_apimachinery::names::label(&v.version.name) {
            errs.push(FieldError::invalid(&at.child("name"), &v.version.name, e));
        }
        let status = view.subresources_for(i).is_some_and(|s| s.status.is_some());
        let version_opts = parts::VersionOpts {
            schema: o.schema_for(&v.version.name),
            too_many_selectable_allowed: o.too_many_selectable_allowed.contains(&v.version.name),
        };
        errs.extend(parts::version(v, &at, status, &version_opts, &o.hooks));
    }
    let versions = p.child("versions");
    if !unique {
        errs.push(FieldError::invalid(
            &versions,
            view.versions_value(),
            "must contain unique version names",
        ));
    }
    if storage != 1 {
        errs.push(FieldError::invalid(
            &versions,
            view.versions_value(),
            "must have exactly one version marked as storage version",
        ));
    }
    if let Some(first) = view.versions.first()
        && let Some(e) = crdkit_apimachinery::names::label(&first.version.name)
    {
        errs.push(FieldError::invalid(
            &p.child("version"),
            &first.version.name,
            e,
        ));
    }

    let names = p.child("names");
    for (value, name) in [
        (&spec.names.plural, "plural"),
        (&spec.names.singular, "singular"),
        (&spec.names.kind, "kind"),
        (&spec.names.list_kind, "listKind"),
    ] {
        if value.is_empty() {
            errs.push(FieldError::required(&names.child(name), ""));
        }
    }
    errs.extend(parts::names(&spec.names, &names));
    // The internal `spec.Version` is the first version's name.
    let first = view
        .versions
        .first()
        .map_or("", |v| v.version.name.as_str());
    if let Some(v) = view.validation {
        errs.extend(openapi::validation(
            v,
            view.any_status(),
            &p.child("validation"),
            o.schema_for(first),
            &o.hooks,
        ));
    }
    if let Some(s) = view.subresources {
        errs.extend(parts::subresources(s, &p.child("subresources")));
    }
    for (i, c) in view.columns.iter().enumerate() {
        errs.extend(parts::column(
            c,
            &p.child("additionalPrinterColumns").index(i),
        ));
    }
    if let Some(fields) = view.selectable.filter(|f| !f.is_empty()) {
        let at = p.child("selectableFields");
        match view.validation {
            None => errs.push(FieldError::invalid(
                &at,
                "",
                "may only be set when validations.schema is included",
            )),
            Some(v) => errs.extend(parts::selectable_fields_with(
                fields,
                v.open_api_v3_schema.as_ref(),
                &p.child("schema.openAPIV3Schema"),
                &at,
                o.too_many_selectable_allowed.contains(""),
            )),
        }
    }
    let conversion = parts::ConversionOpts {
        require_recognized_review_version: o.require_recognized_review_version,
        allow_invalid_ca_bundle: o.allow_invalid_ca_bundle,
    };
    errs.extend(parts::conversion(spec, &p.child("conversion"), conversion));
    errs
}

/// `schemaHasKubernetesExtensions`' predicate.
pub(super) fn has_kubernetes_extensions(s: &JsonSchemaProps) -> bool {
    s.x_embedded_resource
        || s.x_preserve_unknown_fields.is_some()
        || s.x_int_or_string
        || !s.x_list_map_keys.is_empty()
        || s.x_list_type.is_some()
        || !s.x_validations.is_empty()
}
