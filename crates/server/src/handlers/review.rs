//! The self reviews clients ask before acting, answered as by a server whose authorizer allows
//! everything (there is no authorizer here): `SelfSubjectAccessReview` (`kubectl auth can-i`),
//! `SelfSubjectRulesReview` (`kubectl auth can-i --list`) and `SelfSubjectReview` (`kubectl auth
//! whoami`). Nothing is stored; the review comes back with its status, 201.
//!
//! Mirrors kubernetes `pkg/registry/authorization/selfsubjectaccessreview/rest.go` (the spec
//! validated by `ValidateSelfSubjectAccessReview`, then the authorizer's decision),
//! `selfsubjectrulesreview/rest.go` and `pkg/registry/authentication/selfsubjectreview/rest.go`
//! (the requester's user info). The user is the one envtest provisions: `admin` in
//! `system:masters`.

use serde_json::{Value, json};

use crate::engine::{FieldError, FieldPath};
use crate::http::decode::Decoded;
use crate::http::status::{ApiError, ApiResult};

/// Whether `group/version` `resource` is a review answered here.
#[must_use]
pub(super) fn is_review(group: &str, version: &str, resource: &str) -> bool {
    matches!(
        (group, version, resource),
        (
            "authorization.k8s.io",
            "v1",
            "selfsubjectaccessreviews" | "selfsubjectrulesreviews"
        ) | ("authentication.k8s.io", "v1", "selfsubjectreviews")
    )
}

/// The review with its status.
///
/// # Errors
/// 422 for an access review that names both or neither kind of attributes.
pub(super) fn answer(group: &str, resource: &str, body: Decoded) -> ApiResult<Value> {
    let mut review = body.value;
    let (kind, status) = match resource {
        "selfsubjectaccessreviews" => {
            check_access_review(&review)?;
            (
                "SelfSubjectAccessReview",
                json!({"allowed": true, "reason": "crdkit: no authorizer, every request is allowed"}),
            )
        }
        "selfsubjectrulesreviews" => (
            "SelfSubjectRulesReview",
            json!({
                "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}],
                "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
                "incomplete": false}),
        ),
        _ => (
            "SelfSubjectReview",
            json!({"userInfo": {"username": "admin",
                "groups": ["system:masters", "system:authenticated"]}}),
        ),
    };
    let Value::Object(m) = &mut review else {
        return Err(ApiError::bad_request(
            "the body of the request is not a JSON object",
        ));
    };
    m.insert("apiVersion".to_owned(), json!(format!("{group}/v1")));
    m.insert("kind".to_owned(), json!(kind));
    let meta = m.entry("metadata").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert("creationTimestamp".to_owned(), Value::Null);
    }
    m.insert("status".to_owned(), status);
    Ok(review)
}

/// `ValidateSelfSubjectAccessReviewSpec`: exactly one of `resourceAttributes` and
/// `nonResourceAttributes`.
fn check_access_review(review: &Value) -> ApiResult<()> {
    let spec = review.get("spec").unwrap_or(&Value::Null);
    let set = |k: &str| spec.get(k).is_some_and(|v| !v.is_null());
    let path = FieldPath::new("spec").child("resourceAttributes");
    let err = match (set("resourceAttributes"), set("nonResourceAttributes")) {
        (true, true) => FieldError::invalid(
            &path,
            spec["nonResourceAttributes"].clone(),
            "cannot be specified in combination with resourceAttributes",
        ),
        (false, false) => FieldError::required(
            &path,
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        ),
        _ => return Ok(()),
    };
    Err(ApiError::invalid(
        "authorization.k8s.io",
        "SelfSubjectAccessReview",
        "",
        &[err],
    ))
}
