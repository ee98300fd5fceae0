//! A ready HTTPS server for a [`Webhook`]: TLS by rustls, HTTP/1.1 and HTTP/2 by hyper, graceful
//! shutdown through a `CancellationToken`.
//!
//! Each connection is served on its own task, owned by the server's task: its TLS handshake is
//! bounded in time, and on shutdown the listener closes, open connections finish the requests
//! they have (new ones on them are refused), and whatever is left after the grace period is
//! dropped.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use rustls::ServerConfig;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

use crate::tls::{self, Tls};
use crate::{ServerError, Webhook};

/// How long a client may take over its TLS handshake or its request headers.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long shutdown waits for open requests.
const GRACE: Duration = Duration::from_secs(10);

/// An HTTPS server for a [`Webhook`]; [`Server::start`] runs it.
#[derive(Debug)]
pub struct Server {
    webhook: Webhook,
    addr: SocketAddr,
    path: String,
    tls: Tls,
    dns_names: Vec<String>,
}

impl Server {
    /// A server on `127.0.0.1:9443` (controller-runtime's webhook port), path `/convert`, with
    /// a generated certificate.
    #[must_use]
    pub fn new(webhook: Webhook) -> Server {
        Server {
            webhook,
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 9443)),
            path: "/convert".to_owned(),
            tls: Tls::Generate,
            dns_names: Vec::new(),
        }
    }

    /// The address to listen on; port 0 picks a free one ([`RunningServer::local_addr`]).
    /// Inside a cluster, bind the unspecified address (`Ipv4Addr::UNSPECIFIED`) so that the
    /// Service reaches the pod.
    #[must_use]
    pub fn bind(mut self, addr: SocketAddr) -> Server {
        self.addr = addr;
        self
    }

    /// The path of the handler (the CRD's `clientConfig.service.path`); `/healthz` answers
    /// `ok` besides.
    #[must_use]
    pub fn path(mut self, path: &str) -> Server {
        path.clone_into(&mut self.path);
        self
    }

    /// The certificate: generated (the default), PEM, or a rustls configuration.
    #[must_use]
    pub fn tls(mut self, tls: Tls) -> Server {
        self.tls = tls;
        self
    }

    /// More names for a generated certificate, besides `localhost` and the bound address: the
    /// Service's `<name>.<namespace>.svc` for a webhook called through `clientConfig.service`.
    #[must_use]
    pub fn dns_names<I: IntoIterator<Item = S>, S: Into<String>>(mut self, names: I) -> Server {
        self.dns_names.extend(names.into_iter().map(Into::into));
        self
    }

    /// Binds, makes the certificate if needed, and serves until [`RunningServer::shutdown`] or
    /// the token of [`RunningServer::shutdown_token`] is cancelled. Call it inside a tokio
    /// runtime.
    ///
    /// # Errors
    /// The path is not a route (`/` first, not `/healthz`), the address cannot be bound, or the
    /// certificate cannot be made or read.
    pub async fn start(self) -> Result<RunningServer, ServerError> {
        if !self.path.starts_with('/') || self.path == "/healthz" {
            return Err(ServerError::Path(self.path));
        }
        let listener = TcpListener::bind(self.addr)
            .await
            .map_err(|e| ServerError::Bind(self.addr, e))?;
        let local_addr = listener
            .local_addr()
            .map_err(|e| ServerError::Bind(self.addr, e))?;
        let (config, ca_pem) = match self.tls {
            Tls::Generate => {
                let g = tls::generate(&tls::names_for(local_addr.ip(), &self.dns_names))?;
                (tls::server_config(g.chain, g.key)?, Some(g.ca_pem))
            }
            Tls::Pem { cert_chain, key } => {
                let (chain, key) = tls::from_pem(&cert_chain, &key)?;
                (tls::server_config(chain, key)?, None)
            }
            Tls::Config(config) => (config, None),
        };
        let token = CancellationToken::new();
        let router = self.webhook.router(&self.path);
        let task = tokio::spawn(serve(listener, config, router, token.clone()));
        Ok(RunningServer {
            local_addr,
            path: self.path,
            ca_pem,
            token,
            task,
        })
    }
}

/// The accept loop: one task per connection, watched for graceful shutdown.
async fn serve(
    listener: TcpListener,
    config: Arc<ServerConfig>,
    router: axum::Router,
    token: CancellationToken,
) {
    let acceptor = TlsAcceptor::from(config);
    let graceful = GracefulShutdown::new();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HANDSHAKE_TIMEOUT);
    let builder = Arc::new(builder);
    loop {
        let (tcp, _peer) = tokio::select! {
            () = token.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(conn) => conn,
                // Out of file descriptors and the like: wait a little rather than spin.
                Err(_) => {
                    tokio::select! {
                        () = token.cancelled() => break,
                        () = tokio::time::sleep(Duration::from_millis(100)) => continue,
                    }
                }
            },
        };
        let (acceptor, builder, router) = (acceptor.clone(), Arc::clone(&builder), router.clone());
        let (watcher, token) = (graceful.watcher(), token.clone());
        tokio::spawn(async move {
            let handshake = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp));
            let tls = tokio::select! {
                () = token.cancelled() => return,
                tls = handshake => match tls {
                    Ok(Ok(tls)) => tls,
                    // A client that fails or stalls its handshake gets nothing more.
                    _ => return,
                },
            };
            let service = TowerToHyperService::new(router);
            let conn = builder
                .serve_connection(TokioIo::new(tls), service)
                .into_owned();
            // Errors here are the client's (reset, protocol): nothing to answer.
            let _ = watcher.watch(conn).await;
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(GRACE, graceful.shutdown()).await;
}

/// A started [`Server`].
#[derive(Debug)]
pub struct RunningServer {
    local_addr: SocketAddr,
    path: String,
    ca_pem: Option<String>,
    token: CancellationToken,
    task: JoinHandle<()>,
}

impl RunningServer {
    /// The address listened on.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// `https://<address>/<path>`: the CRD's `clientConfig.url` for a webhook outside the
    /// cluster.
    #[must_use]
    pub fn url(&self) -> String {
        format!("https://{}{}", self.local_addr, self.path)
    }

    /// The generated CA's certificate (PEM); `None` when the certificate was given.
    #[must_use]
    pub fn ca_pem(&self) -> Option<&str> {
        self.ca_pem.as_deref()
    }

    /// The CRD's `caBundle`: base64 of [`RunningServer::ca_pem`].
    #[must_use]
    pub fn ca_bundle(&self) -> Option<String> {
        self.ca_pem.as_deref().map(tls::ca_bundle)
    }

    /// A token that stops the server when cancelled (e.g. on `SIGTERM`).
    #[must_use]
    pub fn shutdown_token(&self) -> CancellationToken {
        self.token.clone()
    }

    /// Stops accepting, lets open requests finish (up to 10 s), and returns when done.
    pub async fn shutdown(self) {
        self.token.cancel();
        let _ = self.task.await;
    }

    /// Waits until the server stops (its token cancelled elsewhere).
    pub async fn wait(self) {
        let _ = self.task.await;
    }
}
