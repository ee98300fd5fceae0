//! The server at scale, against a bare hyper 1.x server measured in the same run: GET and create
//! throughput at concurrency 1/16/64, LIST of 1k→50k CronTabs against a serde_json floor,
//! label-selected LISTs, memory after LISTs, watch fan-out from 1 to 1,000 watchers (server
//! CPU per delivery), name-selected watchers connecting over 20k objects, start to first 200.
//!
//! `cargo bench -p crdkit-server --bench scale` (release); loopback only, every phase bounded in
//! count. LIST times are the fastest of 9 rounds, throughput ratios the median of 5 alternating
//! rounds (the machine is shared: other work only adds). `CRDKIT_SCALE_OBJECTS=1000,10000` and
//! `CRDKIT_SCALE_WATCHERS=1,100` pick sizes, `CRDKIT_SCALE_UPDATES=300` the updates per fan-out
//! (default 300, 100 from 1,000 watchers), `CRDKIT_SCALE_FANOUT_STORED=20000` the objects stored
//! beside the watched one during a fan-out, `CRDKIT_SCALE_REQUESTS=create` (or `get`) one kind of
//! request and `CRDKIT_SCALE_CONCURRENCY=16` the concurrencies of the throughput phase (an empty
//! value skips a phase).
//! Server CPU is the CPU time of the server runtime's threads (Linux `/proc/self/task`).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use crdkit_server::{ApiServer, ServerConfig};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::runtime::Runtime;

// The allocator `crdgen serve` ships with; `--features system-allocator` measures the system's.
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const NS: &str = "/apis/stable.example.com/v1/namespaces/default/crontabs";
const SERVER_THREAD: &str = "scale-srv";
/// The threads of the runtime the server owns (`server::runtime`), where requests run.
const SERVER_RUNTIME_THREAD: &str = "crdkit-server";

fn runtime(name: &'static str) -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(name)
        .enable_all()
        .build()
        .unwrap()
}

/// CPU time of the server runtime's threads.
fn server_cpu() -> Duration {
    let mut ticks = 0u64;
    if let Ok(dir) = std::fs::read_dir("/proc/self/task") {
        for task in dir.flatten() {
            let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
                continue;
            };
            // `pid (comm) state ...`: comm may hold spaces, so split after the last ')'.
            let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
                continue;
            };
            let comm = &stat[open + 1..close];
            if !comm.starts_with(SERVER_THREAD) && !comm.starts_with(SERVER_RUNTIME_THREAD) {
                continue;
            }
            let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
            let utime: u64 = fields.get(11).and_then(|f| f.parse().ok()).unwrap_or(0);
            let stime: u64 = fields.get(12).and_then(|f| f.parse().ok()).unwrap_or(0);
            ticks += utime + stime;
        }
    }
    Duration::from_millis(ticks * 10)
}

fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / 1048576.0
}

async fn connect(addr: SocketAddr) -> SendRequest<Full<Bytes>> {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    sender
}

fn request(method: &str, path: &str, body: Bytes, ct: &str) -> http::Request<Full<Bytes>> {
    http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost")
        .header("content-type", ct)
        .body(Full::new(body))
        .unwrap()
}

async fn send(c: &mut SendRequest<Full<Bytes>>, req: http::Request<Full<Bytes>>) -> (u16, Bytes) {
    c.ready().await.unwrap();
    let resp = c.send_request(req).await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.into_body().collect().await.unwrap().to_bytes())
}

fn crontab(i: usize) -> Bytes {
    Bytes::from(
        json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": format!("cron-{i:06}"), "labels": {"app": "bench", "bucket": (i % 100).to_string()}},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3}})
        .to_string(),
    )
}

// The bare hyper baseline: GET answers a fixed 600-byte JSON body, POST echoes a parsed body.
async fn bare(
    req: http::Request<hyper::body::Incoming>,
) -> Result<http::Response<Full<Bytes>>, Infallible> {
    static FIXED: std::sync::OnceLock<Bytes> = std::sync::OnceLock::new();
    let body = if req.method() == http::Method::POST {
        let bytes = req
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Bytes::from(serde_json::to_vec(&v).unwrap())
    } else {
        FIXED
            .get_or_init(|| {
                let pad = "x".repeat(600 - r#"{"kind":"Fixed","pad":""}"#.len());
                Bytes::from(json!({"kind": "Fixed", "pad": pad}).to_string())
            })
            .clone()
    };
    let mut r = http::Response::new(Full::new(body));
    r.headers_mut()
        .insert("content-type", "application/json".parse().unwrap());
    Ok(r)
}

async fn start_bare() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), hyper::service::service_fn(bare))
                    .await;
            });
        }
    });
    addr
}

async fn start_crdkit() -> ApiServer {
    // Configured as `crdgen serve` runs it: no request log (only tests read one).
    let mut config = ServerConfig::default();
    config.api.request_log = 0;
    let s = ApiServer::start_with(config).await.unwrap();
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "kind": "CronTab"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object", "properties": {
                    "cronSpec": {"type": "string", "pattern": "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},
                    "image": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1, "maximum": 10}}}}}}}]}});
    let mut c = connect(s.addr()).await;
    let (status, _) = send(
        &mut c,
        request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            crd.to_string().into(),
            "application/json",
        ),
    )
    .await;
    assert_eq!(status, 201);
    // Served once Established (the CRD controller's condition).
    for _ in 0..500 {
        if send(&mut c, request("GET", NS, Bytes::new(), "application/json"))
            .await
            .0
            == 200
        {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the CRD was not served within 5 s");
}

/// Requests per second of `total` requests made by `concurrency` connections; each request is
/// `make(i)` and must answer `want`.
async fn throughput(
    addr: SocketAddr,
    concurrency: usize,
    total: usize,
    want: u16,
    make: Make,
) -> f64 {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let (next, make) = (Arc::clone(&next), Arc::clone(&make));
        tasks.push(tokio::spawn(async move {
            let mut c = connect(addr).await;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let (status, body) = send(&mut c, make(i)).await;
                assert_eq!(status, want, "{}", String::from_utf8_lossy(&body));
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    total as f64 / started.elapsed().as_secs_f64()
}

type Make = Arc<dyn Fn(usize) -> http::Request<Full<Bytes>> + Send + Sync>;

/// Rounds of the throughput phase: crdkit and the bare server alternate, each round's ratio
/// taken between two runs seconds apart, so that a neighbour's load on a shared machine moves
/// one round, not the result.
const ROUNDS: usize = 5;

struct Rounds {
    ours: Vec<f64>,
    base: Vec<f64>,
    cpu: [Duration; 2],
    requests: usize,
}

impl Rounds {
    fn print(&self, what: &str, concurrency: usize) {
        let ratios: Vec<f64> = self
            .ours
            .iter()
            .zip(&self.base)
            .map(|(o, b)| o / b)
            .collect();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), r| (lo.min(*r), hi.max(*r)));
        let per = |cpu: Duration| cpu.as_secs_f64() * 1e6 / self.requests as f64;
        println!(
            "| {what} | {concurrency} | {:.0} | {:.0} | {:.2} ({lo:.2}–{hi:.2}) | {:.1} / {:.1} µs |",
            median(self.ours.clone()),
            median(self.base.clone()),
            median(ratios),
            per(self.cpu[0]),
            per(self.cpu[1]),
        );
    }
}

/// [`ROUNDS`] rounds of `total` requests at `concurrency` on crdkit then on the bare server
/// (`targets`: address, expected status, request maker each).
fn rounds(
    cli: &Runtime,
    targets: [(SocketAddr, u16, Make); 2],
    concurrency: usize,
    total: usize,
) -> Rounds {
    let mut r = Rounds {
        ours: Vec::new(),
        base: Vec::new(),
        cpu: [Duration::ZERO; 2],
        requests: total * ROUNDS,
    };
    for _ in 0..ROUNDS {
        for (i, (addr, want, make)) in targets.iter().enumerate() {
            let cpu = server_cpu();
            let rate = cli.block_on(throughput(
                *addr,
                concurrency,
                total,
                *want,
                Arc::clone(make),
            ));
            r.cpu[i] += server_cpu() - cpu;
            if i == 0 {
                r.ours.push(rate)
            } else {
                r.base.push(rate)
            }
        }
    }
    r
}

fn sizes(var: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(var).map_or_else(
        |_| default.to_vec(),
        |v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let srv = runtime(SERVER_THREAD);
    let cli = runtime("scale-cli");
    println!(
        "# crdkit-server at scale (ratios within this run; server = 2 worker threads; allocator: {})",
        if cfg!(feature = "system-allocator") {
            "system"
        } else {
            "mimalloc"
        }
    );

    // Start to first 200.
    let mut crdkit_start = Vec::new();
    let mut bare_start = Vec::new();
    for _ in 0..10 {
        let t = Instant::now();
        let s = srv.block_on(ApiServer::start()).unwrap();
        let addr = s.addr();
        let (status, _) = cli.block_on(async {
            send(
                &mut connect(addr).await,
                request("GET", "/version", Bytes::new(), ""),
            )
            .await
        });
        assert_eq!(status, 200);
        crdkit_start.push(t.elapsed().as_secs_f64() * 1e3);
        srv.block_on(s.shutdown());
        let t = Instant::now();
        let addr = srv.block_on(start_bare());
        let (status, _) = cli.block_on(async {
            send(
                &mut connect(addr).await,
                request("GET", "/", Bytes::new(), ""),
            )
            .await
        });
        assert_eq!(status, 200);
        bare_start.push(t.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "start to first 200: crdkit {:.2} ms, bare hyper {:.2} ms (median of 10)",
        median(crdkit_start),
        median(bare_start)
    );

    let bare_addr = srv.block_on(start_bare());
    let server = srv.block_on(start_crdkit());
    let addr = server.addr();

    // GET one object and create, against the bare server.
    cli.block_on(async {
        let (status, _) = send(
            &mut connect(addr).await,
            request("POST", NS, crontab(999_999), "application/json"),
        )
        .await;
        assert_eq!(status, 201);
    });
    println!(
        "\n| request | concurrency | crdkit req/s | bare hyper req/s | ratio (median of {ROUNDS} rounds; range) | server CPU per request, crdkit / bare |\n|---|---|---|---|---|---|"
    );
    let created = Arc::new(AtomicUsize::new(1_000_000));
    let requests = std::env::var("CRDKIT_SCALE_REQUESTS").unwrap_or_else(|_| "get,create".into());
    for concurrency in sizes("CRDKIT_SCALE_CONCURRENCY", &[1, 16, 64]) {
        let total = 4000 * concurrency.min(4) / ROUNDS;
        let get_path = format!("{NS}/cron-999999");
        if requests.contains("get") {
            let get = Arc::new(move |_| request("GET", &get_path, Bytes::new(), ""));
            let bare = Arc::new(|_| request("GET", "/", Bytes::new(), ""));
            let r = rounds(
                &cli,
                [(addr, 200, get as Make), (bare_addr, 200, bare)],
                concurrency,
                total,
            );
            r.print("GET one object", concurrency);
        }
        if !requests.contains("create") {
            continue;
        }
        let created = Arc::clone(&created);
        let post = Arc::new(move |_| {
            request(
                "POST",
                NS,
                crontab(created.fetch_add(1, Ordering::Relaxed)),
                "application/json",
            )
        });
        let echo = Arc::new(|i| request("POST", "/", crontab(i), "application/json"));
        let r = rounds(
            &cli,
            [(addr, 201, post as Make), (bare_addr, 200, echo)],
            concurrency,
            total,
        );
        r.print("create (bare: echo)", concurrency);
    }
    srv.block_on(server.shutdown());

    // LISTs from 1k to 50k objects, each size on a fresh server.
    println!(
        "\n| objects | body | full LIST | serde_json parse+serialize | ratio | 1 % label selector | of full | RSS before LISTs | after 5 LISTs |\n|---|---|---|---|---|---|---|---|---|"
    );
    for n in sizes("CRDKIT_SCALE_OBJECTS", &[1000, 10_000, 20_000, 50_000]) {
        let server = srv.block_on(start_crdkit());
        let addr = server.addr();
        let next = Arc::new(AtomicUsize::new(0));
        cli.block_on(throughput(
            addr,
            16,
            n,
            201,
            Arc::new(move |_| {
                request(
                    "POST",
                    NS,
                    crontab(next.fetch_add(1, Ordering::Relaxed)),
                    "application/json",
                )
            }),
        ));
        let before = rss_mib();
        // The client reads and drops the body as it comes, so that the process's memory is the
        // server's (the client runs in this process). Full and selected lists alternate; the
        // fastest of 9 rounds is kept (other work on a shared machine only adds time).
        let (full, selected) = cli.block_on(async {
            let mut c = connect(addr).await;
            let (mut full, mut selected) = (f64::MAX, f64::MAX);
            for _ in 0..9 {
                let t = Instant::now();
                c.ready().await.unwrap();
                let resp = c
                    .send_request(request("GET", NS, Bytes::new(), ""))
                    .await
                    .unwrap();
                assert_eq!(resp.status(), 200);
                let mut body = resp.into_body();
                let mut len = 0;
                while let Some(frame) = body.frame().await {
                    len += frame.unwrap().into_data().map_or(0, |d| d.len());
                }
                assert!(len > n * 100);
                full = full.min(t.elapsed().as_secs_f64() * 1e3);
                let t = Instant::now();
                let path = format!("{NS}?labelSelector=bucket%3D7");
                let (status, b) = send(&mut c, request("GET", &path, Bytes::new(), "")).await;
                selected = selected.min(t.elapsed().as_secs_f64() * 1e3);
                assert_eq!(status, 200);
                let v: Value = serde_json::from_slice(&b).unwrap();
                assert_eq!(v["items"].as_array().unwrap().len(), n / 100);
            }
            (full, selected)
        });
        let after = rss_mib();
        let body = cli.block_on(async {
            send(
                &mut connect(addr).await,
                request("GET", NS, Bytes::new(), ""),
            )
            .await
            .1
        });
        let floor = (0..5)
            .map(|_| {
                let t = Instant::now();
                let v: Value = serde_json::from_slice(&body).unwrap();
                assert_eq!(v["items"].as_array().unwrap().len(), n);
                std::hint::black_box(serde_json::to_vec(&v).unwrap());
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::MAX, f64::min);
        println!(
            "| {n} | {:.1} MB | {full:.1} ms | {floor:.1} ms | {:.2} | {selected:.2} ms | {:.3} | {before:.0} MiB | {after:.0} MiB |",
            body.len() as f64 / 1e6,
            full / floor,
            selected / full
        );
        drop(body);
        if n == 20_000 {
            name_watchers(&cli, addr);
        }
        srv.block_on(server.shutdown());
    }

    // Watch fan-out: W watchers of one namespace, U updates of one object, with
    // `CRDKIT_SCALE_FANOUT_STORED` objects in another namespace.
    println!(
        "\n| watchers | updates | deliveries | server CPU per delivery | update p50 | missing |\n|---|---|---|---|---|---|"
    );
    let updates = sizes("CRDKIT_SCALE_UPDATES", &[]).first().copied();
    let stored = sizes("CRDKIT_SCALE_FANOUT_STORED", &[20_000])
        .first()
        .copied()
        .unwrap_or(0);
    for w in sizes("CRDKIT_SCALE_WATCHERS", &[1, 10, 100, 300, 1000]) {
        let updates = updates.unwrap_or(if w >= 1000 { 100 } else { 300 });
        let server = srv.block_on(start_crdkit());
        store_elsewhere(&cli, server.addr(), stored);
        fan_out(&cli, server.addr(), w, updates);
        srv.block_on(server.shutdown());
    }
}

/// 100 watchers selecting one object by name each, connecting over the objects stored.
fn name_watchers(cli: &Runtime, addr: SocketAddr) {
    let t = Instant::now();
    cli.block_on(async {
        let mut tasks = Vec::new();
        for i in 0..100 {
            tasks.push(tokio::spawn(async move {
                let mut c = connect(addr).await;
                let path = format!(
                    "{NS}?watch=true&fieldSelector=metadata.name%3Dcron-{:06}",
                    i * 7
                );
                c.ready().await.unwrap();
                let resp = c
                    .send_request(request("GET", &path, Bytes::new(), ""))
                    .await
                    .unwrap();
                let mut body = resp.into_body();
                while let Some(Ok(frame)) = body.frame().await {
                    if frame.into_data().is_ok_and(|d| d.contains(&b'\n')) {
                        return;
                    }
                }
                panic!("watch ended before its initial event");
            }));
        }
        for t in tasks {
            tokio::time::timeout(Duration::from_secs(60), t)
                .await
                .unwrap()
                .unwrap();
        }
    });
    println!(
        "(100 name-selected watchers over 20000 objects: all initial events in {:.0} ms)",
        t.elapsed().as_secs_f64() * 1e3
    );
}

/// `n` CronTabs in a namespace of their own: in the cache beside the watched one, not sent to
/// its watchers.
fn store_elsewhere(cli: &Runtime, addr: SocketAddr, n: usize) {
    if n == 0 {
        return;
    }
    let elsewhere = "/apis/stable.example.com/v1/namespaces/stored/crontabs";
    cli.block_on(async {
        let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "stored"}});
        let (status, _) = send(
            &mut connect(addr).await,
            request(
                "POST",
                "/api/v1/namespaces",
                ns.to_string().into(),
                "application/json",
            ),
        )
        .await;
        assert_eq!(status, 201);
        let post = Arc::new(move |i| request("POST", elsewhere, crontab(i), "application/json"));
        throughput(addr, 16, n, 201, post).await;
    });
}

fn fan_out(cli: &Runtime, addr: SocketAddr, watchers: usize, updates: usize) {
    let seen = Arc::new(AtomicUsize::new(0));
    cli.block_on(async {
        let (status, _) = send(
            &mut connect(addr).await,
            request("POST", NS, crontab(0), "application/json"),
        )
        .await;
        assert_eq!(status, 201);
        for _ in 0..watchers {
            let mut c = connect(addr).await;
            c.ready().await.unwrap();
            let resp = c
                .send_request(request(
                    "GET",
                    &format!("{NS}?watch=true&resourceVersion=0"),
                    Bytes::new(),
                    "",
                ))
                .await
                .unwrap();
            let seen = Arc::clone(&seen);
            tokio::spawn(async move {
                let _keep = c;
                let mut body = resp.into_body();
                while let Some(Ok(frame)) = body.frame().await {
                    if let Ok(data) = frame.into_data() {
                        seen.fetch_add(
                            data.iter().filter(|b| **b == b'\n').count(),
                            Ordering::Relaxed,
                        );
                    }
                }
            });
        }
        // Every watcher's initial ADDED event.
        let deadline = Instant::now() + Duration::from_secs(60);
        while seen.load(Ordering::Relaxed) < watchers && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });
    let initial = seen.load(Ordering::Relaxed);
    let cpu = server_cpu();
    let mut latencies = Vec::new();
    cli.block_on(async {
        let mut c = connect(addr).await;
        for u in 0..updates {
            let patch = json!({"spec": {"replicas": u % 9 + 1}, "metadata": {"annotations": {"u": u.to_string()}}}).to_string();
            let t = Instant::now();
            let (status, _) = send(&mut c, request("PATCH", &format!("{NS}/cron-000000"), patch.into(), "application/merge-patch+json")).await;
            assert_eq!(status, 200);
            latencies.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let want = initial + watchers * updates;
        let deadline = Instant::now() + Duration::from_secs(120);
        while seen.load(Ordering::Relaxed) < want && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });
    let cpu = server_cpu() - cpu;
    let deliveries = watchers * updates;
    let missing = (initial + deliveries).saturating_sub(seen.load(Ordering::Relaxed));
    println!(
        "| {watchers} | {updates} | {deliveries} | {:.2} µs | {:.2} ms | {missing} |",
        cpu.as_secs_f64() * 1e6 / deliveries as f64,
        median(latencies)
    );
}
