//! The integration tests of this crate, one binary.

mod common;
mod https;
mod migrate;
mod service;
