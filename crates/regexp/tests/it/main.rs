//! Go's regexp against Go's own tables (`regexp/syntax/parse_test.go`, `regexp/all_test.go`,
//! `regexp/find_test.go`), the cases the earlier regex paths covered, and the behaviours where
//! Go's `regexp` and the `regex` crate differ.

mod engine_free;
mod errors;
mod find_tables;
mod parse_tables;
mod semantics;
mod soup;
