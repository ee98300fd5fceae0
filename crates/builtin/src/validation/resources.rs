//! Resource names and quantities: containers' requests and limits, claims' storage.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validateResourceRequirements`,
//! `validateContainerResourceName`, `validateResourceName`, `ValidateResourceQuantityValue`,
//! `ValidatePositiveQuantityValue`) and the predicates of `pkg/apis/core/helper/helpers.go`
//! (`IsStandardResourceName`, `IsNativeResource`, `IsExtendedResourceName`,
//! `IsOvercommitAllowed`, `IsIntegerResourceName`, hugepages).
//!
//! What differs: a quantity that does not parse is reported here as an invalid value with the
//! parser's message; the API server refuses such a body while decoding it (400).

use serde_json::Value;

use super::meta::NEGATIVE;
use super::read::{Obj, obj};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;
use crdkit_apimachinery::quantity::Quantity;

/// The quantity in a JSON value (strings and numbers), or the parser's message.
pub(crate) fn quantity(v: &Value) -> Result<Quantity, &'static str> {
    match v {
        Value::String(s) => Quantity::parse(s.trim()),
        Value::Number(n) => Quantity::parse(&n.to_string()),
        _ => Err(crdkit_apimachinery::quantity::FORMAT_WRONG),
    }
}

/// Reads the quantity at `path`, reporting one that does not parse.
pub(crate) fn read(v: &Value, path: &FieldPath, errs: &mut Vec<FieldError>) -> Option<Quantity> {
    match quantity(v) {
        Ok(q) => Some(q),
        Err(msg) => {
            errs.push(FieldError::invalid(path, v, msg));
            None
        }
    }
}

/// Resource names any object may use without a domain (`standardResources`).
pub(crate) const STANDARD: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// `IsHugePageResourceName`.
pub(crate) fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `IsNativeResource`: no domain, or a `kubernetes.io` one.
pub(crate) fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `IsOvercommitAllowed`: native resources but hugepages.
pub(crate) fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_hugepages(name)
}

pub(crate) fn is_standard(name: &str) -> bool {
    STANDARD.contains(&name)
        || is_hugepages(name)
        || name.strip_prefix("requests.").is_some_and(is_hugepages)
}

/// `IsExtendedResourceName`: a domain-qualified, non-native name that is still a qualified name
/// under `requests.`.
pub(crate) fn is_extended(name: &str) -> bool {
    if is_native(name) || name.starts_with("requests.") {
        return false;
    }
    names::label_key(&format!("requests.{name}")).is_empty()
}

/// `IsIntegerResourceName`: extended resources and the object counts of quotas.
pub(crate) fn is_integer_resource(name: &str) -> bool {
    is_extended(name)
        || matches!(
            name,
            "pods"
                | "services"
                | "replicationcontrollers"
                | "resourcequotas"
                | "secrets"
                | "configmaps"
                | "persistentvolumeclaims"
                | "services.nodeports"
                | "services.loadbalancers"
        )
}

/// `validateResourceName`: a qualified name; without a domain, a standard one.
pub(crate) fn resource_name(name: &str, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let before = errs.len();
    for msg in names::label_key(name) {
        errs.push(FieldError::invalid(path, name, msg));
    }
    if errs.len() == before && !name.contains('/') && !is_standard(name) {
        errs.push(FieldError::invalid(
            path,
            name,
            "must be a standard resource type or fully qualified",
        ));
    }
}

/// `validateContainerResourceName`.
pub(crate) fn container_resource_name(name: &str, path: &FieldPath, errs: &mut Vec<FieldError>) {
    resource_name(name, path, errs);
    if !name.contains('/') {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_hugepages(name) {
            errs.push(FieldError::invalid(
                path,
                name,
                "must be a standard resource for containers",
            ));
        }
    } else if !is_native(name) && !is_extended(name) {
        errs.push(FieldError::invalid(
            path,
            name,
            "doesn't follow extended resource name standard",
        ));
    }
}

/// `ValidateResourceQuantityValue`: not negative; an integer for integer resources.
pub(crate) fn quantity_value(
    name: &str,
    q: &Quantity,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    if q.sign() < 0 {
        errs.push(FieldError::invalid(path, q.to_string(), NEGATIVE));
    }
    if is_integer_resource(name) && q.milli_value() % 1000 != 0 {
        errs.push(FieldError::invalid(
            path,
            q.to_string(),
            "must be an integer",
        ));
    }
}

/// `ValidatePositiveQuantityValue`.
pub(crate) fn positive(q: &Quantity, path: &FieldPath, errs: &mut Vec<FieldError>) {
    if q.sign() <= 0 {
        errs.push(FieldError::invalid(
            path,
            q.to_string(),
            "must be greater than zero",
        ));
    }
}

/// The page size a `hugepages-<size>` name states.
pub(crate) fn hugepage_size(name: &str) -> Option<Quantity> {
    Quantity::parse(name.strip_prefix("hugepages-")?).ok()
}

/// Whether a hugepages quantity is a whole number of pages.
pub(crate) fn hugepages_divisible(name: &str, q: &Quantity) -> bool {
    let Some(size) = hugepage_size(name)
        .and_then(|s| s.as_i64())
        .filter(|s| *s > 0)
    else {
        return false;
    };
    q.as_i64().is_some_and(|v| v % size == 0)
}

/// `ValidateContainerResourceRequirements`: names, values, requests within limits, hugepages.
pub(crate) fn container_requirements(res: &Obj, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let (lim_path, req_path) = (path.child("limits"), path.child("requests"));
    let empty = Obj::new();
    let limits = obj(res, "limits").unwrap_or(&empty);
    let requests = obj(res, "requests").unwrap_or(&empty);
    let qos = |n: &str| n == "cpu" || n == "memory";
    let (mut lim_qos, mut req_qos, mut huge) = (false, false, false);
    let mut parsed_limits = Vec::new();
    for (name, v) in limits {
        let p = lim_path.key(name);
        container_resource_name(name, &p, errs);
        let Some(q) = read(v, &p, errs) else { continue };
        quantity_value(name, &q, &p, errs);
        if is_hugepages(name) {
            huge = true;
            if !hugepages_divisible(name, &q) {
                errs.push(FieldError::invalid(
                    &p,
                    q.to_string(),
                    format!("{q} is not positive integer multiple of {name}"),
                ));
            }
        }
        lim_qos |= qos(name);
        parsed_limits.push((name.as_str(), q));
    }
    for (name, v) in requests {
        let p = req_path.key(name);
        container_resource_name(name, &p, errs);
        let Some(q) = read(v, &p, errs) else { continue };
        quantity_value(name, &q, &p, errs);
        match parsed_limits.iter().find(|(n, _)| *n == name) {
            Some((_, lim)) => {
                if q != *lim && !overcommit_allowed(name) {
                    errs.push(FieldError::invalid(
                        &req_path,
                        q.to_string(),
                        format!("must be equal to {name} limit of {lim}"),
                    ));
                } else if q > *lim {
                    errs.push(FieldError::invalid(
                        &req_path,
                        q.to_string(),
                        format!("must be less than or equal to {name} limit of {lim}"),
                    ));
                }
            }
            None if !overcommit_allowed(name) => errs.push(FieldError::required(
                &lim_path,
                "Limit must be set for non overcommitable resources",
            )),
            None => {}
        }
        if is_hugepages(name) {
            huge = true;
            if !hugepages_divisible(name, &q) {
                errs.push(FieldError::invalid(
                    &p,
                    q.to_string(),
                    format!("{q} is not positive integer multiple of {name}"),
                ));
            }
        }
        req_qos |= qos(name);
    }
    if !lim_qos && !req_qos && huge {
        errs.push(FieldError::forbidden(
            path,
            "HugePages require cpu or memory",
        ));
    }
}
