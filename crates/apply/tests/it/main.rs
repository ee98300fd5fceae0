//! The integration tests of crdkit-apply, one binary.

mod common;
mod smd_merge;
mod fieldmanager;
