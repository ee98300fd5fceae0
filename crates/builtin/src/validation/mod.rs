//! The API server's validation of built-in kinds, with its field paths and messages.
//!
//! Mirrors kubernetes `pkg/apis/*/validation` as the registry strategies call it
//! (`pkg/registry/*/*/strategy.go`: `Validate` and `ValidateUpdate`), for the kinds operators
//! create: Pods, Deployments, ReplicaSets, StatefulSets, DaemonSets, ReplicationControllers,
//! Jobs, CronJobs, Services, ConfigMaps, Secrets, ServiceAccounts, Namespaces,
//! PersistentVolumeClaims, NetworkPolicies, Ingresses, IngressClasses, HorizontalPodAutoscalers,
//! PodDisruptionBudgets, Roles, ClusterRoles, RoleBindings, ClusterRoleBindings. Objects are
//! validated after defaulting and `prepare_for_create`/`_update` (see [`crate::defaults`]),
//! as Go validates them.
//!
//! Each module says what it does not check. Across the board: the declarative-validation
//! `Origin` of errors, warnings, and the `cmp.Diff` Go appends to some update messages are not
//! produced; Go's maps are walked in sorted order here (Go's order is random).
//!
//! ```
//! use crdkit_builtin::validation;
//! use serde_json::json;
//!
//! let cm = json!({"metadata": {"name": "c", "namespace": "default", "resourceVersion": "1"},
//!                 "immutable": true, "data": {"a": "1"}});
//! let mut changed = cm.clone();
//! changed["data"]["a"] = json!("2");
//! let errs = validation::validate_update("v1", "ConfigMap", &changed, &cm);
//! assert_eq!(errs[0].to_string(), "data: Forbidden: field is immutable when `immutable` is set");
//! ```

mod apps;
mod autoscaling;
mod config;
mod container;
mod cron;
mod cron_job;
mod dns;
mod downward;
mod env;
mod image;
mod ingress;
mod job;
mod job_policy;
mod meta;
mod mounts;
pub(crate) mod net;
mod networking;
mod pod;
mod pod_security;
mod pod_update;
mod policy;
mod probes;
mod projections;
mod rbac;
mod read;
mod resources;
mod scheduling;
mod selector;
mod service;
mod service_ips;
mod service_lb;
mod stateful_set;
mod storage;
mod volumes;
mod workload;

use serde_json::Value;

pub use crate::names::NameRule;
pub use crdkit_apimachinery::field::FieldError;
pub use service_ips::{cluster_ips_related_fields, is_headless};
pub use service_lb::{externally_accessible, needs_health_check};

/// The group of an `apiVersion` (`""` for the core group).
pub(crate) fn group_version(api_version: &str) -> (&str, &str) {
    api_version.split_once('/').unwrap_or(("", api_version))
}

/// Whether this crate validates `kind` at `api_version`.
#[must_use]
pub fn knows(api_version: &str, kind: &str) -> bool {
    let empty = Value::Object(serde_json::Map::new());
    validate(api_version, kind, &empty, None).is_some()
}

/// `Validate` of the kind's strategy for a created object (after defaulting and
/// `prepare_for_create`). Unknown kinds give no errors (see [`knows`]).
#[must_use]
pub fn validate_create(api_version: &str, kind: &str, obj: &Value) -> Vec<FieldError> {
    validate(api_version, kind, obj, None).unwrap_or_default()
}

/// `ValidateUpdate` of the kind's strategy (after defaulting and `prepare_for_update`).
#[must_use]
pub fn validate_update(api_version: &str, kind: &str, new: &Value, old: &Value) -> Vec<FieldError> {
    validate(api_version, kind, new, Some(old)).unwrap_or_default()
}

/// The name rule of a kind's `metadata.name`, from the catalog ([`crate::resources`]); `None`
/// for a kind it does not have.
#[must_use]
pub fn name_rule(api_version: &str, kind: &str) -> Option<NameRule> {
    let (group, version) = group_version(api_version);
    crate::resources::by_kind(group, version, kind).map(|r| r.name_rule)
}

pub(crate) fn validate(
    api_version: &str,
    kind: &str,
    new: &Value,
    old: Option<&Value>,
) -> Option<Vec<FieldError>> {
    let empty = serde_json::Map::new();
    let n = new.as_object().unwrap_or(&empty);
    let o = old.map(|o| o.as_object().unwrap_or(&empty));
    let mut errs = Vec::new();
    let e = &mut errs;
    let (group, version) = group_version(api_version);
    match (group, version, kind) {
        ("", "v1", "Pod") => match o {
            None => pod::pod_create(n, e),
            Some(o) => pod_update::pod_update(n, o, e),
        },
        ("", "v1", "ReplicationController")
        | ("apps", "v1", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet") => match o {
            None => apps::create(kind, n, e),
            Some(o) => apps::update(kind, n, o, e),
        },
        ("batch", "v1", "Job") => match o {
            None => job::job_create(n, e),
            Some(o) => job::job_update(n, o, e),
        },
        ("batch", "v1", "CronJob") => match o {
            None => cron_job::cron_job_create(n, e),
            Some(o) => cron_job::cron_job_update(n, o, e),
        },
        ("", "v1", "Service") => match o {
            None => service::service(n, e),
            Some(o) => service::service_update(n, o, e),
        },
        ("", "v1", "ConfigMap") => match o {
            None => config::config_map(n, e),
            Some(o) => config::config_map_update(n, o, e),
        },
        ("", "v1", "Secret") => match o {
            None => config::secret(n, e),
            Some(o) => config::secret_update(n, o, e),
        },
        ("", "v1", "ServiceAccount") => match o {
            None => config::service_account(n, e),
            Some(o) => config::service_account_update(n, o, e),
        },
        ("", "v1", "Namespace") => match o {
            None => config::namespace(n, e),
            Some(o) => meta::object_meta_update(n, o, e),
        },
        ("", "v1", "PersistentVolumeClaim") => match o {
            None => storage::claim_create(n, e),
            Some(o) => storage::claim_update(n, o, e),
        },
        ("networking.k8s.io", "v1", "NetworkPolicy") => networking::network_policy(n, o, e),
        ("networking.k8s.io", "v1", "Ingress") => ingress::ingress(n, o, e),
        ("networking.k8s.io", "v1", "IngressClass") => ingress::ingress_class(n, o, e),
        ("autoscaling", "v1" | "v2", "HorizontalPodAutoscaler") => {
            autoscaling::hpa(n, version, o, e);
        }
        ("policy", "v1", "PodDisruptionBudget") => policy::pdb(n, o, e),
        ("rbac.authorization.k8s.io", "v1", "Role" | "ClusterRole") => {
            rbac::role(n, kind == "ClusterRole", o, e);
        }
        ("rbac.authorization.k8s.io", "v1", "RoleBinding" | "ClusterRoleBinding") => {
            rbac::binding(n, kind == "ClusterRoleBinding", o, e);
        }
        _ => return None,
    }
    Some(errs)
}
