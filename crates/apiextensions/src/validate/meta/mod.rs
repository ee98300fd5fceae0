//! Validation of `metadata`, `apiVersion` and `kind`: at the root (as the registry's
//! `customResourceValidator` does) and in `x-kubernetes-embedded-resource` objects.
//!
//! Mirrors apiextensions-apiserver `pkg/registry/customresource/validator.go`
//! (`ValidateTypeMeta`, `validateObjectMetaDeclaratively`), `pkg/apiserver/schema/objectmeta/
//! validation.go` (`Validate`, `validateEmbeddedResource`) and apimachinery
//! `pkg/api/validation/objectmeta.go` (`ValidateObjectMetaAccessor`, in [`object`]). Managed
//! fields and the declarative-validation extras are not checked.
//!
//! `metadata` that is already in its decoded form (as after [`CompiledSchema::prune_and_default`](
//! super::CompiledSchema::prune_and_default)) is checked in place, without decoding a copy.

pub(crate) mod object;

use std::borrow::Cow;

use serde_json::{Map, Value};

use self::object::{Fields, NameRule, object_meta, parse_group_version};
use crate::objectmeta::get_object_meta;
use crate::walk::MAX_DEPTH;
use crate::walk::node::SchemaNode;
use crate::walk::trail::{LazyPath, Trail};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

/// Runs `check` on the fields of `metadata` decoded as `GetObjectMetaWithOptions` does
/// (`parent`: the path of the object holding it), read in place when it already is decoded.
fn with_decoded(
    meta: &Value,
    parent: impl FnOnce() -> FieldPath,
    check: impl FnOnce(&Fields),
) -> Result<(), String> {
    let mut fields = Fields::default();
    if let Value::Object(m) = meta
        && fields.read_decoded(m)
    {
        check(&fields);
        return Ok(());
    }
    let decoded = get_object_meta(meta, &parent(), false)
        .map_err(|e| e.message)?
        .value;
    check(&Fields::of(&decoded));
    Ok(())
}

/// The root's `metadata` (`validateObjectMetaDeclaratively` for create). `namespaced`: whether
/// the resource is namespaced (`None`: the namespace is only checked when set).
pub(crate) fn validate_root_meta(
    obj: &Value,
    namespaced: Option<bool>,
    errs: &mut Vec<FieldError>,
) {
    let make = || FieldPath::new("metadata");
    let path = LazyPath::new(&make);
    let mut check = |fields: &Fields| {
        // The registry generates a name from generateName before validating (BeforeCreate).
        let name = match (fields.name, fields.generate_name) {
            ("", generate) if !generate.is_empty() => Cow::Owned(format!("{generate}xxxxx")),
            (name, _) => Cow::Borrowed(name),
        };
        let rule = NameRule::DnsSubdomain;
        object_meta(fields, &name, namespaced, rule, &path, errs);
    };
    match obj.get("metadata") {
        None | Some(Value::Null) => check(&Fields::default()),
        Some(m @ Value::Object(_)) => {
            if let Err(e) = with_decoded(m, FieldPath::nil, check) {
                errs.push(FieldError::invalid(path.get(), BadValue::from(m), e));
            }
        }
        Some(v) => {
            let ty = if v.is_array() {
                "[]interface {}"
            } else if v.is_string() {
                "string"
            } else if v.is_boolean() {
                "bool"
            } else if v.as_i64().is_some() {
                "int64"
            } else {
                "float64"
            };
            errs.push(FieldError::invalid(
                path.get(),
                BadValue::from(v),
                format!("expected map[string]interface{{}}, got {ty}"),
            ));
        }
    }
}

/// `ValidateTypeMeta`: `kind` and `apiVersion` must be those of the resource.
pub(crate) fn validate_type_meta(obj: &Value, api_version: &str, kind: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let got = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("");
    if got("kind") != kind {
        errs.push(FieldError::invalid(
            &FieldPath::new("kind"),
            got("kind"),
            format!("must be {kind}"),
        ));
    }
    if got("apiVersion") != api_version {
        errs.push(FieldError::invalid(
            &FieldPath::new("apiVersion"),
            got("apiVersion"),
            format!("must be {api_version}"),
        ));
    }
    errs
}

/// `objectmeta.Validate(ctx, nil, obj, s, false)`: every embedded resource below the root.
pub(crate) fn validate_embedded<S: SchemaNode>(
    base: &FieldPath,
    x: &Value,
    s: &S,
    errs: &mut Vec<FieldError>,
) {
    embedded_below(base, &Trail::ROOT, x, s, errs, 0);
}

fn embedded_below<S: SchemaNode>(
    base: &FieldPath,
    at: &Trail,
    x: &Value,
    s: &S,
    errs: &mut Vec<FieldError>,
    depth: usize,
) {
    if depth > MAX_DEPTH || !s.has_embedded() {
        return;
    }
    match x {
        Value::Object(map) => {
            if s.embedded_resource() {
                let make = || at.field_path(base);
                embedded_resource(&LazyPath::new(&make), map, errs);
            }
            let mut cursor = 0;
            for (k, v) in map {
                if let Some(prop) = s.property_at(k, &mut cursor) {
                    embedded_below(base, &at.child(k), v, prop, errs, depth + 1);
                } else if let Some(Some(ap)) = s.additional() {
                    embedded_below(base, &at.key(k), v, ap, errs, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = s.items() {
                for (i, v) in items.iter().enumerate() {
                    embedded_below(base, &at.index(i), v, item, errs, depth + 1);
                }
            }
        }
        _ => {}
    }
}

fn embedded_resource(path: &LazyPath, x: &Map<String, Value>, errs: &mut Vec<FieldError>) {
    for k in ["apiVersion", "kind"] {
        if !x.contains_key(k) {
            errs.push(FieldError::required(&path.get().child(k), ""));
        }
    }
    for (k, v) in x {
        let p = || path.get().child(k);
        match (k.as_str(), v) {
            ("apiVersion" | "kind", Value::String(s)) if s.is_empty() => {
                errs.push(FieldError::invalid(&p(), "", "must not be empty"));
            }
            ("apiVersion", Value::String(s)) => {
                if let Err(e) = parse_group_version(s) {
                    errs.push(FieldError::invalid(&p(), s.as_str(), e));
                }
            }
            ("kind", Value::String(s)) => {
                let e = names::dns1035_label(&s.to_lowercase());
                if !e.is_empty() {
                    errs.push(FieldError::invalid(
                        &p(),
                        s.as_str(),
                        format!(
                            "may have mixed case, but should otherwise match: {}",
                            e.join(",")
                        ),
                    ));
                }
            }
            ("apiVersion" | "kind", v) => {
                errs.push(FieldError::invalid(
                    &p(),
                    BadValue::from(v),
                    "must be a string",
                ));
            }
            ("metadata", v) => {
                let check = |fields: &Fields| {
                    let name = match fields.name {
                        "" => "fakename",
                        name => name,
                    };
                    let namespaced = Some(!fields.namespace.is_empty());
                    let make = || path.get().child("metadata");
                    let p = LazyPath::new(&make);
                    let rule = NameRule::PathSegment;
                    object_meta(fields, name, namespaced, rule, &p, errs);
                };
                if let Err(e) = with_decoded(v, || path.get().clone(), check) {
                    errs.push(FieldError::invalid(&p(), BadValue::from(v), e));
                }
            }
            _ => {}
        }
    }
}
