//! A local Kubernetes API server for CustomResourceDefinitions.
#![forbid(unsafe_code)]

pub mod api;
pub mod base64;
pub mod cli;
pub mod clock;
pub mod controllers;
pub mod engine;
pub mod handlers;
pub mod http;
pub mod jsonpath;
pub mod object;
pub mod openapi;
pub mod patch;
pub mod registry;
pub mod selector;
pub mod server;
pub mod storage;
pub mod store;
pub mod tls;

pub use api::ApiConfig;
pub use server::{ApiServer, ServerConfig, StartError, TlsConfig, serve, write_kubeconfig};
