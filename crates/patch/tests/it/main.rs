//! The integration tests of crdkit-patch, one binary.

mod common;
mod directives;
mod errors;
mod go_tables;
mod kubernetes;
mod robustness;
