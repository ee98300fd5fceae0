//! The examples' tests in one binary: golden CRDs and OpenAPI documents, the docs' pages, the
//! `crdgen` CLI cases and Kubernetes' CEL integration tests through the binary.

mod cel_integration;
mod cli;
mod docs;
mod golden;
mod openapi;
