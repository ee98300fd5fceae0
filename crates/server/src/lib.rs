//! A local Kubernetes API server for CustomResourceDefinitions.
#![forbid(unsafe_code)]

pub mod engine;
pub mod http;
pub mod openapi;
