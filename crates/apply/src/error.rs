//! The errors of apply and their API server `Status` bodies.
//!
//! Mirrors apimachinery `pkg/api/errors/errors.go` (`NewApplyConflict`, `NewBadRequest`,
//! `NewConflict`, `NewInvalid`) and apiserver `pkg/endpoints/handlers/responsewriters/status.go`
//! (`ErrorToAPIStatus`: an error that is not a `Status` is a 500 with no reason).

use std::fmt;

use serde_json::{Value, json};

use crdkit_apimachinery::field::FieldError;

use crate::manager::conflict::{ConflictCause, conflict_causes, conflict_message};
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
                crdkit_apimachinery::field::go_quote(name)
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
