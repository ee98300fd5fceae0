//! A local Kubernetes API server for CustomResourceDefinitions.
#![forbid(unsafe_code)]

pub mod clock;
pub mod engine;
pub mod http;
pub mod jsonpath;
pub mod object;
pub mod openapi;
pub mod patch;
pub mod registry;
pub mod selector;
