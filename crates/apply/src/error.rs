//! The errors of apply and their API server `Status` bodies.
//!
//! Mirrors apimachinery `pkg/api/errors/errors.go` (`NewApplyConflict`, `NewBadRequest`,
//! `NewConflict`, `NewInvalid`), apiserver `pkg/endpoints/handlers/responsewriters/status.go`
//! (`ErrorToAPIStatus`: an error that is not a `Status` is a 500 with no reason) and, for apply
//! conflicts, apimachinery `pkg/util/managedfields/internal/conflict.go` (`NewConflictError`,
//! `getConflictMessage`, `printManager`): managers printed by name, with the subresource, and for
//! updaters the API version (`conflict with "kubectl-client-side-apply" using v1`).

use std::fmt;

use serde_json::{Value, json};

use crdkit_apimachinery::field::FieldError;
use crdkit_apimachinery::gofmt;

use crate::managed_fields::{UPDATE, parse_identifier};
use crate::merge::Conflicts;

/// Why an apply (or a write's ownership update) failed.
#[derive(Clone, Debug, PartialEq)]
pub enum ApplyError {
    /// 409 `Conflict`: the apply would change fields other managers own. The managers are the
    /// API server's identifiers (`{"manager":"kubectl","operation":"Update","apiVersion":"v1"}`).
    Conflicts(Conflicts),
    /// 400 `BadRequest`: `invalid object type: ...`, `metadata.managedFields must be nil`,
    /// `error decoding patch: ...`, a name or namespace that does not match the request.
    BadRequest(String),
    /// 409 `Conflict` of the object itself (`NewConflict`): a `uid` given for an object that
    /// does not exist.
    ObjectConflict {
        /// `resource.group` (`crontabs.stable.example.com`).
        group_resource: String,
        /// The object's name.
        name: String,
        /// Why.
        detail: String,
    },
    /// 422 `Invalid` of the request options (`PatchOptions.meta.k8s.io "" is invalid: ...`).
    InvalidOptions {
        /// The options kind (`PatchOptions`, `CreateOptions`, `UpdateOptions`).
        kind: String,
        /// The field errors.
        errors: Vec<FieldError>,
    },
    /// 500 with the error's text as the message: the value does not fit the schema
    /// (`failed to create typed patch object (...): .spec.replicas: expected numeric (int or
    /// float), got string`), undecodable managed fields, and other failures.
    Internal(String),
}

impl ApplyError {
    /// The HTTP status code.
    #[must_use]
    pub fn code(&self) -> u16 {
        match self {
            ApplyError::Conflicts(_) | ApplyError::ObjectConflict { .. } => 409,
            ApplyError::BadRequest(_) => 400,
            ApplyError::InvalidOptions { .. } => 422,
            ApplyError::Internal(_) => 500,
        }
    }

    /// The `Status` reason (`Conflict`, `BadRequest`, `Invalid`; empty for a 500).
    #[must_use]
    pub fn reason(&self) -> &'static str {
        match self {
            ApplyError::Conflicts(_) | ApplyError::ObjectConflict { .. } => "Conflict",
            ApplyError::BadRequest(_) => "BadRequest",
            ApplyError::InvalidOptions { .. } => "Invalid",
            ApplyError::Internal(_) => "",
        }
    }

    /// The causes of a conflict: one per manager and field, `FieldManagerConflict`.
    #[must_use]
    pub fn causes(&self) -> Vec<ConflictCause> {
        match self {
            ApplyError::Conflicts(c) => conflict_causes(c),
            _ => Vec::new(),
        }
    }

    /// The `Status` object the API server answers with.
    #[must_use]
    pub fn status(&self) -> Value {
        let mut s = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.to_string(),
            "code": self.code(),
        });
        if !self.reason().is_empty() {
            s["reason"] = json!(self.reason());
        }
        match self {
            ApplyError::Conflicts(_) => {
                let causes: Vec<Value> = self
                    .causes()
                    .into_iter()
                    .map(|c| json!({"reason": c.reason, "message": c.message, "field": c.field}))
                    .collect();
                s["details"] = json!({ "causes": causes });
            }
            ApplyError::ObjectConflict {
                group_resource,
                name,
                ..
            } => {
                let (resource, group) = group_resource
                    .split_once('.')
                    .unwrap_or((group_resource.as_str(), ""));
                let mut d = json!({ "name": name, "kind": resource });
                if !group.is_empty() {
                    d["group"] = json!(group);
                }
                s["details"] = d;
            }
            ApplyError::InvalidOptions { kind, errors } => {
                let causes: Vec<Value> = errors
                    .iter()
                    .map(|e| {
                        json!({
                            "reason": e.error_type.as_str(),
                            "message": e.body(),
                            "field": e.field.to_string(),
                        })
                    })
                    .collect();
                s["details"] = json!({"group": "meta.k8s.io", "kind": kind, "causes": causes});
            }
            _ => {}
        }
        s
    }
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::Conflicts(c) => f.write_str(&conflict_message(c)),
            ApplyError::BadRequest(m) | ApplyError::Internal(m) => f.write_str(m),
            ApplyError::ObjectConflict {
                group_resource,
                name,
                detail,
            } => write!(
                f,
                "Operation cannot be fulfilled on {group_resource} {}: {detail}",
                gofmt::quote(name)
            ),
            ApplyError::InvalidOptions { kind, errors } => write!(
                f,
                "{kind}.meta.k8s.io \"\" is invalid: {}",
                crdkit_apimachinery::field::aggregate(errors)
            ),
        }
    }
}

impl std::error::Error for ApplyError {}

/// One cause of a conflict `Status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictCause {
    /// `FieldManagerConflict`.
    pub reason: &'static str,
    /// `conflict with "kubectl" using v1`.
    pub message: String,
    /// `.spec.replicas`.
    pub field: String,
}

/// `printManager`: `"name"`, `"name" with subresource "status"`, then ` using v1` for updaters
/// (` at <time>` when the identifier holds one).
#[must_use]
pub fn print_manager(manager: &str) -> String {
    let Some(e) = parse_identifier(manager) else {
        return gofmt::quote(manager);
    };
    let mut s = gofmt::quote(&e.manager);
    if !e.subresource.is_empty() {
        s = format!("{s} with subresource {}", gofmt::quote(&e.subresource));
    }
    if e.operation == UPDATE {
        return match &e.time {
            None => format!("{s} using {}", e.api_version),
            Some(t) => format!("{s} using {} at {t}", e.api_version),
        };
    }
    s
}

/// `getConflictMessage`.
#[must_use]
pub fn conflict_message(conflicts: &Conflicts) -> String {
    if let [one] = conflicts.0.as_slice() {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            print_manager(&one.manager),
            one.path
        );
    }
    let mut lines = Vec::new();
    for (manager, paths) in conflicts.by_manager() {
        lines.push(format!("conflicts with {}:", print_manager(manager)));
        for p in paths {
            lines.push(format!("- {p}"));
        }
    }
    format!(
        "Apply failed with {} conflicts: {}",
        conflicts.0.len(),
        lines.join("\n")
    )
}

/// The `Status` causes of `NewConflictError`, one per conflict in order.
#[must_use]
pub fn conflict_causes(conflicts: &Conflicts) -> Vec<ConflictCause> {
    conflicts
        .0
        .iter()
        .map(|c| ConflictCause {
            reason: "FieldManagerConflict",
            message: format!("conflict with {}", print_manager(&c.manager)),
            field: c.path.to_string(),
        })
        .collect()
}
