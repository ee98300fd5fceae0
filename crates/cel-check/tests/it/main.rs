//! The integration tests of this crate, one binary (each extra binary relinks the crate).

mod cel_check;
mod cel_check_env;
mod cel_parse;
mod cel_parse_robust;
