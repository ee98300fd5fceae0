//! envtest for Rust: kube-rs controllers tested against crdkit's API server, in-process, one
//! server per test, started in milliseconds.
//!
//! What controller-runtime's `pkg/envtest` does for Go (a real API server for a test, CRDs
//! installed, a client) without the Go binaries: [`TestEnv::start`] runs a
//! [`crdkit_server::ApiServer`] on 127.0.0.1 on its own thread and hands out a `kube::Client`;
//! CRDs come from `#[derive(crdkit::CustomResource)]` types ([`TestEnv::with_crd`]) with the API
//! server's pruning, defaulting, OpenAPI and CEL validation and ratcheting; unlike envtest, the
//! garbage collector and the namespace controller run, so owned objects and namespaces go as on
//! a cluster.
//!
//! ```no_run
//! # use crdkit_envtest::TestEnv;
//! # #[derive(crdkit::CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
//! # #[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced)]
//! # pub struct CronTabSpec { replicas: i32 }
//! # async fn demo() -> Result<(), crdkit_envtest::Error> {
//! let env = TestEnv::start().await?.with_crd::<CronTab>().await?;
//! let api: kube::Api<CronTab> = env.api();
//! api.create(&Default::default(), &CronTab::new("a", CronTabSpec { replicas: 1 })).await?;
//! // … run the controller with env.client() (env.spawn keeps it to the test) …
//! let ct = env.wait_for(&api, "a", |ct| ct.metadata.finalizers.is_some()).await?;
//! assert!(env.requests().iter().any(|r| r.method == "POST"));
//! # Ok(()) }
//! ```
//!
//! Each test gets its own server (isolation without cleanup), or shares one and takes a fresh
//! namespace ([`TestEnv::fresh_namespace`]). When a test fails, dropping the environment prints
//! its URL, kubeconfig and last requests; with `CRDKIT_ENVTEST_HOLD=<seconds>` it keeps serving
//! that long so `kubectl --kubeconfig …` can look around.
#![forbid(unsafe_code)]

mod env;
#[cfg(feature = "etcd")]
pub mod etcd;
mod wait;

pub use crdkit_server::{ApiConfig, RequestRecord};
pub use env::{Builder, TestEnv};

/// What the harness reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The server did not start.
    #[error("the API server did not start: {0}")]
    Start(String),
    /// A request failed.
    #[error(transparent)]
    Kube(#[from] kube::Error),
    /// A derived type's CRD could not be built.
    #[error("the CRD of {kind} cannot be built: {message}")]
    Crd {
        /// The kind.
        kind: String,
        /// Why.
        message: String,
    },
    /// A wait ran out of time.
    #[error("timed out after {timeout:?} waiting for {what}")]
    Timeout {
        /// What was awaited.
        what: String,
        /// How long.
        timeout: std::time::Duration,
    },
}
