//! Real CRDs imported by `crdgen import` (`tests/it/current.rs` writes these sources): the
//! types compile in one crate that depends on crdkit alone, and each module's `crds()` derives
//! its input CRD back (`tests/it/roundtrip.rs`). Each project is a feature; the default ones
//! are the set CI builds (see `Cargo.toml`).

#[cfg(feature = "argo-cd")]
pub mod argo_cd;
#[cfg(feature = "cert-manager")]
pub mod cert_manager;
#[cfg(feature = "cluster-api")]
pub mod cluster_api;
#[cfg(feature = "crossplane")]
pub mod crossplane;
#[cfg(feature = "gateway-api")]
pub mod gateway_api;
#[cfg(feature = "istio")]
pub mod istio;
#[cfg(feature = "knative")]
pub mod knative;
#[cfg(feature = "prometheus-operator")]
pub mod prometheus_operator;

mod all;
pub use all::{ALL, Crds};
