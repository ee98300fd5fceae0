//! What the Kubernetes API server does with custom objects and their CRDs, on the client side:
//! apiextensions-apiserver's pruning, defaulting, OpenAPI and CEL validation, ratcheting and
//! admission of objects, and the validation of CRDs themselves.
//!
//! Layers, each using only those above it in this list:
//! - [`compiled`]: a structural schema compiled once for objects (patterns, formats, limits);
//! - [`walk`]: the schema walks shared by pruning, defaulting and validation;
//! - [`objectmeta`], [`default`], [`prune`], [`ratchet`]: the API server's algorithms;
//! - [`validate`]: OpenAPI, metadata, list-type and CEL validation ([`validate::CompiledSchema`]);
//! - [`pipeline`] and [`admission`]: create, update and status update in the API server's order;
//! - [`codec`]: a stored object read at another version (`None` conversion, pruning);
//! - [`versions`]: served, storage and deprecated versions (the warning a deprecated one gets);
//! - [`crd_check`]: the API server's validation of CRDs (`crdgen check`, `--old`);
//! - [`compat`]: what a new CRD breaks for stored objects and clients (beyond the API server);
//! - [`conversion`]: conversion webhooks' `ConversionReview`, over converters written in Rust;
//! - [`openapi`]: the OpenAPI v3 and v2 documents the API server publishes for CRDs.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod admission;
pub mod codec;
pub mod compat;
pub mod compiled;
pub mod conversion;
pub mod crd_check;
pub mod default;
pub mod objectmeta;
pub mod openapi;
pub mod pipeline;
pub mod prune;
pub mod ratchet;
pub mod validate;
pub mod versions;
pub mod walk;
