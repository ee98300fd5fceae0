//! crdkit runtime: the structural schema model, CEL, and the API server's pruning, defaulting and
//! validation, usable from the `crdkit` facade and (slim) from the `crdkit-macros` proc-macro.
#![forbid(unsafe_code)]

pub mod cel;
#[cfg(feature = "cli")]
pub mod cli;
pub mod crd;
pub mod crd_check;
pub mod default;
pub mod field;
pub mod meta;
pub mod names;
pub mod objectmeta;
pub mod pipeline;
pub mod prune;
pub mod ratchet;
pub mod resource;
pub mod schema;
pub mod shape;
pub mod validate;
pub mod yaml;
