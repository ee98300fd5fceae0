//! `GET` of an object, its status or its scale.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/get.go` and `response.go`: the object in the
//! request version, or as a one-row `Table`, or as `PartialObjectMetadata`. The read follows
//! `delegator.go` and `cacher.go` `Get`: without `resourceVersion` it is the storage's (a
//! consistent read); with one, the watch cache's once the cache has reached it (`0`: at once;
//! a revision it does not reach within the fresh timeout is a 504). Either way the object's
//! encoding is the one the cache keeps when the cache has that revision of it.

use serde_json::json;

use super::ctx::Ctx;
use super::read;
use crate::http::negotiate::{Encoding, Output};
use crate::http::response::{self, Resp, content_type};
use crate::http::status::{ApiError, ApiResult};
use crate::registry::{scale, table};
use crate::store::cached::EventType;

pub(super) async fn get(ctx: &Ctx) -> ApiResult<Resp> {
    let info = ctx.strategy.info();
    let name = ctx.path.name.clone().unwrap_or_default();
    let key = info.key(ctx.path.namespace.as_deref(), &name);
    let entry = match ctx.query.get("resourceVersion").filter(|rv| !rv.is_empty()) {
        Some(rv) => {
            let n = crate::store::parse_resource_version(rv).map_err(ApiError::not_a_status)?;
            read::reached(&ctx.api, n).await?;
            ctx.api
                .cache
                .get(&key)
                .ok_or_else(|| ApiError::not_found(&info.gr(), &name))?
        }
        None => {
            let kv = ctx.api.objects.get_kv(&key, &info.gr(), &name).await?;
            match ctx.api.cache.get(&key) {
                Some(e) if e.kv.mod_revision == kv.mod_revision => e,
                _ => read::transient(kv),
            }
        }
    };
    let strategy = &*ctx.strategy;
    let subresource_scale = ctx.path.subresource.as_deref() == Some("scale");
    if !subresource_scale && ctx.output == Output::Object(Encoding::Json) {
        let encoded = read::encoded(strategy, &entry, EventType::Added).await?;
        let mut r = response::bytes(200, content_type::JSON, encoded.json());
        response::add_warnings(&mut r, &ctx.warnings);
        return Ok(r);
    }
    let obj = read::object(strategy, &entry).await?;
    if subresource_scale && let Some(spec) = ctx.strategy.subresources().scale {
        return Ok(ctx.respond(200, &scale::scale_of(&obj, &spec)));
    }
    match ctx.output {
        Output::Table(v) => {
            let include = table::IncludeObject::parse(ctx.query.get("includeObject"))
                .map_err(ApiError::bad_request)?;
            let t = ctx.strategy.table(&[&obj], crate::clock::now());
            let rv = crate::object::resource_version(&obj).to_owned();
            let body = table::render(t, &[&obj], include, v, json!({"resourceVersion": rv}));
            let mut r = response::json_as(
                200,
                &body,
                &format!("application/json;as=Table;v={v};g=meta.k8s.io"),
            );
            response::add_warnings(&mut r, &ctx.warnings);
            Ok(r)
        }
        Output::PartialMetadata(v) => Ok(ctx.respond(200, &table::partial_metadata(&obj, v))),
        _ => Ok(ctx.respond(200, &obj)),
    }
}
