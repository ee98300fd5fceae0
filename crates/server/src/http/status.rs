//! `metav1.Status` errors with the API server's reasons, codes, messages and details.
//!
//! Mirrors apimachinery `pkg/api/errors/errors.go` (`NewNotFound`, `NewAlreadyExists`,
//! `NewConflict`, `NewInvalid`, `NewBadRequest`, `NewMethodNotSupported`, `NewResourceExpired`,
//! `NewInternalError`, `NewRequestEntityTooLargeError`, `NewGenericServerResponse`) and
//! apiserver `pkg/endpoints/handlers/negotiation/errors.go` (406 and 415). kubectl prints these
//! (`Error from server (NotFound): …`, `The CronTab "x" is invalid: …`), so the texts are Go's.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::engine::FieldError;
use crdkit_apimachinery::gofmt::quote as go_quote;

/// A group and a resource (`crontabs.stable.example.com`, `namespaces`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GroupResource {
    /// The API group; empty for the core group.
    pub group: String,
    /// The plural resource name.
    pub resource: String,
}

impl GroupResource {
    /// `resource.group`.
    #[must_use]
    pub fn new(group: &str, resource: &str) -> GroupResource {
        GroupResource {
            group: group.to_owned(),
            resource: resource.to_owned(),
        }
    }
}

impl fmt::Display for GroupResource {
    /// `crontabs.stable.example.com`; the resource alone for the core group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.resource)
        } else {
            write!(f, "{}.{}", self.resource, self.group)
        }
    }
}

/// One of `details.causes`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cause {
    /// `FieldValueInvalid`, …, or empty.
    #[serde(rename = "reason", skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The message (for a field error, its body: `Invalid value: 15: …`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The field path, `spec.replicas`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
}

/// `details` of a Status.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Details {
    /// The object's name.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The API group.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// A resource (`crontabs`) or, for `Invalid`, a kind (`CronTab`), as Go fills it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The object's uid (successful deletes).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// Field-level causes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<Cause>,
    /// Seconds before retrying.
    #[serde(skip_serializing_if = "is_zero")]
    pub retry_after_seconds: i32,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// A failed request, answered as a `Status` with the HTTP code `code`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status code, also `code` in the body.
    pub code: u16,
    /// `NotFound`, `Invalid`, …
    pub reason: &'static str,
    /// The human-readable message kubectl prints.
    pub message: String,
    /// `details`, when Go sets it.
    pub details: Option<Box<Details>>,
    /// `metadata.continue` of the Status (a 410 for an expired continue token carries the token
    /// that continues the list at the latest revision).
    pub list_continue: Option<String>,
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.reason, self.message)
    }
}

impl std::error::Error for ApiError {}

/// The `Result` of request handling.
pub type ApiResult<T> = Result<T, ApiError>;

fn resource_details(gr: &GroupResource, name: &str) -> Option<Box<Details>> {
    Some(Box::new(Details {
        name: name.to_owned(),
        group: gr.group.clone(),
        kind: gr.resource.clone(),
        ..Details::default()
    }))
}

impl ApiError {
    /// 404 `crontabs.stable.example.com "x" not found`.
    #[must_use]
    pub fn not_found(gr: &GroupResource, name: &str) -> ApiError {
        ApiError {
            list_continue: None,
            code: 404,
            reason: "NotFound",
            message: format!("{gr} {} not found", go_quote(name)),
            details: resource_details(gr, name),
        }
    }

    /// 404 for a path the server does not serve (`NewGenericServerResponse(404, …)`, as the
    /// API server's not-found handler answers).
    #[must_use]
    pub fn no_such_resource() -> ApiError {
        ApiError {
            list_continue: None,
            code: 404,
            reason: "NotFound",
            message: "the server could not find the requested resource".to_owned(),
            details: Some(Box::default()),
        }
    }

    /// 409 `crontabs.stable.example.com "x" already exists`.
    #[must_use]
    pub fn already_exists(gr: &GroupResource, name: &str) -> ApiError {
        ApiError {
            list_continue: None,
            code: 409,
            reason: "AlreadyExists",
            message: format!("{gr} {} already exists", go_quote(name)),
            details: resource_details(gr, name),
        }
    }

    /// 409 `Operation cannot be fulfilled on crontabs.stable.example.com "x": <why>`.
    #[must_use]
    pub fn conflict(gr: &GroupResource, name: &str, why: &str) -> ApiError {
        ApiError {
            list_continue: None,
            code: 409,
            reason: "Conflict",
            message: format!(
                "Operation cannot be fulfilled on {gr} {}: {why}",
                go_quote(name)
            ),
            details: resource_details(gr, name),
        }
    }

    /// The conflict of an update against a newer object (`OptimisticLockErrorMsg`).
    #[must_use]
    pub fn modified(gr: &GroupResource, name: &str) -> ApiError {
        ApiError::conflict(
            gr,
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )
    }

    /// 422 `CronTab.stable.example.com "x" is invalid: [a, b]`, one cause per field error.
    #[must_use]
    pub fn invalid(group: &str, kind: &str, name: &str, errs: &[FieldError]) -> ApiError {
        let causes = errs
            .iter()
            .map(|e| Cause {
                reason: e.error_type.as_str().to_owned(),
                message: e.body(),
                field: e.field.to_string(),
            })
            .collect();
        let qualified = if group.is_empty() {
            kind.to_owned()
        } else {
            format!("{kind}.{group}")
        };
        let aggregate = crdkit_runtime_aggregate(errs);
        let message = if aggregate.is_empty() {
            format!("{qualified} {} is invalid", go_quote(name))
        } else {
            format!("{qualified} {} is invalid: {aggregate}", go_quote(name))
        };
        ApiError {
            list_continue: None,
            code: 422,
            reason: "Invalid",
            message,
            details: Some(Box::new(Details {
                name: name.to_owned(),
                group: group.to_owned(),
                kind: kind.to_owned(),
                causes,
                ..Details::default()
            })),
        }
    }

    /// 400 with the message alone.
    #[must_use]
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            list_continue: None,
            code: 400,
            reason: "BadRequest",
            message: message.into(),
            details: None,
        }
    }

    /// 405 `<verb> is not supported on resources of kind "crontabs.stable.example.com"`.
    #[must_use]
    pub fn method_not_supported(gr: &GroupResource, verb: &str) -> ApiError {
        ApiError {
            list_continue: None,
            code: 405,
            reason: "MethodNotAllowed",
            message: format!(
                "{verb} is not supported on resources of kind {}",
                go_quote(&gr.to_string())
            ),
            details: Some(Box::new(Details {
                group: gr.group.clone(),
                kind: gr.resource.clone(),
                ..Details::default()
            })),
        }
    }

    /// 405 for a method the path does not have (`NewGenericServerResponse(405, …)`).
    #[must_use]
    pub fn method_not_allowed() -> ApiError {
        ApiError {
            list_continue: None,
            code: 405,
            reason: "MethodNotAllowed",
            message: "the server does not allow this method on the requested resource".to_owned(),
            details: Some(Box::default()),
        }
    }

    /// 410 `Expired`: a resourceVersion older than the history kept.
    #[must_use]
    pub fn expired(message: impl Into<String>) -> ApiError {
        ApiError {
            list_continue: None,
            code: 410,
            reason: "Expired",
            message: message.into(),
            details: None,
        }
    }

    /// 500 `Internal error occurred: <err>`.
    #[must_use]
    pub fn internal(err: impl fmt::Display) -> ApiError {
        let err = err.to_string();
        ApiError {
            list_continue: None,
            code: 500,
            reason: "InternalError",
            message: format!("Internal error occurred: {err}"),
            details: Some(Box::new(Details {
                causes: vec![Cause {
                    message: err,
                    ..Cause::default()
                }],
                ..Details::default()
            })),
        }
    }

    /// 413 `Request entity too large: <why>`.
    #[must_use]
    pub fn too_large(why: &str) -> ApiError {
        ApiError {
            list_continue: None,
            code: 413,
            reason: "RequestEntityTooLarge",
            message: format!("Request entity too large: {why}"),
            details: None,
        }
    }

    /// 415: the request body's media type is not one of `accepted`.
    #[must_use]
    pub fn unsupported_media_type(accepted: &[&str]) -> ApiError {
        ApiError {
            list_continue: None,
            code: 415,
            reason: "UnsupportedMediaType",
            message: format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                accepted.join(", ")
            ),
            details: None,
        }
    }

    /// 406: no acceptable response media type.
    #[must_use]
    pub fn not_acceptable(accepted: &[&str]) -> ApiError {
        ApiError {
            list_continue: None,
            code: 406,
            reason: "NotAcceptable",
            message: format!(
                "only the following media types are accepted: {}",
                accepted.join(", ")
            ),
            details: None,
        }
    }

    /// 403 `crontabs.stable.example.com "x" is forbidden: <why>`.
    #[must_use]
    pub fn forbidden(gr: &GroupResource, name: &str, why: &str) -> ApiError {
        ApiError {
            list_continue: None,
            code: 403,
            reason: "Forbidden",
            message: format!("{gr} {} is forbidden: {why}", go_quote(name)),
            details: resource_details(gr, name),
        }
    }

    /// 401 `Unauthorized`.
    #[must_use]
    pub fn unauthorized() -> ApiError {
        ApiError {
            list_continue: None,
            code: 401,
            reason: "Unauthorized",
            message: "Unauthorized".to_owned(),
            details: None,
        }
    }

    /// 422 with a message and no field causes (`NewGenericServerResponse(422, …)`: a JSON patch
    /// that does not apply).
    #[must_use]
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError {
            list_continue: None,
            code: 422,
            reason: "Invalid",
            message: message.into(),
            details: Some(Box::default()),
        }
    }

    /// An error that is not a Status, as `responsewriters.ErrorToAPIStatus` answers it: 500, no
    /// reason, the error's text (a storage `InvalidError`, etcd's `request is too large`).
    #[must_use]
    pub fn not_a_status(message: String) -> ApiError {
        ApiError {
            list_continue: None,
            code: 500,
            reason: "",
            message,
            details: None,
        }
    }

    /// 504 `Timeout: <message>` (`NewTimeoutError`).
    #[must_use]
    pub fn timeout(message: &str) -> ApiError {
        ApiError {
            list_continue: None,
            code: 504,
            reason: "Timeout",
            message: format!("Timeout: {message}"),
            details: Some(Box::default()),
        }
    }

    /// A server-side apply failure, as its `Status` says (409 conflicts with their
    /// `FieldManagerConflict` causes, 400, 422 of the options, 500).
    #[must_use]
    pub fn from_apply(e: &crate::engine::ApplyError) -> ApiError {
        let s = e.status();
        let details = s.get("details").map(|d| {
            let str_of = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            Box::new(Details {
                name: str_of("name"),
                group: str_of("group"),
                kind: str_of("kind"),
                causes: d
                    .get("causes")
                    .and_then(Value::as_array)
                    .map(|cs| {
                        cs.iter()
                            .map(|c| {
                                let f = |k: &str| {
                                    c.get(k).and_then(Value::as_str).unwrap_or("").to_owned()
                                };
                                Cause {
                                    reason: f("reason"),
                                    message: f("message"),
                                    field: f("field"),
                                }
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                ..Details::default()
            })
        });
        ApiError {
            list_continue: None,
            code: e.code(),
            reason: e.reason(),
            message: s["message"].as_str().unwrap_or("").to_owned(),
            details,
        }
    }

    /// The `Status` object.
    #[must_use]
    pub fn to_status(&self) -> Value {
        let mut m = serde_json::Map::new();
        m.insert("kind".to_owned(), "Status".into());
        m.insert("apiVersion".to_owned(), "v1".into());
        let mut meta = serde_json::Map::new();
        if let Some(c) = &self.list_continue {
            meta.insert("continue".to_owned(), c.clone().into());
        }
        m.insert("metadata".to_owned(), Value::Object(meta));
        m.insert("status".to_owned(), "Failure".into());
        m.insert("message".to_owned(), self.message.clone().into());
        if !self.reason.is_empty() {
            m.insert("reason".to_owned(), self.reason.into());
        }
        if let Some(d) = &self.details {
            m.insert(
                "details".to_owned(),
                serde_json::to_value(d).unwrap_or(Value::Null),
            );
        }
        m.insert("code".to_owned(), self.code.into());
        Value::Object(m)
    }
}

/// The `Status` of a successful delete of an object that is gone (custom resources do not
/// return the deleted object).
#[must_use]
pub fn success(details: Details) -> Value {
    serde_json::json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
        "details": details,
    })
}

fn crdkit_runtime_aggregate(errs: &[FieldError]) -> String {
    crate::engine::aggregate(errs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FieldPath;
    use serde_json::json;

    #[test]
    fn not_found_and_already_exists() {
        let gr = GroupResource::new("stable.example.com", "crontabs");
        assert_eq!(
            ApiError::not_found(&gr, "x").to_status(),
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "crontabs.stable.example.com \"x\" not found", "reason": "NotFound",
                "details": {"name": "x", "group": "stable.example.com", "kind": "crontabs"}, "code": 404})
        );
        let e = ApiError::already_exists(&GroupResource::new("", "namespaces"), "default");
        assert_eq!(e.message, "namespaces \"default\" already exists");
        assert_eq!(e.code, 409);
    }

    #[test]
    fn invalid_has_one_cause_per_error_and_the_aggregate_message() {
        let errs = [
            FieldError::invalid(
                &FieldPath::new("spec").child("cronSpec"),
                "* * * *",
                "spec.cronSpec in body should match '^a$'",
            ),
            FieldError::invalid(
                &FieldPath::new("spec").child("replicas"),
                15,
                "spec.replicas in body should be less than or equal to 10",
            ),
        ];
        let e = ApiError::invalid("stable.example.com", "CronTab", "bad", &errs);
        assert_eq!(e.code, 422);
        assert_eq!(
            e.message,
            "CronTab.stable.example.com \"bad\" is invalid: [spec.cronSpec: Invalid value: \"* * * *\": spec.cronSpec in body should match '^a$', spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10]"
        );
        assert_eq!(
            e.to_status()["details"]["causes"][1],
            json!({"reason": "FieldValueInvalid", "message": "Invalid value: 15: spec.replicas in body should be less than or equal to 10", "field": "spec.replicas"})
        );
    }

    #[test]
    fn generic_not_found_has_empty_details() {
        let s = ApiError::no_such_resource().to_status();
        assert_eq!(s["details"], json!({}));
        assert_eq!(
            s["message"],
            "the server could not find the requested resource"
        );
    }
}
