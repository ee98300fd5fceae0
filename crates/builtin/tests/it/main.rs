//! crdkit-builtin's integration tests, one binary (see STYLE.md): the catalog, and facts of
//! Go's `defaults_test.go`, `validation_test.go` and the registry strategies' tests.

mod alloc;
mod conversion;
mod defaults;
mod fields;
mod names;
mod openapi;
mod resources;
mod schemas;
mod strategy;
mod support;
mod tables;
mod tables_pods;
mod validation_others;
mod validation_pods;
mod validation_workloads;
