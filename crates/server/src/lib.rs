//! A local Kubernetes API server for CustomResourceDefinitions.
#![forbid(unsafe_code)]

pub mod engine;
pub mod openapi;
