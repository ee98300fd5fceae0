//! crdkit-builtin's integration tests, one binary (see STYLE.md).

mod schemas;
