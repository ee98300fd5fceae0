//! Is a schema structural? The API server's `ValidateStructural`.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/validation.go` (invariants, the
//! IntOrString exceptions, the metadata rule) and `complete.go` (every value validation under a
//! junctor has a structural counterpart), plus `convert.go`'s `validateUnsupportedFields` errors.
//!
//! The walk runs over the wire form ([`JsonSchemaProps`]) because that keeps what the typed
//! [`Structural`] drops (an unknown `type` string, an unknown `x-kubernetes-list-type` inside a
//! junctor) and that Go still sees; [`validate_structural`] converts with
//! [`Structural::to_props`], which loses nothing Go would look at. Errors come back sorted by
//! their text, as Go sorts them. A `default: null` counts as no default, as it does after Go
//! decodes a CRD. What differs: Go walks maps in random order (its sort hides that here) and has no
//! depth limit; this walk stops at [`MAX_SCHEMA_DEPTH`] with an error instead of overflowing.

use std::collections::BTreeMap;

mod complete;

use self::complete::nested_additional;
use super::props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool};
use super::structural::Structural;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::regexp::check as check_go_regexp;

/// How deep schemas may nest before the checks give up with an error.
pub const MAX_SCHEMA_DEPTH: usize = 256;

/// Options of `ValidateStructuralWithOptions`; CRDs use the default (all `false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)]
pub struct StructuralOptions {
    /// Allow `additionalProperties` inside `allOf`/`anyOf`/`oneOf`/`not`.
    pub allow_nested_additional_properties: bool,
    /// Allow `x-kubernetes-validations` inside `allOf` (never inside the other junctors).
    pub allow_nested_x_validations: bool,
    /// Allow junctor `properties` that the structural part defines through
    /// `additionalProperties` only.
    pub allow_validation_properties_with_additional_properties: bool,
}

/// `ValidateStructural`: the structural-schema errors of `s`, with paths under `path` (pass
/// [`FieldPath::nil`] for paths relative to the schema root), sorted like Go's.
///
/// ```
/// use crdkit_apimachinery::field::FieldPath;
/// use crdkit_schema::{validate_structural, Structural, Type};
///
/// let mut s = Structural::of_type(Type::Object);
/// s.properties.insert("spec".into(), Structural::default());
/// let errs = validate_structural(&FieldPath::nil(), &s);
/// assert_eq!(errs[0].to_string(),
///     "properties[spec].type: Required value: must not be empty for specified object fields");
/// ```
#[must_use]
pub fn validate_structural(path: &FieldPath, s: &Structural) -> Vec<FieldError> {
    validate_structural_props(path, &s.to_props(), StructuralOptions::default())
}

/// `ValidateStructuralWithOptions` over the wire form. Fields that [`new_structural_error`]
/// rejects (`$ref`, tuple `items`, ...) are ignored here, as Go never gets this far with them.
#[must_use]
pub fn validate_structural_props(
    path: &FieldPath,
    p: &JsonSchemaProps,
    opts: StructuralOptions,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut w = Walk {
        opts,
        errs: &mut errs,
    };
    w.invariants(p, Level::Root, path, 0);
    w.completeness(p, path);
    let mut keyed: Vec<(String, FieldError)> =
        errs.into_iter().map(|e| (e.to_string(), e)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, e)| e).collect()
}

/// Why Go's `NewStructural` cannot convert `p` at all, with its message
/// (`OpenAPIV3Schema 'id' is not supported`), or `None`.
#[must_use]
pub fn new_structural_error(p: &JsonSchemaProps) -> Option<String> {
    new_structural_error_at(p, 0)
}

fn new_structural_error_at(p: &JsonSchemaProps, depth: usize) -> Option<String> {
    if depth > MAX_SCHEMA_DEPTH {
        return Some(depth_message());
    }
    let unsupported = [
        (!p.id.is_empty(), "id"),
        (!p.schema.is_empty(), "schema"),
        (
            p.reference.as_deref().is_some_and(|r| !r.is_empty()),
            "$ref",
        ),
        (!p.pattern_properties.is_empty(), "patternProperties"),
        (!p.dependencies.is_empty(), "dependencies"),
        (p.additional_items.is_some(), "additionalItems"),
        (!p.definitions.is_empty(), "definitions"),
    ];
    if let Some((_, name)) = unsupported.iter().find(|(bad, _)| *bad) {
        return Some(format!("OpenAPIV3Schema '{name}' is not supported"));
    }
    let junctors = p
        .not
        .iter()
        .map(|b| &**b)
        .chain(&p.all_of)
        .chain(&p.any_of)
        .chain(&p.one_of);
    for j in junctors {
        if let Some(e) = new_structural_error_at(j, depth + 1) {
            return Some(e);
        }
    }
    if p.x_preserve_unknown_fields == Some(false) {
        return Some(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
                .to_owned(),
        );
    }
    match &p.items {
        Some(SchemaOrArray::Array(_)) => {
            return Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned());
        }
        Some(SchemaOrArray::Schema(s)) => {
            if let Some(e) = new_structural_error_at(s, depth + 1) {
                return Some(e);
            }
        }
        None => {}
    }
    for v in p.properties.values() {
        if let Some(e) = new_structural_error_at(v, depth + 1) {
            return Some(e);
        }
    }
    match &p.additional_properties {
        Some(SchemaOrBool::Schema(s)) => new_structural_error_at(s, depth + 1),
        _ => None,
    }
}

/// The error detail of a schema nested deeper than [`MAX_SCHEMA_DEPTH`].
pub fn depth_message() -> String {
    format!("must not be nested more than {MAX_SCHEMA_DEPTH} levels deep")
}

/// Go's `level`: where a node sits, which decides the "type must not be empty" wording.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

struct Walk<'e> {
    opts: StructuralOptions,
    errs: &'e mut Vec<FieldError>,
}

/// `default: null` is no default once Go has decoded the CRD.
pub fn has_default(p: &JsonSchemaProps) -> bool {
    p.default.as_ref().is_some_and(|d| !d.is_null())
}

fn items_schema(p: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &p.items {
        Some(SchemaOrArray::Schema(s)) => Some(s),
        _ => None,
    }
}

fn additional_schema(p: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &p.additional_properties {
        Some(SchemaOrBool::Schema(s)) => Some(s),
        _ => None,
    }
}

/// `anyOf: [{type: integer}, {type: string}]` and nothing else in either branch.
fn is_int_or_string_any_of(any_of: &[JsonSchemaProps]) -> bool {
    let only = |ty: &str, b: &JsonSchemaProps| {
        let mut want = JsonSchemaProps {
            ty: ty.to_owned(),
            ..JsonSchemaProps::default()
        };
        // A null default is no default.
        if b.default.as_ref().is_some_and(serde_json::Value::is_null) {
            want.default.clone_from(&b.default);
        }
        *b == want
    };
    any_of.len() == 2 && only("integer", &any_of[0]) && only("string", &any_of[1])
}

impl Walk<'_> {
    fn push(&mut self, e: FieldError) {
        self.errs.push(e);
    }

    // validateStructuralInvariants
    fn invariants(&mut self, s: &JsonSchemaProps, lvl: Level, path: &FieldPath, depth: usize) {
        if depth > MAX_SCHEMA_DEPTH {
            self.push(FieldError::forbidden(path, depth_message()));
            return;
        }
        if s.ty == "array" && s.items.is_none() {
            self.push(FieldError::required(
                &path.child("items"),
                "must be specified",
            ));
        }
        if let Some(items) = items_schema(s) {
            self.invariants(items, Level::Item, &path.child("items"), depth + 1);
        }
        for (k, v) in &s.properties {
            self.invariants(v, Level::Field, &path.child("properties").key(k), depth + 1);
        }
        if s.additional_properties.is_some() {
            if lvl == Level::Root {
                self.push(FieldError::forbidden(
                    &path.child("additionalProperties"),
                    "must not be used at the root",
                ));
            }
            if let Some(ap) = additional_schema(s) {
                self.invariants(
                    ap,
                    Level::Field,
                    &path.child("additionalProperties"),
                    depth + 1,
                );
            }
        }
        let preserve = s.x_preserve_unknown_fields == Some(true);
        // validateExtensions
        if s.x_int_or_string && preserve {
            self.push(FieldError::invalid(
                &path.child("x-kubernetes-preserve-unknown-fields"),
                true,
                "must be false if x-kubernetes-int-or-string is true",
            ));
        }
        if s.x_int_or_string && s.x_embedded_resource {
            self.push(FieldError::invalid(
                &path.child("x-kubernetes-embedded-resource"),
                true,
                "must be false if x-kubernetes-int-or-string is true",
            ));
        }
        let skip_any_of = is_int_or_string_any_of(&s.any_of);
        let skip_first_all_of_any_of = s
            .all_of
            .first()
            .is_some_and(|a| is_int_or_string_any_of(&a.any_of));
        self.value_validation(
            s,
            skip_any_of,
            skip_first_all_of_any_of,
            self.opts,
            path,
            depth,
        );

        let check_metadata = lvl == Level::Root || s.x_embedded_resource;
        if s.x_embedded_resource && s.ty != "object" {
            let detail = "must be object if x-kubernetes-embedded-resource is true";
            self.push(if s.ty.is_empty() {
                FieldError::required(&path.child("type"), detail)
            } else {
                FieldError::invalid(&path.child("type"), &s.ty, detail)
            });
        } else if s.ty.is_empty() && !s.x_int_or_string && !preserve {
            let detail = match lvl {
                Level::Root => "must not be empty at the root",
                Level::Item => "must not be empty for specified array items",
                Level::Field => "must not be empty for specified object fields",
            };
            self.push(FieldError::required(&path.child("type"), detail));
        }
        if s.x_embedded_resource && s.additional_properties.is_some() {
            self.push(FieldError::forbidden(
                &path.child("additionalProperties"),
                "must not be used if x-kubernetes-embedded-resource is set",
            ));
        }
        if lvl == Level::Root && !s.ty.is_empty() && s.ty != "object" {
            self.push(FieldError::invalid(
                &path.child("type"),
                &s.ty,
                "must be object at the root",
            ));
        }
        for name in ["kind", "apiVersion"] {
            if let Some(p) = s.properties.get(name).filter(|_| check_metadata)
                && p.ty != "string"
            {
                let at = path.child("properties").key(name).child("type");
                self.push(FieldError::invalid(&at, &p.ty, "must be string"));
            }
        }
        if let Some(m) = s.properties.get("metadata") {
            self.metadata(
                m,
                check_metadata,
                lvl,
                &path.child("properties").key("metadata"),
            );
        }
        if s.x_embedded_resource && !preserve && s.properties.is_empty() {
            self.push(FieldError::required(
                &path.child("properties"),
                "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
            ));
        }
    }

    // validateStructuralMetadataInvariants
    fn metadata(
        &mut self,
        s: &JsonSchemaProps,
        check_metadata: bool,
        lvl: Level,
        path: &FieldPath,
    ) {
        if check_metadata && s.ty != "object" {
            self.push(FieldError::invalid(
                &path.child("type"),
                &s.ty,
                "must be object",
            ));
        }
        if lvl != Level::Root {
            return;
        }
        // Only name and generateName may be restricted, and only when they are all there is.
        let mut rest = s.clone();
        let name = rest.properties.contains_key("name");
        let generate_name = rest.properties.contains_key("generateName");
        if (name && generate_name && rest.properties.len() == 2)
            || ((name || generate_name) && rest.properties.len() == 1)
        {
            rest.properties = BTreeMap::new();
        }
        rest.ty = String::new();
        rest.default = None;
        if rest != JsonSchemaProps::default() {
            self.push(FieldError::forbidden(
                path,
                "must not specify anything other than name and generateName, but metadata is implicitly specified",
            ));
        }
    }

    // validateValueValidation
    fn value_validation(
        &mut self,
        v: &JsonSchemaProps,
        skip_any_of: bool,
        skip_first_all_of_any_of: bool,
        opts: StructuralOptions,
        path: &FieldPath,
        depth: usize,
    ) {
        // Rules are only ever allowed under allOf.
        let no_cel = StructuralOptions {
            allow_nested_x_validations: false,
            ..opts
        };
        if !skip_any_of {
            for (i, b) in v.any_of.iter().enumerate() {
                self.nested(
                    b,
                    false,
                    false,
                    no_cel,
                    &path.child("anyOf").index(i),
                    depth + 1,
                );
            }
        }
        for (i, b) in v.all_of.iter().enumerate() {
            let skip = skip_first_all_of_any_of && i == 0;
            self.nested(
                b,
                skip,
                false,
                opts,
                &path.child("allOf").index(i),
                depth + 1,
            );
        }
        for (i, b) in v.one_of.iter().enumerate() {
            self.nested(
                b,
                false,
                false,
                no_cel,
                &path.child("oneOf").index(i),
                depth + 1,
            );
        }
        if let Some(n) = &v.not {
            self.nested(n, false, false, no_cel, &path.child("not"), depth + 1);
        }
        if !v.pattern.is_empty()
            && let Err(e) = check_go_regexp(&v.pattern)
        {
            self.push(FieldError::invalid(
                &path.child("pattern"),
                &v.pattern,
                format!("must be a valid regular expression, but isn't: {e}"),
            ));
        }
    }

    // validateNestedValueValidation
    fn nested(
        &mut self,
        v: &JsonSchemaProps,
        skip_any_of: bool,
        skip_all_of_any_of: bool,
        opts: StructuralOptions,
        path: &FieldPath,
        depth: usize,
    ) {
        if depth > MAX_SCHEMA_DEPTH {
            self.push(FieldError::forbidden(path, depth_message()));
            return;
        }
        self.value_validation(v, skip_any_of, skip_all_of_any_of, opts, path, depth);
        if let Some(items) = items_schema(v) {
            self.nested(items, false, false, opts, &path.child("items"), depth + 1);
        }
        for (k, p) in &v.properties {
            self.nested(
                p,
                false,
                false,
                opts,
                &path.child("properties").key(k),
                depth + 1,
            );
        }
        let forbid = |w: &mut Self, name: &str, detail: &str| {
            w.push(FieldError::forbidden(&path.child(name), detail));
        };
        if !v.ty.is_empty() {
            forbid(self, "type", "must be empty to be structural");
        }
        match nested_additional(v) {
            Some(_) if !opts.allow_nested_additional_properties => {
                forbid(
                    self,
                    "additionalProperties",
                    "must be undefined to be structural",
                );
            }
            Some(ap) => self.nested(
                ap,
                false,
                false,
                opts,
                &path.child("additionalProperties"),
                depth + 1,
            ),
            None => {}
        }
        if has_default(v) {
            forbid(self, "default", "must be undefined to be structural");
        }
        if !v.title.is_empty() {
            forbid(self, "title", "must be empty to be structural");
        }
        if !v.description.is_empty() {
            forbid(self, "description", "must be empty to be structural");
        }
        if v.nullable {
            forbid(self, "nullable", "must be false to be structural");
        }
        if v.x_preserve_unknown_fields == Some(true) {
            forbid(
                self,
                "x-kubernetes-preserve-unknown-fields",
                "must be false to be structural",
            );
        }
        if v.x_embedded_resource {
            forbid(
                self,
                "x-kubernetes-embedded-resource",
                "must be false to be structural",
            );
        }
        if v.x_int_or_string {
            forbid(
                self,
                "x-kubernetes-int-or-string",
                "must be false to be structural",
            );
        }
        if !v.x_list_map_keys.is_empty() {
            forbid(
                self,
                "x-kubernetes-list-map-keys",
                "must be empty to be structural",
            );
        }
        if v.x_list_type.is_some() {
            forbid(
                self,
                "x-kubernetes-list-type",
                "must be undefined to be structural",
            );
        }
        if v.x_map_type.is_some() {
            forbid(
                self,
                "x-kubernetes-map-type",
                "must be undefined to be structural",
            );
        }
        if !v.x_validations.is_empty() && !opts.allow_nested_x_validations {
            forbid(
                self,
                "x-kubernetes-validations",
                "must be empty to be structural",
            );
        }
        if v.properties.contains_key("metadata") {
            self.push(FieldError::forbidden(
                &path.child("properties").key("metadata"),
                "must not be specified in a nested context",
            ));
        }
    }
}

#[cfg(test)]
mod tests;
