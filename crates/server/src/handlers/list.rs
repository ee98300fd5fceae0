//! `GET` of a collection: list, with label and field selectors, pagination and
//! resourceVersion semantics.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/get.go` (`ListResource`: selectors parsed and field
//! labels converted, `field label not supported: …` a 400), `pkg/storage/etcd3/store.go`
//! (`GetList`: pages read at one revision, filled up to `limit` matching items, the continue
//! token `{"v":"meta.k8s.io/v1","rv":…,"start":…}` in unpadded base64) and the
//! resourceVersion rules of `pkg/storage/cacher` (`""` and `"0"` read the latest state; `N` with
//! `Exact` reads at `N`, otherwise at least `N`). Lists are served from the watch cache
//! ([`super::read`]), continue tokens and exact revisions too while the cache's history has
//! them (the storage still decides whether a revision is compacted); the items of a JSON list
//! are written as their kept encodings, not built into one document. Differences: `"0"` waits
//! for the cache to be fresh as `""` does (the cacher answers it with whatever it has: any
//! state is allowed, this one is the newest).

use std::sync::Arc;

use crdkit_storage::ListOptions;
use serde_json::{Map, Value, json};

use super::continue_token::{decode_continue, encode_continue};
use super::ctx::Ctx;
use super::read;
pub(super) use super::selection::Selection;
use crate::engine::{FieldError, FieldPath};
use crate::http::negotiate::{Encoding, Output};
use crate::http::response::{self, Resp, content_type};
use crate::http::status::{ApiError, ApiResult};
use crate::registry::table;
use crate::store::cached::{Entry, EventType};

/// etcd3 `errors.go`: a list at a compacted revision.
const EXPIRED_LIST: &str = "The resourceVersion for the provided list is too old.";
/// etcd3 `errors.go`: a continue token whose revision was compacted.
const INCONSISTENT_CONTINUE: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// A 422 `ListOptions.meta.k8s.io "" is invalid: …` (the handlers' `ValidateListOptions`).
pub(super) fn list_options_invalid(errs: &[FieldError]) -> ApiError {
    ApiError::invalid("meta.k8s.io", "ListOptions", "", errs)
}

/// apimachinery `pkg/apis/meta/internalversion/validation` `ValidateListOptions` for a list.
fn validate_list_options(ctx: &Ctx, rv: &str, rv_match: &str, has_continue: bool) -> ApiResult<()> {
    let path = FieldPath::new("resourceVersionMatch");
    let mut errs = Vec::new();
    if !rv_match.is_empty() {
        if rv.is_empty() {
            errs.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if has_continue {
            errs.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
        if rv_match != "Exact" && rv_match != "NotOlderThan" {
            errs.push(FieldError::not_supported(
                &path,
                rv_match,
                &["Exact", "NotOlderThan", ""],
            ));
        }
        if rv_match == "Exact" && rv == "0" {
            errs.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if ctx
        .query
        .get("sendInitialEvents")
        .is_some_and(|v| !v.is_empty())
    {
        errs.push(FieldError::forbidden(
            &FieldPath::new("sendInitialEvents"),
            "sendInitialEvents is forbidden for list",
        ));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(list_options_invalid(&errs))
    }
}

/// A LIST's `resourceVersion` (`storage.ValidateListOptions`: 400 `invalid resource version`).
fn parse_rv(s: &str) -> ApiResult<u64> {
    crate::store::parse_resource_version(s)
        .map_err(|e| ApiError::bad_request(format!("invalid resource version: {e}")))
}

/// A LIST's answer: the selected entries, the revision read at, the continue token and, for a
/// page of a list without selectors, how many items follow.
pub(super) struct Listed {
    pub items: Vec<Arc<Entry>>,
    pub revision: u64,
    pub cont: Option<String>,
    pub remaining: Option<usize>,
}

/// Where a list reads: at a revision (exact, or a continue token's) after a key, or the latest
/// state not older than a revision.
struct Plan {
    prefix: String,
    limit: Option<usize>,
    at_revision: Option<u64>,
    continue_key: Option<String>,
    continue_start: String,
}

/// The selected entries of a list, from the watch cache when it can answer as the storage
/// would, else from the storage (`delegator.go`).
pub(super) async fn read(ctx: &Ctx, sel: &Selection) -> ApiResult<Listed> {
    let plan = plan(ctx).await?;
    let api = &ctx.api;
    let strategy = &*ctx.strategy;
    let fresh = match plan.at_revision {
        // An exact read waits for the cache to reach the revision (a 504 when it does not in
        // time); a continue token's revision was read already, and goes to the storage when
        // the cache does not have it (`ShouldDelegateContinue`): a forged one waits for
        // nothing. The storage says whether it is still readable (compacted), as it would for
        // the whole read.
        Some(at) => {
            let continued = plan.continue_key.is_some();
            if !continued {
                read::reached(api, at).await?;
            }
            let probe = ListOptions {
                limit: Some(1),
                continue_key: None,
                at_revision: Some(at),
            };
            if let Err(e) = api
                .objects
                .list_kv(&plan.prefix, &probe, &ctx.strategy.info().gr())
                .await
            {
                return Err(list_error(e, &plan));
            }
            !continued || api.cache.revision() >= at
        }
        None => read::fresh(api).await?,
    };
    if fresh && read::converts_locally(strategy) {
        let options = ListOptions {
            limit: plan.limit,
            continue_key: plan.continue_key.clone(),
            at_revision: plan.at_revision,
        };
        let failed = std::cell::RefCell::new(None);
        let filter = |e: &Entry| match sel.selects_locally(strategy, e) {
            Ok(selected) => selected,
            Err(err) => {
                failed.borrow_mut().get_or_insert(err);
                false
            }
        };
        // An object selected by name is found by its key, not among all the others.
        let key = sel.only_key(strategy, ctx.path.namespace.as_deref());
        let scan = key
            .as_deref()
            .filter(|k| k.starts_with(&plan.prefix))
            .unwrap_or(&plan.prefix);
        // A label every selected object has narrows the walk to the objects having it, when
        // the stored labels decide (as the filter then reads them).
        let term = (key.is_none() && sel.decided_by_cache(strategy))
            .then(|| sel.label.required_pair())
            .flatten()
            .map(|(k, v)| crate::store::cached::label_term(k, v));
        match api
            .cache
            .list_indexed(scan, &options, term.as_deref(), &filter)
        {
            Ok(page) => {
                if let Some(err) = failed.into_inner() {
                    return Err(err);
                }
                let cont = page
                    .more
                    .then(|| continue_token(&plan, &page.items, page.revision));
                let remaining = (page.more && sel.label.is_empty() && sel.field.is_empty())
                    .then_some(page.remaining);
                return Ok(Listed {
                    items: page.items,
                    revision: page.revision,
                    cont: cont.flatten(),
                    remaining,
                });
            }
            // Older than the cache's history: the storage may still have it.
            Err(crdkit_storage::Error::Compacted { .. }) => {}
            Err(e) => return Err(ApiError::internal(e)),
        }
    }
    from_storage(ctx, sel, plan).await
}

/// The continue token after the last item.
fn continue_token(plan: &Plan, items: &[Arc<Entry>], revision: u64) -> Option<String> {
    let last = &items.last()?.kv.key;
    let start = last.strip_prefix(&plan.prefix).unwrap_or(last);
    Some(encode_continue(
        i64::try_from(revision).unwrap_or(i64::MAX),
        start,
    ))
}

/// etcd3 `interpretListError`: a compacted revision.
fn list_error(e: ApiError, plan: &Plan) -> ApiError {
    match e.code {
        410 if plan.continue_key.is_some() => {
            let mut e = ApiError::expired(INCONSISTENT_CONTINUE);
            e.list_continue = Some(encode_continue(-1, &plan.continue_start));
            e
        }
        410 => ApiError::expired(EXPIRED_LIST),
        _ => e,
    }
}

/// The request's list options, validated, as a plan.
async fn plan(ctx: &Ctx) -> ApiResult<Plan> {
    let info = ctx.strategy.info();
    let prefix = info.prefix_for(ctx.path.namespace.as_deref());
    let limit = ctx
        .query
        .int("limit")?
        .filter(|l| *l > 0)
        .map(|l| usize::try_from(l).unwrap_or(usize::MAX));
    // Unused by a list, but decoded with the other options: not an integer is a 400.
    ctx.query.int("timeoutSeconds")?;
    let rv = ctx.query.get("resourceVersion").unwrap_or("");
    let rv_match = ctx.query.get("resourceVersionMatch").unwrap_or("");
    let token = ctx.query.get("continue").filter(|t| !t.is_empty());
    validate_list_options(ctx, rv, rv_match, token.is_some())?;
    // The watch cache answers a first list at `resourceVersion=0` whole, whatever its limit
    // (`cacher.go` `computeListLimit`).
    let limit = limit.filter(|_| rv != "0" || token.is_some());
    let mut plan = Plan {
        prefix,
        limit,
        at_revision: None,
        continue_key: None,
        continue_start: String::new(),
    };
    if let Some(token) = token {
        if !rv.is_empty() && rv != "0" {
            return Err(ApiError::bad_request(
                "specifying resource version is not allowed when using continue",
            ));
        }
        let (crv, start) = decode_continue(token)?;
        // -1: continue at the latest revision (the token a 410 for a compacted one offers).
        plan.at_revision = u64::try_from(crv).ok();
        plan.continue_key = Some(format!("{}{start}", plan.prefix));
        plan.continue_start = start;
    } else {
        let n = parse_rv(rv)?;
        // Exact, or the legacy exact read of a first page (a limit and no match).
        let exact = rv_match == "Exact" || (rv_match.is_empty() && plan.limit.is_some());
        if n > 0 && exact {
            plan.at_revision = Some(n);
        } else if n > 0 {
            // NotOlderThan: the latest state, once the cache has reached the revision.
            read::reached(&ctx.api, n).await?;
        }
    }
    Ok(plan)
}

/// The list read from the storage, page by page at one revision, until `limit` items are
/// selected (etcd3 `GetList`).
async fn from_storage(ctx: &Ctx, sel: &Selection, plan: Plan) -> ApiResult<Listed> {
    let info = ctx.strategy.info();
    let mut at_revision = plan.at_revision;
    let mut continue_key = plan.continue_key.clone();
    let mut items = Vec::new();
    loop {
        let page = plan.limit.map(|l| l.saturating_sub(items.len()).max(1));
        let opts = ListOptions {
            limit: page,
            continue_key: continue_key.clone(),
            at_revision,
        };
        let result = match ctx
            .api
            .objects
            .list_kv(&plan.prefix, &opts, &info.gr())
            .await
        {
            Ok(r) => r,
            Err(e) => return Err(list_error(e, &plan)),
        };
        let revision = result.revision;
        at_revision = Some(revision);
        let last_key = result.items.last().map(|kv| kv.key.clone());
        for kv in result.items {
            let entry = read::transient(kv);
            if sel.selects(&*ctx.strategy, &entry).await? {
                items.push(entry);
            }
        }
        match (result.more, last_key) {
            (true, Some(last)) => {
                if plan.limit.is_some_and(|l| items.len() >= l) {
                    let start = last.strip_prefix(&plan.prefix).unwrap_or(&last);
                    let rv = i64::try_from(revision).unwrap_or(i64::MAX);
                    return Ok(Listed {
                        items,
                        revision,
                        cont: Some(encode_continue(rv, start)),
                        remaining: None,
                    });
                }
                continue_key = Some(last);
            }
            _ => {
                return Ok(Listed {
                    items,
                    revision,
                    cont: None,
                    remaining: None,
                });
            }
        }
    }
}

pub(super) async fn list(ctx: &Ctx) -> ApiResult<Resp> {
    if ctx.path.subresource.is_some() {
        return Err(ApiError::no_such_resource());
    }
    let sel = Selection::parse(ctx)?;
    let listed = read(ctx, &sel).await?;
    let mut meta = Map::new();
    if let Some(c) = &listed.cont {
        meta.insert("continue".to_owned(), json!(c));
    }
    if let Some(n) = listed.remaining {
        meta.insert("remainingItemCount".to_owned(), json!(n));
    }
    meta.insert(
        "resourceVersion".to_owned(),
        json!(listed.revision.to_string()),
    );
    let info = ctx.strategy.info();
    let strategy = &*ctx.strategy;
    match ctx.output {
        Output::Object(Encoding::Json) => {
            let mut items = Vec::with_capacity(listed.items.len());
            for e in &listed.items {
                items.push(read::encoded(strategy, e, EventType::Added).await?.json());
            }
            // UnstructuredList's fields in Go's order (sorted keys), the items streamed.
            let head = format!(
                "{{\"apiVersion\":{},\"items\":[",
                Value::String(info.api_version())
            );
            let tail = format!(
                "],\"kind\":{},\"metadata\":{}}}",
                Value::String(info.list_kind.clone()),
                Value::Object(meta)
            );
            let mut r = response::items(200, content_type::JSON, head.into(), items, tail.into());
            response::add_warnings(&mut r, &ctx.warnings);
            Ok(r)
        }
        _ => {
            let mut objects = Vec::with_capacity(listed.items.len());
            for e in &listed.items {
                objects.push(read::object(strategy, e).await?);
            }
            Ok(respond_values(ctx, objects, meta))
        }
    }
}

/// A list as a Table, as `PartialObjectMetadataList`, or as YAML.
fn respond_values(ctx: &Ctx, items: Vec<Value>, meta: Map<String, Value>) -> Resp {
    let info = ctx.strategy.info();
    match ctx.output {
        Output::Table(v) => {
            let include = match table::IncludeObject::parse(ctx.query.get("includeObject")) {
                Ok(i) => i,
                Err(e) => return response::error(&ApiError::bad_request(e), Encoding::Json),
            };
            let refs: Vec<&Value> = items.iter().collect();
            let t = ctx.strategy.table(&refs, crate::clock::now());
            let body = table::render(t, &refs, include, v, Value::Object(meta));
            let mut r = response::json_as(
                200,
                &body,
                &format!("application/json;as=Table;v={v};g=meta.k8s.io"),
            );
            response::add_warnings(&mut r, &ctx.warnings);
            r
        }
        Output::PartialMetadata(v) => {
            let items: Vec<Value> = items
                .iter()
                .map(|o| table::partial_metadata(o, v))
                .collect();
            ctx.respond(
                200,
                &json!({"kind": "PartialObjectMetadataList", "apiVersion": format!("meta.k8s.io/{v}"),
                    "metadata": meta, "items": items}),
            )
        }
        _ => ctx.respond(
            200,
            &json!({"apiVersion": info.api_version(), "kind": info.list_kind,
                "metadata": meta, "items": items}),
        ),
    }
}
