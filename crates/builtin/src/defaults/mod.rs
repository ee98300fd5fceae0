//! What the API server fills in: defaulting (`SetObjectDefaults_*`), the registry strategies'
//! `PrepareForCreate`/`PrepareForUpdate`, and the allocation of Service IPs and node ports.
//!
//! Mirrors kubernetes `pkg/apis/{core,apps,batch,networking,autoscaling,rbac,discovery}/v1*/
//! defaults.go` with the generated walks (`zz_generated.defaults.go`), the declarative
//! `+default` markers of `k8s.io/api`, and `pkg/registry/*/*/strategy.go`. Feature gates are
//! those a Kubernetes 1.35 API server enables by default (`StatefulSetAutoDeletePVC`,
//! `JobPodReplacementPolicy`, `PodLevelResources`, `PodObservedGenerationTracking` on).
//!
//! The order of a create, as the API server runs it: decode (here: [`apply`]), then for
//! Services [`ServiceAllocator::allocate_create`], then [`prepare_for_create`] (after the UID
//! is set: Jobs' selectors use it), then validation. An update: [`apply`], Services'
//! [`ServiceAllocator::allocate_update`], [`prepare_for_update`], validation.
//!
//! ```
//! use crdkit_builtin::defaults;
//! use serde_json::json;
//!
//! let mut svc = json!({"spec": {"ports": [{"port": 80}]}});
//! defaults::apply("v1", "Service", &mut svc);
//! assert_eq!(svc["spec"], json!({"type": "ClusterIP", "sessionAffinity": "None",
//!     "internalTrafficPolicy": "Cluster",
//!     "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]}));
//! ```

mod alloc;
mod image;
mod json;
mod other;
mod pod;
mod qos;
mod quantities;
mod service;
mod storage;
mod strategy;
mod workloads;

use serde_json::Value;

pub use alloc::{AllocError, Allocation, ServiceAllocator};

fn group_version(api_version: &str) -> (&str, &str) {
    api_version.split_once('/').unwrap_or(("", api_version))
}

/// `SetObjectDefaults_<Kind>` of the version's scheme, as decoding a request applies it.
/// Returns whether the kind is one this crate knows (with or without defaults).
pub fn apply(api_version: &str, kind: &str, obj: &mut Value) -> bool {
    let Some(o) = obj.as_object_mut() else {
        return false;
    };
    match group_version(api_version) {
        ("", "v1") => match kind {
            "Pod" => pod::pod(o),
            "PodTemplate" => workloads::pod_template(o),
            "ReplicationController" => workloads::replication_controller(o),
            "Service" => service::service(o),
            "Secret" => other::secret(o),
            "Namespace" => other::namespace(o),
            "Endpoints" => other::endpoints(o),
            "PersistentVolumeClaim" => storage::claim(o),
            "PersistentVolume" => storage::volume(o),
            "LimitRange" => other::limit_range(o),
            "ConfigMap" | "ServiceAccount" | "Event" => {}
            _ => return false,
        },
        ("apps", "v1") => match kind {
            "Deployment" => workloads::deployment(o),
            "StatefulSet" => workloads::stateful_set(o),
            "DaemonSet" => workloads::daemon_set(o),
            "ReplicaSet" => workloads::replica_set(o),
            "ControllerRevision" => {}
            _ => return false,
        },
        ("batch", "v1") => match kind {
            "Job" => workloads::job(o),
            "CronJob" => workloads::cron_job(o),
            _ => return false,
        },
        ("networking.k8s.io", "v1") => match kind {
            "NetworkPolicy" => other::network_policy(o),
            "IngressClass" => other::ingress_class(o),
            "Ingress" => {}
            _ => return false,
        },
        ("discovery.k8s.io", "v1") if kind == "EndpointSlice" => other::endpoint_slice(o),
        ("autoscaling", "v1") if kind == "HorizontalPodAutoscaler" => other::hpa_v1(o),
        ("autoscaling", "v2") if kind == "HorizontalPodAutoscaler" => other::hpa_v2(o),
        ("rbac.authorization.k8s.io", "v1") => match kind {
            "RoleBinding" | "ClusterRoleBinding" => other::role_binding(o),
            "Role" | "ClusterRole" => {}
            _ => return false,
        },
        ("policy", "v1") if kind == "PodDisruptionBudget" => {}
        ("coordination.k8s.io", "v1") if kind == "Lease" => {}
        _ => return false,
    }
    true
}

/// What Go's conversion of a request body to the internal version changes, which the field
/// manager's record of an update (not of an apply) sees: a Secret's `stringData` folded into
/// `data`, so `managedFields` name `data` keys, never `stringData`.
pub fn convert_request(api_version: &str, kind: &str, obj: &mut Value) {
    let (group, _) = group_version(api_version);
    strategy::convert_request(group, kind, obj);
}

/// `PrepareForCreate` of the kind's strategy: the status is reset, the generation starts at 1,
/// and what Go's strategy (or conversion) adds is added; then the defaults again, as decoding
/// the stored object applies them.
pub fn prepare_for_create(api_version: &str, kind: &str, obj: &mut Value) {
    let (group, version) = group_version(api_version);
    strategy::prepare_for_create(group, version, kind, obj);
    apply(api_version, kind, obj);
}

/// Whether the kind's strategy keeps `metadata.generation` (starts it at 1 on create and grows
/// it with spec changes).
#[must_use]
pub fn uses_generation(api_version: &str, kind: &str) -> bool {
    let (group, _) = group_version(api_version);
    strategy::uses_generation(group, kind)
}

/// `PrepareForUpdate` of the kind's strategy: `new` keeps `old`'s status; its generation grows
/// when its spec changed.
pub fn prepare_for_update(api_version: &str, kind: &str, new: &mut Value, old: &Value) {
    let (group, _) = group_version(api_version);
    strategy::prepare_for_update(group, kind, new, old);
    apply(api_version, kind, new);
}
