//! `serviceaccounts/token`: kubernetes `pkg/registry/core/serviceaccount/storage/token.go` and
//! `pkg/apis/authentication/validation` (`ValidateTokenRequest`). There is no token
//! authenticator here, so the token is a JWT with kube-apiserver's claims signed with HS256 and
//! a key made at start (kube-apiserver signs RS256 with its service-account key); no one
//! verifies it.

use std::sync::OnceLock;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::core_v1::strategy;
use crate::api::Api;
use crate::engine::{FieldError, FieldPath};
use crate::http::status::{ApiError, ApiResult, GroupResource};
use crate::object;

/// The issuer and the default audience (`--service-account-issuer` as kind and envtest set it).
pub const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

/// `ValidateTokenRequest`.
fn validate_token_request(spec: &Value) -> Vec<FieldError> {
    let path = FieldPath::new("spec").child("expirationSeconds");
    let secs = spec
        .get("expirationSeconds")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let mut errs = Vec::new();
    if secs < 600 {
        errs.push(FieldError::invalid(
            &path,
            secs,
            "may not specify a duration less than 10 minutes",
        ));
    }
    if secs > i64::from(u32::MAX) {
        errs.push(FieldError::invalid(
            &path,
            secs,
            "may not specify a duration larger than 2^32 seconds",
        ));
    }
    errs
}

fn signing_key() -> &'static ring::hmac::Key {
    static KEY: OnceLock<ring::hmac::Key> = OnceLock::new();
    KEY.get_or_init(|| {
        let rng = ring::rand::SystemRandom::new();
        ring::hmac::Key::generate(ring::hmac::HMAC_SHA256, &rng)
            .unwrap_or_else(|_| ring::hmac::Key::new(ring::hmac::HMAC_SHA256, ISSUER.as_bytes()))
    })
}

/// A JWT of `claims`, HS256.
fn jwt(claims: &Value) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let body = URL_SAFE_NO_PAD.encode(claims.to_string());
    let signed = format!("{header}.{body}");
    let tag = ring::hmac::sign(signing_key(), signed.as_bytes());
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(tag.as_ref()))
}

/// `TokenREST.Create`: the TokenRequest with its status.
///
/// # Errors
/// 404 without the service account (or the bound object), 422 for a spec that does not
/// validate, 400 for a bound object of another kind or a pod of another service account.
pub(super) async fn token(api: &Api, ns: &str, name: &str, mut req: Value) -> ApiResult<Value> {
    if !req.is_object() {
        return Err(ApiError::bad_request(
            "the body of the request is not a JSON object",
        ));
    }
    let spec = req
        .as_object_mut()
        .map(|m| m.entry("spec").or_insert_with(|| json!({})))
        .filter(|s| s.is_object())
        .ok_or_else(|| ApiError::bad_request("spec must be an object"))?;
    // `SetDefaults_TokenRequestSpec`.
    if spec.get("expirationSeconds").is_none_or(Value::is_null) {
        spec["expirationSeconds"] = json!(3600);
    }
    let errs = validate_token_request(spec);
    if !errs.is_empty() {
        return Err(ApiError::invalid(
            "authentication.k8s.io",
            "TokenRequest",
            "",
            &errs,
        ));
    }
    let sas = strategy(api, "serviceaccounts")?;
    let sa_gr = sas.info().gr();
    let sa = api
        .objects
        .get(&sas.info().key(Some(ns), name), &sa_gr, name)
        .await?
        .value;
    let mut k8s = json!({"namespace": ns,
        "serviceaccount": {"name": name, "uid": object::uid(&sa)}});
    if let Some(r) = spec.get("boundObjectRef").filter(|r| !r.is_null()) {
        let api_version = r.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = r.get("kind").and_then(Value::as_str).unwrap_or("");
        let bound = r.get("name").and_then(Value::as_str).unwrap_or("");
        let (resource, claim) = match (api_version, kind) {
            ("v1", "Pod") => ("pods", "pod"),
            ("v1", "Secret") => ("secrets", "secret"),
            _ => {
                let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
                let version = api_version.rsplit_once('/').map_or(api_version, |(_, v)| v);
                return Err(ApiError::bad_request(format!(
                    "cannot bind token to object of type {group}/{version}, Kind={kind}"
                )));
            }
        };
        let s = strategy(api, resource)?;
        let obj = api
            .objects
            .get(&s.info().key(Some(ns), bound), &s.info().gr(), bound)
            .await?
            .value;
        if claim == "pod" {
            let pod_sa = obj
                .pointer("/spec/serviceAccountName")
                .and_then(Value::as_str)
                .unwrap_or("");
            if pod_sa != name {
                return Err(ApiError::bad_request(format!(
                    "cannot bind token for serviceaccount {name:?} to pod running with serviceaccount {pod_sa:?}"
                )));
            }
        }
        let uid = object::uid(&obj);
        if let Some(want) = r
            .get("uid")
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty())
            && want != uid
        {
            return Err(ApiError::conflict(
                &GroupResource::new("", kind),
                bound,
                &format!(
                    "the UID in the bound object reference ({want}) does not match the UID in record ({uid}). The object might have been deleted and then recreated"
                ),
            ));
        }
        k8s[claim] = json!({"name": bound, "uid": uid});
    }
    let audiences = match spec.get("audiences") {
        Some(Value::Array(a)) if !a.is_empty() => Value::Array(a.clone()),
        _ => json!([ISSUER]),
    };
    spec["audiences"] = audiences.clone();
    if spec.get("boundObjectRef").is_none() {
        spec["boundObjectRef"] = Value::Null;
    }
    let now = crate::clock::now();
    let exp = now.saturating_add(spec["expirationSeconds"].as_i64().unwrap_or(3600));
    let claims = json!({"aud": audiences, "exp": exp, "iat": now, "iss": ISSUER,
        "jti": uuid::Uuid::new_v4().to_string(), "kubernetes.io": k8s, "nbf": now,
        "sub": format!("system:serviceaccount:{ns}:{name}")});
    let m = req
        .as_object_mut()
        .ok_or_else(|| ApiError::internal("not an object"))?;
    m.insert("apiVersion".to_owned(), json!("authentication.k8s.io/v1"));
    m.insert("kind".to_owned(), json!("TokenRequest"));
    let meta = m.entry("metadata").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert("name".to_owned(), json!(name));
        meta.insert("namespace".to_owned(), json!(ns));
        meta.entry("creationTimestamp").or_insert(Value::Null);
    }
    m.insert(
        "status".to_owned(),
        json!({"token": jwt(&claims), "expirationTimestamp": crate::clock::format(exp)}),
    );
    Ok(req)
}
