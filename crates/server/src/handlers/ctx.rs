//! The state of one resource request as the verb handlers see it.

use std::sync::Arc;

use http::{HeaderMap, Method};
use serde_json::Value;

use crate::api::Api;
use crate::http::negotiate::{Encoding, Output};
use crate::http::query::Query;
use crate::http::response::{self, Resp};
use crate::http::route::ResourcePath;
use crate::registry::Strategy;

/// A resource request being handled.
pub(crate) struct Ctx {
    pub api: Arc<Api>,
    pub method: Method,
    pub path: ResourcePath,
    pub query: Query,
    pub headers: HeaderMap,
    pub output: Output,
    pub strategy: Arc<dyn Strategy>,
    pub warnings: Vec<String>,
}

impl Ctx {
    /// The encoding of objects and errors.
    pub fn encoding(&self) -> Encoding {
        match self.output {
            Output::Object(e) => e,
            _ => Encoding::Json,
        }
    }

    /// A response of bytes already encoded, with the request's warnings.
    pub fn respond_bytes(
        &self,
        status: u16,
        content_type: &'static str,
        body: bytes::Bytes,
    ) -> Resp {
        let mut r = response::bytes(status, content_type, body);
        response::add_warnings(&mut r, &self.warnings);
        r
    }

    /// A response with the request's warnings.
    pub fn respond(&self, status: u16, v: &Value) -> Resp {
        let mut r = response::value(status, v, self.encoding());
        response::add_warnings(&mut r, &self.warnings);
        r
    }
}
