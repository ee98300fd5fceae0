//! A throwaway etcd for tests that store in etcd (feature `etcd`): `/usr/bin/etcd` (Debian's
//! `etcd-server`) or `CRDKIT_ETCD_BIN`, on free loopback ports, in a temporary directory, killed
//! when dropped. Several environments may share one: each takes its own key prefix.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Error;

/// A running etcd.
pub struct Etcd {
    child: Child,
    endpoint: String,
    _dir: tempfile::TempDir,
}

impl Drop for Etcd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16, Error> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| Error::Start(format!("no free port: {e}")))
}

impl Etcd {
    /// Starts etcd and waits (up to 20 s) until it answers.
    ///
    /// # Errors
    /// No binary, or etcd not coming up.
    pub async fn start() -> Result<Etcd, Error> {
        let bin = std::env::var_os("CRDKIT_ETCD_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/bin/etcd"));
        if !bin.is_file() {
            return Err(Error::Start(format!(
                "no etcd at {} (install etcd-server or set CRDKIT_ETCD_BIN)",
                bin.display()
            )));
        }
        for _ in 0..3 {
            let dir = tempfile::tempdir().map_err(|e| Error::Start(e.to_string()))?;
            let client = format!("http://127.0.0.1:{}", free_port()?);
            let peer = format!("http://127.0.0.1:{}", free_port()?);
            let child = Command::new(&bin)
                .arg("--name=crdkit-envtest")
                .arg(format!("--data-dir={}", dir.path().join("data").display()))
                .arg(format!("--listen-client-urls={client}"))
                .arg(format!("--advertise-client-urls={client}"))
                .arg(format!("--listen-peer-urls={peer}"))
                .arg(format!("--initial-advertise-peer-urls={peer}"))
                .arg(format!("--initial-cluster=crdkit-envtest={peer}"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| Error::Start(format!("{}: {e}", bin.display())))?;
            let mut etcd = Etcd {
                child,
                endpoint: client,
                _dir: dir,
            };
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                if etcd.child.try_wait().ok().flatten().is_some() {
                    break; // a port taken meanwhile: try others
                }
                if crdkit_server::connect_etcd(&etcd.endpoint, "/probe")
                    .await
                    .is_ok()
                {
                    return Ok(etcd);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        Err(Error::Start("etcd did not start".to_owned()))
    }

    /// `http://127.0.0.1:<port>`
    #[must_use]
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Storage in this etcd under a fresh key prefix (for [`crate::Builder::storage`]).
    ///
    /// # Errors
    /// etcd unreachable.
    pub async fn storage(&self) -> Result<Arc<dyn crdkit_server::Storage>, Error> {
        let prefix = format!("/crdkit-envtest-{}", uuid::Uuid::new_v4().simple());
        self.storage_at(&prefix).await
    }

    /// Storage in this etcd under `prefix` (two servers on one prefix are two replicas).
    ///
    /// # Errors
    /// etcd unreachable.
    pub async fn storage_at(&self, prefix: &str) -> Result<Arc<dyn crdkit_server::Storage>, Error> {
        crdkit_server::connect_etcd(&self.endpoint, prefix)
            .await
            .map_err(Error::Start)
    }
}
