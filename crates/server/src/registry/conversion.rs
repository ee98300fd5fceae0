//! Conversion between the versions of a CRD, for reads and writes: `None` (the `apiVersion`
//! rewritten, in the strategy) or `Webhook` ([`super::webhook`]).
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/conversion/converter.go` as the storage codec
//! uses it: an object is stored at the storage version and served at the request version.

use serde_json::Value;

use super::strategy::Strategy;
use crate::http::status::ApiResult;

fn api_version(obj: &Value) -> &str {
    obj.get("apiVersion").and_then(Value::as_str).unwrap_or("")
}

/// A stored object in the request version: decoded with the schema it was written with, then
/// converted (a webhook call when the CRD has one) and decoded with the request version's.
///
/// # Errors
/// The webhook failing.
pub async fn to_request(strategy: &dyn Strategy, obj: &mut Value) -> ApiResult<()> {
    strategy.decode_stored(obj);
    let target = strategy.info().api_version();
    if let Some(w) = strategy.webhook()?
        && api_version(obj) != target
    {
        *obj = w.convert(std::mem::take(obj), &target).await?;
        strategy.decode_request(obj);
    }
    Ok(())
}

/// Whether `obj` (request version) is stored as it is: no webhook, and the request version is
/// the storage version. Writers then skip the copy [`to_storage`] converts.
///
/// # Errors
/// A webhook configuration the server cannot call.
pub fn stored_as_is(strategy: &dyn Strategy, obj: &Value) -> ApiResult<bool> {
    Ok(strategy.webhook()?.is_none() && api_version(obj) == strategy.storage_api_version())
}

/// An object in the request version as stored: at the storage version.
///
/// # Errors
/// The webhook failing.
pub async fn to_storage(strategy: &dyn Strategy, obj: &mut Value) -> ApiResult<()> {
    match strategy.webhook()? {
        Some(w) => {
            let target = strategy.storage_api_version();
            if api_version(obj) != target {
                *obj = w.convert(std::mem::take(obj), &target).await?;
            }
        }
        None => strategy.encode_for_storage(obj),
    }
    Ok(())
}
