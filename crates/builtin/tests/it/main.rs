//! crdkit-builtin's integration tests, one binary (see STYLE.md).

mod openapi;
mod resources;
mod schemas;
mod tables;
