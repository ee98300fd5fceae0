//! How to run a server: [`ServerConfig`], where its certificate comes from ([`TlsConfig`]), and
//! why it may not start ([`StartError`]).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crdkit_storage::Storage;

use crate::api::ApiConfig;

/// kubectl proxy's default `--accept-hosts`: `^localhost$`, `^127\.0\.0\.1$`, `^\[::1\]$`.
pub const DEFAULT_ACCEPT_HOSTS: [&str; 3] = crate::filters::DEFAULT_ACCEPT_HOSTS;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// A non-loopback address without `allow_remote`, without a token, or over plain HTTP
    /// without `insecure_remote_http`; a token given twice or empty; an accept-hosts pattern
    /// that does not compile.
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
    /// The server's threads could not start.
    #[error("runtime: {0}")]
    Runtime(std::io::Error),
}

/// Where a TLS certificate comes from.
#[derive(Clone, Debug)]
pub enum TlsConfig {
    /// A CA generated at start, a serving certificate it signs for the listening address and
    /// `localhost`, and a client certificate it signs, which the kubeconfig carries and which
    /// authenticates requests (as the token does, if there is one too).
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
    /// Allows a non-loopback address (then a token is required, and TLS unless
    /// [`ServerConfig::insecure_remote_http`]).
    pub allow_remote: bool,
    /// Allows a non-loopback address over plain HTTP, where the token crosses the network in
    /// clear text (`--insecure-remote-http`).
    pub insecure_remote_http: bool,
    /// A bearer token every request must carry.
    pub token: Option<String>,
    /// A file holding the bearer token (`--token-file`; read at start, surrounding whitespace
    /// dropped), instead of [`ServerConfig::token`], so that it does not show in `ps`.
    pub token_file: Option<PathBuf>,
    /// Serve HTTPS.
    pub tls: Option<TlsConfig>,
    /// The storage (default: in memory).
    pub storage: Option<Arc<dyn Storage>>,
    /// Where to write the kubeconfig (default: a temporary directory kept as long as the
    /// server); written 0600, its directory created 0700.
    pub kubeconfig: Option<PathBuf>,
    /// The hosts served when requests need no credential (no token, no generated client
    /// certificate): Go regexps matched against the `Host` without its port and against the
    /// host of an `Origin` header, as `kubectl proxy --accept-hosts` (default
    /// [`DEFAULT_ACCEPT_HOSTS`]); anything else is a 403 `Status`. Empty serves every host and
    /// origin.
    pub accept_hosts: Vec<String>,
    /// The time a connection has to send its first request head (TLS handshake included), and
    /// on HTTP/1 each later one (kube-apiserver's `ReadHeaderTimeout`, 32 s).
    pub header_read_timeout: Duration,
    /// The time an HTTP/2 connection with no request open is kept (kube-apiserver's h2
    /// `IdleTimeout`, 90 s).
    pub idle_timeout: Duration,
    /// Read-only requests served at once, watches aside; past it, 429 with `Retry-After: 1`
    /// (`--max-requests-inflight`, 400; 0 for no limit).
    pub max_requests_inflight: usize,
    /// Mutating requests served at once (`--max-mutating-requests-inflight`, 200; 0 for no
    /// limit).
    pub max_mutating_requests_inflight: usize,
    /// API settings.
    pub api: ApiConfig,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
            allow_remote: false,
            insecure_remote_http: false,
            token: None,
            token_file: None,
            tls: None,
            storage: None,
            kubeconfig: None,
            accept_hosts: DEFAULT_ACCEPT_HOSTS.map(str::to_owned).to_vec(),
            header_read_timeout: Duration::from_secs(32),
            idle_timeout: Duration::from_secs(90),
            max_requests_inflight: 400,
            max_mutating_requests_inflight: 200,
            api: ApiConfig::default(),
        }
    }
}
