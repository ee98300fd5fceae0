//! The shared suite on etcd, plus two servers sharing one etcd.
//!
//! Each test starts its own etcd (Debian's `etcd-server`, `/usr/bin/etcd`, or the binary named by
//! `CRDKIT_ETCD_BIN`) on free loopback ports with a temporary data directory, and kills it when
//! the test ends. Without an etcd binary these tests fail, unless `CRDKIT_SKIP_ETCD_TESTS=1`
//! skips them explicitly.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use crdkit_storage::{
    CompactionPolicy, Error, EtcdConfig, EtcdStorage, ListOptions, Storage, WatchCache,
    WatchCacheConfig,
};
use futures_util::StreamExt;

use crate::suite::{Backend, next};

/// An etcd child process, killed on drop.
pub struct EtcdServer {
    child: Child,
    pub endpoint: String,
    _dir: tempfile::TempDir,
}

impl Drop for EtcdServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn etcd_binary() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("CRDKIT_ETCD_BIN") {
        return Some(bin.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("etcd"))
        .find(|bin| bin.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl EtcdServer {
    /// Starts etcd, or `None` when etcd tests are explicitly skipped and no binary exists.
    pub async fn start() -> Option<EtcdServer> {
        let Some(bin) = etcd_binary() else {
            if std::env::var_os("CRDKIT_SKIP_ETCD_TESTS").is_some_and(|v| v == "1") {
                eprintln!("etcd tests skipped: CRDKIT_SKIP_ETCD_TESTS=1 and no etcd binary");
                return None;
            }
            panic!(
                "no etcd binary: install Debian's etcd-server (apt-get install etcd-server) or set \
                 CRDKIT_ETCD_BIN; CRDKIT_SKIP_ETCD_TESTS=1 skips the etcd tests"
            );
        };
        // A port picked here may be taken by another test before etcd binds it: retry.
        for _ in 0..3 {
            if let Some(server) = Self::try_start(&bin).await {
                return Some(server);
            }
        }
        panic!(
            "etcd ({}) did not start on a loopback port in three attempts",
            bin.display()
        );
    }

    async fn try_start(bin: &PathBuf) -> Option<EtcdServer> {
        let dir = tempfile::tempdir().unwrap();
        let (client, peer) = (free_port(), free_port());
        let client_url = format!("http://127.0.0.1:{client}");
        let peer_url = format!("http://127.0.0.1:{peer}");
        let log = std::fs::File::create(dir.path().join("etcd.log")).unwrap();
        let child = Command::new(bin)
            .arg("--name=crdkit-test")
            .arg(format!("--data-dir={}", dir.path().join("data").display()))
            .arg(format!("--listen-client-urls={client_url}"))
            .arg(format!("--advertise-client-urls={client_url}"))
            .arg(format!("--listen-peer-urls={peer_url}"))
            .arg(format!("--initial-advertise-peer-urls={peer_url}"))
            .arg(format!("--initial-cluster=crdkit-test={peer_url}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        let mut server = EtcdServer {
            child,
            endpoint: client_url,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if server.child.try_wait().unwrap().is_some() {
                return None; // Exited: most likely a port clash.
            }
            let mut config = EtcdConfig::new(&server.endpoint);
            config.connect_timeout = Duration::from_millis(500);
            if EtcdStorage::connect(config).await.is_ok() {
                return Some(server);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        None
    }

    pub async fn storage(&self, prefix: &str, policy: CompactionPolicy) -> EtcdStorage {
        let mut config = EtcdConfig::new(&self.endpoint);
        config.prefix = prefix.to_owned();
        config.policy = policy;
        EtcdStorage::connect(config).await.unwrap()
    }
}

fn open(
    policy: CompactionPolicy,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Backend>> + Send>> {
    Box::pin(async move {
        let server = EtcdServer::start().await?;
        // A key prefix, so the suite also checks that the prefix is applied and stripped.
        let store = server.storage("/crdkit-test", policy).await;
        Some(Backend {
            store: Arc::new(store),
            _guard: Box::new(server),
        })
    })
}

crate::storage_suite!(open);

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_etcd() {
    let Some(server) = EtcdServer::start().await else {
        return;
    };
    let keep = CompactionPolicy {
        retain_revisions: None,
    };
    let a: Arc<dyn Storage> = Arc::new(server.storage("/registry", keep).await);
    let b_: Arc<dyn Storage> = Arc::new(server.storage("/registry", keep).await);
    let cache_b = WatchCache::start(Arc::clone(&b_), WatchCacheConfig::default())
        .await
        .unwrap();
    let start = a.current_revision().await.unwrap();
    let mut watch_b = b_.watch("/crontabs/", start).await.unwrap();
    let mut cached_b = cache_b.watch("/crontabs/", start, None).unwrap();

    // A writes; B reads it at the same revision and sees it in its watches.
    let created = a.create("/crontabs/default/x", b("1")).await.unwrap();
    assert_eq!(b_.get("/crontabs/default/x").await.unwrap(), created);
    assert_eq!(
        next(&mut watch_b).await.unwrap().revision,
        created.mod_revision
    );
    let cached = tokio::time::timeout(Duration::from_secs(10), cached_b.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(cached.revision, created.mod_revision);

    // Compare-and-swap across servers: B updates, A's stale update conflicts.
    let updated = b_
        .update("/crontabs/default/x", b("2"), created.mod_revision)
        .await
        .unwrap();
    assert!(matches!(
        a.update("/crontabs/default/x", b("3"), created.mod_revision).await,
        Err(Error::Conflict { current_revision, .. }) if current_revision == updated.mod_revision
    ));
    // Both see one revision sequence.
    assert_eq!(
        a.current_revision().await.unwrap(),
        b_.current_revision().await.unwrap()
    );
    let list = a.list("/crontabs/", &ListOptions::default()).await.unwrap();
    assert_eq!(list.items, vec![updated.clone()]);
    assert_eq!(list.revision, updated.mod_revision);

    // A compacts; B's reads of the old revision fail with Compacted.
    a.compact(updated.mod_revision).await.unwrap();
    let old = ListOptions {
        at_revision: Some(created.mod_revision),
        ..ListOptions::default()
    };
    assert!(matches!(
        b_.list("/crontabs/", &old).await,
        Err(Error::Compacted { compacted, .. }) if compacted == updated.mod_revision
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_outside_the_prefix_are_invisible() {
    let Some(server) = EtcdServer::start().await else {
        return;
    };
    let keep = CompactionPolicy {
        retain_revisions: None,
    };
    let one = server.storage("/one", keep).await;
    let two = server.storage("/two", keep).await;
    let start = one.current_revision().await.unwrap();
    let mut watch = one.watch("/", start).await.unwrap();
    two.create("/k", b("two")).await.unwrap();
    let mine = one.create("/k", b("one")).await.unwrap();
    assert_eq!(one.get("/k").await.unwrap().value, b("one"));
    assert_eq!(
        one.list("/", &ListOptions::default()).await.unwrap().items,
        vec![mine.clone()]
    );
    assert_eq!(next(&mut watch).await.unwrap().revision, mine.mod_revision);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_prefix_lists_and_watches_the_whole_keyspace() {
    let Some(server) = EtcdServer::start().await else {
        return;
    };
    let s: Arc<dyn Storage> = Arc::new(
        server
            .storage(
                "",
                CompactionPolicy {
                    retain_revisions: None,
                },
            )
            .await,
    );
    let cache = WatchCache::start(Arc::clone(&s), WatchCacheConfig::default())
        .await
        .unwrap();
    let start = s.current_revision().await.unwrap();
    let mut watch = s.watch("", start).await.unwrap();
    let mut cached = cache.watch("", start, None).unwrap();
    let a = s.create("/a", b("1")).await.unwrap();
    let z = s.create("z", b("2")).await.unwrap();
    let all = s.list("", &ListOptions::default()).await.unwrap();
    assert_eq!(all.items, vec![a.clone(), z.clone()]);
    let page = s
        .list(
            "",
            &ListOptions {
                limit: Some(1),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!((page.items.len(), page.more), (1, true));
    for kv in [&a, &z] {
        assert_eq!(next(&mut watch).await.unwrap().revision, kv.mod_revision);
        let e = tokio::time::timeout(Duration::from_secs(10), cached.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(e.revision, kv.mod_revision);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_watches_larger_than_four_mebibytes() {
    // gRPC's default limit is 4 MiB per response; a list of 10k CronTabs is larger.
    let Some(server) = EtcdServer::start().await else {
        return;
    };
    let s = server
        .storage(
            "",
            CompactionPolicy {
                retain_revisions: None,
            },
        )
        .await;
    let start = s.current_revision().await.unwrap();
    let value = Bytes::from(vec![b'x'; 512 * 1024]);
    for i in 0..10 {
        s.create(&format!("/big/{i}"), value.clone()).await.unwrap();
    }
    let list = s.list("/big/", &ListOptions::default()).await.unwrap();
    assert_eq!(list.items.len(), 10);
    assert!(list.items.iter().all(|kv| kv.value == value));
    let mut watch = s.watch("/big/", start).await.unwrap();
    for _ in 0..10 {
        assert_eq!(next(&mut watch).await.unwrap().value.as_ref(), Some(&value));
    }
}
