//! The server's state: storage, the watch cache, the CRDs served, the built-in kinds, the
//! settings and the tasks running; resolving a request path to the strategy that handles it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use crdkit_storage::{Storage, WatchCache, WatchCacheConfig};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::clock;
use crate::engine::CustomResourceDefinition;
use crate::http::status::{ApiError, ApiResult, GroupResource};
use crate::registry::builtin::Builtins;
use crate::registry::crd::CrdStrategy;
use crate::registry::custom_resource::CustomResourceStrategy;
use crate::registry::namespace::NamespaceStrategy;
use crate::registry::{CrdEntry, Registry, Strategy};
use crate::store::Objects;
use crate::store::cached::{Cache, Decoder};

/// The namespaces every server starts with, as kube-apiserver's system namespaces controller
/// creates them.
pub const SYSTEM_NAMESPACES: &[&str] =
    &["default", "kube-system", "kube-public", "kube-node-lease"];

/// Settings of the API (not of the transport).
#[derive(Clone, Debug)]
pub struct ApiConfig {
    /// Largest request body (the API server's `MaxRequestBodyBytes`, 3 MiB).
    pub max_body_bytes: usize,
    /// Largest object stored, in its encoded form with its key (etcd's default
    /// `--max-request-bytes`, 1.5 MiB): a larger one is refused with the Status kube-apiserver
    /// relays from etcd, 500 `etcdserver: request is too large`.
    pub max_object_bytes: usize,
    /// The most that the `copy` operations of one JSON patch may add (the API server's
    /// `JSONPatchMaxCopyBytes`, 3 MiB; the fix of CVE-2019-1002100); 0 for no limit.
    pub json_patch_max_copy_bytes: usize,
    /// How long a request body may take to arrive.
    pub body_timeout: Duration,
    /// Period of `BOOKMARK` events for watches that allow them.
    pub bookmark_interval: Duration,
    /// Length of a watch without `timeoutSeconds`.
    pub default_watch_timeout: Duration,
    /// How long a read waits for the watch cache to reach a revision (the cacher's
    /// `blockTimeout`, 3 s): a consistent read then goes to the storage, and a read naming a
    /// resourceVersion the cache has not reached is a 504 `Too large resource version`.
    pub fresh_timeout: Duration,
    /// Events kept by the watch cache for watches from an older resourceVersion.
    pub watch_history: usize,
    /// Events that may wait for one watcher before it is dropped as too slow.
    pub watcher_buffer: usize,
    /// `/version`'s `major`, `minor` and `gitVersion`.
    pub version: (String, String, String),
    /// Runs the garbage collector (owner references, foreground and orphan deletion), as
    /// kube-controller-manager does beside a cluster's API server.
    pub garbage_collection: bool,
    /// Requests kept in the request log ([`crate::RequestLog`]); 0 keeps none.
    pub request_log: usize,
    /// The CIDRs Service cluster IPs come from (kube-apiserver's `--service-cluster-ip-range`:
    /// one, or two of different families for dual stack).
    pub service_cluster_ip_ranges: Vec<String>,
    /// The range node ports come from (`--service-node-port-range`, `base-last`).
    pub service_node_port_range: String,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            max_body_bytes: 3 * 1024 * 1024,
            max_object_bytes: 1536 * 1024,
            json_patch_max_copy_bytes: 3 * 1024 * 1024,
            body_timeout: Duration::from_secs(60),
            bookmark_interval: Duration::from_secs(60),
            default_watch_timeout: Duration::from_secs(1800),
            fresh_timeout: Duration::from_secs(3),
            watch_history: 10_000,
            watcher_buffer: 1000,
            version: ("1".to_owned(), "32".to_owned(), "v1.32.0-crdkit".to_owned()),
            garbage_collection: true,
            request_log: 1000,
            service_cluster_ip_ranges: vec![
                crate::registry::builtin::DEFAULT_SERVICE_CLUSTER_IP_RANGE.to_owned(),
            ],
            service_node_port_range: crate::registry::builtin::DEFAULT_SERVICE_NODE_PORT_RANGE
                .to_owned(),
        }
    }
}

impl ApiConfig {
    /// The limits of a request body.
    pub(crate) fn body_limits(&self) -> crate::http::body::Limits {
        crate::http::body::Limits {
            max_bytes: self.max_body_bytes,
            timeout: self.body_timeout,
        }
    }
}

/// The OpenAPI documents by path, each with its hash.
pub(crate) type OpenApiDocs = BTreeMap<String, (Arc<Value>, String)>;

/// `/openapi/v2`: the document, its JSON, its hash, and its protobuf once asked for.
pub(crate) struct OpenApiV2 {
    pub doc: Arc<Value>,
    pub json: bytes::Bytes,
    pub hash: String,
    pub protobuf: std::sync::OnceLock<bytes::Bytes>,
}

/// Everything a request needs.
pub struct Api {
    /// Objects in storage.
    pub objects: Objects,
    /// The watch cache over every key: the objects decoded once, lists and watches.
    pub cache: Cache,
    /// The CRDs served.
    pub registry: Arc<RwLock<Registry>>,
    /// The CRD kind.
    pub crds: Arc<CrdStrategy>,
    /// The namespace kind.
    pub namespaces: Arc<NamespaceStrategy>,
    /// The other built-in kinds.
    pub builtins: Builtins,
    /// Settings.
    pub config: ApiConfig,
    /// Cancelled on shutdown: watches end, controllers stop.
    pub shutdown: CancellationToken,
    /// The last requests answered.
    pub request_log: Arc<crate::request_log::RequestLog>,
    /// Background tasks (controllers, cleanups), awaited on shutdown.
    pub tasks: TaskTracker,
    /// CRDs and namespaces being cleaned up (`crd/<name>`, `ns/<name>`).
    pub(crate) cleanups: Mutex<HashSet<String>>,
    /// The OpenAPI documents of the registry generation they were built for.
    pub(crate) openapi: Mutex<Option<(u64, OpenApiDocs)>>,
    /// `/openapi/v2` of the registry generation it was built for.
    pub(crate) openapi_v2: Mutex<Option<(u64, Arc<OpenApiV2>)>>,
    /// Whether a namespace is being deleted, by name, as of its stored mod revision (every
    /// create reads its namespace; the answer is decoded once per namespace write).
    pub(crate) namespace_deleting: Mutex<HashMap<String, (u64, bool)>>,
}

impl Api {
    /// Starts the API over `storage`: the watch cache, the CRDs already stored and the system
    /// namespaces; returns it with the revision the CRDs were read at (where the controllers'
    /// watch starts).
    ///
    /// # Errors
    /// The storage failing.
    pub async fn start(
        storage: Arc<dyn Storage>,
        config: ApiConfig,
        shutdown: CancellationToken,
    ) -> ApiResult<(Arc<Api>, u64)> {
        // Writes hand the cache the heads of what they store when it gets the same bytes.
        let hints = storage.shares_values().then(Arc::default);
        let decoder = hints.clone().map(Decoder::with_hints).unwrap_or_default();
        let cache = WatchCache::start_with(
            Arc::clone(&storage),
            WatchCacheConfig {
                prefix: "/registry/".to_owned(),
                history: config.watch_history,
                history_max_age: None,
                watcher_buffer: config.watcher_buffer,
            },
            decoder,
        )
        .await
        .map_err(ApiError::internal)?;
        let ranges: Vec<&str> = config
            .service_cluster_ip_ranges
            .iter()
            .map(String::as_str)
            .collect();
        let builtins = Builtins::new(&ranges, &config.service_node_port_range)
            .map_err(ApiError::bad_request)?;
        let registry = Arc::new(RwLock::new(Registry::default()));
        let api = Arc::new(Api {
            objects: match hints {
                Some(hints) => Objects::new(storage, config.max_object_bytes).with_hints(hints),
                None => Objects::new(storage, config.max_object_bytes),
            },
            cache,
            crds: Arc::new(CrdStrategy::new(Arc::clone(&registry))),
            registry,
            namespaces: Arc::new(NamespaceStrategy::new()),
            builtins,
            request_log: Arc::new(crate::request_log::RequestLog::new(config.request_log)),
            config,
            shutdown,
            tasks: TaskTracker::new(),
            cleanups: Mutex::new(HashSet::new()),
            openapi: Mutex::new(None),
            openapi_v2: Mutex::new(None),
            namespace_deleting: Mutex::new(HashMap::new()),
        });
        let revision = api.load_crds().await?;
        api.reserve_services().await?;
        api.ensure_system_namespaces().await?;
        api.ensure_kubernetes_service().await?;
        Ok((api, revision))
    }

    /// Reads every stored CRD into the registry; returns the revision read at.
    async fn load_crds(&self) -> ApiResult<u64> {
        let gr = self.crds.info().gr();
        let (items, result) = self
            .objects
            .list(&self.crds.info().prefix, &Default::default(), &gr)
            .await?;
        for s in items {
            self.upsert_crd(&s.value, s.revision);
        }
        Ok(result.revision)
    }

    /// Marks the cluster IPs and node ports of the stored Services as taken.
    async fn reserve_services(&self) -> ApiResult<()> {
        let gr = GroupResource::new("", "services");
        let (items, _) = self
            .objects
            .list(&services_prefix(), &Default::default(), &gr)
            .await?;
        let mut allocator = self
            .builtins
            .service_allocator()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for s in &items {
            allocator.reserve(&s.value);
        }
        Ok(())
    }

    /// The `default/kubernetes` Service every cluster has (kubernetes
    /// `pkg/controlplane/controller/kubernetesservice`: the first address of the range, port
    /// 443 `https` to the API server's secure port); no Endpoints, as no IP is served. Written
    /// with crdkit-builtin's defaulting and the allocator, not through the Service strategy,
    /// whose published schema is only loaded when a request needs it.
    async fn ensure_kubernetes_service(&self) -> ApiResult<()> {
        let gr = GroupResource::new("", "services");
        let key = format!("{}default/kubernetes", services_prefix());
        if self.objects.get(&key, &gr, "kubernetes").await.is_ok() {
            return Ok(());
        }
        let Some(ip) = self
            .config
            .service_cluster_ip_ranges
            .first()
            .and_then(|r| first_address(r))
        else {
            return Ok(());
        };
        let now = clock::format(clock::now());
        let mut obj = json!({"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "kubernetes", "namespace": "default",
                "uid": uuid::Uuid::new_v4().to_string(), "creationTimestamp": now,
                "labels": {"component": "apiserver", "provider": "kubernetes"}},
            "spec": {"type": "ClusterIP", "clusterIP": ip, "sessionAffinity": "None",
                "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}]}});
        crdkit_builtin::defaults::apply("v1", "Service", &mut obj);
        let allocation = self
            .builtins
            .service_allocator()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .allocate_create(&mut obj)
            .map_err(ApiError::internal)?;
        crdkit_builtin::defaults::prepare_for_create("v1", "Service", &mut obj);
        match self.objects.create(&key, &obj, &gr, "kubernetes").await {
            Ok(_) => Ok(()),
            Err(e) => {
                self.builtins
                    .service_allocator()
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .revert(&allocation);
                // Another replica on the same storage made it first.
                if e.code == 409 { Ok(()) } else { Err(e) }
            }
        }
    }

    async fn ensure_system_namespaces(&self) -> ApiResult<()> {
        let now = clock::format(clock::now());
        let gr = self.namespaces.info().gr();
        for name in SYSTEM_NAMESPACES {
            let key = self.namespaces.info().key(None, name);
            if self.objects.get(&key, &gr, name).await.is_ok() {
                continue;
            }
            let mut obj = json!({"apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": name, "uid": uuid::Uuid::new_v4().to_string(), "creationTimestamp": now}});
            let _ = self.namespaces.create(&mut obj)?;
            match self.objects.create(&key, &obj, &gr, name).await {
                Ok(_) => {}
                // Another replica on the same storage made it first.
                Err(e) if e.code == 409 => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Compiles a stored CRD (at `revision`) into the registry.
    pub fn upsert_crd(&self, obj: &Value, revision: u64) {
        if let Ok(crd) = serde_json::from_value::<CustomResourceDefinition>(obj.clone()) {
            let entry = CrdEntry::new(crd, revision);
            self.registry
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .upsert(entry);
        }
    }

    /// Removes a deleted CRD (deleted at `revision`) from the registry.
    pub fn remove_crd(&self, name: &str, revision: u64) {
        let mut r = self
            .registry
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        r.delete(name, revision);
    }

    /// The strategy serving `group/version` `resource`, built in or from a CRD.
    #[must_use]
    pub fn resolve(&self, group: &str, version: &str, resource: &str) -> Option<Arc<dyn Strategy>> {
        match (group, version, resource) {
            ("", "v1", "namespaces") => Some(Arc::clone(&self.namespaces) as Arc<dyn Strategy>),
            ("apiextensions.k8s.io", "v1", "customresourcedefinitions") => {
                Some(Arc::clone(&self.crds) as Arc<dyn Strategy>)
            }
            _ => {
                if let Some(s) = self.builtins.get(group, version, resource) {
                    return Some(s);
                }
                let entry = self
                    .registry
                    .read()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .lookup(group, version, resource)?;
                Some(Arc::new(CustomResourceStrategy::new(entry, version)))
            }
        }
    }

    /// Whether objects of `group` `kind` are served (an owner reference the garbage collector
    /// can resolve).
    #[must_use]
    pub fn serves_kind(&self, group: &str, kind: &str) -> bool {
        matches!(
            (group, kind),
            ("", "Namespace") | ("apiextensions.k8s.io", "CustomResourceDefinition")
        ) || self.builtins.serves_kind(group, kind)
            || self
                .registry
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .all()
                .any(|e| e.crd.spec.group == group && e.crd.spec.names.kind == kind)
    }

    /// The group-resource of namespaces, for errors.
    #[must_use]
    pub fn namespaces_gr() -> GroupResource {
        GroupResource::new("", "namespaces")
    }
}

/// Where Services are stored (kube-apiserver's key, `/registry/services/specs/`).
fn services_prefix() -> String {
    crdkit_builtin::resources::find("", "v1", "services")
        .map(crate::registry::builtin::storage_prefix)
        .unwrap_or_default()
}

/// The first host address of an IPv4 or IPv6 CIDR (`10.96.0.0/12` → `10.96.0.1`).
fn first_address(cidr: &str) -> Option<String> {
    let (addr, _) = cidr.split_once('/')?;
    match addr.parse::<std::net::IpAddr>().ok()? {
        std::net::IpAddr::V4(a) => {
            Some(std::net::Ipv4Addr::from(u32::from(a).checked_add(1)?).to_string())
        }
        std::net::IpAddr::V6(a) => {
            Some(std::net::Ipv6Addr::from(u128::from(a).checked_add(1)?).to_string())
        }
    }
}
