//! The integration tests of crdkit-apply, one binary.

mod common;
mod fieldmanager;
mod managedfields;
mod smd_merge;
