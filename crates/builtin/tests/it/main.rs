//! crdkit-builtin's tests: facts of Go's `defaults_test.go`, `validation_test.go` and the
//! registry strategies' tests, on JSON objects.

mod alloc;
mod defaults;
mod strategy;
mod support;
mod validation_others;
mod validation_pods;
mod validation_workloads;
