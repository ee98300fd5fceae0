//! The test environment: a server on its own thread, a client, CRDs from derived types, and
//! what a failing test prints.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crdkit_server::{ApiConfig, ApiServer, RequestLog, RequestRecord, ServerConfig, Storage};
use crdkit_shape::resource::CustomResource;
use k8s_openapi::NamespaceResourceScope;
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;

use crate::Error;

/// The field manager of what the harness writes (CRDs).
pub const FIELD_MANAGER: &str = "crdkit-envtest";

/// Settings of a [`TestEnv`].
pub struct Builder {
    api: ApiConfig,
    namespace: String,
    timeout: Duration,
    storage: Option<Arc<dyn Storage>>,
    crds: Vec<Result<serde_json::Value, Error>>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            api: ApiConfig::default(),
            namespace: "default".to_owned(),
            timeout: Duration::from_secs(10),
            storage: None,
            crds: Vec::new(),
        }
    }
}

impl Builder {
    /// API settings (bookmark interval, request log size, garbage collection, …).
    #[must_use]
    pub fn api_config(mut self, api: ApiConfig) -> Builder {
        self.api = api;
        self
    }

    /// The namespace of [`TestEnv::api`] and of the client's default (`default`); created when
    /// it does not exist.
    #[must_use]
    pub fn namespace(mut self, ns: &str) -> Builder {
        ns.clone_into(&mut self.namespace);
        self
    }

    /// The time [`TestEnv::wait_for`] and CRD installation wait (10 s).
    #[must_use]
    pub fn timeout(mut self, t: Duration) -> Builder {
        self.timeout = t;
        self
    }

    /// Storage other than memory (redb, etcd: see `crate::etcd` with the `etcd` feature).
    #[must_use]
    pub fn storage(mut self, s: Arc<dyn Storage>) -> Builder {
        self.storage = Some(s);
        self
    }

    /// A CRD from a derived type, installed at start.
    #[must_use]
    pub fn crd<K: CustomResource>(mut self) -> Builder {
        self.crds.push(crd_value::<K>());
        self
    }

    /// Starts the environment.
    ///
    /// # Errors
    /// The server not starting, a CRD not installing or not becoming established in time.
    pub async fn start(self) -> Result<TestEnv, Error> {
        let Builder {
            api,
            namespace,
            timeout,
            storage,
            crds,
        } = self;
        let server = spawn_server(ServerConfig {
            api,
            storage,
            ..ServerConfig::default()
        })
        .await?;
        let mut config = kube::Config::new(
            server
                .url
                .parse()
                .map_err(|e| Error::Start(format!("{e}")))?,
        );
        config.default_namespace.clone_from(&namespace);
        config.read_timeout = Some(Duration::from_secs(300));
        let client = Client::try_from(config)?;
        let env = TestEnv {
            client,
            namespace,
            timeout,
            server,
            tasks: Mutex::new(Vec::new()),
        };
        if env.namespace != "default" {
            env.ensure_namespace(&env.namespace.clone()).await?;
        }
        for crd in crds {
            env.install_crd_value(crd?).await?;
        }
        Ok(env)
    }
}

fn crd_value<K: CustomResource>() -> Result<serde_json::Value, Error> {
    K::crd().map(|c| c.to_value()).map_err(|e| Error::Crd {
        kind: K::KIND.to_owned(),
        message: e.to_string(),
    })
}

/// The server thread's handle.
struct ServerThread {
    url: String,
    kubeconfig: PathBuf,
    storage: Arc<dyn Storage>,
    requests: Arc<RequestLog>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: std::sync::mpsc::Receiver<()>,
}

/// Runs the server on a thread of its own with a single-threaded runtime: it keeps serving
/// while a test blocks its own runtime, and after a failing test's runtime is gone (for
/// `CRDKIT_ENVTEST_HOLD`).
async fn spawn_server(config: ServerConfig) -> Result<ServerThread, Error> {
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("crdkit-envtest-server".to_owned())
        .spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e.to_string()));
                    return;
                }
            };
            rt.block_on(async move {
                let server = match ApiServer::start_with(config).await {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let info = (
                    server.url().to_owned(),
                    server.kubeconfig().to_owned(),
                    Arc::clone(server.storage()),
                    Arc::clone(server.request_log()),
                );
                let _ = ready_tx.send(Ok(info));
                let _ = stop_rx.await;
                server.shutdown().await;
            });
            let _ = done_tx.send(());
        })
        .map_err(|e| Error::Start(e.to_string()))?;
    let (url, kubeconfig, storage, requests) = ready_rx
        .await
        .map_err(|_| Error::Start("the server thread ended".to_owned()))?
        .map_err(Error::Start)?;
    Ok(ServerThread {
        url,
        kubeconfig,
        storage,
        requests,
        stop: Some(stop_tx),
        done: done_rx,
    })
}

/// A running API server and a client of it, for one test.
pub struct TestEnv {
    client: Client,
    namespace: String,
    timeout: Duration,
    server: ServerThread,
    tasks: Mutex<Vec<tokio::task::AbortHandle>>,
}

impl TestEnv {
    /// An in-memory server and a client whose default namespace is `default`.
    ///
    /// # Errors
    /// The server not starting.
    pub async fn start() -> Result<TestEnv, Error> {
        Builder::default().start().await
    }

    /// Settings before start.
    #[must_use]
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Installs the CRD of a derived type and waits until it is established.
    ///
    /// # Errors
    /// As [`TestEnv::install_crd`].
    pub async fn with_crd<K: CustomResource>(self) -> Result<TestEnv, Error> {
        self.install_crd::<K>().await?;
        Ok(self)
    }

    /// Installs (server-side applies) the CRD of a derived type and waits until it is
    /// established.
    ///
    /// # Errors
    /// The CRD not building, the server refusing it, or it not becoming established in time.
    pub async fn install_crd<K: CustomResource>(&self) -> Result<(), Error> {
        self.install_crd_value(crd_value::<K>()?).await
    }

    /// Installs a CRD given as JSON (e.g. read from a YAML file) and waits until established.
    ///
    /// # Errors
    /// As [`TestEnv::install_crd`].
    pub async fn install_crd_value(&self, crd: serde_json::Value) -> Result<(), Error> {
        let name = crd["metadata"]["name"].as_str().unwrap_or("").to_owned();
        let api: Api<CustomResourceDefinition> = Api::all(self.client.clone());
        api.patch(
            &name,
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&crd),
        )
        .await?;
        let established = kube::runtime::wait::conditions::is_crd_established();
        self.wait_until(&api, &name, move |c: Option<&CustomResourceDefinition>| {
            kube::runtime::wait::Condition::matches_object(&established, c)
        })
        .await?;
        Ok(())
    }

    /// A client of the server (default namespace: the environment's).
    #[must_use]
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// The environment's namespace (`default` unless [`Builder::namespace`] said otherwise).
    #[must_use]
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// An `Api` of a namespaced kind in the environment's namespace.
    #[must_use]
    pub fn api<K>(&self) -> Api<K>
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>,
    {
        Api::namespaced(self.client.clone(), &self.namespace)
    }

    /// An `Api` across namespaces (or of a cluster-scoped kind).
    #[must_use]
    pub fn all<K>(&self) -> Api<K>
    where
        K: Resource<DynamicType = ()>,
    {
        Api::all(self.client.clone())
    }

    /// Creates a namespace with a fresh name starting with `prefix` (isolation for tests
    /// sharing one server); returns its name.
    ///
    /// # Errors
    /// The create failing.
    pub async fn fresh_namespace(&self, prefix: &str) -> Result<String, Error> {
        let suffix = uuid::Uuid::new_v4().simple().to_string();
        let name = format!("{prefix}-{}", &suffix[..8]);
        self.ensure_namespace(&name).await?;
        Ok(name)
    }

    async fn ensure_namespace(&self, name: &str) -> Result<(), Error> {
        let api: Api<Namespace> = Api::all(self.client.clone());
        let ns: Namespace = serde_json::from_value(serde_json::json!({"metadata": {"name": name}}))
            .map_err(|e| Error::Start(e.to_string()))?;
        match api.create(&PostParams::default(), &ns).await {
            Ok(_) => Ok(()),
            Err(kube::Error::Api(s)) if s.code == 409 => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// The default timeout of waits.
    #[must_use]
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// `http://127.0.0.1:<port>`
    #[must_use]
    pub fn url(&self) -> &str {
        &self.server.url
    }

    /// The kubeconfig naming this server (`kubectl --kubeconfig …`); it exists as long as the
    /// environment.
    #[must_use]
    pub fn kubeconfig(&self) -> &Path {
        &self.server.kubeconfig
    }

    /// The server's storage, for assertions below the HTTP API (see
    /// [`ApiServer::storage`]).
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.server.storage
    }

    /// The requests the server answered (the last [`ApiConfig::request_log`], oldest first).
    #[must_use]
    pub fn requests(&self) -> Vec<RequestRecord> {
        self.server.requests.records()
    }

    /// A mark in the request log: pass it to [`TestEnv::requests_since`].
    #[must_use]
    pub fn mark(&self) -> u64 {
        self.server.requests.last_seq()
    }

    /// The requests answered after `mark`.
    #[must_use]
    pub fn requests_since(&self, mark: u64) -> Vec<RequestRecord> {
        self.server.requests.since(mark)
    }

    /// Runs a future (a controller) until the environment is dropped.
    pub fn spawn<F>(&self, fut: F) -> tokio::task::JoinHandle<F::Output>
    where
        F: std::future::Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let handle = tokio::spawn(fut);
        self.tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(handle.abort_handle());
        handle
    }

    /// Reads an object back (what a controller wrote).
    ///
    /// # Errors
    /// The get failing (404 included).
    pub async fn get<K>(&self, api: &Api<K>, name: &str) -> Result<K, Error>
    where
        K: Clone + DeserializeOwned + std::fmt::Debug,
    {
        Ok(api.get(name).await?)
    }

    /// Stops the server and waits (up to 5 s) for it to finish; dropping does the same
    /// without waiting for open requests.
    pub fn stop(mut self) {
        self.shutdown(Duration::from_secs(5));
    }

    fn shutdown(&mut self, wait: Duration) {
        for t in self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .drain(..)
        {
            t.abort();
        }
        if let Some(stop) = self.server.stop.take() {
            let _ = stop.send(());
            let _ = self.server.done.recv_timeout(wait);
        }
    }

    /// What a failing test prints.
    fn report(&self) -> String {
        use std::fmt::Write as _;
        let mut out = format!(
            "crdkit-envtest: the test failed; the API server was at {} (kubeconfig {}).\n",
            self.url(),
            self.kubeconfig().display()
        );
        let requests = self.requests();
        let skip = requests.len().saturating_sub(30);
        let _ = writeln!(out, "last {} requests:", requests.len() - skip);
        for r in &requests[skip..] {
            let _ = writeln!(out, "  {r}");
        }
        out
    }
}

impl Drop for TestEnv {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprint!("{}", self.report());
            let hold = std::env::var("CRDKIT_ENVTEST_HOLD")
                .ok()
                .and_then(|s| s.parse::<u64>().ok())
                .filter(|s| *s > 0);
            if let Some(secs) = hold {
                eprintln!(
                    "crdkit-envtest: serving for {secs} s more (CRDKIT_ENVTEST_HOLD): KUBECONFIG={} kubectl get …",
                    self.kubeconfig().display()
                );
                std::thread::sleep(Duration::from_secs(secs));
            }
        }
        self.shutdown(Duration::from_secs(2));
    }
}
