//! `validateStructuralCompleteness`: every value validation under a junctor has a structural
//! counterpart. Mirrors apiextensions-apiserver `pkg/apiserver/schema/complete.go`.

use super::{
    JsonSchemaProps, MAX_SCHEMA_DEPTH, SchemaOrBool, Walk, additional_schema, depth_message,
    items_schema,
};
use crdkit_apimachinery::field::{FieldError, FieldPath};

impl Walk<'_> {
    // validateStructuralCompleteness: only the root's junctors are checked, as in Go.
    pub(super) fn completeness(&mut self, s: &JsonSchemaProps, path: &FieldPath) {
        self.vv_completeness(s, Some(s), path, path, 0);
    }

    // validateValueValidationCompleteness
    fn vv_completeness(
        &mut self,
        v: &JsonSchemaProps,
        s: Option<&JsonSchemaProps>,
        s_path: &FieldPath,
        v_path: &FieldPath,
        depth: usize,
    ) {
        if s.is_none() {
            self.push(missing(s_path, v_path));
            return;
        }
        if let Some(n) = &v.not {
            self.nested_completeness(n, s, s_path, &v_path.child("not"), depth + 1);
        }
        let lists = [
            ("allOf", &v.all_of),
            ("anyOf", &v.any_of),
            ("oneOf", &v.one_of),
        ];
        for (name, list) in lists {
            for (i, b) in list.iter().enumerate() {
                self.nested_completeness(b, s, s_path, &v_path.child(name).index(i), depth + 1);
            }
        }
    }

    // validateNestedValueValidationCompleteness
    fn nested_completeness(
        &mut self,
        v: &JsonSchemaProps,
        s: Option<&JsonSchemaProps>,
        s_path: &FieldPath,
        v_path: &FieldPath,
        depth: usize,
    ) {
        let Some(s) = s else {
            self.push(missing(s_path, v_path));
            return;
        };
        if depth > MAX_SCHEMA_DEPTH {
            self.push(FieldError::forbidden(v_path, depth_message()));
            return;
        }
        self.vv_completeness(v, Some(s), s_path, v_path, depth);
        if let Some(items) = items_schema(v) {
            let (sp, vp) = (s_path.child("items"), v_path.child("items"));
            self.nested_completeness(items, items_schema(s), &sp, &vp, depth + 1);
        }
        let s_ap = additional_schema(s);
        for (k, v_fld) in &v.properties {
            let vp = v_path.child("properties").key(k);
            if let Some(s_fld) = s.properties.get(k) {
                let sp = s_path.child("properties").key(k);
                self.nested_completeness(v_fld, Some(s_fld), &sp, &vp, depth + 1);
            } else if let (Some(ap), true) = (
                s_ap,
                self.opts
                    .allow_validation_properties_with_additional_properties,
            ) {
                let sp = s_path.child("additionalProperties");
                self.nested_completeness(v_fld, Some(ap), &sp, &vp, depth + 1);
            } else {
                self.push(missing(&s_path.child("properties").key(k), &vp));
            }
        }
        if let (Some(ap), true) = (
            nested_additional(v),
            self.opts.allow_nested_additional_properties,
        ) {
            let (sp, vp) = (
                s_path.child("additionalProperties"),
                v_path.child("additionalProperties"),
            );
            self.nested_completeness(ap, s_ap, &sp, &vp, depth + 1);
        }
    }
}

static EMPTY: std::sync::LazyLock<JsonSchemaProps> =
    std::sync::LazyLock::new(JsonSchemaProps::default);

/// `additionalProperties` inside a junctor as Go's `NestedValueValidation` has it: a schema, an
/// empty schema for `true`, nothing for `false`.
pub(super) fn nested_additional(v: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &v.additional_properties {
        Some(SchemaOrBool::Schema(s)) => Some(s),
        Some(SchemaOrBool::Bool(true)) => Some(&EMPTY),
        _ => None,
    }
}

fn missing(s_path: &FieldPath, v_path: &FieldPath) -> FieldError {
    FieldError::required(s_path, format!("because it is defined in {v_path}"))
}
