//! The restriction on the root schema when the status subresource is enabled (the
//! `allowedAtRootSchema` loop of `validateCustomResourceDefinitionValidation` in
//! apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`).

use super::internal;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_schema::JsonSchemaProps;

const ALLOWED_AT_ROOT: &str = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]";

/// The status-subresource restriction on the root: Go walks the internal struct's fields in
/// declaration order and stops at the first non-zero field that is not allowed.
pub(super) fn status_root(s: &JsonSchemaProps, path: &FieldPath) -> Vec<FieldError> {
    // (field is set, field is allowed); `Type` is handled in its place.
    let fields = [
        (!s.id.is_empty(), false),
        (!s.schema.is_empty(), false),
        (s.reference.is_some(), false),
        (!s.description.is_empty(), true),
    ];
    let after_type = [
        (s.nullable, false),
        (!s.format.is_empty(), true),
        (!s.title.is_empty(), true),
        (s.default.is_some(), false),
        (s.maximum.is_some(), true),
        (s.exclusive_maximum, true),
        (s.minimum.is_some(), true),
        (s.exclusive_minimum, true),
        (s.max_length.is_some(), true),
        (s.min_length.is_some(), true),
        (!s.pattern.is_empty(), true),
        (s.max_items.is_some(), true),
        (s.min_items.is_some(), true),
        (s.unique_items, true),
        (s.multiple_of.is_some(), true),
        (!s.enum_values.is_empty(), false),
        (s.max_properties.is_some(), false),
        (s.min_properties.is_some(), false),
        (!s.required.is_empty(), true),
        (s.items.is_some(), true),
        (!s.all_of.is_empty(), false),
        (!s.one_of.is_empty(), false),
        (!s.any_of.is_empty(), false),
        (s.not.is_some(), false),
        (!s.properties.is_empty(), true),
        (s.additional_properties.is_some(), false),
        (!s.pattern_properties.is_empty(), false),
        (!s.dependencies.is_empty(), false),
        (s.additional_items.is_some(), false),
        (!s.definitions.is_empty(), false),
        (s.external_docs.is_some(), true),
        (s.example.is_some(), true),
        (s.x_preserve_unknown_fields.is_some(), true),
        (s.x_embedded_resource, false),
        (s.x_int_or_string, false),
        (!s.x_list_map_keys.is_empty(), false),
        (s.x_list_type.is_some(), false),
        (s.x_map_type.is_some(), false),
        (!s.x_validations.is_empty(), true),
    ];
    let not_allowed = || {
        let detail = format!(
            "only {ALLOWED_AT_ROOT} fields are allowed at the root of the schema if the status subresource is enabled"
        );
        vec![FieldError::invalid(
            &path.child("openAPIV3Schema"),
            BadValue::Raw(internal::props_json(s)),
            detail,
        )]
    };
    if fields.iter().any(|(set, allowed)| *set && !allowed) {
        return not_allowed();
    }
    if !s.ty.is_empty() && s.ty != "object" {
        return vec![FieldError::invalid(
            &path.child("openAPIV3Schema.type"),
            &s.ty,
            r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
        )];
    }
    if after_type.iter().any(|(set, allowed)| *set && !allowed) {
        return not_allowed();
    }
    Vec::new()
}
