//! A local Kubernetes API server for CustomResourceDefinitions and Kubernetes' built-in kinds:
//! the real `kubectl` and kube-rs clients against crdkit's engine, with no cluster (and no node:
//! no Pod runs, no Deployment rolls out).
//!
//! ```
//! # tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(async {
//! use crdkit_server::ApiServer;
//!
//! // An in-memory server on 127.0.0.1 and a free port, with a kubeconfig for kubectl.
//! let server = ApiServer::start().await.unwrap();
//! assert!(server.url().starts_with("http://127.0.0.1:"));
//! assert!(std::fs::read_to_string(server.kubeconfig()).unwrap().contains(server.url()));
//! // What it stores is reachable in-process too (what `kubectl get ns default` reads):
//! let stored = server.storage().get("/registry/namespaces/default").await.unwrap();
//! let ns: serde_json::Value = serde_json::from_slice(&stored.value).unwrap();
//! assert_eq!(ns["status"]["phase"], "Active");
//! server.shutdown().await;
//! # });
//! ```
//!
//! [`ApiServer`] runs a server in-process (tests, crdkit-envtest) and [`serve`] runs one until
//! cancelled (`crdgen serve`, whose flags crdkit-cli parses into it), both from a
//! [`ServerConfig`]; the storage is in memory, in a
//! directory ([`open_dir`]) or in etcd (`connect_etcd`, feature `etcd`), any [`Storage`].
//!
//! # Layers
//!
//! A request goes down through the layers and back; each module uses only those below it
//! (no module uses one above it or beside it at its level, and none uses the crate root):
//!
//! | module | what it does | uses |
//! | --- | --- | --- |
//! | `server` | the assembly (state, controllers, kubeconfig) on the server's own runtime, and the transport: connections with their deadlines, HTTP/1.1 and h2, TLS | `filters`, `handlers`, `controllers`, `api`, `request_log`, `tls`, leaves |
//! | `filters` | before the handlers: the hosts and origins served, authentication, the in-flight limit | `http` |
//! | `handlers` | one module per verb, and health: decode the request, call the strategy, write through `rest`, encode | `rest`, `api`, `registry`, `store`, `http`, `request_log`, `patch`, `selector`, leaves |
//! | `controllers` | the CRD finalizer, namespace deletion, the registry kept in step with storage, the garbage collector | `rest`, `api`, `registry`, `store`, `http::status`, leaves |
//! | `rest` | the generic store: deletion (preconditions, finalizers, propagation) and `persist`, the one door for writes (and their depth and size), with their effects on what is served | `api`, `registry`, `store`, `http::status`, leaves |
//! | `api` | the state: storage, the watch cache, the CRDs served, settings; a path resolved to its strategy | `registry`, `store`, `http`, `request_log`, leaves |
//! | `registry` | a strategy per kind: prepare, validate, convert, select, print (built-in kinds from crdkit-builtin's catalog, `registry::builtin`) | `http::status`, leaves |
//! | `store` | objects over the storage trait: bytes to JSON, storage errors to `Status` errors, the size limit; what the watch cache keeps of each object (`store::cached`: labels, name, namespace, the encoding served) | `http::status`, `http::decode`, `object` |
//! | `request_log`, `patch`, `selector` | the request log; JSON, merge and strategic merge patches (crdkit-patch); label and field selectors | `http`, `engine`, `deep` |
//! | `http` | paths, queries, content negotiation, request bodies and their limits (JSON, YAML, protobuf through crdkit-protobuf), responses, `Status` errors | `engine`, `deep` |
//! | leaves | `engine` (the one door to crdkit's engine), `deep` (the depth limit, and JSON handled without recursion), `object`, `clock`, `jsonpath`, `tls`, `storage` (the backends), `private` (files 0600, directories 0700) | nothing of this crate (`storage` uses `private`) |
//!
//! Every object a request can produce (a body, a patch or apply result, a conversion answer)
//! is held to one depth limit, Go's 10,000 levels, checked without recursion before anything
//! recursive walks it; below it, serde's and the engine's recursion runs on the server's
//! threads, whose stack is sized for it. The README's "Hardening" section lists every limit.
//!
//! The controllers run beside the handlers, as kube-controller-manager runs beside the API
//! server: both act on objects through `rest` and read through `store`; neither calls the other.
//!
//! Depends on `crdkit-apiextensions` (admission, CRD checks, conversion), `crdkit-crd`,
//! `crdkit-apply`, `crdkit-storage`, `crdkit-schema`, `crdkit-apimachinery`, `crdkit-builtin`
//! (the built-in kinds' catalog, defaulting and validation), `crdkit-patch` and
//! `crdkit-protobuf`, plus tokio, hyper and rustls: only `crdgen serve` and tests pull it in.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod api;
mod clock;
mod controllers;
mod deep;
mod engine;
mod filters;
mod handlers;
mod http;
mod jsonpath;
mod object;
mod patch;
mod private;
mod registry;
mod request_log;
mod rest;
mod selector;
mod server;
mod storage;
mod store;
mod tls;

pub use api::ApiConfig;
/// The storage trait servers run on (crdkit-storage).
pub use crdkit_storage::Storage;
pub use request_log::{RequestLog, RequestRecord};
pub use server::{
    ApiServer, DEFAULT_ACCEPT_HOSTS, ServerConfig, StartError, TlsConfig, raise_open_files_limit,
    serve, write_kubeconfig,
};
#[cfg(feature = "etcd")]
pub use storage::connect_etcd;
pub use storage::{DATA_FILE, open_dir};
