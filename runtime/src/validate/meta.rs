//! Validation of `metadata`, `apiVersion` and `kind`: at the root (as the registry's
//! `customResourceValidator` does) and in `x-kubernetes-embedded-resource` objects.
//!
//! Mirrors apiextensions-apiserver `pkg/registry/customresource/validator.go`
//! (`ValidateTypeMeta`, `validateObjectMetaDeclaratively`), `pkg/apiserver/schema/objectmeta/
//! validation.go` (`Validate`, `validateEmbeddedResource`) and apimachinery
//! `pkg/api/validation/objectmeta.go` (`ValidateObjectMetaAccessor`: name, generateName,
//! namespace, generation, labels, annotations, owner references, finalizers). Managed fields and
//! the declarative-validation extras are not checked.

use serde_json::{Map, Value};

use crate::field::{BadValue, FieldError, FieldPath};
use crate::names;
use crate::objectmeta::get_object_meta;
use crate::prune::{MAX_DEPTH, additional};
use crate::schema::Structural;

/// How names are checked: the root's must be DNS subdomains, embedded ones path segments.
#[derive(Clone, Copy)]
enum NameRule {
    DnsSubdomain,
    PathSegment,
}

fn name_errors(rule: NameRule, name: &str, prefix: bool) -> Vec<String> {
    match rule {
        NameRule::DnsSubdomain => {
            let masked;
            let name = if prefix && name.len() > 1 && name.ends_with('-') {
                masked = format!("{}a", &name[..name.len() - 2]);
                masked.as_str()
            } else {
                name
            };
            names::dns1123_subdomain(name)
        }
        NameRule::PathSegment => {
            if !prefix && (name == "." || name == "..") {
                return vec![format!("may not be '{name}'")];
            }
            ["/", "%"]
                .iter()
                .filter(|c| name.contains(*c))
                .map(|c| format!("may not contain '{c}'"))
                .collect()
        }
    }
}

fn str_field<'a>(m: &'a Map<String, Value>, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

/// `ValidateObjectMetaAccessor` for create, on decoded `metadata`.
fn object_meta(
    m: &Map<String, Value>,
    namespaced: Option<bool>,
    rule: NameRule,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let generate_name = str_field(m, "generateName");
    if !generate_name.is_empty() {
        for msg in name_errors(rule, generate_name, true) {
            errs.push(FieldError::invalid(
                &path.child("generateName"),
                generate_name,
                msg,
            ));
        }
    }
    let name = str_field(m, "name");
    if name.is_empty() {
        errs.push(FieldError::required(
            &path.child("name"),
            "name or generateName is required",
        ));
    } else {
        for msg in name_errors(rule, name, false) {
            errs.push(FieldError::invalid(&path.child("name"), name, msg));
        }
    }
    let namespace = str_field(m, "namespace");
    match namespaced {
        Some(true) if namespace.is_empty() => {
            errs.push(FieldError::required(&path.child("namespace"), ""))
        }
        Some(false) if !namespace.is_empty() => {
            errs.push(FieldError::forbidden(
                &path.child("namespace"),
                "not allowed on this type",
            ));
        }
        _ if !namespace.is_empty() => {
            for msg in names::dns1123_label(namespace) {
                errs.push(FieldError::invalid(
                    &path.child("namespace"),
                    namespace,
                    msg,
                ));
            }
        }
        _ => {}
    }
    if let Some(g) = m.get("generation").and_then(Value::as_i64)
        && g < 0
    {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            g,
            "must be greater than or equal to 0",
        ));
    }
    if let Some(Value::Object(labels)) = m.get("labels") {
        let p = path.child("labels");
        for (k, v) in labels {
            for msg in names::label_key(k) {
                errs.push(FieldError::invalid(&p, k.as_str(), msg));
            }
            let v = v.as_str().unwrap_or("");
            for msg in names::label_value(v) {
                errs.push(FieldError::invalid(&p, v, msg));
            }
        }
    }
    if let Some(Value::Object(annotations)) = m.get("annotations") {
        let p = path.child("annotations");
        let mut size = 0usize;
        for (k, v) in annotations {
            for msg in names::label_key(&k.to_lowercase()) {
                errs.push(FieldError::invalid(&p, k.as_str(), msg));
            }
            size += k.len() + v.as_str().map_or(0, str::len);
        }
        if size > 256 * 1024 {
            errs.push(FieldError::too_long(&p, 256 * 1024));
        }
    }
    if let Some(Value::Array(refs)) = m.get("ownerReferences") {
        owner_references(refs, &path.child("ownerReferences"), errs);
    }
    if let Some(Value::Array(finalizers)) = m.get("finalizers") {
        let p = path.child("finalizers");
        for f in finalizers.iter().filter_map(Value::as_str) {
            for msg in names::label_key(f) {
                errs.push(FieldError::invalid(&p, f, msg));
            }
        }
        let has = |s: &str| finalizers.iter().any(|f| f.as_str() == Some(s));
        if has("orphan") && has("foregroundDeletion") {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Json(Value::Array(finalizers.clone())),
                "finalizer orphan and foregroundDeletion cannot be both set",
            ));
        }
    }
}

fn owner_references(refs: &[Value], path: &FieldPath, errs: &mut Vec<FieldError>) {
    let mut first_controller = String::new();
    for (i, r) in refs.iter().enumerate() {
        let Some(r) = r.as_object() else { continue };
        let p = path.index(i);
        let api_version = str_field(r, "apiVersion");
        if api_version.is_empty() {
            errs.push(FieldError::required(
                &p.child("apiVersion"),
                "must not be empty",
            ));
        } else if parse_group_version(api_version).is_err() || api_version.ends_with('/') {
            errs.push(FieldError::invalid(
                &p.child("apiVersion"),
                api_version,
                "must be <group>/<version> or <version>",
            ));
        }
        for k in ["kind", "name", "uid"] {
            if str_field(r, k).is_empty() {
                errs.push(FieldError::required(&p.child(k), "must not be empty"));
            }
        }
        if r.get("controller").and_then(Value::as_bool) == Some(true) {
            let cur = format!("{}/{}", str_field(r, "kind"), str_field(r, "name"));
            if first_controller.is_empty() {
                first_controller = cur;
            } else {
                errs.push(FieldError::invalid(path, BadValue::Json(Value::Array(refs.to_vec())), format!("Only one reference can have Controller set to true. Found \"true\" in references for {first_controller} and {cur}")));
            }
        }
    }
}

/// `schema.ParseGroupVersion`.
fn parse_group_version(s: &str) -> Result<(), String> {
    if s.matches('/').count() > 1 {
        Err(format!("unexpected GroupVersion string: {s}"))
    } else {
        Ok(())
    }
}

/// The root's `metadata` (`validateObjectMetaDeclaratively` for create). `namespaced`: whether
/// the resource is namespaced (`None`: the namespace is only checked when set).
pub(crate) fn validate_root_meta(
    obj: &Value,
    namespaced: Option<bool>,
    errs: &mut Vec<FieldError>,
) {
    let path = FieldPath::new("metadata");
    let meta = match obj.get("metadata") {
        None | Some(Value::Null) => Map::new(),
        Some(m @ Value::Object(_)) => match get_object_meta(m, &FieldPath::nil(), false) {
            Ok(m) => m.value,
            Err(e) => {
                return errs.push(FieldError::invalid(
                    &path,
                    BadValue::from(obj.get("metadata").unwrap_or(&Value::Null)),
                    e,
                ));
            }
        },
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
            return errs.push(FieldError::invalid(
                &path,
                BadValue::from(v),
                format!("expected map[string]interface{{}}, got {ty}"),
            ));
        }
    };
    let mut meta = meta;
    // The registry generates a name from generateName before validating (BeforeCreate).
    if str_field(&meta, "name").is_empty() && !str_field(&meta, "generateName").is_empty() {
        meta.insert(
            "name".into(),
            Value::String(format!("{}xxxxx", str_field(&meta, "generateName"))),
        );
    }
    object_meta(&meta, namespaced, NameRule::DnsSubdomain, &path, errs);
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
pub(crate) fn validate_embedded(
    path: &FieldPath,
    x: &Value,
    s: &Structural,
    errs: &mut Vec<FieldError>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match x {
        Value::Object(map) => {
            if s.extensions.embedded_resource {
                embedded_resource(path, map, errs);
            }
            for (k, v) in map {
                if let Some(prop) = s.properties.get(k) {
                    validate_embedded(&path.child(k), v, prop, errs, depth + 1);
                } else if let Some(Some(ap)) = additional(s) {
                    validate_embedded(&path.key(k), v, ap, errs, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = s.items.as_deref() {
                for (i, v) in items.iter().enumerate() {
                    validate_embedded(&path.index(i), v, item, errs, depth + 1);
                }
            }
        }
        _ => {}
    }
}

fn embedded_resource(path: &FieldPath, x: &Map<String, Value>, errs: &mut Vec<FieldError>) {
    for k in ["apiVersion", "kind"] {
        if !x.contains_key(k) {
            errs.push(FieldError::required(&path.child(k), ""));
        }
    }
    for (k, v) in x {
        let p = path.child(k);
        match (k.as_str(), v) {
            ("apiVersion" | "kind", Value::String(s)) if s.is_empty() => {
                errs.push(FieldError::invalid(&p, "", "must not be empty"));
            }
            ("apiVersion", Value::String(s)) => {
                if let Err(e) = parse_group_version(s) {
                    errs.push(FieldError::invalid(&p, s.as_str(), e));
                }
            }
            ("kind", Value::String(s)) => {
                let e = names::dns1035_label(&s.to_lowercase());
                if !e.is_empty() {
                    errs.push(FieldError::invalid(
                        &p,
                        s.as_str(),
                        format!(
                            "may have mixed case, but should otherwise match: {}",
                            e.join(",")
                        ),
                    ));
                }
            }
            ("apiVersion" | "kind", v) => errs.push(FieldError::invalid(
                &p,
                BadValue::from(v),
                "must be a string",
            )),
            ("metadata", v) => match get_object_meta(v, path, false) {
                Err(e) => errs.push(FieldError::invalid(&p, BadValue::from(v), e)),
                Ok(m) => {
                    let mut meta = m.value;
                    if str_field(&meta, "name").is_empty() {
                        meta.insert("name".into(), Value::String("fakename".into()));
                    }
                    let namespaced = !str_field(&meta, "namespace").is_empty();
                    object_meta(&meta, Some(namespaced), NameRule::PathSegment, &p, errs);
                }
            },
            _ => {}
        }
    }
}
