//! CustomResourceDefinitions themselves, as the Kubernetes API server handles them (objects are
//! `crdkit-apiextensions`' concern):
//! - [`crd_check`]: the API server's validation of CRDs on create and update (`crdgen check`,
//!   `--old`), with its texts and field paths;
//! - [`compat`]: what a new CRD breaks for stored objects and clients (beyond the API server);
//! - [`openapi`]: the OpenAPI v3 and v2 documents the API server publishes for CRDs;
//! - [`conversion`]: conversion webhooks' `ConversionReview`, over converters written in Rust;
//! - [`cert`]: webhooks' `caBundle` as the API server reads it.
//!
//! Depends on `crdkit-apiextensions` (objects: validation, versions), `crdkit-cel` and the CRD
//! model. Kept apart from `crdkit-apiextensions` so that a program that validates its objects
//! (`crdkit`'s default `validation` feature) does not compile what only `crdgen`, the local API
//! server and conversion webhooks use: it halves the build of the crate that validates.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cert;
pub mod compat;
pub mod conversion;
pub mod crd_check;
pub mod openapi;
