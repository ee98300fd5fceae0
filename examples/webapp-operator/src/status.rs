//! The WebApp's status, read from what the API server holds of the owned Deployment and
//! Service. No Pod runs in a test environment (nor on a cluster without nodes), so the
//! Deployment's `readyReplicas` stays absent there and the WebApp stays not `Ready`.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};

use crate::{WebApp, WebAppStatus};

/// The condition type the operator sets.
pub const READY: &str = "Ready";

/// The status for `app` given its Deployment and Service as the API server returned them;
/// `now` stamps a condition whose status changed (an unchanged one keeps its time, so an
/// unchanged status is equal and is not written again).
#[must_use]
pub fn status(app: &WebApp, deployment: &Deployment, service: &Service, now: Time) -> WebAppStatus {
    let replicas = deployment.spec.replicas.unwrap_or(1);
    let ready_replicas = deployment
        .status
        .as_ref()
        .and_then(|s| s.ready_replicas)
        .unwrap_or(0);
    let ready = ready_replicas >= replicas;
    let generation = app.metadata.generation.unwrap_or(0);
    let (state, reason) = if ready {
        ("True", "ReplicasReady")
    } else {
        ("False", "ReplicasNotReady")
    };
    let previous = app
        .status
        .as_ref()
        .and_then(|s| s.conditions.iter().find(|c| c.type_ == READY));
    let last_transition_time = match previous {
        Some(c) if c.status == state => c.last_transition_time.clone(),
        _ => now,
    };
    WebAppStatus {
        observed_generation: generation,
        replicas,
        ready_replicas,
        cluster_ip: service.spec.as_ref().and_then(|s| s.cluster_ip.clone()),
        conditions: vec![Condition {
            type_: READY.to_owned(),
            status: state.to_owned(),
            reason: reason.to_owned(),
            message: format!("{ready_replicas}/{replicas} replicas ready"),
            observed_generation: Some(generation),
            last_transition_time,
        }],
    }
}
