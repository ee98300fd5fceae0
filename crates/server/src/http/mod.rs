//! The HTTP side: paths, queries, content negotiation, request bodies and `Status` errors.

pub mod body;
pub mod decode;
pub mod negotiate;
pub mod query;
pub mod response;
pub mod route;
pub mod status;
