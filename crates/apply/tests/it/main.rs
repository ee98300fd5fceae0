//! The integration tests of crdkit-apply, one binary.

mod common;
mod crd_apply;
mod deep;
mod fieldmanager;
mod fieldpath;
mod large;
mod managedfields;
mod request;
mod scale;
mod smd_merge;
mod smd_misc;
mod smd_typed;
