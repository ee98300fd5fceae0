//! Versions, names, subresources, printer columns, selectable fields and conversion.
//!
//! Mirrors the corresponding functions of apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation.go` (`validateCustomResourceDefinitionVersion`,
//! `ValidateCustomResourceDefinitionNames`, `ValidateCustomResourceDefinitionSubresources`,
//! `ValidateCustomResourceColumnDefinition`, `ValidateCustomResourceSelectableFields`,
//! `validateCustomResourceConversion`); the webhook checks of apiserver
//! `pkg/util/webhook/validation.go` are `crdkit_apimachinery::webhook`, which the derive runs
//! too. `caBundle` is checked only where Go checks it: on an update of an established CRD whose
//! bundle was valid.

use std::collections::BTreeSet;

use super::internal::VersionView;
use super::{CheckOptions, MAX_SELECTABLE_FIELDS, openapi};
use crate::cert::validate_ca_bundle;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;
use crdkit_apimachinery::webhook::{validate_webhook_service, validate_webhook_url};
use crdkit_schema::check::new_structural_error;
use crdkit_schema::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionSpec,
    CustomResourceSubresources, SelectableField,
};
use crdkit_schema::{JsonSchemaProps, valid_field_path};

const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

/// The options of one version's checks.
pub(super) struct VersionOpts<'a> {
    pub schema: openapi::SchemaOpts<'a>,
    /// `allowTooManySelectableFields[version]`.
    pub too_many_selectable_allowed: bool,
}

// validateCustomResourceDefinitionVersion
pub(super) fn version(
    v: &VersionView<'_>,
    path: &FieldPath,
    status_enabled: bool,
    vo: &VersionOpts<'_>,
    opts: &CheckOptions<'_>,
) -> Vec<FieldError> {
    let ver = v.version;
    let mut errs = Vec::new();
    for msg in names::deprecation_warning(ver.deprecated, ver.deprecation_warning.as_deref()) {
        // Go passes the *string: it prints as JSON.
        let value = BadValue::Json(
            ver.deprecation_warning
                .clone()
                .map_or(serde_json::Value::Null, serde_json::Value::String),
        );
        errs.push(FieldError::invalid(
            &path.child("deprecationWarning"),
            value,
            msg,
        ));
    }
    if let Some(s) = v.schema {
        errs.extend(openapi::validation(
            s,
            status_enabled,
            &path.child("schema"),
            vo.schema,
            opts,
        ));
    }
    if let Some(s) = v.subresources {
        errs.extend(subresources(s, &path.child("subresources")));
    }
    for (i, c) in v.columns.iter().enumerate() {
        errs.extend(column(c, &path.child("additionalPrinterColumns").index(i)));
    }
    if !v.selectable.is_empty() {
        let at = path.child("selectableFields");
        match v.schema.and_then(|s| s.open_api_v3_schema.as_ref()) {
            // Go's wording.
            None => errs.push(FieldError::invalid(
                &at,
                "",
                "may only be set when `version.schema.openAPIV3Schema` is not included",
            )),
            Some(schema) => errs.extend(selectable_fields_with(
                v.selectable,
                Some(schema),
                &path.child("schema.openAPIV3Schema"),
                &at,
                vo.too_many_selectable_allowed,
            )),
        }
    }
    errs
}

// ValidateCustomResourceDefinitionNames
pub(super) fn names(n: &CustomResourceDefinitionNames, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (value, name) in [(&n.plural, "plural"), (&n.singular, "singular")] {
        if let Some(e) = names::label(value).filter(|_| !value.is_empty()) {
            errs.push(FieldError::invalid(&path.child(name), value, e));
        }
    }
    for (value, name) in [(&n.kind, "kind"), (&n.list_kind, "listKind")] {
        if let Some(e) = names::kind(value).filter(|_| !value.is_empty()) {
            errs.push(FieldError::invalid(&path.child(name), value, e));
        }
    }
    for (i, s) in n.short_names.iter().enumerate() {
        if let Some(e) = names::label(s) {
            errs.push(FieldError::invalid(
                &path.child("shortNames").index(i),
                s,
                e,
            ));
        }
    }
    if !n.kind.is_empty() && n.kind == n.list_kind {
        errs.push(FieldError::invalid(
            &path.child("listKind"),
            &n.list_kind,
            "kind and listKind may not be the same",
        ));
    }
    for (i, c) in n.categories.iter().enumerate() {
        if let Some(e) = names::label(c) {
            errs.push(FieldError::invalid(
                &path.child("categories").index(i),
                c,
                e,
            ));
        }
    }
    errs
}

// ValidateCustomResourceDefinitionSubresources
pub(super) fn subresources(s: &CustomResourceSubresources, path: &FieldPath) -> Vec<FieldError> {
    let Some(scale) = &s.scale else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    let under =
        |errs: &mut Vec<FieldError>, value: &str, name: &str, prefixes: &[&str], detail: &str| {
            let at = path.child(name);
            let e = simple_json_path(value, &at);
            if !e.is_empty() {
                errs.extend(e);
            } else if !prefixes.iter().any(|p| value.starts_with(p)) {
                errs.push(FieldError::invalid(&at, value, detail));
            }
        };
    if scale.spec_replicas_path.is_empty() {
        errs.push(FieldError::required(
            &path.child("scale.specReplicasPath"),
            "",
        ));
    } else {
        under(
            &mut errs,
            &scale.spec_replicas_path,
            "scale.specReplicasPath",
            &[".spec."],
            "should be a json path under .spec",
        );
    }
    if scale.status_replicas_path.is_empty() {
        errs.push(FieldError::required(
            &path.child("scale.statusReplicasPath"),
            "",
        ));
    } else {
        under(
            &mut errs,
            &scale.status_replicas_path,
            "scale.statusReplicasPath",
            &[".status."],
            "should be a json path under .status",
        );
    }
    if let Some(sel) = scale
        .label_selector_path
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        let at = path.child("scale.labelSelectorPath");
        let e = simple_json_path(sel, &at);
        if !e.is_empty() {
            errs.extend(e);
        } else if !sel.starts_with(".spec.") && !sel.starts_with(".status.") {
            // Go passes the *string: it prints as JSON.
            errs.push(FieldError::invalid(
                &at,
                BadValue::Json(serde_json::Value::String(sel.to_owned())),
                "should be a json path under either .spec or .status",
            ));
        }
    }
    errs
}

// validateSimpleJSONPath
fn simple_json_path(s: &str, path: &FieldPath) -> Vec<FieldError> {
    if s.is_empty() {
        vec![FieldError::invalid(path, s, "must not be empty")]
    } else if !s.starts_with('.') {
        vec![FieldError::invalid(
            path,
            s,
            "must be a simple json path starting with .",
        )]
    } else {
        Vec::new()
    }
}

// ValidateCustomResourceColumnDefinition
pub(super) fn column(c: &CustomResourceColumnDefinition, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if c.name.is_empty() {
        errs.push(FieldError::required(&path.child("name"), ""));
    }
    let types_detail = format!("must be one of {COLUMN_TYPES}");
    if c.ty.is_empty() {
        errs.push(FieldError::required(&path.child("type"), types_detail));
    } else if !COLUMN_TYPES.split(',').any(|t| t == c.ty) {
        errs.push(FieldError::invalid(
            &path.child("type"),
            &c.ty,
            types_detail,
        ));
    }
    if !c.format.is_empty() && !COLUMN_FORMATS.split(',').any(|f| f == c.format) {
        errs.push(FieldError::invalid(
            &path.child("format"),
            &c.format,
            format!("must be one of {COLUMN_FORMATS}"),
        ));
    }
    // Go names the field after its internal spelling.
    let at = path.child("JSONPath");
    if c.json_path.is_empty() {
        errs.push(FieldError::required(&at, ""));
    } else {
        errs.extend(simple_json_path(&c.json_path, &at));
    }
    errs
}

/// `NewStructural` of `schema` (an error at `schema_path`), then
/// `ValidateCustomResourceSelectableFields` against it.
pub(super) fn selectable_fields_with(
    fields: &[SelectableField],
    schema: Option<&JsonSchemaProps>,
    schema_path: &FieldPath,
    path: &FieldPath,
    too_many_allowed: bool,
) -> Vec<FieldError> {
    let Some(schema) = schema else {
        // Go dereferences the missing schema here and panics; report the fields unresolvable.
        return selectable_fields(fields, None, path, too_many_allowed);
    };
    if let Some(e) = new_structural_error(schema) {
        return vec![FieldError::invalid(schema_path, "", e)];
    }
    selectable_fields(fields, Some(schema), path, too_many_allowed)
}

// ValidateCustomResourceSelectableFields (more than the maximum only when an update keeps
// them as they were)
fn selectable_fields(
    fields: &[SelectableField],
    schema: Option<&JsonSchemaProps>,
    path: &FieldPath,
    too_many_allowed: bool,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut unique = BTreeSet::new();
    for (i, f) in fields.iter().enumerate() {
        let at = path.index(i).child("jsonPath");
        if f.json_path.is_empty() {
            errs.push(FieldError::required(&at, ""));
            continue;
        }
        let resolved = schema
            .ok_or(crdkit_schema::FieldPathError::NoSuchField)
            .and_then(|s| valid_field_path(&f.json_path, s, false));
        let (p, found) = match resolved {
            Ok(r) => r,
            Err(e) => {
                errs.push(FieldError::invalid(
                    &at,
                    &f.json_path,
                    format!("is an invalid path: {e}"),
                ));
                continue;
            }
        };
        if p.root().to_string() == "metadata" {
            errs.push(FieldError::invalid(
                &at,
                &f.json_path,
                "must not point to fields in metadata",
            ));
        }
        if !found.is_some_and(|s| matches!(s.ty.as_str(), "string" | "boolean" | "integer")) {
            errs.push(FieldError::invalid(
                &at,
                &f.json_path,
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        if !unique.insert(p.to_string()) {
            errs.push(FieldError::duplicate(&at, &f.json_path));
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS && !too_many_allowed {
        errs.push(FieldError::too_many(
            path,
            i64::try_from(unique.len()).unwrap_or(i64::MAX),
            8,
        ));
    }
    errs
}

/// The options of the conversion checks.
#[derive(Clone, Copy)]
pub(super) struct ConversionOpts {
    /// `requireRecognizedConversionReviewVersion`.
    pub require_recognized_review_version: bool,
    /// `allowInvalidCABundle`.
    pub allow_invalid_ca_bundle: bool,
}

// The conversion checks of validateCustomResourceDefinitionSpec and validateCustomResourceConversion
// (with the webhook configuration at its internal path `webhookClientConfig`).
pub(super) fn conversion(
    spec: &CustomResourceDefinitionSpec,
    path: &FieldPath,
    co: ConversionOpts,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(c) = &spec.conversion else {
        return errs;
    };
    if c.strategy != "None" && spec.preserve_unknown_fields {
        errs.push(FieldError::invalid(
            &path.child("strategy"),
            &c.strategy,
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    errs.extend(super::enum_string(
        &path.child("strategy"),
        &c.strategy,
        &["None", "Webhook"],
    ));
    let client_config = c.webhook.as_ref().and_then(|w| w.client_config.as_ref());
    let review_versions = c
        .webhook
        .as_ref()
        .map_or(&[][..], |w| &w.conversion_review_versions[..]);
    let cc_path = path.child("webhookClientConfig");
    if c.strategy == "Webhook" {
        match client_config {
            None => errs.push(FieldError::required(
                &cc_path,
                "required when strategy is set to Webhook",
            )),
            Some(cc) => match (&cc.url, &cc.service) {
                (Some(url), None) => {
                    errs.extend(validate_webhook_url(&cc_path.child("url"), url, true));
                }
                // Go passes the name as the namespace and the namespace as the name
                // (`ValidateWebhookService(.., cc.Service.Name, cc.Service.Namespace, ..)`), so
                // a missing namespace is reported at `service.name`.
                (None, Some(svc)) => errs.extend(validate_webhook_service(
                    &cc_path.child("service"),
                    &svc.name,
                    &svc.namespace,
                    svc.path.as_deref(),
                    svc.port.unwrap_or(443),
                )),
                _ => errs.push(FieldError::required(
                    &cc_path,
                    "exactly one of url or service is required",
                )),
            },
        }
        if let Some(bundle) = client_config.and_then(|c| c.ca_bundle.as_deref())
            && !bundle.is_empty()
            && !co.allow_invalid_ca_bundle
        {
            errs.extend(validate_ca_bundle(&cc_path.child("caBundle"), bundle));
        }
        errs.extend(review_versions_errors(
            review_versions,
            &path.child("conversionReviewVersions"),
            co.require_recognized_review_version,
        ));
    } else {
        if client_config.is_some() {
            errs.push(FieldError::forbidden(
                &cc_path,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !review_versions.is_empty() {
            errs.push(FieldError::forbidden(
                &path.child("conversionReviewVersions"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
    errs
}

// validateConversionReviewVersions
fn review_versions_errors(
    versions: &[String],
    path: &FieldPath,
    require_recognized: bool,
) -> Vec<FieldError> {
    if versions.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    let mut accepted = false;
    for (i, v) in versions.iter().enumerate() {
        if !seen.insert(v.as_str()) {
            errs.push(FieldError::invalid(&path.index(i), v, "duplicate version"));
            continue;
        }
        for msg in names::dns1035_label(v) {
            errs.push(FieldError::invalid(&path.index(i), v, msg));
        }
        accepted |= v == "v1" || v == "v1beta1";
    }
    if require_recognized && !accepted {
        errs.push(FieldError::invalid(
            path,
            BadValue::Json(serde_json::Value::from(versions.to_vec())),
            "must include at least one of v1, v1beta1",
        ));
    }
    errs
}
