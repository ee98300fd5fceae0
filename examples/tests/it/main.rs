//! The examples' tests in one binary: golden CRDs and the docs' pages (the `crdgen` program's
//! own tests, with its CLI cases, are in `crates/crdgen`).

mod docs;
mod golden;
