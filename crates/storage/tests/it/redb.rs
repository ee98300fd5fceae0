//! The shared suite on the redb backend, plus persistence: reopening, and `kill -9` of a writer.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use crdkit_storage::{CompactionPolicy, Error, EventKind, ListOptions, RedbStorage, Storage};

use crate::suite::{Backend, next};

fn open(
    policy: CompactionPolicy,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Backend>> + Send>> {
    Box::pin(async move {
        let dir = tempfile::tempdir().unwrap();
        let store = RedbStorage::open(dir.path().join("store.redb"), policy).unwrap();
        Some(Backend {
            store: Arc::new(store),
            _guard: Box::new(dir),
        })
    })
}

crate::storage_suite!(open);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopen_keeps_data_revisions_and_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let policy = CompactionPolicy {
        retain_revisions: None,
    };
    let (a, deleted) = {
        let s = RedbStorage::open(&path, policy).unwrap();
        let a = s.create("/p/a", Bytes::from_static(b"a1")).await.unwrap();
        let a = s
            .update("/p/a", Bytes::from_static(b"a2"), a.mod_revision)
            .await
            .unwrap();
        s.create("/p/b", Bytes::from_static(b"b1")).await.unwrap();
        let deleted = s.delete("/p/b", None).await.unwrap();
        (a, deleted)
    };
    let s = RedbStorage::open(&path, policy).unwrap();
    assert_eq!(s.current_revision().await.unwrap(), deleted.revision);
    assert_eq!(s.get("/p/a").await.unwrap(), a);
    assert!(matches!(s.get("/p/b").await, Err(Error::NotFound { .. })));
    // Revisions continue after the restart.
    let c = s.create("/p/c", Bytes::from_static(b"c1")).await.unwrap();
    assert_eq!(c.mod_revision, deleted.revision + 1);
    // The history survived: a snapshot read and a watch from before the restart.
    let old = s
        .list(
            "/p/",
            &ListOptions {
                at_revision: Some(a.mod_revision),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(old.items, vec![a.clone()]);
    let mut watch = s.watch("/p/", a.mod_revision).await.unwrap();
    assert_eq!(next(&mut watch).await.unwrap().kind, EventKind::Added);
    assert_eq!(next(&mut watch).await.unwrap().kind, EventKind::Deleted);
    assert_eq!(next(&mut watch).await.unwrap().revision, c.mod_revision);
}

#[tokio::test]
async fn a_file_that_is_not_a_store_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.redb");
    std::fs::write(&path, vec![0x5a; 64 * 1024]).unwrap();
    assert!(RedbStorage::open(&path, CompactionPolicy::default()).is_err());
    // A second open of a live store fails instead of corrupting it.
    let live = dir.path().join("live.redb");
    let _first = RedbStorage::open(&live, CompactionPolicy::default()).unwrap();
    assert!(matches!(
        RedbStorage::open(&live, CompactionPolicy::default()),
        Err(Error::Backend(_))
    ));
}

/// The child process of `acknowledged_writes_survive_kill_9`, run by re-executing this test
/// binary with `CRDKIT_KILL9_CHILD=<file>`: writes keys until killed, printing each one after
/// its write was acknowledged.
async fn kill9_child(path: &str) {
    let s = RedbStorage::open(path, CompactionPolicy::default()).unwrap();
    let s = Arc::new(s);
    // Four concurrent writers, so batched commits are exercised too. Bounded: 100 000 writes.
    let mut tasks = Vec::new();
    for writer in 0..4 {
        let s = Arc::clone(&s);
        tasks.push(tokio::spawn(async move {
            for i in 0..25_000 {
                let key = format!("/k/{writer}/{i:05}");
                let kv = s
                    .create(&key, Bytes::from(key.clone().into_bytes()))
                    .await
                    .unwrap();
                println!("ack {key} {}", kv.mod_revision);
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_writes_survive_kill_9() {
    if let Ok(path) = std::env::var("CRDKIT_KILL9_CHILD") {
        kill9_child(&path).await;
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "redb::acknowledged_writes_survive_kill_9",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CRDKIT_KILL9_CHILD", &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Read acknowledgements until 300 writes are acknowledged, then SIGKILL mid-stream.
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut acked = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(rest) = line.strip_prefix("ack ") {
                let (key, revision) = rest.split_once(' ').unwrap();
                acked.push((key.to_owned(), revision.parse::<u64>().unwrap()));
                if acked.len() == 300 {
                    break;
                }
            }
        }
        acked
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while !reader.is_finished() {
        assert!(
            Instant::now() < deadline,
            "the child acknowledged no 300 writes within 60 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL on Unix
    let status = child.wait().unwrap();
    assert!(!status.success(), "the child finished before it was killed");
    let acked = reader.join().unwrap();
    assert_eq!(acked.len(), 300);

    let s = RedbStorage::open(&path, CompactionPolicy::default()).unwrap();
    let max = acked.iter().map(|(_, revision)| *revision).max().unwrap();
    for (key, revision) in &acked {
        let kv = s.get(key).await.unwrap();
        assert_eq!(
            (kv.mod_revision, &kv.value[..]),
            (*revision, key.as_bytes())
        );
    }
    // Revisions keep increasing after the crash.
    let current = s.current_revision().await.unwrap();
    assert!(current >= max);
    let fresh = s
        .create("/after-crash", Bytes::from_static(b"x"))
        .await
        .unwrap();
    assert_eq!(fresh.mod_revision, current + 1);
    // Every stored key is intact (no torn records), whether or not it was acknowledged.
    let all = s.list("/k/", &ListOptions::default()).await.unwrap();
    assert!(all.items.len() >= acked.len());
    assert!(all.items.iter().all(|kv| kv.value == kv.key.as_bytes()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damaged_records_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let ok = {
        let s = RedbStorage::open(
            &path,
            CompactionPolicy {
                retain_revisions: None,
            },
        )
        .unwrap();
        s.create("/d/ok", Bytes::from_static(b"fine"))
            .await
            .unwrap()
    };
    // Damage the file's records behind the store's back (same tables, bad bytes).
    {
        let db = redb::Database::create(&path).unwrap();
        let txn = db.begin_write().unwrap();
        {
            let mut kv = txn
                .open_table(redb::TableDefinition::<&str, &[u8]>::new("kv"))
                .unwrap();
            kv.insert("/d/bad", &[1u8, 2, 3][..]).unwrap();
            let mut log = txn
                .open_table(redb::TableDefinition::<u64, &[u8]>::new("log"))
                .unwrap();
            log.insert(ok.mod_revision + 1, &[7u8, 0, 0][..]).unwrap();
            let mut meta = txn
                .open_table(redb::TableDefinition::<&str, u64>::new("meta"))
                .unwrap();
            meta.insert("revision", ok.mod_revision + 1).unwrap();
        }
        txn.commit().unwrap();
    }
    let s = RedbStorage::open(
        &path,
        CompactionPolicy {
            retain_revisions: None,
        },
    )
    .unwrap();
    assert_eq!(s.get("/d/ok").await.unwrap(), ok);
    assert!(matches!(s.get("/d/bad").await, Err(Error::Corrupt(_))));
    assert!(matches!(
        s.list("/d/", &ListOptions::default()).await,
        Err(Error::Corrupt(_))
    ));
    let mut watch = s.watch("/d/", ok.mod_revision).await.unwrap();
    assert!(matches!(
        next_raw(&mut watch).await,
        Some(Err(Error::Corrupt(_)))
    ));
    assert!(next_raw(&mut watch).await.is_none());
    // A store of another format is refused.
    drop((s, watch));
    {
        let db = redb::Database::create(&path).unwrap();
        let txn = db.begin_write().unwrap();
        txn.open_table(redb::TableDefinition::<&str, u64>::new("meta"))
            .unwrap()
            .insert("format", 99)
            .unwrap();
        txn.commit().unwrap();
    }
    assert!(matches!(
        RedbStorage::open(&path, CompactionPolicy::default()),
        Err(Error::Corrupt(_))
    ));
}

async fn next_raw(
    stream: &mut crdkit_storage::EventStream,
) -> Option<Result<crdkit_storage::Event, Error>> {
    use futures_util::StreamExt;
    tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("no watch item within 10 s")
}
