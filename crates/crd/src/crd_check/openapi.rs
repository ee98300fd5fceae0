//! The checks of one `openAPIV3Schema`: `validateCustomResourceDefinitionValidation` and
//! `ValidateCustomResourceDefinitionOpenAPISchema` with `specStandardValidatorV3`.
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`. As in Go,
//! schema errors come first (in walk order: the node, then `additionalProperties`, `properties`,
//! `not`, `allOf`, `oneOf`, `anyOf`, `definitions`, `items`, `dependencies`, then the node's
//! extension checks), and the CEL errors of the hook after all of them. Go visits map entries in
//! random order; here they come sorted by key.

use super::{CelNode, CheckOptions, PreexistingExpressions, defaults};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_schema::check::{
    MAX_SCHEMA_DEPTH, StructuralOptions, depth_message, has_default, new_structural_error,
    validate_structural_props,
};
use crdkit_schema::crd::CustomResourceValidation;
use crdkit_schema::{
    JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray, Structural,
};

const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// The `validationOptions` that matter for one schema; a create sets them all (and an update
/// relaxes those the old CRD already broke, [`super::update`]).
#[derive(Clone, Copy, Debug)]
#[allow(clippy::struct_excessive_bools)]
pub(super) struct SchemaOpts<'a> {
    pub allow_defaults: bool,
    pub valid_type: bool,
    pub structural: bool,
    pub pruned_defaults: bool,
    pub atomic_set: bool,
    pub map_list_keys: bool,
    /// `suppressPerExpressionCost`: the version's schema is unchanged by the update.
    pub suppress_cost: bool,
    /// `preexistingExpressions` of the old CRD (`None` on create).
    pub preexisting: Option<&'a PreexistingExpressions>,
}

impl SchemaOpts<'_> {
    pub const CREATE: SchemaOpts<'static> = SchemaOpts {
        allow_defaults: true,
        valid_type: true,
        structural: true,
        pruned_defaults: true,
        atomic_set: true,
        map_list_keys: true,
        suppress_cost: false,
        preexisting: None,
    };
}

// validateCustomResourceDefinitionValidation
pub(super) fn validation(
    v: &CustomResourceValidation,
    status_enabled: bool,
    path: &FieldPath,
    so: SchemaOpts<'_>,
    opts: &CheckOptions<'_>,
) -> Vec<FieldError> {
    let Some(schema) = &v.open_api_v3_schema else {
        return Vec::new();
    };
    let at = path.child("openAPIV3Schema");
    let mut errs = Vec::new();
    if status_enabled {
        errs.extend(super::status::status_root(schema, path));
    }
    if schema.nullable {
        errs.push(FieldError::forbidden(
            &path.child("openAPIV3Schema.nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let mut init_errs = Vec::new();
    let mut cel_ok = false;
    if !so.structural {
        // Neither structural checks nor CEL.
    } else if let Some(e) = new_structural_error(schema) {
        init_errs.push(FieldError::invalid(&at, "", e));
    } else {
        let structural = validate_structural_props(&at, schema, StructuralOptions::default());
        if structural.is_empty() {
            let defaults = match Structural::from_props(schema) {
                Ok(s) => defaults::validate_defaults(&at, &s, so.pruned_defaults, opts),
                Err(e) => vec![FieldError::invalid(&at, "", e.to_string())],
            };
            cel_ok = defaults.is_empty();
            errs.extend(defaults);
        } else {
            errs.extend(structural);
        }
    }
    let mut w = Walk {
        so,
        opts,
        root: schema,
        root_path: &at,
        schema_errs: Vec::new(),
        cel_errs: Vec::new(),
    };
    let ssv = Ssv {
        allow_defaults: so.allow_defaults,
        disallow_reason: String::new(),
        inside_meta: false,
        uncorrelatable: None,
    };
    w.walk(schema, &at, &ssv, true, cel_ok, 0);
    errs.append(&mut w.schema_errs);
    errs.append(&mut w.cel_errs);
    if errs.is_empty() {
        errs = init_errs;
    }
    if let (true, Some(cel)) = (cel_ok, opts.cel) {
        errs.extend(cel.finish_schema(&at));
    }
    errs
}

/// `specStandardValidatorV3`'s state.
#[derive(Clone)]
struct Ssv {
    allow_defaults: bool,
    disallow_reason: String,
    inside_meta: bool,
    uncorrelatable: Option<FieldPath>,
}

impl Ssv {
    fn forbid_defaults(&self, reason: &str) -> Ssv {
        Ssv {
            allow_defaults: false,
            disallow_reason: reason.to_owned(),
            ..self.clone()
        }
    }
    fn forbid_old_self(&self, path: &FieldPath) -> Ssv {
        // The highest uncorrelatable path wins.
        let uncorrelatable = self.uncorrelatable.clone().or_else(|| Some(path.clone()));
        Ssv {
            uncorrelatable,
            ..self.clone()
        }
    }
}

pub(super) struct Walk<'a> {
    pub(super) so: SchemaOpts<'a>,
    opts: &'a CheckOptions<'a>,
    root: &'a JsonSchemaProps,
    root_path: &'a FieldPath,
    schema_errs: Vec<FieldError>,
    cel_errs: Vec<FieldError>,
}

pub(super) fn items_schema(s: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &s.items {
        Some(SchemaOrArray::Schema(i)) => Some(i),
        _ => None,
    }
}

pub(super) fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

impl Walk<'_> {
    pub(super) fn push(&mut self, e: FieldError) {
        self.schema_errs.push(e);
    }

    // ValidateCustomResourceDefinitionOpenAPISchema
    #[allow(clippy::too_many_lines)]
    fn walk(
        &mut self,
        s: &JsonSchemaProps,
        path: &FieldPath,
        ssv: &Ssv,
        is_root: bool,
        cel: bool,
        depth: usize,
    ) {
        if depth > MAX_SCHEMA_DEPTH {
            self.push(FieldError::forbidden(path, depth_message()));
            return;
        }
        let start = self.schema_errs.len();
        self.standard(s, path, ssv);
        if s.unique_items {
            self.push(FieldError::forbidden(
                &path.child("uniqueItems"),
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            ));
        }
        let d = depth + 1;
        if let Some(ap) = &s.additional_properties {
            let allows_without_schema = matches!(ap, SchemaOrBool::Bool(true));
            if !s.properties.is_empty() && !allows_without_schema {
                self.push(FieldError::forbidden(
                    &path.child("additionalProperties"),
                    "additionalProperties and properties are mutual exclusive",
                ));
            }
            let sub = if ssv.inside_meta {
                ssv.forbid_defaults("inside additionalProperties applying to object metadata")
            } else {
                ssv.clone()
            };
            if let SchemaOrBool::Schema(ap) = ap {
                self.walk(ap, &path.child("additionalProperties"), &sub, false, cel, d);
            }
        }
        for (k, p) in &s.properties {
            let mut sub = ssv.clone();
            // MapIsCorrelatable: unset, granular and atomic maps correlate; unknown types do not.
            if !matches!(s.x_map_type.as_deref(), None | Some("granular" | "atomic")) {
                sub = sub.forbid_old_self(path);
            }
            if (is_root || s.x_embedded_resource)
                && matches!(k.as_str(), "metadata" | "kind" | "apiVersion")
            {
                sub.inside_meta = true;
                if is_root {
                    sub = sub.forbid_defaults(&format!("in top-level {k}"));
                }
            }
            self.walk(p, &path.child("properties").key(k), &sub, false, cel, d);
        }
        if let Some(n) = &s.not {
            self.walk(n, &path.child("not"), ssv, false, false, d);
        }
        for (name, list) in [
            ("allOf", &s.all_of),
            ("oneOf", &s.one_of),
            ("anyOf", &s.any_of),
        ] {
            for (i, b) in list.iter().enumerate() {
                self.walk(b, &path.child(name).index(i), ssv, false, false, d);
            }
        }
        for (k, def) in &s.definitions {
            self.walk(def, &path.child("definitions").key(k), ssv, false, false, d);
        }
        if let Some(items) = &s.items {
            let sub = if s.x_list_type.as_deref() == Some("map") {
                ssv.clone()
            } else {
                ssv.forbid_old_self(path)
            };
            match items {
                SchemaOrArray::Schema(i) => self.walk(i, &path.child("items"), &sub, false, cel, d),
                SchemaOrArray::Array(list) => {
                    for (i, b) in list.iter().enumerate() {
                        self.walk(b, &path.child("items").index(i), &sub, false, cel, d);
                    }
                }
            }
        }
        for (k, dep) in &s.dependencies {
            if let SchemaOrStringArray::Schema(dep) = dep {
                self.walk(
                    dep,
                    &path.child("dependencies").key(k),
                    ssv,
                    false,
                    false,
                    d,
                );
            }
        }
        self.extensions(s, path);
        if self.so.map_list_keys {
            self.map_list_keys_map_set(s, path);
        }
        self.rules(s, path);
        if cel
            && self.schema_errs.len() == start
            && !s.x_validations.is_empty()
            && let Some(checker) = self.opts.cel
        {
            let node = CelNode {
                schema: s,
                path,
                root: self.root,
                root_path: self.root_path,
                uncorrelatable: ssv.uncorrelatable.as_ref(),
                preexisting: self.so.preexisting,
                suppress_per_expression_cost: self.so.suppress_cost,
            };
            self.cel_errs.extend(checker.check_rules(&node));
        }
    }

    // specStandardValidatorV3.validate
    fn standard(&mut self, s: &JsonSchemaProps, path: &FieldPath, ssv: &Ssv) {
        if self.so.valid_type && !s.ty.is_empty() && !OPENAPI_V3_TYPES.contains(&s.ty.as_str()) {
            self.push(FieldError::not_supported(
                &path.child("type"),
                &s.ty,
                &OPENAPI_V3_TYPES,
            ));
        }
        if has_default(s) && !ssv.allow_defaults {
            let mut detail = "must not be set".to_owned();
            if !ssv.disallow_reason.is_empty() {
                detail.push(' ');
                detail.push_str(&ssv.disallow_reason);
            }
            self.push(FieldError::forbidden(&path.child("default"), detail));
        }
        let forbidden = [
            (!s.id.is_empty(), "id", "id is not supported"),
            (
                s.additional_items.is_some(),
                "additionalItems",
                "additionalItems is not supported",
            ),
            (
                !s.pattern_properties.is_empty(),
                "patternProperties",
                "patternProperties is not supported",
            ),
            (
                !s.definitions.is_empty(),
                "definitions",
                "definitions is not supported",
            ),
            (
                !s.dependencies.is_empty(),
                "dependencies",
                "dependencies is not supported",
            ),
            (s.reference.is_some(), "$ref", "$ref is not supported"),
            (
                s.ty == "null",
                "type",
                "type cannot be set to null, use nullable as an alternative",
            ),
            (
                matches!(s.items, Some(SchemaOrArray::Array(_))),
                "items",
                "items must be a schema object and not an array",
            ),
            (
                ssv.inside_meta && s.x_embedded_resource,
                "x-kubernetes-embedded-resource",
                "must not be used inside of resource meta",
            ),
        ];
        for (bad, field, detail) in forbidden {
            if bad {
                self.push(FieldError::forbidden(&path.child(field), detail));
            }
        }
    }
}

/// `SchemaHas`: whether `pred` holds anywhere in `s`, junctors and forbidden fields included.
pub(super) fn schema_has(
    s: &JsonSchemaProps,
    depth: usize,
    pred: &dyn Fn(&JsonSchemaProps) -> bool,
) -> bool {
    if depth > MAX_SCHEMA_DEPTH {
        return false;
    }
    if pred(s) {
        return true;
    }
    let d = depth + 1;
    let rec = |x: &JsonSchemaProps| schema_has(x, d, pred);
    let items = match &s.items {
        Some(SchemaOrArray::Schema(i)) => std::slice::from_ref(&**i),
        Some(SchemaOrArray::Array(a)) => a.as_slice(),
        None => &[],
    };
    let or_bool = |x: &Option<SchemaOrBool>| match x {
        Some(SchemaOrBool::Schema(b)) => rec(b),
        _ => false,
    };
    items.iter().any(rec)
        || s.all_of.iter().chain(&s.any_of).chain(&s.one_of).any(rec)
        || s.not.as_deref().is_some_and(rec)
        || s.properties.values().any(rec)
        || or_bool(&s.additional_properties)
        || s.pattern_properties.values().any(rec)
        || or_bool(&s.additional_items)
        || s.definitions.values().any(rec)
        || s.dependencies
            .values()
            .any(|d| matches!(d, SchemaOrStringArray::Schema(x) if rec(x)))
}
