//! What the Kubernetes API server does with custom objects, on the client side:
//! apiextensions-apiserver's pruning, defaulting, OpenAPI and CEL validation, ratcheting and
//! admission of objects. The CRDs themselves (their checks, published OpenAPI and conversion
//! webhooks) are `crdkit-crd`'s, built on this crate.
//!
//! Layers, each using only those above it in this list:
//! - [`compiled`]: a structural schema compiled once for objects (patterns, formats, limits);
//! - [`walk`]: the schema walks shared by pruning, defaulting and validation;
//! - [`objectmeta`], [`default`], [`prune`], [`ratchet`]: the API server's algorithms;
//! - [`validate`]: OpenAPI, metadata, list-type and CEL validation ([`validate::CompiledSchema`]);
//! - [`pipeline`] and [`admission`]: create, update and status update in the API server's order;
//! - [`codec`]: a stored object read at another version (`None` conversion, pruning);
//! - [`versions`]: served, storage and deprecated versions (the warning a deprecated one gets).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod admission;
pub mod codec;
pub mod compiled;
pub mod default;
pub mod objectmeta;
pub mod pipeline;
pub mod prune;
pub mod ratchet;
pub mod validate;
pub mod versions;
pub mod walk;
