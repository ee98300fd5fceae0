//! A local Kubernetes API server for CustomResourceDefinitions: the real `kubectl` and kube-rs
//! clients against crdkit's engine, with no cluster.
//!
//! A request goes through [`http`] (paths, queries, content negotiation, bodies, `Status`
//! errors), [`handlers`] (one module per verb, and the update loop), [`registry`] (a strategy per
//! kind: CRDs, custom resources at each served version, namespaces; tables, scale, conversion),
//! the engine ([`engine`]: admission, CRD checks, server-side apply), [`store`] (objects over
//! `crdkit-storage`, whose watch cache feeds every watch), and back. [`controllers`] delete a
//! deleted CRD's objects and a terminating namespace's content, and keep the CRD registry in step
//! with storage shared by several servers. [`openapi`] (the engine's) builds the OpenAPI v3 documents
//! from CRDs without any server state.
//!
//! ```
//! # tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(async {
//! // An in-memory server on 127.0.0.1 and a free port, with a kubeconfig for kubectl.
//! let server = crdkit_server::ApiServer::start().await.unwrap();
//! assert!(server.url().starts_with("http://127.0.0.1:"));
//! assert!(std::fs::read_to_string(server.kubeconfig()).unwrap().contains(server.url()));
//! // Its state is reachable in-process too (what `kubectl get ns default` reads):
//! let key = "/registry/namespaces/default";
//! let gr = crdkit_server::http::status::GroupResource::new("", "namespaces");
//! let ns = server.api().objects.get(key, &gr, "default").await.unwrap();
//! assert_eq!(ns.value["status"]["phase"], "Active");
//! server.shutdown().await;
//! # });
//! ```
//!
//! Depends on `crdkit-apiextensions` (admission, CRD checks, conversion), `crdkit-apply`,
//! `crdkit-storage`, `crdkit-schema` and `crdkit-apimachinery`, plus tokio, hyper and rustls:
//! only `crdgen serve` and tests pull it in.
#![forbid(unsafe_code)]

pub mod api;
pub mod cli;
pub mod clock;
pub mod controllers;
pub mod engine;
mod go_base64;
pub mod handlers;
pub mod http;
pub mod jsonpath;
pub mod object;
/// The OpenAPI v3 documents it serves, built from CRDs by the engine (`crdgen openapi` prints
/// the same).
pub use crdkit_crd::openapi;
pub mod patch;
pub mod registry;
mod rest;
pub mod request_log;
pub mod selector;
pub mod server;
pub mod storage;
pub mod store;
pub mod tls;

pub use api::ApiConfig;
/// The storage trait servers run on (crdkit-storage).
pub use crdkit_storage::Storage;
pub use request_log::{RequestLog, RequestRecord};
pub use server::{ApiServer, ServerConfig, StartError, TlsConfig, serve, write_kubeconfig};
