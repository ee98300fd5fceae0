//! Kubernetes CEL: cel-go's parser, type checker and cost estimator ([`crdkit_cel_check`],
//! re-exported here) with the evaluator and the Kubernetes libraries, as the API server runs them.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use crdkit_cel_check::*;

pub mod eval;
pub mod library;
pub mod value;
