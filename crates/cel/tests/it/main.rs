//! The integration tests of this crate, one binary (each extra binary relinks the crate).

mod api;
mod cel_eval_conformance;
mod go_regexp;
