//! A Kubernetes conversion webhook over [`crdkit_crd::conversion`]: the API server
//! POSTs a `ConversionReview`, the webhook answers with the objects converted.
//!
//! - [`Webhook`]: the HTTP handler, a `tower::Service` to mount in your own axum (or any tower)
//!   server: [`Webhook::service`], or [`Webhook::router`] with a path.
//! - [`Server`]: a ready HTTPS server (rustls, HTTP/1.1 and HTTP/2, graceful shutdown), with a
//!   certificate generated at start when none is given; [`RunningServer::ca_bundle`] is the
//!   CRD's `caBundle`.
//! - `migrate` (feature `kube`): the page's "upgrade existing objects to a new stored version"
//!   over kube-rs.
//!
//! ```no_run
//! use crdkit_crd::conversion::{Conversions, Typed};
//! use crdkit_webhook::{Server, Webhook};
//! # #[derive(serde::Serialize, serde::Deserialize)] struct V1beta1 { a: String }
//! # #[derive(serde::Serialize, serde::Deserialize)] struct V1 { a: String }
//! # impl From<V1> for V1beta1 { fn from(v: V1) -> V1beta1 { V1beta1 { a: v.a } } }
//! # impl From<V1beta1> for V1 { fn from(v: V1beta1) -> V1 { V1 { a: v.a } } }
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let crontab = Typed::new("CronTab")
//!     .version::<V1beta1>("example.com/v1beta1")
//!     .version::<V1>("example.com/v1")
//!     .convert::<V1beta1, V1>()
//!     .build()?;
//! let server = Server::new(Webhook::new(Conversions::new().typed(crontab)))
//!     .path("/crdconvert")
//!     .start()
//!     .await?;
//! println!("url: {}\ncaBundle: {}", server.url(), server.ca_bundle().unwrap_or_default());
//! server.wait().await;
//! # Ok(()) }
//! ```
//!
//! Heavy dependencies (tokio, hyper, axum, rustls, rcgen, and kube with its feature) live in
//! this crate only, never in the derive's build or the default `crdkit` facade.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod server;
mod service;
mod tls;

#[cfg(feature = "kube")]
pub mod migrate;

use std::net::SocketAddr;

pub use server::{RunningServer, Server};
pub use service::{DEFAULT_BODY_LIMIT, Webhook};
pub use tls::{Tls, ca_bundle};

/// Why [`Server::start`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The address cannot be listened on.
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, #[source] std::io::Error),
    /// The certificate cannot be made, read or used.
    #[error("TLS certificate: {0}")]
    Certificate(String),
    /// The handler's path is not a route: `/` first, and not `/healthz`.
    #[error("invalid path {0:?}: must start with / and not be /healthz")]
    Path(String),
}
