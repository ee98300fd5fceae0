//! The server's state: storage, the watch cache, the CRDs served, the built-in kinds, the
//! settings and the tasks running; resolving a request path to the strategy that handles it.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use crdkit_storage::{Storage, WatchCache, WatchCacheConfig};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::clock;
use crate::engine::CustomResourceDefinition;
use crate::http::status::{ApiError, ApiResult, GroupResource};
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
            watch_history: 10_000,
            watcher_buffer: 1000,
            version: ("1".to_owned(), "32".to_owned(), "v1.32.0-crdkit".to_owned()),
            garbage_collection: true,
            request_log: 1000,
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
        let cache = WatchCache::start_with(
            Arc::clone(&storage),
            WatchCacheConfig {
                prefix: "/registry/".to_owned(),
                history: config.watch_history,
                history_max_age: None,
                watcher_buffer: config.watcher_buffer,
            },
            Decoder,
        )
        .await
        .map_err(ApiError::internal)?;
        let registry = Arc::new(RwLock::new(Registry::default()));
        let api = Arc::new(Api {
            objects: Objects::new(storage, config.max_object_bytes),
            cache,
            crds: Arc::new(CrdStrategy::new(Arc::clone(&registry))),
            registry,
            namespaces: Arc::new(NamespaceStrategy::new()),
            request_log: Arc::new(crate::request_log::RequestLog::new(config.request_log)),
            config,
            shutdown,
            tasks: TaskTracker::new(),
            cleanups: Mutex::new(HashSet::new()),
            openapi: Mutex::new(None),
        });
        let revision = api.load_crds().await?;
        {
            let mut r = api
                .registry
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for k in crate::registry::schemaless::kinds() {
                r.upsert(CrdEntry::builtin(k.crd, k.prefix));
            }
        }
        api.ensure_system_namespaces().await?;
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
            let mut r = self
                .registry
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            // A built-in kind is never replaced by a stored CRD of its name.
            if r.get(&entry.name)
                .is_none_or(|e| e.builtin_prefix.is_none())
            {
                r.upsert(entry);
            }
        }
    }

    /// Removes a deleted CRD (deleted at `revision`) from the registry.
    pub fn remove_crd(&self, name: &str, revision: u64) {
        let mut r = self
            .registry
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if r.get(name)
            .is_some_and(|e| e.revision < revision && e.builtin_prefix.is_none())
        {
            r.remove(name);
        }
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
        ) || self
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
