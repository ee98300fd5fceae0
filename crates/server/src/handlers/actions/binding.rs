//! `pods/binding` and `bindings`: kubernetes `pkg/registry/core/pod/storage/storage.go`
//! (`BindingREST`, `assignPod`, `setPodNodeNameAndMetadata`) and `ValidatePodBinding`: the pod
//! gets `spec.nodeName`, the binding's annotations and a `PodScheduled` condition, written
//! without the pod strategy (the scheduler's write is not an update of the spec).

use serde_json::{Value, json};

use super::core_v1::strategy;
use crate::api::Api;
use crate::engine::{FieldError, FieldPath};
use crate::http::status::{ApiError, ApiResult, GroupResource};
use crate::object;

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
