//! Would the API server accept this CRD as an update of the stored one?
//! `ValidateCustomResourceDefinitionUpdate`.
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`
//! (`ValidateCustomResourceDefinitionUpdate`, `validateCustomResourceDefinitionSpecUpdate` and
//! the `require*` and `find*` helpers that set its options) and the registry strategy's
//! `PrepareForUpdate` (`pkg/registry/customresourcedefinition/strategy.go`): the stored
//! `status` is kept, the new storage version joins `status.storedVersions`.
//!
//! What an update checks beyond a create: the stored versions must stay in `spec.versions`;
//! `spec.group` and `spec.names.plural` never change, `spec.scope` and `spec.names.kind` not once
//! the CRD is established; `metadata.name` (and the other identity fields) never change. What it
//! relaxes, so that a stored CRD stays updatable: any rule the old CRD already broke (invalid
//! types, non-structural schemas, unpruned defaults, non-atomic set items, map-list keys, a
//! missing schema, unrecognized review versions, an invalid `caBundle`, too many selectable
//! fields that are left as they were, `preserveUnknownFields: true`), and CEL: rules and message
//! expressions the old CRD has compile with every library the API server knows, and a version
//! whose schema is unchanged is not held to the per-expression cost limit.
//!
//! ```
//! use crdkit_crd::crd_check::check_crd_update;
//! use crdkit_schema::crd::CustomResourceDefinition;
//!
//! let crd = |scope: &str, versions: serde_json::Value| -> CustomResourceDefinition {
//!     serde_json::from_value(serde_json::json!({
//!         "metadata": {"name": "crontabs.stable.example.com"},
//!         "spec": {"group": "stable.example.com", "scope": scope,
//!                  "names": {"plural": "crontabs", "kind": "CronTab"}, "versions": versions}
//!     })).unwrap()
//! };
//! let schema = serde_json::json!({"openAPIV3Schema": {"type": "object"}});
//! let old = crd("Namespaced", serde_json::json!([
//!     {"name": "v1beta1", "served": true, "storage": true, "schema": schema}]));
//! let new = crd("Cluster", serde_json::json!([
//!     {"name": "v1", "served": true, "storage": true, "schema": schema}]));
//! let errs: Vec<String> = check_crd_update(&new, &old).iter().map(ToString::to_string).collect();
//! assert_eq!(errs, [
//!     "spec.scope: Invalid value: \"Cluster\": field is immutable",
//!     "status.storedVersions[0]: Invalid value: \"v1beta1\": missing from spec.versions; v1beta1 \
//!      was previously a storage version, and must remain in spec.versions until a storage \
//!      migration ensures no data remains persisted in v1beta1 and removes v1beta1 from \
//!      status.storedVersions",
//! ]);
//! ```

use std::collections::BTreeSet;

use serde_json::Value;

use super::internal::{self, View};
use super::stored::as_stored;
use super::{
    CheckOptions, Opts, PreexistingExpressions, hooks::with_full_engines, meta, openapi, parts,
    preserve_unknown_fields, spec, stored_versions,
};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_schema::check::{StructuralOptions, new_structural_error, validate_structural_props};
use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceDefinitionNames};
use crdkit_schema::{JsonSchemaProps, Structural};

/// The errors the API server would return for updating the stored `old` to `new` (every
/// engine plugged in, as [`super::check_crd_full`]).
///
/// `new` is taken as an apply would send it: the stored object's `status`, `resourceVersion`,
/// `uid`, `creationTimestamp` and `generation` are kept where `new` does not give them. When
/// `old`'s status lists no stored versions (a file rather than the object read back from a
/// cluster: no status, or controller-gen's empty one), it gets the status a cluster would
/// have ([`as_stored`]: established, its storage version the only stored version); without a
/// `resourceVersion`, it gets one.
#[must_use]
pub fn check_crd_update(
    new: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
) -> Vec<FieldError> {
    with_full_engines(|opts| check_crd_update_with(new, old, opts))
}

/// [`check_crd_update`] with the given engines for defaults validation and CEL.
#[must_use]
pub fn check_crd_update_with(
    new: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
    opts: &CheckOptions<'_>,
) -> Vec<FieldError> {
    let mut old = as_stored(old);
    // A stored object always has a resource version; the apply sends the one it read.
    if old.metadata.resource_version.is_none() {
        old.metadata.resource_version = Some("1".to_owned());
    }
    let new = prepare_for_update(new, &old);
    validate_update(&new, &old, opts)
}

/// `PrepareForUpdate`, and the fields an apply keeps from the stored object.
fn prepare_for_update(
    new: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
) -> CustomResourceDefinition {
    let mut new = new.clone();
    let (m, o) = (&mut new.metadata, &old.metadata);
    for (field, stored) in [
        (&mut m.resource_version, &o.resource_version),
        (&mut m.uid, &o.uid),
        (&mut m.creation_timestamp, &o.creation_timestamp),
    ] {
        if field.is_none() {
            field.clone_from(stored);
        }
    }
    if m.generation.is_none() {
        m.generation = o.generation;
    }
    let mut status = old.status.clone().unwrap_or_else(|| serde_json::json!({}));
    if let Some(storage) = crdkit_apiextensions::versions::storage_version(&new)
        && let Some(map) = status.as_object_mut()
    {
        let stored = map
            .entry("storedVersions")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Some(list) = stored.as_array_mut()
            && !list.iter().any(|v| v.as_str() == Some(storage))
        {
            list.push(Value::from(storage));
        }
    }
    new.status = Some(status);
    new
}

/// `ValidateCustomResourceDefinitionUpdate` as Go runs it: `new.status` is taken as given.
pub(super) fn validate_update(
    new: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
    hooks: &CheckOptions<'_>,
) -> Vec<FieldError> {
    let new = internal::prepare(new);
    let old = internal::prepare(old);
    let (new_view, old_view) = (View::of(&new), View::of(&old));
    let preexisting = PreexistingExpressions::of(&old);
    let o = update_opts(&new, &old, &new_view, &old_view, &preexisting, *hooks);

    let mut errs = meta::object_meta_update(&new, &old);
    errs.extend(spec(&new, &new_view, &o));
    let p = FieldPath::new("spec");
    let (s, os) = (&new.spec, &old.spec);
    if o.require_immutable_names {
        // Stored objects are keyed by them.
        if s.scope != os.scope {
            errs.push(meta::immutable(&p.child("scope"), s.scope.as_str()));
        }
        if s.names.kind != os.names.kind {
            errs.push(meta::immutable(
                &p.child("names").child("kind"),
                s.names.kind.as_str(),
            ));
        }
    }
    // They make the CRD's name, which never changes.
    if s.group != os.group {
        errs.push(meta::immutable(&p.child("group"), s.group.as_str()));
    }
    if s.names.plural != os.names.plural {
        errs.push(meta::immutable(
            &p.child("names").child("plural"),
            s.names.plural.as_str(),
        ));
    }
    errs.extend(status(&new));
    errs.extend(stored_versions(stored(&new).as_deref(), &new.spec.versions));
    errs.extend(meta::api_approval(&new, Some(&old)));
    errs.extend(preserve_unknown_fields(&new, Some(&old)));
    errs
}

/// The options `ValidateCustomResourceDefinitionUpdate` derives from the old CRD.
fn update_opts<'a>(
    new: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
    new_view: &View<'_>,
    old_view: &View<'_>,
    preexisting: &'a PreexistingExpressions,
    hooks: CheckOptions<'a>,
) -> Opts<'a> {
    let old_schemas: Vec<&JsonSchemaProps> = old_view_schemas(old_view);
    let any_old = |pred: &dyn Fn(&JsonSchemaProps) -> bool| old_schemas.iter().any(|s| pred(s));
    let review_versions = old
        .spec
        .conversion
        .as_ref()
        .and_then(|c| c.webhook.as_ref())
        .map_or(&[][..], |w| &w.conversion_review_versions[..]);
    let mut o = Opts::create(hooks);
    o.require_recognized_review_version =
        review_versions.is_empty() || review_versions.iter().any(|v| v == "v1" || v == "v1beta1");
    o.require_immutable_names = established(old);
    o.require_open_api_schema = old.spec.versions.iter().all(|v| {
        v.schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .is_some()
    });
    o.schema.valid_type = !any_old(&|s| openapi::schema_has(s, 0, &has_invalid_type));
    o.schema.structural = !any_old(&is_non_structural);
    o.schema.pruned_defaults = !any_old(&has_unpruned_defaults);
    o.schema.atomic_set = !any_old(&|s| openapi::schema_has(s, 0, &has_non_atomic_set_type));
    o.schema.map_list_keys = !any_old(&|s| {
        openapi::schema_has(s, 0, &|n| {
            !super::extensions::map_list_keys_map_set(n, &FieldPath::nil()).is_empty()
        })
    });
    o.schema.preexisting = Some(preexisting);
    o.allow_invalid_ca_bundle = allow_invalid_ca_bundle(old);
    o.unchanged_schemas = new
        .spec
        .versions
        .iter()
        .filter(|v| {
            crdkit_apiextensions::versions::version(old, &v.name)
                .is_some_and(|ov| ov.schema == v.schema)
        })
        .map(|v| v.name.clone())
        .collect();
    o.too_many_selectable_allowed = too_many_selectable_allowed(new, old, new_view, old_view);
    o
}

/// The schemas of the old CRD as Go's internal spec holds them (`HasSchemaWith`).
fn old_view_schemas<'a>(view: &View<'a>) -> Vec<&'a JsonSchemaProps> {
    let top = view.validation.and_then(|v| v.open_api_v3_schema.as_ref());
    let per = view
        .versions
        .iter()
        .filter_map(|v| v.schema.and_then(|s| s.open_api_v3_schema.as_ref()));
    top.into_iter().chain(per).collect()
}

/// `IsCRDConditionTrue(crd, Established)`.
fn established(crd: &CustomResourceDefinition) -> bool {
    crd.status
        .as_ref()
        .and_then(|s| s.get("conditions"))
        .and_then(Value::as_array)
        .is_some_and(|cs| {
            cs.iter().any(|c| {
                c.get("type").and_then(Value::as_str) == Some("Established")
                    && c.get("status").and_then(Value::as_str) == Some("True")
            })
        })
}

/// `status.storedVersions` (`None` when absent).
fn stored(crd: &CustomResourceDefinition) -> Option<Vec<String>> {
    crd.status
        .as_ref()
        .and_then(|s| s.get("storedVersions"))
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
}

// ValidateCustomResourceDefinitionStatus: the accepted names.
fn status(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let Some(names) = crd.status.as_ref().and_then(|s| s.get("acceptedNames")) else {
        return Vec::new();
    };
    match serde_json::from_value::<CustomResourceDefinitionNames>(names.clone()) {
        Ok(n) => parts::names(&n, &FieldPath::new("status").child("acceptedNames")),
        Err(_) => Vec::new(),
    }
}

// SchemaHasInvalidTypes' predicate
fn has_invalid_type(s: &JsonSchemaProps) -> bool {
    !s.ty.is_empty()
        && !["array", "boolean", "integer", "number", "object", "string"].contains(&s.ty.as_str())
}

// schemaIsNonStructural
fn is_non_structural(s: &JsonSchemaProps) -> bool {
    new_structural_error(s).is_some()
        || !validate_structural_props(&FieldPath::nil(), s, StructuralOptions::default()).is_empty()
}

// schemaHasUnprunedDefaults: a default that pruning against its own node changes.
fn has_unpruned_defaults(s: &JsonSchemaProps) -> bool {
    if !openapi::schema_has(s, 0, &|n| crdkit_schema::check::has_default(n)) || is_non_structural(s)
    {
        return false;
    }
    let Ok(structural) = Structural::from_props(s) else {
        return false;
    };
    fn walk(s: &Structural) -> bool {
        if let Some(d) = s.generic.default.as_ref().filter(|d| !d.is_null()) {
            let mut pruned = d.clone();
            super::defaults::prune(&mut pruned, Some(s), s.extensions.embedded_resource);
            if pruned != *d {
                return true;
            }
        }
        s.items.as_deref().is_some_and(walk)
            || s.properties.values().any(walk)
            || matches!(&s.additional_properties, Some(crdkit_schema::AdditionalProperties::Schema(a)) if walk(a))
    }
    walk(&structural)
}

// hasNonAtomicSetType's predicate: a set of objects that are not atomic maps, or of lists
// that are not atomic lists.
fn has_non_atomic_set_type(s: &JsonSchemaProps) -> bool {
    if s.x_list_type.as_deref() != Some("set") {
        return false;
    }
    let Some(items) = openapi::items_schema(s) else {
        return false;
    };
    match items.ty.as_str() {
        "array" => items.x_list_type.as_deref().is_some_and(|t| t != "atomic"),
        "object" => items.x_map_type.as_deref() != Some("atomic"),
        _ => false,
    }
}

// allowInvalidCABundle
fn allow_invalid_ca_bundle(old: &CustomResourceDefinition) -> bool {
    if !established(old) {
        return true;
    }
    let bundle = old
        .spec
        .conversion
        .as_ref()
        .and_then(|c| c.webhook.as_ref())
        .and_then(|w| w.client_config.as_ref())
        .and_then(|c| c.ca_bundle.as_deref())
        .unwrap_or("");
    !bundle.is_empty() && !crate::cert::validate_ca_bundle(&FieldPath::nil(), bundle).is_empty()
}

// findTooManySelectableFieldsAllowed: more than the maximum stays allowed where the update
// leaves the fields as they were (`""`: the top-level ones).
fn too_many_selectable_allowed(
    new: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
    new_view: &View<'_>,
    old_view: &View<'_>,
) -> BTreeSet<String> {
    let max = super::MAX_SELECTABLE_FIELDS;
    let mut allowed = BTreeSet::new();
    let (top, old_top) = (
        new_view.selectable.unwrap_or_default(),
        old_view.selectable.unwrap_or_default(),
    );
    if old_top.len() > max && top == old_top {
        allowed.insert(String::new());
    }
    fn per_version<'v>(view: &View<'v>, name: &str) -> &'v [crdkit_schema::crd::SelectableField] {
        view.versions
            .iter()
            .find(|v| v.version.name == name)
            .map_or(&[][..], |v| v.selectable)
    }
    for v in &new.spec.versions {
        if crdkit_apiextensions::versions::version(old, &v.name).is_none() {
            continue;
        }
        let (fields, old_fields) = (
            per_version(new_view, &v.name),
            per_version(old_view, &v.name),
        );
        if old_fields.len() > max && fields == old_fields {
            allowed.insert(v.name.clone());
        }
    }
    allowed
}
