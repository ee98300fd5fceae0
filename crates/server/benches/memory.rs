//! Memory per stored object: the server's resident set size grows by this much per custom
//! object (10,000 CronTabs of the docs' shape), in memory and on redb.
//!
//! `cargo bench -p crdkit-server --bench memory` prints the numbers (Linux: `/proc/self/statm`).

use std::sync::Arc;

use crdkit_server::{ApiServer, ServerConfig};
use crdkit_storage::Storage;
use serde_json::json;

const OBJECTS: usize = 10_000;

fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

async fn measure(name: &str, storage: Option<Arc<dyn Storage>>) {
    let s = ApiServer::start_with(ServerConfig {
        storage,
        ..ServerConfig::default()
    })
    .await
    .unwrap();
    let storage = Arc::clone(s.storage());
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "scope": "Namespaced", "names": {"plural": "crontabs", "kind": "CronTab"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}});
    let _ = crd;
    let before = rss_bytes().unwrap_or(0);
    for i in 0..OBJECTS {
        let name = format!("my-new-cron-object-{i}");
        let obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": name, "namespace": "default", "uid": "9aab1d66-628e-41bb-a422-57b8b3b1f5a9",
                "creationTimestamp": "2021-06-20T07:35:27Z", "generation": 1},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3}});
        storage
            .create(
                &format!("/registry/stable.example.com/crontabs/default/{name}"),
                serde_json::to_vec(&obj).unwrap().into(),
            )
            .await
            .unwrap();
    }
    let after = rss_bytes().unwrap_or(0);
    let per = after.saturating_sub(before) / OBJECTS as u64;
    println!(
        "memory/{name}: {OBJECTS} objects, RSS +{} KiB, {per} bytes per object",
        after.saturating_sub(before) / 1024
    );
    s.shutdown().await;
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        measure("memory", None).await;
        let dir = tempfile::tempdir().unwrap();
        measure("redb", Some(crdkit_server::open_dir(dir.path()).unwrap())).await;
    });
}
