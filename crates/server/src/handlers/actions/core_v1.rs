//! The core `v1` resources the actions read and write through.

use std::sync::Arc;

use crate::api::Api;
use crate::http::status::{ApiError, ApiResult};
use crate::registry::Strategy;

/// The strategy of core `v1` `resource`.
pub(super) fn strategy(api: &Api, resource: &str) -> ApiResult<Arc<dyn Strategy>> {
    api.resolve("", "v1", resource)
        .ok_or_else(ApiError::no_such_resource)
}
