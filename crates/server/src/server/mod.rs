//! The assembly: the state, the controllers and the transport of one server, on its own
//! runtime ([`runtime`]); the in-process [`ApiServer`] handle with its kubeconfig.
//!
//! Loopback only unless [`ServerConfig::allow_remote`] is set, which also requires a bearer
//! token, and TLS unless [`ServerConfig::insecure_remote_http`] says otherwise; TLS with a given
//! certificate or one generated for the listening address (rcgen) with a client certificate.
//! On loopback without a token, only local hosts and origins are served
//! ([`ServerConfig::accept_hosts`]).

mod config;
mod io;
mod kubeconfig;
pub(crate) mod runtime;
mod transport;
mod unreadable;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crdkit_storage::{MemoryStorage, Storage};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::api::Api;
use bytes::Bytes;

use crate::filters::{Authn, Filters, InFlight, LocalHosts, Peer};
use crate::request_log::RequestLog;
use crate::tls::{self, ClientCredential, Tls};
pub use config::{DEFAULT_ACCEPT_HOSTS, ServerConfig, StartError, TlsConfig};
use kubeconfig::Credentials;
pub use kubeconfig::write_kubeconfig;
pub use runtime::raise_open_files_limit;
use transport::{Timeouts, Transport};

/// A running server.
pub struct ApiServer {
    url: String,
    addr: SocketAddr,
    kubeconfig: PathBuf,
    ca_pem: Option<String>,
    token: Option<String>,
    client: Option<ClientCredential>,
    shutdown: CancellationToken,
    api: Arc<Api>,
    accept: Option<tokio::task::JoinHandle<()>>,
    transport: Arc<Transport>,
    runtime: Option<tokio::runtime::Runtime>,
    _tempdir: Option<tempfile::TempDir>,
}

/// What [`start_on`] hands back to the caller's runtime.
struct Started {
    url: String,
    addr: SocketAddr,
    kubeconfig: PathBuf,
    ca_pem: Option<String>,
    token: Option<String>,
    client: Option<ClientCredential>,
    api: Arc<Api>,
    accept: tokio::task::JoinHandle<()>,
    transport: Arc<Transport>,
    tempdir: Option<tempfile::TempDir>,
}

impl ApiServer {
    /// Starts an in-memory server on a free loopback port.
    ///
    /// # Errors
    /// See [`StartError`].
    pub async fn start() -> Result<ApiServer, StartError> {
        Self::start_with(ServerConfig::default()).await
    }

    /// Starts a server, on threads of its own (see the module `runtime`), whatever runtime
    /// calls this.
    ///
    /// # Errors
    /// See [`StartError`].
    pub async fn start_with(config: ServerConfig) -> Result<ApiServer, StartError> {
        let runtime = runtime::build().map_err(StartError::Runtime)?;
        let shutdown = CancellationToken::new();
        let started = runtime
            .handle()
            .spawn(start_on(config, shutdown.clone()))
            .await;
        let started = match started {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                runtime.shutdown_background();
                return Err(e);
            }
            Err(join) => std::panic::resume_unwind(join.into_panic()),
        };
        Ok(ApiServer {
            url: started.url,
            addr: started.addr,
            kubeconfig: started.kubeconfig,
            ca_pem: started.ca_pem,
            token: started.token,
            client: started.client,
            shutdown,
            api: started.api,
            accept: Some(started.accept),
            transport: started.transport,
            runtime: Some(runtime),
            _tempdir: started.tempdir,
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
        if let Some(client) = &self.client {
            let b64 = |pem: &str| crdkit_apimachinery::gobase64::encode(pem.as_bytes());
            config.auth_info.client_certificate_data = Some(b64(&client.cert_pem));
            config.auth_info.client_key_data = Some(b64(&client.key_pem).into());
        }
        kube::Client::try_from(config)
    }

    /// The client certificate and key (PEM) the kubeconfig carries, with
    /// [`TlsConfig::Generate`].
    #[must_use]
    pub fn client_credential(&self) -> Option<(&str, &str)> {
        self.client
            .as_ref()
            .map(|c| (c.cert_pem.as_str(), c.key_pem.as_str()))
    }

    /// Answers one request in process, without a connection: the filters and the handlers as
    /// for a request from the network (a loopback client without a client certificate), on the
    /// server's threads; the body is read whole (a watch's ends at its `timeoutSeconds`). For
    /// fuzzing and tests.
    ///
    /// # Panics
    /// When handling the request panics (a bug), the panic is resumed here.
    pub async fn oneshot(&self, req: http::Request<Bytes>) -> http::Response<Bytes> {
        use http_body_util::BodyExt as _;
        let t = Arc::clone(&self.transport);
        let answer = async move {
            let req = req.map(http_body_util::Full::new);
            let resp = transport::respond(&t, req, Peer::default(), None).await;
            let (parts, body) = resp.into_parts();
            let body = match body.collect().await {
                Ok(c) => c.to_bytes(),
                Err(never) => match never {},
            };
            http::Response::from_parts(parts, body)
        };
        let handle = match &self.runtime {
            Some(rt) => rt.handle().clone(),
            None => tokio::runtime::Handle::current(),
        };
        match handle.spawn(answer).await {
            Ok(resp) => resp,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => {
                let mut resp = http::Response::new(Bytes::new());
                *resp.status_mut() = http::StatusCode::SERVICE_UNAVAILABLE;
                resp
            }
        }
    }

    /// Stops accepting, ends watches and controllers, and waits (up to 5 s) for open requests.
    pub async fn shutdown(mut self) {
        self.shutdown.cancel();
        if let Some(accept) = self.accept.take() {
            let _ = tokio::time::timeout(Duration::from_secs(6), accept).await;
        }
        self.api.tasks.close();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.api.tasks.wait()).await;
        // The runtime's threads end, and with them what its tasks hold (the storage: a data
        // directory can be opened again once this returns). Joining threads blocks, so it is
        // done on a thread of its own.
        if let Some(runtime) = self.runtime.take() {
            let (done, finished) = tokio::sync::oneshot::channel();
            std::thread::spawn(move || {
                runtime.shutdown_timeout(Duration::from_secs(5));
                let _ = done.send(());
            });
            let _ = finished.await;
        }
    }
}

impl Drop for ApiServer {
    fn drop(&mut self) {
        self.shutdown.cancel();
        // Never blocks, so that a server may be dropped on any runtime's thread.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Reads the token of a configuration: the flag's, or the file's (one of them).
fn token_of(token: Option<String>, file: Option<&Path>) -> Result<Option<String>, StartError> {
    let token = match (token, file) {
        (Some(_), Some(_)) => {
            return Err(StartError::Config(
                "a token and a token file: give one".to_owned(),
            ));
        }
        (Some(t), None) => t,
        (None, Some(f)) => std::fs::read_to_string(f)
            .map_err(|e| StartError::Config(format!("token file {}: {e}", f.display())))?
            .trim()
            .to_owned(),
        (None, None) => return Ok(None),
    };
    // A token is a header value: visible ASCII (`Bearer <token>`).
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(StartError::Config(
            "the token must be non-empty visible ASCII without spaces".to_owned(),
        ));
    }
    Ok(Some(token))
}

/// Starts a server on the current runtime (the server's own).
async fn start_on(
    config: ServerConfig,
    shutdown: CancellationToken,
) -> Result<Started, StartError> {
    let ServerConfig {
        addr,
        allow_remote,
        insecure_remote_http,
        token,
        token_file,
        tls,
        storage,
        kubeconfig,
        accept_hosts,
        header_read_timeout,
        idle_timeout,
        max_requests_inflight,
        max_mutating_requests_inflight,
        api,
    } = config;
    let token = token_of(token, token_file.as_deref())?;
    if !addr.ip().is_loopback() {
        if !allow_remote {
            return Err(StartError::Config(format!(
                "{addr} is not a loopback address: listening on it needs the explicit remote flag"
            )));
        }
        if token.is_none() {
            return Err(StartError::Config(
                "a non-loopback address needs a bearer token".to_owned(),
            ));
        }
        if tls.is_none() && !insecure_remote_http {
            return Err(StartError::Config(format!(
                "{addr} over plain HTTP would send the token in clear text: serve TLS (--tls-generate, or --tls-cert and --tls-key), or accept that with --insecure-remote-http"
            )));
        }
    }
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| StartError::Bind { addr, source })?;
    let local = listener
        .local_addr()
        .map_err(|source| StartError::Bind { addr, source })?;
    let tls: Option<Tls> = match tls {
        None => None,
        Some(TlsConfig::Generate) => Some(tls::generate(local.ip()).map_err(StartError::Tls)?),
        Some(TlsConfig::Files { cert, key }) => {
            Some(tls::from_files(&cert, &key).map_err(StartError::Tls)?)
        }
    };
    let client = tls.as_ref().and_then(|t| t.client.clone());
    let authn = Authn {
        token: token.clone().map(Arc::from),
        client_certs: client.is_some(),
    };
    // Hosts are checked where nothing else keeps a web page out: no credential needed.
    let local_hosts = if authn.token.is_none() && !authn.client_certs && !accept_hosts.is_empty() {
        Some(LocalHosts::new(&accept_hosts).map_err(StartError::Config)?)
    } else {
        None
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
    kubeconfig::write_with(
        &kubeconfig,
        &url,
        ca_pem.as_deref(),
        Credentials {
            token: token.as_deref(),
            client_cert_pem: client.as_ref().map(|c| c.cert_pem.as_str()),
            client_key_pem: client.as_ref().map(|c| c.key_pem.as_str()),
        },
    )
    .map_err(StartError::Kubeconfig)?;
    let transport = Arc::new(Transport {
        api: Arc::clone(&api),
        filters: Filters {
            local: local_hosts,
            authn,
            inflight: InFlight::new(max_requests_inflight, max_mutating_requests_inflight),
        },
        tls: tls.map(|t| tokio_rustls::TlsAcceptor::from(t.config)),
        timeouts: Timeouts {
            header_read: header_read_timeout,
            idle: idle_timeout,
        },
    });
    let accept = tokio::spawn(transport::accept_loop(
        listener,
        Arc::clone(&transport),
        shutdown,
    ));
    Ok(Started {
        url,
        addr: local,
        kubeconfig,
        ca_pem,
        token,
        client,
        api,
        accept,
        transport,
        tempdir,
    })
}

/// Runs a server until `shutdown` is cancelled (`crdgen serve`); calls `ready` once listening.
/// As a program of its own, it first raises the process's open-files limit
/// ([`raise_open_files_limit`]).
///
/// # Errors
/// See [`StartError`].
pub async fn serve(
    config: ServerConfig,
    shutdown: CancellationToken,
    ready: impl FnOnce(&ApiServer),
) -> Result<(), StartError> {
    raise_open_files_limit();
    let server = ApiServer::start_with(config).await?;
    ready(&server);
    shutdown.cancelled().await;
    server.shutdown().await;
    Ok(())
}
