//! crdkit-builtin's integration tests, one binary (see STYLE.md).

mod fields;
mod names;
mod openapi;
mod resources;
mod schemas;
mod tables;
mod tables_pods;
