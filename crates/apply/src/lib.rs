//! Server-side apply for custom objects, as the Kubernetes API server does it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod fieldpath;
pub mod manager;
pub mod merge;
pub mod request;
pub mod schema;
pub mod typed;
pub mod value;

pub use error::ApplyError;
pub use manager::FieldManager;
