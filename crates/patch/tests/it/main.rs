//! The integration tests of crdkit-patch, one binary.

mod common;
mod go_tables;
