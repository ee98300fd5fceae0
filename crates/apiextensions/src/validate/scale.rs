//! The checks of the scale subresource's paths that the registry runs on every create and
//! update (apiextensions-apiserver `pkg/registry/customresource/validator.go`,
//! `ValidateScaleSpec` and `ValidateScaleStatus`).

use serde_json::Value;

use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::gofmt;
use crdkit_schema::crd::CustomResourceSubresourceScale;

/// `specReplicasPath` and `statusReplicasPath` must lead to a non-negative `int32` (or to
/// nothing), `labelSelectorPath` to a string (or to nothing).
pub(crate) fn validate_scale(
    obj: &Value,
    scale: &CustomResourceSubresourceScale,
    out: &mut Vec<FieldError>,
) {
    replicas(obj, &scale.spec_replicas_path, out);
    validate_scale_status(obj, scale, out);
}

/// `ValidateScaleStatus` alone, as the status subresource runs it: `statusReplicasPath` and
/// `labelSelectorPath`.
pub(crate) fn validate_scale_status(
    obj: &Value,
    scale: &CustomResourceSubresourceScale,
    out: &mut Vec<FieldError>,
) {
    replicas(obj, &scale.status_replicas_path, out);
    if let Some(path) = &scale.label_selector_path
        && let Err(e) = nested(obj, path).and_then(|v| match v {
            Some(v) if !v.is_string() => Err(type_error(path, v, "string")),
            _ => Ok(()),
        })
    {
        out.push(FieldError::invalid(
            &FieldPath::new(path),
            BadValue::from(""),
            e,
        ));
    }
}

fn replicas(obj: &Value, path: &str, out: &mut Vec<FieldError>) {
    let at = FieldPath::new(path);
    let n = match nested(obj, path) {
        Err(e) => return out.push(FieldError::invalid(&at, BadValue::Int(0), e)),
        Ok(None) => return,
        Ok(Some(v)) => match v.as_i64() {
            Some(n) => n,
            None => {
                let e = type_error(path, v, "int64");
                return out.push(FieldError::invalid(&at, BadValue::Int(0), e));
            }
        },
    };
    if n < 0 {
        out.push(FieldError::invalid(
            &at,
            BadValue::Int(n),
            "should be a non-negative integer",
        ));
    } else if n > i64::from(i32::MAX) {
        out.push(FieldError::invalid(
            &at,
            BadValue::Int(n),
            format!("should be less than or equal to {}", i32::MAX),
        ));
    }
}

/// `unstructured.NestedFieldNoCopy` along a `.a.b` path: `Ok(None)` when a field is missing
/// or a parent is null.
fn nested<'v>(obj: &'v Value, path: &str) -> Result<Option<&'v Value>, String> {
    let fields: Vec<&str> = path.strip_prefix('.').unwrap_or(path).split('.').collect();
    let mut v = obj;
    for (i, f) in fields.iter().enumerate() {
        match v {
            Value::Null => return Ok(None),
            Value::Object(m) => match m.get(*f) {
                Some(next) => v = next,
                None => return Ok(None),
            },
            _ => {
                return Err(format!(
                    ".{} accessor error: {} is of the type {}, expected map[string]interface{{}}",
                    fields[..=i].join("."),
                    gofmt::sprint(v),
                    gofmt::type_name(v)
                ));
            }
        }
    }
    Ok(Some(v))
}

fn type_error(path: &str, v: &Value, want: &str) -> String {
    format!(
        ".{} accessor error: {} is of the type {}, expected {want}",
        path.strip_prefix('.').unwrap_or(path),
        gofmt::sprint(v),
        gofmt::type_name(v)
    )
}
