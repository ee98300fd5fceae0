//! The `x-kubernetes-*` checks of `ValidateCustomResourceDefinitionOpenAPISchema`: map and list
//! types, list-map keys (`validateMapListKeysMapSet`) and the strings of
//! `x-kubernetes-validations`. Mirrors apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation.go`.

use std::collections::BTreeSet;

use super::internal;
use super::openapi::{Walk, has_newlines, items_schema};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_schema::check::{has_default, new_structural_error};
use crdkit_schema::{JsonSchemaProps, SchemaOrArray, valid_field_path};

const SUPPORTED_REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

impl Walk<'_> {
    pub(super) fn extensions(&mut self, s: &JsonSchemaProps, path: &FieldPath) {
        if s.x_preserve_unknown_fields == Some(false) {
            self.push(FieldError::invalid(
                &path.child("x-kubernetes-preserve-unknown-fields"),
                false,
                "must be true or undefined",
            ));
        }
        let type_error = |detail: &str| {
            if s.ty.is_empty() {
                FieldError::required(&path.child("type"), detail)
            } else {
                FieldError::invalid(&path.child("type"), &s.ty, detail)
            }
        };
        if let Some(mt) = &s.x_map_type {
            if s.ty != "object" {
                self.push(type_error(
                    "must be object if x-kubernetes-map-type is specified",
                ));
            }
            if mt != "atomic" && mt != "granular" {
                self.push(FieldError::not_supported(
                    &path.child("x-kubernetes-map-type"),
                    mt,
                    &["atomic", "granular"],
                ));
            }
        }
        let list_type = s.x_list_type.as_deref();
        if list_type.is_some() && s.ty != "array" {
            self.push(type_error(
                "must be array if x-kubernetes-list-type is specified",
            ));
        } else if let (true, Some("set"), Some(is)) =
            (self.so.atomic_set, list_type, items_schema(s))
        {
            let detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
            // Go reports the item's list type as the bad value in both cases.
            let bad = BadValue::Json(
                is.x_list_type
                    .clone()
                    .map_or(serde_json::Value::Null, serde_json::Value::String),
            );
            match is.ty.as_str() {
                "array" if is.x_list_type.as_deref().is_some_and(|t| t != "atomic") => {
                    self.push(FieldError::invalid(
                        &path.child("items").child("x-kubernetes-list-type"),
                        bad,
                        detail,
                    ));
                }
                "object" if is.x_map_type.as_deref() != Some("atomic") => {
                    self.push(FieldError::invalid(
                        &path.child("items").child("x-kubernetes-map-type"),
                        bad,
                        detail,
                    ));
                }
                _ => {}
            }
        }
        if let Some(lt) = list_type.filter(|t| !matches!(*t, "atomic" | "set" | "map")) {
            self.push(FieldError::not_supported(
                &path.child("x-kubernetes-list-type"),
                lt,
                &["atomic", "set", "map"],
            ));
        }
        let keys = &s.x_list_map_keys;
        let keys_value = || BadValue::Json(serde_json::Value::from(keys.clone()));
        if !keys.is_empty() {
            let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
            match list_type {
                None => self.push(FieldError::required(
                    &path.child("x-kubernetes-list-type"),
                    detail,
                )),
                Some(lt) if lt != "map" => self.push(FieldError::invalid(
                    &path.child("x-kubernetes-list-type"),
                    lt,
                    detail,
                )),
                Some(_) => {}
            }
        }
        if list_type != Some("map") {
            return;
        }
        if keys.is_empty() {
            self.push(FieldError::required(
                &path.child("x-kubernetes-list-map-keys"),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        match &s.items {
            None => self.push(FieldError::required(
                &path.child("items"),
                "must have a schema if x-kubernetes-list-type is map",
            )),
            Some(items @ SchemaOrArray::Array(_)) => self.push(FieldError::invalid(
                &path.child("items"),
                BadValue::Raw(internal::items_json(items)),
                "must only have a single schema if x-kubernetes-list-type is map",
            )),
            Some(SchemaOrArray::Schema(is)) if is.ty != "object" => self.push(FieldError::invalid(
                &path.child("items").child("type"),
                &is.ty,
                "must be object if parent array's x-kubernetes-list-type is map",
            )),
            Some(SchemaOrArray::Schema(is)) => {
                let mut seen = BTreeSet::new();
                for k in keys {
                    match is.properties.get(k) {
                        Some(p) if p.ty == "array" || p.ty == "object" => self.push(FieldError::invalid(
                            &path.child("items").child("properties").key(k).child("type"),
                            &is.ty,
                            "must be a scalar type if parent array's x-kubernetes-list-type is map",
                        )),
                        Some(_) => {}
                        None => self.push(FieldError::invalid(
                            &path.child("x-kubernetes-list-map-keys"),
                            keys_value(),
                            "entries must all be names of item properties",
                        )),
                    }
                    if !seen.insert(k) {
                        self.push(FieldError::invalid(
                            &path.child("x-kubernetes-list-map-keys"),
                            keys_value(),
                            "must not contain duplicate entries",
                        ));
                    }
                }
            }
        }
    }

    // validateMapListKeysMapSet
    pub(super) fn map_list_keys_map_set(&mut self, s: &JsonSchemaProps, path: &FieldPath) {
        for e in map_list_keys_map_set(s, path) {
            self.push(e);
        }
    }

    // The string checks of x-kubernetes-validations.
    pub(super) fn rules(&mut self, s: &JsonSchemaProps, path: &FieldPath) {
        for (i, r) in s.x_validations.iter().enumerate() {
            let at = path.child("x-kubernetes-validations").index(i);
            let (rule, msg, msg_expr) =
                (r.rule.trim(), r.message.trim(), r.message_expression.trim());
            if rule.is_empty() {
                self.push(FieldError::required(
                    &at.child("rule"),
                    "rule is not specified",
                ));
            } else if !r.message.is_empty() && msg.is_empty() {
                self.push(FieldError::invalid(
                    &at.child("message"),
                    &r.message,
                    "must be non-empty if specified",
                ));
            } else if has_newlines(msg) {
                self.push(FieldError::invalid(
                    &at.child("message"),
                    &r.message,
                    "must not contain line breaks",
                ));
            } else if has_newlines(rule) && msg.is_empty() {
                self.push(FieldError::required(
                    &at.child("message"),
                    "message must be specified if rule contains line breaks",
                ));
            }
            if !r.message_expression.is_empty() && msg_expr.is_empty() {
                self.push(FieldError::required(
                    &at.child("messageExpression"),
                    "messageExpression must be non-empty if specified",
                ));
            }
            if let Some(reason) = r
                .reason
                .as_deref()
                .filter(|x| !SUPPORTED_REASONS.contains(x))
            {
                self.push(FieldError::not_supported(
                    &at.child("reason"),
                    reason,
                    &SUPPORTED_REASONS,
                ));
            }
            let fp = &r.field_path;
            if !fp.is_empty() && fp.trim().is_empty() {
                self.push(FieldError::invalid(
                    &at.child("fieldPath"),
                    fp,
                    "must be non-empty if specified",
                ));
            }
            if has_newlines(fp) {
                self.push(FieldError::invalid(
                    &at.child("fieldPath"),
                    fp,
                    "must not contain line breaks",
                ));
            }
            // pathValid: a schema that does not convert counts as valid.
            if !fp.is_empty()
                && new_structural_error(s).is_none()
                && valid_field_path(fp, s, true).is_err()
            {
                self.push(FieldError::invalid(
                    &at.child("fieldPath"),
                    fp,
                    "must be a valid path",
                ));
            }
        }
    }
}

// validateMapListKeysMapSet
pub(super) fn map_list_keys_map_set(s: &JsonSchemaProps, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let (Some(is), Some(lt)) = (items_schema(s), s.x_list_type.as_deref()) else {
        return errs;
    };
    if lt != "set" && lt != "map" {
        return errs;
    }
    if is.nullable {
        errs.push(FieldError::forbidden(
            &path.child("items").child("nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
        ));
    }
    if lt != "map" {
        return errs;
    }
    for k in &s.x_list_map_keys {
        let Some(p) = is.properties.get(k) else {
            continue;
        };
        let at = path.child("items").child("properties").key(k);
        if !is.required.contains(k) && !has_default(p) {
            errs.push(FieldError::required(
                &at.child("default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if p.nullable {
            errs.push(FieldError::forbidden(
                &at.child("nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
    errs
}
