//! The core resources that are actions on other objects rather than stored objects:
//! `serviceaccounts/token` (TokenRequest), `pods/binding` and `bindings` (the scheduler's
//! write), and the read-only `componentstatuses`.
//!
//! - Token: kubernetes `pkg/registry/core/serviceaccount/storage/token.go` and
//!   `pkg/apis/authentication/validation` (`ValidateTokenRequest`). There is no token
//!   authenticator here, so the token is a JWT with kube-apiserver's claims signed with HS256
//!   and a key made at start (kube-apiserver signs RS256 with its service-account key); no one
//!   verifies it.
//! - Binding: `pkg/registry/core/pod/storage/storage.go` (`BindingREST`, `assignPod`,
//!   `setPodNodeNameAndMetadata`) and `ValidatePodBinding`: the pod gets `spec.nodeName`, the
//!   binding's annotations and a `PodScheduled` condition, written without the pod strategy
//!   (the scheduler's write is not an update of the spec).
//! - ComponentStatus: `pkg/registry/core/componentstatus/rest.go` probes the scheduler, the
//!   controller-manager and etcd as separate servers; `crdgen serve` runs none of them (its
//!   controllers and storage are in process), so the list is empty and every name is 404.

use std::sync::OnceLock;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http::{Method, header};
use serde_json::{Value, json};

use crate::api::Api;
use crate::engine::{FieldError, FieldPath};
use crate::http::body;
use crate::http::negotiate::{self, Encoding};
use crate::http::query::Query;
use crate::http::response::{self, Resp};
use crate::http::route::ResourcePath;
use crate::http::status::{ApiError, ApiResult, GroupResource};
use crate::object;
use crate::registry::Strategy;
use crate::registry::table::{self, IncludeObject, Table};

/// The issuer and the default audience (`--service-account-issuer` as kind and envtest set it).
pub const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

/// What a request to one of these resources asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    /// `POST .../serviceaccounts/{name}/token`
    Token,
    /// `POST .../pods/{name}/binding` or `POST .../bindings`
    Binding,
    /// `GET /api/v1/componentstatuses[/{name}]`
    ComponentStatuses,
}

/// The action `path` names, if any.
pub(super) fn action(path: &ResourcePath) -> Option<Action> {
    if !path.group.is_empty() || path.version != "v1" {
        return None;
    }
    match (path.resource.as_str(), path.subresource.as_deref()) {
        ("serviceaccounts", Some("token")) => Some(Action::Token),
        ("pods", Some("binding")) | ("bindings", None) => Some(Action::Binding),
        ("componentstatuses", None) => Some(Action::ComponentStatuses),
        _ => None,
    }
}

fn strategy(api: &Api, resource: &str) -> ApiResult<std::sync::Arc<dyn Strategy>> {
    api.resolve("", "v1", resource)
        .ok_or_else(ApiError::no_such_resource)
}

/// A plain Go error answered by `ErrorToAPIStatus`: 500 without a reason.
fn plain_500(message: String) -> ApiError {
    ApiError {
        list_continue: None,
        code: 500,
        reason: "",
        message,
        details: None,
    }
}

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

/// `ValidatePodBinding`.
fn validate_binding(b: &Value) -> Vec<FieldError> {
    let target = FieldPath::new("target");
    let kind = b
        .pointer("/target/kind")
        .and_then(Value::as_str)
        .unwrap_or("");
    let name = b
        .pointer("/target/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut errs = Vec::new();
    if !kind.is_empty() && kind != "Node" {
        errs.push(FieldError::not_supported(
            &target.child("kind"),
            kind,
            &["Node", "<empty>"],
        ));
    }
    if name.is_empty() {
        errs.push(FieldError::required(&target.child("name"), ""));
    }
    errs
}

/// `BindingREST.Create`: assigns the pod to the node; answers the `Success` Status.
///
/// # Errors
/// 400 when the names differ, 500 for a binding that does not validate (Go returns the
/// aggregate as a plain error), 404 without the pod, 409 when it is being deleted, already
/// assigned or gated.
pub(super) async fn bind(
    api: &Api,
    ns: &str,
    url_name: Option<&str>,
    binding: &Value,
    dry: bool,
) -> ApiResult<Value> {
    let name = object::name(binding).to_owned();
    if url_name.is_some_and(|n| n != name) {
        return Err(ApiError::bad_request(
            "name in URL does not match name in Binding object",
        ));
    }
    let errs = validate_binding(binding);
    if !errs.is_empty() {
        return Err(plain_500(crate::engine::aggregate(&errs)));
    }
    let node = binding
        .pointer("/target/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let pods = strategy(api, "pods")?;
    let gr = pods.info().gr();
    let key = pods.info().key(Some(ns), &name);
    let conflict =
        |why: String| ApiError::conflict(&GroupResource::new("", "pods/binding"), &name, &why);
    // GuaranteedUpdate: retried while another writer wins the race.
    for _ in 0..8 {
        let stored = api.objects.get(&key, &gr, &name).await?;
        let mut pod = stored.value;
        if let Some(uid) = binding
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty())
            && uid != object::uid(&pod)
        {
            return Err(ApiError::conflict(
                &gr,
                &name,
                &format!(
                    "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                    object::uid(&pod)
                ),
            ));
        }
        if pod
            .pointer("/metadata/deletionTimestamp")
            .is_some_and(|v| !v.is_null())
        {
            return Err(conflict(format!(
                "pod {name} is being deleted, cannot be assigned to a host"
            )));
        }
        let assigned = pod
            .pointer("/spec/nodeName")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !assigned.is_empty() {
            return Err(conflict(format!(
                "pod {name} is already assigned to node {assigned:?}"
            )));
        }
        if pod
            .pointer("/spec/schedulingGates")
            .and_then(Value::as_array)
            .is_some_and(|g| !g.is_empty())
        {
            return Err(conflict(format!(
                "pod {name} has non-empty .spec.schedulingGates"
            )));
        }
        assign(&mut pod, node, binding.pointer("/metadata/annotations"));
        if dry {
            return Ok(success_201());
        }
        match crate::rest::update(api, &*pods, &key, &mut pod, stored.revision).await {
            Ok(_) => return Ok(success_201()),
            Err(e) if e.code == 409 => {}
            Err(e) => return Err(e),
        }
    }
    Err(ApiError::modified(&gr, &name))
}

/// `setPodNodeNameAndMetadata`'s change to the pod.
fn assign(pod: &mut Value, node: &str, annotations: Option<&Value>) {
    pod["spec"]["nodeName"] = json!(node);
    if let Some(Value::Object(a)) = annotations {
        let meta = &mut pod["metadata"];
        if !meta["annotations"].is_object() {
            meta["annotations"] = json!({});
        }
        for (k, v) in a {
            meta["annotations"][k] = v.clone();
        }
    }
    // `UpdatePodCondition`: PodScheduled becomes True; its transition time is now when the
    // status changes.
    if !pod["status"].is_object() {
        pod["status"] = json!({});
    }
    let now = crate::clock::format(crate::clock::now());
    let status = &mut pod["status"];
    if !status["conditions"].is_array() {
        status["conditions"] = json!([]);
    }
    let Some(conds) = status["conditions"].as_array_mut() else {
        return;
    };
    match conds.iter_mut().find(|c| c["type"] == "PodScheduled") {
        Some(c) if c["status"] == "True" => {}
        Some(c) => {
            c["status"] = json!("True");
            c["lastTransitionTime"] = json!(now);
            c["lastProbeTime"] = Value::Null;
            if let Value::Object(c) = c {
                c.remove("reason");
                c.remove("message");
            }
        }
        None => conds.push(json!({"type": "PodScheduled", "status": "True",
            "lastProbeTime": null, "lastTransitionTime": now})),
    }
}

/// The `Success` Status a create handler answers for a `metav1.Status` without a code.
fn success_201() -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201})
}

/// The empty `ComponentStatusList`.
pub(super) fn component_statuses() -> Value {
    json!({"kind": "ComponentStatusList", "apiVersion": "v1", "metadata": {}, "items": []})
}

/// The columns `kubectl get componentstatuses` shows (no rows).
pub(super) fn component_status_columns() -> Vec<Value> {
    crdkit_builtin::tables::printer("", "ComponentStatus").column_definitions()
}

/// Answers a request for `action`.
///
/// # Errors
/// 405 for another verb or scope; the action's own errors.
pub(super) async fn serve<B>(
    api: &Api,
    parts: &http::request::Parts,
    path: &ResourcePath,
    query: &Query,
    action: Action,
    body: B,
) -> ApiResult<Resp>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    let output = negotiate::output_with(accept, true)?;
    let encoding = match output {
        negotiate::Output::Object(e) => e,
        _ => Encoding::Json,
    };
    let ns = path.namespace.as_deref();
    match (action, &parts.method, ns) {
        (Action::ComponentStatuses, &Method::GET | &Method::HEAD, None) => {
            if query.bool("watch")? || path.watch_path {
                return Err(ApiError::method_not_allowed());
            }
            let mut r = match (&path.name, output) {
                (Some(name), _) => {
                    return Err(ApiError::not_found(
                        &GroupResource::new("", "componentstatuses"),
                        name,
                    ));
                }
                (None, negotiate::Output::Table(v)) => {
                    let table = Table {
                        columns: component_status_columns(),
                        rows: Vec::new(),
                    };
                    let t = table::render(table, &[], IncludeObject::None, v, json!({}));
                    response::value(200, &t, Encoding::Json)
                }
                (None, _) => response::value(200, &component_statuses(), encoding),
            };
            response::add_warnings(
                &mut r,
                &["v1 ComponentStatus is deprecated in v1.19+".to_owned()],
            );
            Ok(r)
        }
        (Action::Token, &Method::POST, Some(ns)) => {
            let name = path
                .name
                .as_deref()
                .ok_or_else(ApiError::method_not_allowed)?;
            let req = body::decoded(&parts.headers, body, api.config.body_limits())
                .await?
                .value;
            let out = token(api, ns, name, req).await?;
            Ok(response::value(201, &out, encoding))
        }
        (Action::Binding, &Method::POST, Some(ns)) => {
            let mut b = body::decoded(&parts.headers, body, api.config.body_limits())
                .await?
                .value;
            if path.resource == "pods" && path.name.is_none() {
                return Err(ApiError::method_not_allowed());
            }
            // `EnsureObjectNamespaceMatchesRequestNamespace`.
            match b.pointer("/metadata/namespace").and_then(Value::as_str) {
                Some(n) if !n.is_empty() && n != ns => {
                    return Err(ApiError::bad_request(
                        "the namespace of the provided object does not match the namespace sent on the request",
                    ));
                }
                _ => {}
            }
            if let Some(Value::Object(meta)) = b.get_mut("metadata") {
                meta.insert("namespace".to_owned(), json!(ns));
            }
            let dry = query.get("dryRun").is_some_and(|d| !d.is_empty());
            let out = bind(api, ns, path.name.as_deref(), &b, dry).await?;
            Ok(response::value(201, &out, encoding))
        }
        _ => Err(ApiError::method_not_allowed()),
    }
}
