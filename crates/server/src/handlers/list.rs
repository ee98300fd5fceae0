//! `GET` of a collection: list, with label and field selectors, pagination and
//! resourceVersion semantics.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/get.go` (`ListResource`: selectors parsed and field
//! labels converted, `field label not supported: …` a 400), `pkg/storage/etcd3/store.go`
//! (`GetList`: pages read at one revision, filled up to `limit` matching items, the continue
//! token `{"v":"meta.k8s.io/v1","rv":…,"start":…}` in unpadded base64) and the
//! resourceVersion rules of `pkg/storage/cacher` (`""` and `"0"` read the latest state; `N` with
//! `Exact` reads at `N`, otherwise at least `N`).

use crdkit_storage::ListOptions;
use serde_json::{Map, Value, json};

use super::ctx::Ctx;
use crate::engine::{FieldError, FieldPath};
use crate::http::negotiate::Output;
use crate::http::response::{self, Resp};
use crate::http::status::{ApiError, ApiResult};
use crate::registry::{Strategy, table};
use crate::selector::{FieldSelector, LabelSelector};

/// The label and field selectors of a list or watch.
pub(super) struct Selection {
    pub label: LabelSelector,
    pub field: FieldSelector,
}

impl Selection {
    pub fn parse(ctx: &Ctx) -> ApiResult<Selection> {
        let label = LabelSelector::parse(ctx.query.get("labelSelector").unwrap_or(""))
            .map_err(ApiError::bad_request)?;
        let mut field = FieldSelector::parse(ctx.query.get("fieldSelector").unwrap_or(""))
            .map_err(ApiError::bad_request)?;
        let info = ctx.strategy.info();
        for term in &field.terms {
            if !ctx.strategy.field_label_supported(&term.field) {
                return Err(ApiError::bad_request(
                    if info.group == "apiextensions.k8s.io" {
                        format!(
                            "\"{}\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
                            term.field
                        )
                    } else {
                        format!("field label not supported: {}", term.field)
                    },
                ));
            }
        }
        // A watch or list on one object's path selects it by name.
        if let Some(name) = &ctx.path.name {
            field.terms.push(crate::selector::field::Term {
                field: "metadata.name".to_owned(),
                value: name.clone(),
                negated: false,
            });
        }
        Ok(Selection { label, field })
    }

    pub fn matches(&self, strategy: &dyn Strategy, obj: &Value) -> bool {
        (self.label.is_empty() || self.label.matches(&crate::object::labels(obj)))
            && (self.field.is_empty() || self.field.matches(&strategy.fields(obj)))
    }
}

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

/// A continue token (`rv` -1: continue at the latest revision).
fn encode_continue(rv: i64, start: &str) -> String {
    let token = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": format!("{start}\u{0}")});
    crdkit_apimachinery::gobase64::encode_raw_url(token.to_string().as_bytes())
}

fn decode_continue(token: &str) -> ApiResult<(i64, String)> {
    let bad = || {
        ApiError::bad_request(
            "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
        )
    };
    let bytes = crdkit_apimachinery::gobase64::decode_raw_url(token).ok_or_else(bad)?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    if v.get("v").and_then(Value::as_str) != Some("meta.k8s.io/v1") {
        return Err(bad());
    }
    // storage `DecodeContinue`: 0 is not a revision; -1 is the latest.
    let rv = v
        .get("rv")
        .and_then(Value::as_i64)
        .filter(|r| *r > 0 || *r == -1)
        .ok_or_else(bad)?;
    let start = v.get("start").and_then(Value::as_str).ok_or_else(bad)?;
    let start = start.strip_suffix('\u{0}').unwrap_or(start);
    if start.contains("..") || start.starts_with('/') {
        return Err(bad());
    }
    Ok((rv, start.to_owned()))
}

/// A parsed `resourceVersion` parameter.
pub(super) fn parse_rv(s: &str) -> ApiResult<u64> {
    s.parse::<u64>().map_err(|_| {
        ApiError::bad_request(format!(
            "resourceVersion: Invalid value: \"{s}\": must be a valid resource version"
        ))
    })
}

/// The matching objects (request version), the revision read at, and the continue token.
pub(super) async fn read(
    ctx: &Ctx,
    sel: &Selection,
) -> ApiResult<(Vec<Value>, u64, Option<String>)> {
    let info = ctx.strategy.info();
    let prefix = info.prefix_for(ctx.path.namespace.as_deref());
    let limit = ctx
        .query
        .int("limit")?
        .filter(|l| *l > 0)
        .map(|l| usize::try_from(l).unwrap_or(usize::MAX));
    let rv = ctx.query.get("resourceVersion").unwrap_or("");
    let rv_match = ctx.query.get("resourceVersionMatch").unwrap_or("");
    let token = ctx.query.get("continue").filter(|t| !t.is_empty());
    validate_list_options(ctx, rv, rv_match, token.is_some())?;
    let mut at_revision = None;
    let mut continue_key = None;
    let mut continue_start = String::new();
    if let Some(token) = token {
        if !rv.is_empty() && rv != "0" {
            return Err(ApiError::bad_request(
                "specifying resource version is not allowed when using continue",
            ));
        }
        let (crv, start) = decode_continue(token)?;
        // -1: continue at the latest revision (the token a 410 for a compacted one offers).
        at_revision = u64::try_from(crv).ok();
        continue_key = Some(format!("{prefix}{start}"));
        continue_start = start;
    } else if !rv.is_empty() && rv != "0" {
        let n = parse_rv(rv)?;
        if rv_match == "Exact" {
            at_revision = Some(n);
        } else {
            let current = ctx.api.objects.current_revision().await?;
            if n > current {
                return Err(crate::store::too_large(n, current));
            }
        }
    }
    let paging = continue_key.is_some();
    let mut items = Vec::new();
    let mut revision;
    loop {
        let page = limit.map(|l| l.saturating_sub(items.len()).max(1));
        let opts = ListOptions {
            limit: page,
            continue_key: continue_key.clone(),
            at_revision,
        };
        let (stored, result) = match ctx.api.objects.list(&prefix, &opts, &info.gr()).await {
            Ok(r) => r,
            // etcd3 `interpretListError`: a compacted revision.
            Err(e) if e.code == 410 && paging => {
                let mut e = ApiError::expired(INCONSISTENT_CONTINUE);
                e.list_continue = Some(encode_continue(-1, &continue_start));
                return Err(e);
            }
            Err(e) if e.code == 410 => return Err(ApiError::expired(EXPIRED_LIST)),
            Err(e) => return Err(e),
        };
        revision = result.revision;
        at_revision = Some(result.revision);
        let last_key = result.items.last().map(|kv| kv.key.clone());
        for s in stored {
            let mut obj = s.value;
            crate::registry::conversion::to_request(&*ctx.strategy, &mut obj).await?;
            if sel.matches(&*ctx.strategy, &obj) {
                items.push(obj);
            }
        }
        match (result.more, last_key) {
            (true, Some(last)) => {
                if limit.is_some_and(|l| items.len() >= l) {
                    let start = last.strip_prefix(&prefix).unwrap_or(&last).to_owned();
                    let rv = i64::try_from(revision).unwrap_or(i64::MAX);
                    return Ok((items, revision, Some(encode_continue(rv, &start))));
                }
                continue_key = Some(last);
            }
            _ => return Ok((items, revision, None)),
        }
    }
}

pub(super) async fn list(ctx: &Ctx) -> ApiResult<Resp> {
    if ctx.path.subresource.is_some() {
        return Err(ApiError::no_such_resource());
    }
    let sel = Selection::parse(ctx)?;
    let (items, revision, cont) = read(ctx, &sel).await?;
    let mut meta = Map::new();
    meta.insert("resourceVersion".to_owned(), json!(revision.to_string()));
    if let Some(c) = cont {
        meta.insert("continue".to_owned(), json!(c));
    }
    let info = ctx.strategy.info();
    match ctx.output {
        Output::Table(v) => {
            let include = table::IncludeObject::parse(ctx.query.get("includeObject"))
                .map_err(ApiError::bad_request)?;
            let refs: Vec<&Value> = items.iter().collect();
            let t = ctx.strategy.table(&refs, crate::clock::now());
            let body = table::render(t, &refs, include, v, Value::Object(meta));
            let mut r = response::json_as(
                200,
                &body,
                &format!("application/json;as=Table;v={v};g=meta.k8s.io"),
            );
            response::add_warnings(&mut r, &ctx.warnings);
            Ok(r)
        }
        Output::PartialMetadata(v) => {
            let items: Vec<Value> = items
                .iter()
                .map(|o| table::partial_metadata(o, v))
                .collect();
            Ok(ctx.respond(
                200,
                &json!({"kind": "PartialObjectMetadataList", "apiVersion": format!("meta.k8s.io/{v}"),
                    "metadata": meta, "items": items}),
            ))
        }
        _ => Ok(ctx.respond(
            200,
            &json!({"apiVersion": info.api_version(), "kind": info.list_kind,
                "metadata": meta, "items": items}),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_tokens_round_trip() {
        let t = encode_continue(42, "default/my-cron");
        assert_eq!(
            decode_continue(&t).unwrap(),
            (42, "default/my-cron".to_owned())
        );
        assert_eq!(decode_continue("garbage!").unwrap_err().code, 400);
        let evil = crdkit_apimachinery::gobase64::encode_raw_url(
            br#"{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}"#,
        );
        assert_eq!(decode_continue(&evil).unwrap_err().code, 400);
        // `RawURLEncoding`: padding and the standard alphabet are not base64 to Go.
        let padded =
            crdkit_apimachinery::gobase64::encode(br#"{"v":"meta.k8s.io/v1","rv":1,"start":"a"}"#);
        assert!(padded.ends_with('='));
        assert_eq!(decode_continue(&padded).unwrap_err().code, 400);
        assert_eq!(
            decode_continue(padded.trim_end_matches('=')).unwrap().1,
            "a"
        );
    }
}
