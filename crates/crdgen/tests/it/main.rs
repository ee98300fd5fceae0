//! The `crdgen` program's tests in one binary: the CLI cases of `tests/cli/`, Kubernetes' CEL
//! integration tests through the program, the OpenAPI documents it prints (and the local API
//! server serves), and `crdgen serve` as a process.

mod cel_integration;
mod cli;
mod http;
mod openapi;
mod serve;
