//! Two server replicas on one etcd (feature `etcd`): what one writes, the other serves and
//! watches; CRDs registered on one are served by the other; compare-and-swap across replicas.
//!
//! Each test starts its own etcd (`/usr/bin/etcd`, Debian's `etcd-server`, or `CRDKIT_ETCD_BIN`)
//! on free loopback ports and kills it at the end; without a binary the test fails, unless
//! `CRDKIT_SKIP_ETCD_TESTS=1`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crdkit_server::{ApiServer, ServerConfig};
use crdkit_storage::{EtcdConfig, EtcdStorage};
use serde_json::json;

use crate::common::{CRDS, CT, Http, manifest_json};

struct Etcd {
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

fn port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn etcd() -> Option<Etcd> {
    let bin = std::env::var_os("CRDKIT_ETCD_BIN")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/usr/bin/etcd")).filter(|p| p.is_file()));
    let Some(bin) = bin else {
        assert!(
            std::env::var_os("CRDKIT_SKIP_ETCD_TESTS").is_some(),
            "no etcd binary: install etcd-server, set CRDKIT_ETCD_BIN, or CRDKIT_SKIP_ETCD_TESTS=1"
        );
        return None;
    };
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let (c, p) = (port(), port());
        let client = format!("http://127.0.0.1:{c}");
        let peer = format!("http://127.0.0.1:{p}");
        let child = Command::new(&bin)
            .arg("--name=crdkit-server-test")
            .arg(format!("--data-dir={}", dir.path().join("data").display()))
            .arg(format!("--listen-client-urls={client}"))
            .arg(format!("--advertise-client-urls={client}"))
            .arg(format!("--listen-peer-urls={peer}"))
            .arg(format!("--initial-advertise-peer-urls={peer}"))
            .arg(format!("--initial-cluster=crdkit-server-test={peer}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut e = Etcd {
            child,
            endpoint: client,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if e.child.try_wait().unwrap().is_some() {
                break;
            }
            let mut config = EtcdConfig::new(&e.endpoint);
            config.connect_timeout = Duration::from_millis(500);
            if EtcdStorage::connect(config).await.is_ok() {
                return Some(e);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    panic!("etcd did not start");
}

async fn replica(e: &Etcd) -> ApiServer {
    let mut config = EtcdConfig::new(&e.endpoint);
    config.prefix = "/crdkit".to_owned();
    let storage = EtcdStorage::connect(config).await.expect("etcd");
    ApiServer::start_with(ServerConfig {
        storage: Some(Arc::new(storage)),
        ..ServerConfig::default()
    })
    .await
    .expect("replica")
}

async fn eventually(h: &Http, path: &str, status: u16) {
    for _ in 0..500 {
        if h.get(path).await.status == status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{path} never answered {status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_share_one_etcd() {
    let Some(e) = etcd().await else { return };
    let (a, b) = (replica(&e).await, replica(&e).await);
    let (ha, hb) = (Http::of(&a), Http::of(&b));
    // Both made the system namespaces; one of them won.
    assert_eq!(
        hb.get("/api/v1/namespaces").await.expect(200).json()["items"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    ha.crd("resourcedefinition-subresources.yaml").await;
    // B learns the CRD from etcd's watch and serves it.
    eventually(&hb, CT, 200).await;
    let mut w = ha.watch(&format!("{CT}?watch=true")).await;
    let created = hb
        .post(CT, &manifest_json("my-crontab-replicas.yaml"))
        .await
        .expect(201)
        .json();
    let ev = w.next().await;
    assert_eq!(ev["type"], "ADDED");
    assert_eq!(
        ev["object"]["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
    // Compare-and-swap across replicas.
    let path = format!("{CT}/my-new-cron-object");
    ha.merge(&path, &json!({"spec": {"replicas": 4}}))
        .await
        .expect(200);
    let mut stale = created.clone();
    stale["spec"]["replicas"] = json!(6);
    assert_eq!(hb.put(&path, &stale).await.json()["reason"], "Conflict");
    let sc = hb
        .merge(&format!("{path}/scale"), &json!({"spec": {"replicas": 5}}))
        .await
        .expect(200)
        .json();
    assert_eq!(sc["spec"]["replicas"], 5);
    assert_eq!(w.next().await["object"]["spec"]["replicas"], 4);
    assert_eq!(w.next().await["object"]["spec"]["replicas"], 5);
    // Deleting the CRD on B deletes its objects and B's and A's routes.
    hb.delete(&format!("{CRDS}/crontabs.stable.example.com"))
        .await
        .expect(200);
    eventually(&ha, &format!("{CRDS}/crontabs.stable.example.com"), 404).await;
    eventually(&ha, CT, 404).await;
    eventually(&hb, CT, 404).await;
    a.shutdown().await;
    b.shutdown().await;
}
