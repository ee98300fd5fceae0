//! The catalog of Kubernetes' built-in resources, as data: what the API server serves (groups,
//! versions, resources, kinds, verbs, short names, categories, subresources), the OpenAPI it
//! publishes for them, the table columns kubectl shows, the field selectors each kind supports
//! and the name rule of each kind.
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::pedantic)]
// Kinds and product names (CronJob, OpenAPI, APIService) are words of the prose here, not code.
#![allow(clippy::doc_markdown)]

pub mod fields;
pub mod names;
pub mod openapi;
pub mod resources;
pub mod schemas;
pub mod tables;
