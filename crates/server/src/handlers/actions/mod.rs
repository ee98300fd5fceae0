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

mod binding;
mod core_v1;
mod token;

use bytes::Bytes;
use http::{Method, header};
use serde_json::{Value, json};

use crate::api::Api;
use crate::http::body;
use crate::http::negotiate::{self, Encoding};
use crate::http::query::Query;
use crate::http::response::{self, Resp};
use crate::http::route::ResourcePath;
use crate::http::status::{ApiError, ApiResult, GroupResource};
use crate::registry::table::{self, IncludeObject, Table};
use binding::bind;
use token::token;

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
