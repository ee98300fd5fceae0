//! The lifecycle on etcd (feature `etcd`; a throwaway `/usr/bin/etcd`).

use crdkit_envtest::TestEnv;
use crdkit_envtest::etcd::Etcd;

use crate::common::start_with;
use crate::lifecycle::lifecycle;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_on_etcd() {
    let etcd = Etcd::start().await.expect("etcd");
    let op = start_with(TestEnv::builder().storage(etcd.storage().await.unwrap())).await;
    lifecycle(&op).await;
}
