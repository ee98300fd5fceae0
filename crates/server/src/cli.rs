//! `crdgen serve`: the command line of the server.
//!
//! ```text
//! crdgen serve [--addr 127.0.0.1:PORT] [--data DIR] [--kubeconfig FILE]
//!              [--allow-remote --token TOKEN] [--tls-generate | --tls-cert FILE --tls-key FILE]
//! ```
//! Prints the URL and the kubeconfig path once listening; runs until interrupted (SIGINT/SIGTERM).

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use tokio_util::sync::CancellationToken;

use crate::server::{ServerConfig, TlsConfig};

/// The usage text.
pub const USAGE: &str =
    "usage: crdgen serve [--addr 127.0.0.1:PORT] [--data DIR] [--kubeconfig FILE]
                    [--allow-remote --token TOKEN] [--tls-generate | --tls-cert FILE --tls-key FILE]
                    [--etcd URL[,URL...] [--etcd-prefix PREFIX]]

Serves the Kubernetes API for CustomResourceDefinitions (kubectl and kube-rs clients).
  --addr ADDR         listen address (default 127.0.0.1:8001; port 0 picks a free port)
  --data DIR          keep objects in DIR (persistent); without it, in memory
  --kubeconfig FILE   write a kubeconfig for the server to FILE (default DIR/kubeconfig or a
                      temporary file)
  --allow-remote      allow a non-loopback address (requires --token)
  --token TOKEN       require `Authorization: Bearer TOKEN`
  --tls-generate      serve HTTPS with a generated certificate (its CA goes in the kubeconfig)
  --tls-cert, --tls-key FILE   serve HTTPS with this PEM certificate chain and key
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
    /// `--token`
    pub token: Option<String>,
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
            "--token" => o.token = Some(value("--token")?),
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
    Ok(o)
}

/// The server configuration of the options (the storage opened under `--data`).
///
/// # Errors
/// The data directory failing to open.
pub async fn config(o: &Options) -> Result<ServerConfig, String> {
    let mut c = ServerConfig {
        addr: o
            .addr
            .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8001))),
        allow_remote: o.allow_remote,
        token: o.token.clone(),
        ..ServerConfig::default()
    };
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
        let config = match config(&o).await {
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
}
