//! Storage benchmarks: create, get, list of 10k objects, and watch fan-out to 100 watchers
//! through the watch cache, on the memory and redb backends, and on etcd with `--features etcd`
//! when an etcd binary is installed (the bench starts its own on loopback ports).
//!
//! `cargo bench -p crdkit-storage [--features etcd]`

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use crdkit_storage::{
    CompactionPolicy, ListOptions, MemoryStorage, RedbStorage, Storage, WatchCache,
    WatchCacheConfig,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use futures_util::StreamExt;
use tokio::runtime::Runtime;

/// A CronTab-sized object (about 400 bytes of JSON).
fn object(i: u64) -> Bytes {
    Bytes::from(format!(
        r#"{{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{{"name":"cron-{i}","namespace":"default","uid":"0b9f1a52-8a7e-4d0e-9b8c-{i:012}","generation":1,"creationTimestamp":"2025-01-01T00:00:00Z","labels":{{"app":"bench","tier":"backend"}}}},"spec":{{"cronSpec":"* * * * */5","image":"my-awesome-cron-image","replicas":1}},"status":{{"replicas":1,"labelSelector":"app=bench"}}}}"#
    ))
}

struct Backend {
    name: &'static str,
    store: Arc<dyn Storage>,
    _guard: Box<dyn std::any::Any>,
}

fn backends(rt: &Runtime) -> Vec<Backend> {
    let policy = CompactionPolicy::default();
    let dir = tempfile::tempdir().unwrap();
    let redb = RedbStorage::open(dir.path().join("bench.redb"), policy).unwrap();
    #[cfg_attr(not(feature = "etcd"), allow(unused_mut))]
    let mut all = vec![
        Backend {
            name: "memory",
            store: Arc::new(MemoryStorage::with_policy(policy)),
            _guard: Box::new(()),
        },
        Backend {
            name: "redb",
            store: Arc::new(redb),
            _guard: Box::new(dir),
        },
    ];
    #[cfg(feature = "etcd")]
    if let Some(etcd) = rt.block_on(etcd::start()) {
        all.push(etcd);
    }
    let _ = rt;
    all
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    for backend in backends(&rt) {
        let store = &backend.store;
        let counter = AtomicU64::new(0);

        let mut group = c.benchmark_group("create");
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::from_parameter(backend.name), |b| {
            b.to_async(&rt).iter(|| async {
                let i = counter.fetch_add(1, Ordering::Relaxed);
                store
                    .create(&format!("/bench/create/{i:08}"), object(i))
                    .await
                    .unwrap();
            });
        });
        group.finish();

        // 16 concurrent writers: redb commits them in shared batches.
        let mut group = c.benchmark_group("create_16_concurrent");
        group.throughput(Throughput::Elements(16));
        group.bench_function(BenchmarkId::from_parameter(backend.name), |b| {
            b.to_async(&rt).iter(|| async {
                let writes = (0..16).map(|_| {
                    let i = counter.fetch_add(1, Ordering::Relaxed);
                    let store = Arc::clone(store);
                    tokio::spawn(async move {
                        store
                            .create(&format!("/bench/create/{i:08}"), object(i))
                            .await
                            .unwrap()
                    })
                });
                for write in writes.collect::<Vec<_>>() {
                    write.await.unwrap();
                }
            });
        });
        group.finish();

        // 10k objects for get and list.
        rt.block_on(async {
            let mut tasks = Vec::new();
            for chunk in 0..16u64 {
                let store = Arc::clone(store);
                tasks.push(tokio::spawn(async move {
                    for i in (chunk * 625)..((chunk + 1) * 625) {
                        store
                            .create(&format!("/bench/list/{i:08}"), object(i))
                            .await
                            .unwrap();
                    }
                }));
            }
            for task in tasks {
                task.await.unwrap();
            }
        });

        let mut group = c.benchmark_group("get");
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::from_parameter(backend.name), |b| {
            b.to_async(&rt).iter(|| async {
                let i = counter.fetch_add(7919, Ordering::Relaxed) % 10_000;
                store.get(&format!("/bench/list/{i:08}")).await.unwrap();
            });
        });
        group.finish();

        let mut group = c.benchmark_group("list_10k");
        group
            .sample_size(10)
            .throughput(Throughput::Elements(10_000));
        group.bench_function(BenchmarkId::from_parameter(backend.name), |b| {
            b.to_async(&rt).iter(|| async {
                let list = store
                    .list("/bench/list/", &ListOptions::default())
                    .await
                    .unwrap();
                assert_eq!(list.items.len(), 10_000);
            });
        });
        group.finish();

        let mut group = c.benchmark_group("list_10k_pages_of_500");
        group
            .sample_size(10)
            .throughput(Throughput::Elements(10_000));
        group.bench_function(BenchmarkId::from_parameter(backend.name), |b| {
            b.to_async(&rt).iter(|| async {
                let mut options = ListOptions {
                    limit: Some(500),
                    ..ListOptions::default()
                };
                let mut n = 0;
                loop {
                    let page = store.list("/bench/list/", &options).await.unwrap();
                    n += page.items.len();
                    if !page.more {
                        break;
                    }
                    options.at_revision = Some(page.revision);
                    options.continue_key = page.items.last().map(|kv| kv.key.clone());
                }
                assert_eq!(n, 10_000);
            });
        });
        group.finish();

        // One write, delivered to 100 watchers of one watch cache.
        let cache = rt
            .block_on(WatchCache::start(
                Arc::clone(store),
                WatchCacheConfig::default(),
            ))
            .unwrap();
        let now = rt.block_on(store.current_revision()).unwrap();
        let pool = std::sync::Mutex::new(
            (0..100)
                .map(|_| cache.watch("/bench/fan/", now, None).unwrap())
                .collect::<Vec<_>>(),
        );
        let mut group = c.benchmark_group("watch_fan_out_100");
        group.throughput(Throughput::Elements(100));
        group.bench_function(BenchmarkId::from_parameter(backend.name), |b| {
            b.to_async(&rt).iter(|| async {
                let i = counter.fetch_add(1, Ordering::Relaxed);
                let kv = store
                    .create(&format!("/bench/fan/{i:08}"), object(i))
                    .await
                    .unwrap();
                let mut watchers = std::mem::take(&mut *pool.lock().unwrap());
                for watcher in &mut watchers {
                    let event = watcher.next().await.unwrap().unwrap();
                    assert_eq!(event.revision, kv.mod_revision);
                }
                *pool.lock().unwrap() = watchers;
            });
        });
        group.finish();
        drop(cache);
    }
}

#[cfg(feature = "etcd")]
mod etcd {
    use std::process::{Child, Command, Stdio};
    use std::sync::Arc;
    use std::time::Duration;

    use crdkit_storage::{CompactionPolicy, EtcdConfig, EtcdStorage};

    // The temp dir is held so it outlives etcd.
    struct Etcd(Child, #[allow(dead_code)] tempfile::TempDir);

    impl Drop for Etcd {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    fn port() -> u16 {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    /// Starts etcd from `CRDKIT_ETCD_BIN` or `/usr/bin/etcd`; `None` (and a note) without one.
    pub async fn start() -> Option<super::Backend> {
        let bin = std::env::var_os("CRDKIT_ETCD_BIN")
            .map_or_else(|| "/usr/bin/etcd".into(), std::path::PathBuf::from);
        if !bin.is_file() {
            eprintln!("no etcd at {}: etcd benchmarks skipped", bin.display());
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let (client, peer) = (
            format!("http://127.0.0.1:{}", port()),
            format!("http://127.0.0.1:{}", port()),
        );
        let child = Command::new(bin)
            .args([
                "--name=bench".to_owned(),
                format!("--data-dir={}", dir.path().display()),
                format!("--listen-client-urls={client}"),
                format!("--advertise-client-urls={client}"),
                format!("--listen-peer-urls={peer}"),
                format!("--initial-advertise-peer-urls={peer}"),
                format!("--initial-cluster=bench={peer}"),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let guard = Etcd(child, dir);
        for _ in 0..200 {
            let mut config = EtcdConfig::new(&client);
            config.policy = CompactionPolicy::default();
            config.connect_timeout = Duration::from_millis(500);
            if let Ok(store) = EtcdStorage::connect(config).await {
                return Some(super::Backend {
                    name: "etcd",
                    store: Arc::new(store),
                    _guard: Box::new(guard),
                });
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        eprintln!("etcd did not start: etcd benchmarks skipped");
        None
    }
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! { name = benches; config = config(); targets = bench }
criterion_main!(benches);
