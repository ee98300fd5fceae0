//! The transport: a listener, HTTP/1.1 and h2 (cleartext or TLS), graceful shutdown, and the
//! in-process [`ApiServer`] handle with its kubeconfig.
//!
//! Loopback only unless [`ServerConfig::allow_remote`] is set, which also requires a bearer
//! token; TLS with a given certificate or one generated for the listening address (rcgen).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crdkit_storage::{MemoryStorage, Storage};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::api::{Api, ApiConfig};
use crate::request_log::RequestLog;
use crate::tls::{self, Tls};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// A non-loopback address without `allow_remote`, or without a token.
    #[error("{0}")]
    Config(String),
    /// Binding the address failed.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The certificate or key could not be read or generated.
    #[error("TLS: {0}")]
    Tls(String),
    /// Storage failed at start.
    #[error("storage: {0}")]
    Storage(String),
    /// Writing the kubeconfig failed.
    #[error("kubeconfig: {0}")]
    Kubeconfig(std::io::Error),
}

/// Where a TLS certificate comes from.
#[derive(Clone, Debug)]
pub enum TlsConfig {
    /// A self-signed certificate generated for the listening address and `localhost`.
    Generate,
    /// PEM files.
    Files {
        /// The certificate chain.
        cert: PathBuf,
        /// The private key.
        key: PathBuf,
    },
}

/// How to run a server.
pub struct ServerConfig {
    /// The address to listen on (default `127.0.0.1:0`: loopback, any free port).
    pub addr: SocketAddr,
    /// Allows a non-loopback address (then [`ServerConfig::token`] is required).
    pub allow_remote: bool,
    /// A bearer token every request must carry.
    pub token: Option<String>,
    /// Serve HTTPS.
    pub tls: Option<TlsConfig>,
    /// The storage (default: in memory).
    pub storage: Option<Arc<dyn Storage>>,
    /// Where to write the kubeconfig (default: a temporary directory kept as long as the
    /// server).
    pub kubeconfig: Option<PathBuf>,
    /// API settings.
    pub api: ApiConfig,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
            allow_remote: false,
            token: None,
            tls: None,
            storage: None,
            kubeconfig: None,
            api: ApiConfig::default(),
        }
    }
}

/// A running server.
pub struct ApiServer {
    url: String,
    addr: SocketAddr,
    kubeconfig: PathBuf,
    ca_pem: Option<String>,
    token: Option<String>,
    shutdown: CancellationToken,
    api: Arc<Api>,
    accept: Option<tokio::task::JoinHandle<()>>,
    _tempdir: Option<tempfile::TempDir>,
}

impl ApiServer {
    /// Starts an in-memory server on a free loopback port.
    ///
    /// # Errors
    /// See [`StartError`].
    pub async fn start() -> Result<ApiServer, StartError> {
        Self::start_with(ServerConfig::default()).await
    }

    /// Starts a server.
    ///
    /// # Errors
    /// See [`StartError`].
    pub async fn start_with(config: ServerConfig) -> Result<ApiServer, StartError> {
        let shutdown = CancellationToken::new();
        let ServerConfig {
            addr,
            allow_remote,
            token,
            tls,
            storage,
            kubeconfig,
            api,
        } = config;
        if !addr.ip().is_loopback() {
            if !allow_remote {
                return Err(StartError::Config(format!(
                    "{addr} is not a loopback address: listening on it needs the explicit remote flag"
                )));
            }
            if token.as_deref().is_none_or(str::is_empty) {
                return Err(StartError::Config(
                    "a non-loopback address needs a bearer token".to_owned(),
                ));
            }
        }
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| StartError::Bind { addr, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| StartError::Bind { addr, source })?;
        let tls = match tls {
            None => None,
            Some(TlsConfig::Generate) => Some(tls::generate(local.ip()).map_err(StartError::Tls)?),
            Some(TlsConfig::Files { cert, key }) => {
                Some(tls::from_files(&cert, &key).map_err(StartError::Tls)?)
            }
        };
        let storage: Arc<dyn Storage> = storage.unwrap_or_else(|| Arc::new(MemoryStorage::new()));
        let (api, revision) = Api::start(storage, api, shutdown.clone())
            .await
            .map_err(|e| StartError::Storage(e.message))?;
        crate::controllers::start(&api, revision).await;
        let host = if local.ip().is_unspecified() {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), local.port())
        } else {
            local
        };
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{host}");
        let ca_pem = tls.as_ref().map(|t| t.cert_pem.clone());
        let (kubeconfig, tempdir) = match kubeconfig {
            Some(p) => (p, None),
            None => {
                let dir = tempfile::Builder::new()
                    .prefix("crdkit-server-")
                    .tempdir()
                    .map_err(StartError::Kubeconfig)?;
                (dir.path().join("kubeconfig"), Some(dir))
            }
        };
        write_kubeconfig(&kubeconfig, &url, ca_pem.as_deref(), token.as_deref())
            .map_err(StartError::Kubeconfig)?;
        let accept = tokio::spawn(accept_loop(
            listener,
            Arc::clone(&api),
            token.clone().map(Arc::from),
            tls,
            shutdown.clone(),
        ));
        Ok(ApiServer {
            url,
            addr: local,
            kubeconfig,
            ca_pem,
            token,
            shutdown,
            api,
            accept: Some(accept),
            _tempdir: tempdir,
        })
    }

    /// `http://127.0.0.1:<port>` (or `https://…`).
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The address listened on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The kubeconfig file naming this server (`kubectl --kubeconfig`).
    #[must_use]
    pub fn kubeconfig(&self) -> &Path {
        &self.kubeconfig
    }

    /// The server certificate (PEM), when serving TLS.
    #[must_use]
    pub fn ca_pem(&self) -> Option<&str> {
        self.ca_pem.as_deref()
    }

    /// The token requests must carry, if any.
    #[must_use]
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The storage the server runs on: what it stores, for assertions below the HTTP API
    /// (objects are JSON at `/registry/<group>/<plural>/[<namespace>/]<name>`, at their storage
    /// version, without `resourceVersion`).
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        self.api.objects.storage()
    }

    /// The requests the server answered (the last [`ApiConfig::request_log`]).
    ///
    /// [`ApiConfig::request_log`]: crate::ApiConfig::request_log
    #[must_use]
    pub fn request_log(&self) -> &Arc<RequestLog> {
        &self.api.request_log
    }

    /// A `kube::Client` for this server.
    ///
    /// # Errors
    /// When kube cannot build a client for the URL.
    #[cfg(feature = "kube")]
    pub fn client(&self) -> Result<kube::Client, kube::Error> {
        let url = self
            .url
            .parse()
            .map_err(|e: http::uri::InvalidUri| kube::Error::Service(Box::new(e)))?;
        let mut config = kube::Config::new(url);
        config.default_namespace = "default".to_owned();
        if let Some(pem) = &self.ca_pem {
            config.root_cert = Some(vec![tls::pem_to_der(pem)]);
        }
        if let Some(token) = &self.token {
            config.auth_info.token = Some(token.clone().into());
        }
        kube::Client::try_from(config)
    }

    /// Stops accepting, ends watches and controllers, and waits (up to 5 s) for open requests.
    pub async fn shutdown(mut self) {
        self.shutdown.cancel();
        if let Some(accept) = self.accept.take() {
            let _ = tokio::time::timeout(Duration::from_secs(5), accept).await;
        }
        self.api.tasks.close();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.api.tasks.wait()).await;
    }
}

impl Drop for ApiServer {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// Runs a server until `shutdown` is cancelled (`crdgen serve`); calls `ready` once listening.
///
/// # Errors
/// See [`StartError`].
pub async fn serve(
    config: ServerConfig,
    shutdown: CancellationToken,
    ready: impl FnOnce(&ApiServer),
) -> Result<(), StartError> {
    let server = ApiServer::start_with(config).await?;
    ready(&server);
    shutdown.cancelled().await;
    server.shutdown().await;
    Ok(())
}

async fn accept_loop(
    listener: TcpListener,
    api: Arc<Api>,
    token: Option<Arc<str>>,
    tls: Option<Tls>,
    shutdown: CancellationToken,
) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let acceptor = tls.map(|t| tokio_rustls::TlsAcceptor::from(t.config));
    loop {
        let (stream, _) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(s) => s,
                // Out of file descriptors and the like: back off rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let api = Arc::clone(&api);
        let token = token.clone();
        let service = service_fn(move |req| {
            let api = Arc::clone(&api);
            let token = token.clone();
            async move {
                Ok::<_, std::convert::Infallible>(crate::handlers::handle(api, token, req).await)
            }
        });
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(Duration::from_secs(30));
        builder.http2().timer(TokioTimer::new());
        match &acceptor {
            None => {
                let conn = builder.serve_connection(TokioIo::new(stream), service);
                let conn = graceful.watch(conn.into_owned());
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            Some(acceptor) => {
                let acceptor = acceptor.clone();
                let watcher = graceful.watcher();
                tokio::spawn(async move {
                    let Ok(Ok(tls)) =
                        tokio::time::timeout(Duration::from_secs(10), acceptor.accept(stream))
                            .await
                    else {
                        return;
                    };
                    let conn = builder.serve_connection(TokioIo::new(tls), service);
                    let _ = watcher.watch(conn.into_owned()).await;
                });
            }
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), graceful.shutdown()).await;
}

/// Writes a kubeconfig for `url`.
///
/// # Errors
/// The write failing.
pub fn write_kubeconfig(
    path: &Path,
    url: &str,
    ca_pem: Option<&str>,
    token: Option<&str>,
) -> std::io::Result<()> {
    let ca = ca_pem
        .map(|pem| {
            format!(
                "    certificate-authority-data: {}\n",
                crdkit_apimachinery::gobase64::encode(pem.as_bytes())
            )
        })
        .unwrap_or_default();
    let user = token.map_or_else(
        || "  user: {}\n".to_owned(),
        |t| format!("  user:\n    token: {t}\n"),
    );
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: {url}\n{ca}  name: crdkit\ncontexts:\n- context:\n    cluster: crdkit\n    namespace: default\n    user: crdkit\n  name: crdkit\ncurrent-context: crdkit\npreferences: {{}}\nusers:\n- name: crdkit\n{user}"
    );
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}
