//! Start-to-first-reconcile timing of the harness: `cargo run --release -p
//! crdkit-example-operator --example timing`. Prints medians over 30 runs of: the server
//! started, the CRD installed and established, the controller's first reconcile of a new
//! CronTab seen by the test (finalizer and status written).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crdkit_envtest::TestEnv;
use crdkit_example_operator::{Context, CronTab, CronTabSpec};
use kube::api::PostParams;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let (mut start, mut crd, mut reconcile, mut total) = (vec![], vec![], vec![], vec![]);
    for _ in 0..30 {
        let t0 = Instant::now();
        let env = TestEnv::start().await.expect("start");
        let t1 = Instant::now();
        env.install_crd::<CronTab>().await.expect("crd");
        let t2 = Instant::now();
        let ctx = Context::new(env.client());
        env.spawn(crdkit_example_operator::run(Arc::clone(&ctx)));
        let api: kube::Api<CronTab> = env.api();
        let ct = CronTab::new(
            "t",
            CronTabSpec {
                cron_spec: "* * * * *".into(),
                image: "busybox".into(),
                replicas: 1,
                suspend: None,
            },
        );
        api.create(&PostParams::default(), &ct)
            .await
            .expect("create");
        env.wait_for(&api, "t", |c| c.status.is_some())
            .await
            .expect("reconciled");
        let t3 = Instant::now();
        start.push(t1 - t0);
        crd.push(t2 - t1);
        reconcile.push(t3 - t2);
        total.push(t3 - t0);
    }
    println!(
        "server start (TestEnv::start):           {:?}",
        median(start)
    );
    println!("CRD installed and established:           {:?}", median(crd));
    println!(
        "controller up, create, first reconcile:  {:?}",
        median(reconcile)
    );
    println!(
        "start to first reconcile:                {:?}",
        median(total)
    );
}
