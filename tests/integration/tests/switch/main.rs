//! Switching from kube-derive loses nothing silently: the shapes of the common crates' types,
//! serde's defaults, the validation attributes of garde and validator, the CRD's metadata
//! (`common.rs`), and kube-rs's own derive examples ported to crdkit, their CRDs compared with
//! the ones kube-derive writes for the same types, field by field (`kube_derive/`).

mod common;
mod kube_derive;
