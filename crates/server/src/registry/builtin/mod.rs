//! Kubernetes' built-in kinds, served from crdkit-builtin's catalog: one [`BuiltinStrategy`] per
//! resource, built when the resource is first used and kept.
//!
//! A built-in kind goes through the same layers as a custom resource (cache, storage, admission
//! order, field manager, subresources, selectors, tables); what differs is its strategy:
//! decoding prunes with the kind's published schema (Go decodes into the typed struct, which
//! drops unknown fields), then kubernetes' defaulting, `PrepareForCreate`/`PrepareForUpdate` and
//! validation run as crdkit-builtin transcribes them (`pkg/apis/*/v1/defaults.go`,
//! `pkg/registry/*/*/strategy.go`, `pkg/apis/*/validation`).
//!
//! Objects live at kube-apiserver's keys (`/registry/deployments/<ns>/<name>`,
//! `/registry/services/specs/...`: `pkg/kubeapiserver/default_storage_factory_builder.go` and
//! each `pkg/registry/**/storage/storage.go`). A resource is served at the versions stored as
//! themselves, and `events.k8s.io/v1` Events through core `v1` Events ([`events`]), whose
//! storage they share as in kube-apiserver, and `autoscaling/v1` HorizontalPodAutoscalers
//! through `autoscaling/v2` (crdkit-builtin's `conversion::autoscaling`). Namespaces and CRDs
//! keep their own strategies ([`super::namespace`], [`super::crd`]).

mod events;
mod strategy;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crdkit_builtin::defaults::ServiceAllocator;
use crdkit_builtin::resources::{self, Resource};
use crdkit_builtin::schemas::{Catalog, KubernetesVersion};

pub use strategy::BuiltinStrategy;

/// The default Service cluster IP range (as envtest and kind run kube-apiserver's
/// `--service-cluster-ip-range`).
pub const DEFAULT_SERVICE_CLUSTER_IP_RANGE: &str = "10.96.0.0/12";
/// The default node port range (`--service-node-port-range`).
pub const DEFAULT_SERVICE_NODE_PORT_RANGE: &str = "30000-32767";

/// The published schemas of the newest carried Kubernetes version, parsed on first use.
fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::new(KubernetesVersion::newest()))
}

/// The storage key prefix of a resource, as kube-apiserver names it.
#[must_use]
pub fn storage_prefix(r: &Resource) -> String {
    let name = match (r.group, r.name) {
        ("", "services") => "services/specs",
        ("", "endpoints") => "services/endpoints",
        ("", "nodes") => "minions",
        ("networking.k8s.io", "ingresses") => "ingress",
        // Shared with core Events.
        ("events.k8s.io", "events") => "events",
        (_, name) => name,
    };
    format!("/registry/{name}/")
}

/// Whether crdkit serves `r` through a built-in strategy.
fn served(r: &Resource) -> bool {
    let Some(storage) = r.storage else {
        return false;
    };
    let own = storage.group == r.group && storage.version == r.version && storage.kind == r.kind;
    match (r.group, r.name) {
        // Their own strategies.
        ("", "namespaces") | ("apiextensions.k8s.io", "customresourcedefinitions") => false,
        ("events.k8s.io", "events") | ("autoscaling", "horizontalpodautoscalers") => true,
        _ => own,
    }
}

/// The built-in resources served, each with its strategy once built.
pub struct Builtins {
    slots: HashMap<(&'static str, &'static str, &'static str), Slot>,
    services: Arc<Mutex<ServiceAllocator>>,
}

struct Slot {
    resource: &'static Resource,
    strategy: OnceLock<Arc<BuiltinStrategy>>,
}

impl Builtins {
    /// The table of the served resources (cheap: no schema is built yet), with Services
    /// allocated from `cluster_ip_ranges` and `node_ports`.
    ///
    /// # Errors
    /// A range that does not parse.
    pub fn new(cluster_ip_ranges: &[&str], node_ports: &str) -> Result<Builtins, String> {
        let slots = resources::all()
            .iter()
            .filter(|r| served(r))
            .map(|r| {
                (
                    (r.group, r.version, r.name),
                    Slot {
                        resource: r,
                        strategy: OnceLock::new(),
                    },
                )
            })
            .collect();
        Ok(Builtins {
            slots,
            services: Arc::new(Mutex::new(ServiceAllocator::new(
                cluster_ip_ranges,
                node_ports,
            )?)),
        })
    }

    /// The strategy of `group/version` `resource`, if built in and served.
    #[must_use]
    pub fn get(&self, group: &str, version: &str, resource: &str) -> Option<Arc<BuiltinStrategy>> {
        let slot = self.slots.get(&(group, version, resource))?;
        Some(self.strategy(slot))
    }

    fn strategy(&self, slot: &Slot) -> Arc<BuiltinStrategy> {
        Arc::clone(slot.strategy.get_or_init(|| {
            Arc::new(BuiltinStrategy::new(
                slot.resource,
                catalog(),
                Arc::clone(&self.services),
            ))
        }))
    }

    /// The served resources, in the catalog's order.
    pub fn resources(&self) -> impl Iterator<Item = &'static Resource> + '_ {
        resources::all().iter().filter(|r| served(r))
    }

    /// Whether objects of `group` `kind` are served.
    #[must_use]
    pub fn serves_kind(&self, group: &str, kind: &str) -> bool {
        self.resources().any(|r| r.group == group && r.kind == kind)
    }

    /// The strategy of the storage version of the objects stored under `key`.
    #[must_use]
    pub fn for_key(&self, key: &str) -> Option<Arc<BuiltinStrategy>> {
        let r = self.resources().find(|r| {
            r.storage
                .is_some_and(|s| s.group == r.group && s.version == r.version)
                && key.starts_with(&storage_prefix(r))
        })?;
        self.get(r.group, r.version, r.name)
    }

    /// The Service allocator, for the server's own Services (without building the Service
    /// strategy and its schema: start-up stays cheap).
    #[must_use]
    pub fn service_allocator(&self) -> &Arc<Mutex<ServiceAllocator>> {
        &self.services
    }

    /// The strategies (storage versions) of every namespaced resource, for namespace deletion.
    pub fn namespaced(&self) -> Vec<Arc<BuiltinStrategy>> {
        self.resources()
            .filter(|r| {
                r.namespaced
                    && r.storage
                        .is_some_and(|s| s.group == r.group && s.version == r.version)
            })
            .filter_map(|r| self.get(r.group, r.version, r.name))
            .collect()
    }
}
