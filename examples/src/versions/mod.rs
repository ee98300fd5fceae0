//! "Versions in CustomResourceDefinitions": one kind in several versions, each way crdkit
//! offers.
//!
//! - [`multi`]: the page's first example, written as one Rust type per version tied together by
//!   `#[derive(crdkit::Versions)]`, with the `None` strategy (the schemas are the same).
//! - [`webhook`]: the page's webhook example (`hostPort` in v1beta1, `host` and `port` in v1),
//!   the same way, with typed conversions (`TryFrom`) between the versions.
//! - [`evolved`]: the page's deprecation example (v1alpha1, v1beta1, v1) from one annotated
//!   definition, `#[crdkit::versioned]`, with the port changing type in v1.

pub mod evolved;
pub mod multi;
pub mod webhook;
