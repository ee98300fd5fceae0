//! `GET` of an object, its status or its scale.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/get.go` and `response.go`: the object in the
//! request version, or as a one-row `Table`, or as `PartialObjectMetadata`.

use serde_json::json;

use super::ctx::Ctx;
use crate::http::negotiate::Output;
use crate::http::response::{self, Resp};
use crate::http::status::ApiResult;
use crate::registry::{scale, table};

pub(super) async fn get(ctx: &Ctx) -> ApiResult<Resp> {
    let info = ctx.strategy.info();
    let name = ctx.path.name.clone().unwrap_or_default();
    let key = info.key(ctx.path.namespace.as_deref(), &name);
    let stored = ctx.api.objects.get(&key, &info.gr(), &name).await?;
    let mut obj = stored.value;
    crate::registry::conversion::to_request(&*ctx.strategy, &mut obj).await?;
    if ctx.path.subresource.as_deref() == Some("scale")
        && let Some(spec) = ctx.strategy.subresources().scale
    {
        return Ok(ctx.respond(200, &scale::scale_of(&obj, &spec)));
    }
    match ctx.output {
        Output::Table(v) => {
            let include = table::IncludeObject::parse(ctx.query.get("includeObject"))
                .map_err(crate::http::status::ApiError::bad_request)?;
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
