//! The CronTab controller under crdkit-envtest: 50 tests, each on its own API server.

mod common;
mod conflicts;
mod controller;
#[cfg(feature = "etcd")]
mod etcd;
mod gc;
mod lifecycle;
mod lists_watches;
mod ssa;
