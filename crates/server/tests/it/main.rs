//! Integration tests of crdkit-server: the HTTP API as kubectl and kube-rs use it, the docs'
//! walkthrough with the real kubectl, built-in kinds with kubectl 1.27 to 1.33, kube-rs clients,
//! robustness and a bounded load test.

mod api;
mod builtin_actions;
mod builtin_api;
mod builtin_kubectl;
mod cache;
mod common;
mod conversion;
mod decoded_writes;
#[cfg(feature = "etcd")]
mod etcd;
mod gc;
mod hardening;
mod hostile;
mod kube_client;
mod load;
mod robustness;
mod runtime_api;
mod strict_writes;
mod walkthrough;
mod watch;
