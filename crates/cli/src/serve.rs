//! `crdgen serve`: the local API server (`crdkit-server`) on an address, with its storage and
//! TLS chosen by flags; runs until SIGINT or SIGTERM.
//!
//! Exit codes: 0 after a clean shutdown, 2 for usage errors, 1 when the server cannot start
//! (the address is taken, the data directory or etcd cannot be opened).
//!
//! The token may come from `--token`, `--token-file` or, when neither flag names one, the
//! environment ([`TOKEN_ENV`]: unlike a flag, not shown by `ps`).

use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use crdkit_server::{ServerConfig, TlsConfig};
use tokio_util::sync::CancellationToken;

use crate::exit::{Failure, INVALID, OK};
use crate::help;

/// The environment variable that may hold the token, used when no flag names one.
const TOKEN_ENV: &str = "CRDGEN_TOKEN";

/// The flags of `crdgen serve`.
#[derive(Debug, Default, PartialEq)]
struct Options {
    addr: Option<SocketAddr>,
    data: Option<PathBuf>,
    kubeconfig: Option<PathBuf>,
    allow_remote: bool,
    insecure_remote_http: bool,
    token: Option<String>,
    token_file: Option<PathBuf>,
    accept_hosts: Option<Vec<String>>,
    tls_generate: bool,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    etcd: Option<String>,
    etcd_prefix: Option<String>,
    /// kube-apiserver's `--service-cluster-ip-range` (one CIDR, or two for dual stack).
    service_cluster_ip_range: Option<String>,
    /// kube-apiserver's `--service-node-port-range` (`30000-32767`).
    service_node_port_range: Option<String>,
}

/// The options, or `None` for `--help`.
fn parse_args(args: Vec<OsString>) -> Result<Option<Options>, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut o = Options::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Long("addr") => {
                let v = parser.value()?.string()?;
                o.addr = Some(
                    v.parse()
                        .map_err(|e| Failure::Usage(format!("--addr {v}: {e}")))?,
                );
            }
            Long("data") => o.data = Some(parser.value()?.into()),
            Long("kubeconfig") => o.kubeconfig = Some(parser.value()?.into()),
            Long("allow-remote") => o.allow_remote = true,
            Long("insecure-remote-http") => o.insecure_remote_http = true,
            Long("token") => o.token = Some(parser.value()?.string()?),
            Long("token-file") => o.token_file = Some(parser.value()?.into()),
            // kubectl proxy's `MakeRegexpArray`: split on commas, empty patterns dropped.
            Long("accept-hosts") => {
                o.accept_hosts = Some(
                    parser
                        .value()?
                        .string()?
                        .split(',')
                        .filter(|p| !p.is_empty())
                        .map(str::to_owned)
                        .collect(),
                );
            }
            Long("tls-generate") => o.tls_generate = true,
            Long("tls-cert") => o.tls_cert = Some(parser.value()?.into()),
            Long("tls-key") => o.tls_key = Some(parser.value()?.into()),
            Long("etcd") => o.etcd = Some(parser.value()?.string()?),
            Long("etcd-prefix") => o.etcd_prefix = Some(parser.value()?.string()?),
            Long("service-cluster-ip-range") => {
                o.service_cluster_ip_range = Some(parser.value()?.string()?);
            }
            Long("service-node-port-range") => {
                o.service_node_port_range = Some(parser.value()?.string()?);
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    if o.etcd.is_some() && o.data.is_some() {
        return Err(Failure::Usage(
            "--data and --etcd are two stores: choose one".to_owned(),
        ));
    }
    if o.tls_cert.is_some() != o.tls_key.is_some() {
        return Err(Failure::Usage(
            "--tls-cert and --tls-key go together".to_owned(),
        ));
    }
    if o.token.is_some() && o.token_file.is_some() {
        return Err(Failure::Usage(
            "--token and --token-file are two tokens: choose one".to_owned(),
        ));
    }
    Ok(Some(o))
}

/// The server's configuration (the storage opened under `--data` or in etcd); `env_token` is
/// [`TOKEN_ENV`]'s value, used when no flag names a token.
async fn config(o: &Options, env_token: Option<String>) -> Result<ServerConfig, String> {
    let token = match (&o.token, &o.token_file) {
        (None, None) => env_token.filter(|t| !t.is_empty()),
        (t, _) => t.clone(),
    };
    let mut c = ServerConfig {
        addr: o
            .addr
            .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8001))),
        allow_remote: o.allow_remote,
        insecure_remote_http: o.insecure_remote_http,
        token,
        token_file: o.token_file.clone(),
        ..ServerConfig::default()
    };
    // The request log is for tests asserting on a server's requests (crdkit-envtest); nothing
    // reads it here, and each request would copy six strings into it.
    c.api.request_log = 0;
    if let Some(hosts) = &o.accept_hosts {
        c.accept_hosts.clone_from(hosts);
    }
    c.tls = match (&o.tls_cert, &o.tls_key) {
        (Some(cert), Some(key)) => Some(TlsConfig::Files {
            cert: cert.clone(),
            key: key.clone(),
        }),
        _ if o.tls_generate => Some(TlsConfig::Generate),
        _ => None,
    };
    if let Some(dir) = &o.data {
        c.storage = Some(crdkit_server::open_dir(dir)?);
        c.kubeconfig = Some(dir.join("kubeconfig"));
    }
    if let Some(endpoints) = &o.etcd {
        #[cfg(feature = "etcd")]
        {
            c.storage = Some(
                crdkit_server::connect_etcd(endpoints, o.etcd_prefix.as_deref().unwrap_or(""))
                    .await?,
            );
        }
        #[cfg(not(feature = "etcd"))]
        return Err(format!(
            "--etcd {endpoints}: this build has no etcd support (feature `etcd`)"
        ));
    }
    if let Some(k) = &o.kubeconfig {
        c.kubeconfig = Some(k.clone());
    }
    if let Some(r) = &o.service_cluster_ip_range {
        c.api.service_cluster_ip_ranges = r.split(',').map(|s| s.trim().to_owned()).collect();
    }
    if let Some(r) = &o.service_node_port_range {
        c.api.service_node_port_range.clone_from(r);
    }
    Ok(c)
}

/// Runs `crdgen serve` with `args` (after `serve`): prints `serving on URL` and
/// `kubeconfig: PATH` on `out` once listening, and serves until SIGINT or SIGTERM. Returns
/// [`OK`] after a clean shutdown, [`INVALID`] when the server cannot start (the reason on `err`).
pub(crate) fn run(
    args: Vec<OsString>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    let Some(o) = parse_args(args)? else {
        help::write(out, Some("serve"))?;
        return Ok(OK);
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "crdgen: {e}");
            return Ok(INVALID);
        }
    };
    let result = runtime.block_on(async {
        let config = config(&o, std::env::var(TOKEN_ENV).ok()).await?;
        let shutdown = CancellationToken::new();
        let signal = shutdown.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            signal.cancel();
        });
        crdkit_server::serve(config, shutdown, |s| {
            // A closed stdout (the reader went away) must not stop the server.
            let _ = writeln!(out, "serving on {}", s.url());
            let _ = writeln!(out, "kubeconfig: {}", s.kubeconfig().display());
            let _ = out.flush();
        })
        .await
        .map_err(|e| e.to_string())
    });
    match result {
        Ok(()) => Ok(OK),
        Err(e) => {
            let _ = writeln!(err, "crdgen: {e}");
            Ok(INVALID)
        }
    }
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(a: &[&str]) -> Result<Option<Options>, Failure> {
        parse_args(a.iter().map(OsString::from).collect())
    }

    #[test]
    fn every_flag() {
        let o = parse(&[
            "--addr",
            "127.0.0.1:0",
            "--data=/tmp/x",
            "--kubeconfig",
            "/tmp/k",
            "--allow-remote",
            "--token=t",
            "--tls-cert",
            "c.pem",
            "--tls-key",
            "k.pem",
            "--tls-generate",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(
            o,
            Options {
                addr: Some("127.0.0.1:0".parse().unwrap()),
                data: Some(PathBuf::from("/tmp/x")),
                kubeconfig: Some(PathBuf::from("/tmp/k")),
                allow_remote: true,
                insecure_remote_http: false,
                token: Some("t".to_owned()),
                token_file: None,
                accept_hosts: None,
                tls_generate: true,
                tls_cert: Some(PathBuf::from("c.pem")),
                tls_key: Some(PathBuf::from("k.pem")),
                etcd: None,
                etcd_prefix: None,
                service_cluster_ip_range: None,
                service_node_port_range: None,
            }
        );
        let o = parse(&[
            "--service-cluster-ip-range",
            "10.0.0.0/16,fd00::/108",
            "--service-node-port-range=30000-30100",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(
            o.service_cluster_ip_range.as_deref(),
            Some("10.0.0.0/16,fd00::/108")
        );
        assert_eq!(o.service_node_port_range.as_deref(), Some("30000-30100"));
        let o = parse(&[
            "--etcd",
            "http://127.0.0.1:2379,http://[::1]:2379",
            "--etcd-prefix",
            "/p",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(
            o.etcd.as_deref(),
            Some("http://127.0.0.1:2379,http://[::1]:2379")
        );
        assert_eq!(o.etcd_prefix.as_deref(), Some("/p"));
        assert!(parse(&["-h"]).unwrap().is_none());
    }

    #[test]
    fn usage_errors() {
        let usage = |a: &[&str]| match parse(a) {
            Err(Failure::Usage(m)) => m,
            other => panic!("{a:?}: {other:?}"),
        };
        assert_eq!(usage(&["--bogus"]), "invalid option '--bogus'");
        assert_eq!(usage(&["--addr"]), "missing argument for option '--addr'");
        assert!(usage(&["--addr", "localhost"]).starts_with("--addr localhost: "));
        assert_eq!(
            usage(&["--tls-cert", "a"]),
            "--tls-cert and --tls-key go together"
        );
        assert_eq!(
            usage(&["--data", "d", "--etcd", "http://e"]),
            "--data and --etcd are two stores: choose one"
        );
        assert_eq!(usage(&["extra"]), "unexpected argument \"extra\"");
        assert_eq!(
            usage(&["--token", "a", "--token-file", "b"]),
            "--token and --token-file are two tokens: choose one"
        );
    }

    #[test]
    fn token_sources_and_accepted_hosts() {
        let o = parse(&[
            "--token-file",
            "/run/token",
            "--accept-hosts=^a$,,^b$",
            "--allow-remote",
            "--insecure-remote-http",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(o.token_file, Some(PathBuf::from("/run/token")));
        assert_eq!(
            o.accept_hosts,
            Some(vec!["^a$".to_owned(), "^b$".to_owned()])
        );
        assert!(o.insecure_remote_http);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        // The environment's token when no flag names one; a flag wins.
        let c = rt
            .block_on(config(&Options::default(), Some("env".to_owned())))
            .unwrap();
        assert_eq!(c.token.as_deref(), Some("env"));
        assert_eq!(
            c.accept_hosts,
            crdkit_server::DEFAULT_ACCEPT_HOSTS.map(str::to_owned)
        );
        // No request log: nothing reads it outside tests.
        assert_eq!(c.api.request_log, 0);
        let flag = parse(&["--token", "flag"]).unwrap().unwrap();
        let c = rt.block_on(config(&flag, Some("env".to_owned()))).unwrap();
        assert_eq!(c.token.as_deref(), Some("flag"));
        let c = rt.block_on(config(&o, Some("env".to_owned()))).unwrap();
        assert_eq!(
            (c.token, c.token_file),
            (None, Some(PathBuf::from("/run/token")))
        );
        assert!(c.allow_remote && c.insecure_remote_http);
        assert_eq!(c.accept_hosts, ["^a$", "^b$"]);
    }
}
