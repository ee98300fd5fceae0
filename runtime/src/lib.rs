//! crdkit runtime: the structural schema model, CEL, and the API server's pruning, defaulting and
//! validation, usable from the `crdkit` facade and (slim) from the `crdkit-macros` proc-macro.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The proc-macro links this crate without `full`: the model, names, shapes and their const
// checks, and the CEL parser, checker and environment. Everything that handles objects (and the
// evaluator with its bundled time zones) is `full` only, to keep the macro's build small.
#[cfg(feature = "full")]
pub mod admission;
pub mod cel;
#[cfg(feature = "full")]
pub mod cli;
pub mod crd;
#[cfg(feature = "full")]
pub mod crd_check;
#[cfg(feature = "full")]
pub mod default;
pub mod field;
pub mod meta;
pub mod names;
pub mod openapi;
#[cfg(feature = "full")]
pub mod objectmeta;
#[cfg(feature = "full")]
pub mod pipeline;
#[cfg(feature = "full")]
pub mod prune;
#[cfg(feature = "full")]
pub mod ratchet;
pub mod resource;
pub mod schema;
pub mod shape;
#[cfg(feature = "full")]
pub mod validate;
pub mod yaml;
