//! crdkit-builtin's integration tests: Go's `defaults_test.go` and `validation_test.go` facts.

mod scratch;
