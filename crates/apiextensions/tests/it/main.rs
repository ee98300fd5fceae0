//! The integration tests of this crate, one binary (each extra binary relinks the crate).

mod cel_check_compile;
mod cel_check_decl;
mod cel_check_estimation;
mod cel_eval;
mod cel_eval_checked;
mod cel_validate;
mod cel_validate_docs;
mod cel_validate_ratchet;
mod codec;
mod common;
mod object_admission;
mod object_docs;
mod object_formats;
mod object_jsonschema_suite;
mod object_listtype;
mod object_meta;
mod object_prune;
mod object_registry;
mod object_typed;
mod object_validation;
mod patch;
