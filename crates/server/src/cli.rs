//! `crdgen serve`: the command line of the server.
//!
//! ```text
//! crdgen serve [--addr 127.0.0.1:PORT] [--data DIR] [--kubeconfig FILE]
//!              [--allow-remote [--insecure-remote-http]] [--token TOKEN | --token-file FILE]
//!              [--tls-generate | --tls-cert FILE --tls-key FILE] [--accept-hosts REGEXPS]
//! ```
//! Prints the URL and the kubeconfig path once listening; runs until interrupted (SIGINT/SIGTERM).
//! The token may also come from the environment, [`TOKEN_ENV`], when neither flag gives one.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use tokio_util::sync::CancellationToken;

use crate::server::{ServerConfig, TlsConfig};

/// The environment variable that may hold the token (not shown by `ps`, unlike `--token`).
pub const TOKEN_ENV: &str = "CRDGEN_TOKEN";

/// The usage text.
pub const USAGE: &str =
    "usage: crdgen serve [--addr 127.0.0.1:PORT] [--data DIR] [--kubeconfig FILE]
                    [--allow-remote [--insecure-remote-http]] [--token TOKEN | --token-file FILE]
                    [--tls-generate | --tls-cert FILE --tls-key FILE] [--accept-hosts REGEXPS]
                    [--etcd URL[,URL...] [--etcd-prefix PREFIX]]

Serves the Kubernetes API for CustomResourceDefinitions (kubectl and kube-rs clients).
  --addr ADDR         listen address (default 127.0.0.1:8001; port 0 picks a free port)
  --data DIR          keep objects in DIR (persistent); without it, in memory
  --kubeconfig FILE   write a kubeconfig for the server to FILE (default DIR/kubeconfig or a
                      temporary file)
  --allow-remote      allow a non-loopback address (requires a token, and TLS unless
                      --insecure-remote-http)
  --insecure-remote-http  allow --allow-remote over plain HTTP (the token travels in clear)
  --token TOKEN       require `Authorization: Bearer TOKEN` (visible in `ps`: prefer the file
                      or $CRDGEN_TOKEN)
  --token-file FILE   the token, read from FILE
  --tls-generate      serve HTTPS with a generated CA, serving and client certificate (the
                      kubeconfig carries the CA and the client certificate, which authenticates)
  --tls-cert, --tls-key FILE   serve HTTPS with this PEM certificate chain and key
  --accept-hosts RES  without a token, serve only these hosts (comma-separated Go regexps,
                      matched against Host and Origin; default
                      ^localhost$,^127\\.0\\.0\\.1$,^\\[::1\\]$ as kubectl proxy; '.*' for any)
  --etcd URLS         keep objects in etcd (several servers may share it; built with `etcd`)
  --etcd-prefix P     prefix of every etcd key (default none)";

/// Options of `crdgen serve`.
#[derive(Debug, Default, PartialEq)]
pub struct Options {
    /// `--addr`
    pub addr: Option<SocketAddr>,
    /// `--data`
    pub data: Option<PathBuf>,
    /// `--kubeconfig`
    pub kubeconfig: Option<PathBuf>,
    /// `--allow-remote`
    pub allow_remote: bool,
    /// `--insecure-remote-http`
    pub insecure_remote_http: bool,
    /// `--token`
    pub token: Option<String>,
    /// `--token-file`
    pub token_file: Option<PathBuf>,
    /// `--accept-hosts` (comma-separated)
    pub accept_hosts: Option<Vec<String>>,
    /// `--tls-generate`
    pub tls_generate: bool,
    /// `--tls-cert`
    pub tls_cert: Option<PathBuf>,
    /// `--tls-key`
    pub tls_key: Option<PathBuf>,
    /// `--etcd`
    pub etcd: Option<String>,
    /// `--etcd-prefix`
    pub etcd_prefix: Option<String>,
}

/// Parses the arguments after `serve`.
///
/// # Errors
/// A message for an unknown or incomplete option.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let arg = arg.to_string_lossy().into_owned();
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().map(|v| v.to_string_lossy().into_owned()))
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--addr" => {
                let v = value("--addr")?;
                o.addr = Some(v.parse().map_err(|e| format!("--addr {v}: {e}"))?);
            }
            "--data" => o.data = Some(PathBuf::from(value("--data")?)),
            "--kubeconfig" => o.kubeconfig = Some(PathBuf::from(value("--kubeconfig")?)),
            "--allow-remote" => o.allow_remote = true,
            "--insecure-remote-http" => o.insecure_remote_http = true,
            "--token" => o.token = Some(value("--token")?),
            "--token-file" => o.token_file = Some(PathBuf::from(value("--token-file")?)),
            // kubectl proxy's `MakeRegexpArray`: split on commas, empty patterns dropped.
            "--accept-hosts" => {
                o.accept_hosts = Some(
                    value("--accept-hosts")?
                        .split(',')
                        .filter(|p| !p.is_empty())
                        .map(str::to_owned)
                        .collect(),
                );
            }
            "--tls-generate" => o.tls_generate = true,
            "--tls-cert" => o.tls_cert = Some(PathBuf::from(value("--tls-cert")?)),
            "--tls-key" => o.tls_key = Some(PathBuf::from(value("--tls-key")?)),
            "--etcd" => o.etcd = Some(value("--etcd")?),
            "--etcd-prefix" => o.etcd_prefix = Some(value("--etcd-prefix")?),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    if o.etcd.is_some() && o.data.is_some() {
        return Err("--data and --etcd are two stores: choose one".to_owned());
    }
    if o.tls_cert.is_some() != o.tls_key.is_some() {
        return Err("--tls-cert and --tls-key go together".to_owned());
    }
    if o.token.is_some() && o.token_file.is_some() {
        return Err("--token and --token-file are two tokens: choose one".to_owned());
    }
    Ok(o)
}

/// The server configuration of the options (the storage opened under `--data`); `env_token`
/// is [`TOKEN_ENV`]'s value, used when no flag names a token.
///
/// # Errors
/// The data directory failing to open.
pub async fn config(o: &Options, env_token: Option<String>) -> Result<ServerConfig, String> {
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
        c.storage = Some(crate::storage::open_dir(dir)?);
        c.kubeconfig = Some(dir.join("kubeconfig"));
    }
    if let Some(endpoints) = &o.etcd {
        #[cfg(feature = "etcd")]
        {
            c.storage = Some(
                crate::storage::connect_etcd(endpoints, o.etcd_prefix.as_deref().unwrap_or(""))
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
    Ok(c)
}

/// Runs `crdgen serve` with `args` (after `serve`): 0 after a clean shutdown, 2 for usage
/// errors, 1 when the server cannot start.
#[must_use]
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(async move {
        let env_token = std::env::var(TOKEN_ENV).ok();
        let config = match config(&o, env_token).await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        };
        let shutdown = CancellationToken::new();
        let signal = shutdown.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            signal.cancel();
        });
        let result = crate::server::serve(config, shutdown, |s| {
            // A closed stdout (the reader went away) must not stop the server.
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "serving on {}", s.url());
            let _ = writeln!(out, "kubeconfig: {}", s.kubeconfig().display());
            let _ = out.flush();
        })
        .await;
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        }
    })
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

    fn args(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_options() {
        let o = parse(args(&[
            "--addr",
            "127.0.0.1:0",
            "--data=/tmp/x",
            "--tls-generate",
        ]))
        .unwrap();
        assert_eq!(o.addr, Some("127.0.0.1:0".parse().unwrap()));
        assert_eq!(o.data, Some(PathBuf::from("/tmp/x")));
        assert!(o.tls_generate);
        assert!(parse(args(&["--bogus"])).is_err());
        assert!(parse(args(&["--addr"])).is_err());
        assert!(parse(args(&["--tls-cert", "a"])).is_err());
    }

    #[tokio::test]
    async fn token_sources_and_accepted_hosts() {
        let o = parse(args(&[
            "--token-file",
            "/run/token",
            "--accept-hosts=^a$,,^b$",
            "--allow-remote",
            "--insecure-remote-http",
        ]))
        .unwrap();
        assert_eq!(o.token_file, Some(PathBuf::from("/run/token")));
        assert_eq!(
            o.accept_hosts,
            Some(vec!["^a$".to_owned(), "^b$".to_owned()])
        );
        assert!(o.insecure_remote_http);
        assert!(parse(args(&["--token", "a", "--token-file", "b"])).is_err());
        // The environment's token when no flag gives one; a flag wins.
        let c = config(&parse(args(&[])).unwrap(), Some("env".to_owned()))
            .await
            .unwrap();
        assert_eq!(c.token.as_deref(), Some("env"));
        assert_eq!(
            c.accept_hosts,
            crate::DEFAULT_ACCEPT_HOSTS.map(str::to_owned)
        );
        let c = config(
            &parse(args(&["--token", "flag"])).unwrap(),
            Some("env".to_owned()),
        )
        .await
        .unwrap();
        assert_eq!(c.token.as_deref(), Some("flag"));
        let c = config(&o, Some("env".to_owned())).await.unwrap();
        assert_eq!(
            (c.token, c.token_file),
            (None, Some(PathBuf::from("/run/token")))
        );
        assert!(c.allow_remote && c.insecure_remote_http);
        assert_eq!(c.accept_hosts, ["^a$", "^b$"]);
    }
}
