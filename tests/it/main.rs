//! The facade's integration tests in one binary (the trybuild ui cases and the build without
//! default features have their own): the const checker against the run-time one, the docs'
//! CEL examples, shapes, computed defaults, other derives' validation attributes and typed
//! validation.

mod cel_const;
mod cel_const_crd;
mod cel_docs;
mod defaults;
mod imported;
#[allow(dead_code)]
mod shapes;
mod typed;
mod validators;
