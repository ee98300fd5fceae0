//! The downward API: object field selectors and container resource field selectors, as
//! environment variables and volume files use them.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validateObjectFieldSelector`,
//! `validateContainerResourceFieldSelector`, `validateContainerResourceDivisor`) and
//! `ConvertDownwardAPIFieldLabel` of `pkg/apis/core/pods/helpers.go`.

use super::meta::qualified_name;
use super::read::{Obj, str_of};
use super::resources;
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// `validateObjectFieldSelector` with `ConvertDownwardAPIFieldLabel` (v1 only).
pub(crate) fn object_field_selector(
    fs: &Obj,
    expressions: &[&str],
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let (version, field_path) = (str_of(fs, "apiVersion"), str_of(fs, "fieldPath"));
    if version.is_empty() {
        errs.push(FieldError::required(&p.child("apiVersion"), ""));
        return;
    }
    if field_path.is_empty() {
        errs.push(FieldError::required(&p.child("fieldPath"), ""));
        return;
    }
    let converted = convert_field_label(version, field_path);
    let internal = match converted {
        Ok(f) => f,
        Err(e) => {
            errs.push(FieldError::invalid(
                &p.child("fieldPath"),
                field_path,
                format!("error converting fieldPath: {e}"),
            ));
            return;
        }
    };
    match split_subscript(&internal) {
        Some((path, subscript)) => match path {
            "metadata.annotations" => qualified_name(&subscript.to_lowercase(), p, errs),
            "metadata.labels" => qualified_name(subscript, p, errs),
            _ => errs.push(FieldError::invalid(p, path, "does not support subscript")),
        },
        None => {
            if !expressions.contains(&internal.as_str()) {
                let mut supported = expressions.to_vec();
                supported.sort_unstable();
                errs.push(FieldError::not_supported(
                    &p.child("fieldPath"),
                    internal.as_str(),
                    &supported,
                ));
            }
        }
    }
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']`.
pub(crate) fn split_subscript(f: &str) -> Option<(&str, &str)> {
    let s = f.strip_suffix("']")?;
    let (path, sub) = s.split_once("['")?;
    (!path.is_empty()).then_some((path, sub))
}

/// `ConvertDownwardAPIFieldLabel` for Pods (`pkg/apis/core/pods/helpers.go`).
pub(crate) fn convert_field_label(version: &str, label: &str) -> Result<String, String> {
    if version != "v1" {
        return Err(format!("unsupported pod version: {version}"));
    }
    if let Some((path, _)) = split_subscript(label) {
        return match path {
            "metadata.annotations" | "metadata.labels" => Ok(label.to_owned()),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    match label {
        "metadata.annotations"
        | "metadata.labels"
        | "metadata.name"
        | "metadata.namespace"
        | "metadata.uid"
        | "spec.nodeName"
        | "spec.restartPolicy"
        | "spec.serviceAccountName"
        | "spec.schedulerName"
        | "status.phase"
        | "status.hostIP"
        | "status.hostIPs"
        | "status.podIP"
        | "status.podIPs" => Ok(label.to_owned()),
        "spec.host" => Ok("spec.nodeName".to_owned()),
        _ => Err(format!("field label not supported: {label}")),
    }
}

/// The container resources the downward API exposes.
pub(crate) const RESOURCE_FIELDS: [&str; 6] = [
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// `validateContainerResourceFieldSelector` and `validateContainerResourceDivisor`.
pub(crate) fn resource_field_selector(
    r: &Obj,
    p: &FieldPath,
    volume: bool,
    errs: &mut Vec<FieldError>,
) {
    let resource = str_of(r, "resource");
    if volume && str_of(r, "containerName").is_empty() {
        errs.push(FieldError::required(&p.child("containerName"), ""));
    } else if resource.is_empty() {
        errs.push(FieldError::required(&p.child("resource"), ""));
    } else if !RESOURCE_FIELDS.contains(&resource)
        && !resource.starts_with("requests.hugepages-")
        && !resource.starts_with("limits.hugepages-")
    {
        errs.push(FieldError::not_supported(
            &p.child("resource"),
            resource,
            &RESOURCE_FIELDS,
        ));
    }
    let Some(divisor) = r.get("divisor").and_then(|d| resources::quantity(d).ok()) else {
        return;
    };
    if divisor.is_zero() {
        return;
    }
    let d = divisor.to_string();
    const BYTES: [&str; 13] = [
        "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
    ];
    let bytes_msg = |what: &str| {
        format!(
            "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the {what}"
        )
    };
    let msg = match resource {
        "limits.cpu" | "requests.cpu" if d != "1m" && d != "1" => {
            Some("only divisor's values 1m and 1 are supported with the cpu resource".to_owned())
        }
        "limits.memory" | "requests.memory" if !BYTES.contains(&d.as_str()) => {
            Some(bytes_msg("memory resource"))
        }
        "limits.ephemeral-storage" | "requests.ephemeral-storage"
            if !BYTES.contains(&d.as_str()) =>
        {
            Some(bytes_msg("local ephemeral storage resource"))
        }
        _ => None,
    };
    if let Some(msg) = msg {
        errs.push(FieldError::invalid(&p.child("divisor"), resource, msg));
    }
    if (resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-"))
        && !BYTES.contains(&d.as_str())
    {
        errs.push(FieldError::invalid(
            &p.child("divisor"),
            resource,
            bytes_msg("hugepages resource"),
        ));
    }
}
