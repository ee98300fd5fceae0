//! What every write shares: `fieldValidation` and `dryRun`, the system fields of `metadata`,
//! the namespace lifecycle check, finalizer rules, the field manager's name; the update loop is
//! [`super::guaranteed`].
//!
//! Mirrors apiserver `pkg/registry/rest/create.go` (`BeforeCreate`), `rest/update.go`
//! (`BeforeUpdate`: uid, creation and deletion timestamps kept, the generation carried over,
//! `ValidateObjectMetaUpdate`), `pkg/registry/generic/registry/store.go` (`Update`: the
//! resourceVersion precondition, `AllowUnconditionalUpdate`, no write when nothing changed, the
//! object deleted when its last finalizer goes), `pkg/endpoints/handlers/rest.go`
//! (`fieldValidation`, `strict decoding error: …`), the NamespaceLifecycle admission plugin
//! and the finalizer-name warnings of the custom resource strategy.

use crdkit_apimachinery::strict;
use serde_json::{Map, Value, json};

use super::ctx::Ctx;
use crate::engine::{
    Admitted, FieldError, FieldPath, label_key, manager_or_user_agent, validate_field_manager,
};
use crate::http::status::{ApiError, ApiResult};
use crate::object;
use crate::registry::Strategy;

/// `fieldValidation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldValidation {
    Ignore,
    Warn,
    Strict,
}

pub(crate) fn field_validation(ctx: &Ctx) -> ApiResult<FieldValidation> {
    match ctx.query.get("fieldValidation") {
        None | Some("" | "Warn") => Ok(FieldValidation::Warn),
        Some("Ignore") => Ok(FieldValidation::Ignore),
        Some("Strict") => Ok(FieldValidation::Strict),
        Some(v) => Err(ApiError::bad_request(format!(
            "fieldValidation: Invalid value: \"{v}\": fieldValidation must be one of \"Ignore\", \"Warn\", or \"Strict\""
        ))),
    }
}

/// What an admitted write holds ([`Strategy::held`]), given back when dropped before
/// [`Held::stored`]: every way out of a write but a stored object.
pub(crate) struct Held<'a> {
    strategy: &'a dyn Strategy,
    held: Option<Value>,
}

impl<'a> Held<'a> {
    /// What `obj` holds once admitted; nothing when admission refused it (the strategy gave
    /// its allocation back then).
    pub(crate) fn new(
        strategy: &'a dyn Strategy,
        admitted: &Admitted,
        obj: &Value,
        old: Option<&Value>,
    ) -> Held<'a> {
        let ok = admitted.errors.is_empty() && !admitted.decoding_failed;
        Held {
            strategy,
            held: if ok { strategy.held(obj, old) } else { None },
        }
    }

    /// The object is stored: what it holds is its own, what it replaced is freed.
    pub(crate) fn stored(mut self) {
        if let Some(h) = self.held.take() {
            self.strategy.keep(&h);
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if let Some(h) = self.held.take() {
            self.strategy.give_back(&h);
        }
    }
}

/// Whether `dryRun=All` is set.
pub(crate) fn dry_run(ctx: &Ctx) -> ApiResult<bool> {
    let mut dry = false;
    for v in ctx.query.all("dryRun") {
        match v {
            "All" => dry = true,
            "" => {}
            other => {
                return Err(ApiError::bad_request(format!(
                    "dryRun: Unsupported value: \"{other}\": supported values: \"All\""
                )));
            }
        }
    }
    Ok(dry)
}

/// Duplicate and unknown fields, as `fieldValidation` wants them: a 400 (`Strict`), warnings
/// (`Warn`), or nothing.
pub(crate) fn strict_fields(
    ctx: &mut Ctx,
    fv: FieldValidation,
    duplicates: &[String],
    unknown: &[String],
) -> ApiResult<()> {
    let found: Vec<String> = duplicates
        .iter()
        .map(|d| strict::duplicate_field(d))
        .collect();
    strict_fields_as(ctx, fv, &found, unknown, ApiError::bad_request)
}

/// As [`strict_fields`] with what the body's decoding `found` (its strict errors' texts, ahead
/// of the object's unknown fields) and a strict failure answered by `refuse` of the strict
/// decoding error's text (a patch's 422).
pub(crate) fn strict_fields_as(
    ctx: &mut Ctx,
    fv: FieldValidation,
    found: &[String],
    unknown: &[String],
    refuse: impl FnOnce(String) -> ApiError,
) -> ApiResult<()> {
    let msgs: Vec<String> = found
        .iter()
        .cloned()
        .chain(unknown.iter().map(|u| strict::unknown_field(u)))
        .collect();
    match fv {
        FieldValidation::Strict if !msgs.is_empty() => {
            Err(refuse(strict::strict_decoding_error(&msgs)))
        }
        FieldValidation::Warn => {
            ctx.warnings.extend(msgs);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The 422 of the errors of an admitted object, if any.
pub(crate) fn invalid(strategy: &dyn Strategy, name: &str, a: &Admitted) -> ApiResult<()> {
    if a.errors.is_empty() {
        return Ok(());
    }
    let info = strategy.info();
    if a.decoding_failed {
        // The request did not decode: rejected before validation (`transformDecodeError`).
        let kind = &info.kind;
        return Err(ApiError::bad_request(strict::cannot_be_handled(
            kind,
            &info.version,
            &crate::engine::aggregate(&a.errors),
        )));
    }
    Err(ApiError::invalid(&info.group, &info.kind, name, &a.errors))
}

/// Fills missing `apiVersion` and `kind` from the URL (the decoder's default kind) and rejects
/// another group-version.
pub(crate) fn type_meta(obj: &mut Value, strategy: &dyn Strategy) -> ApiResult<()> {
    let info = strategy.info();
    let Value::Object(m) = obj else {
        return Err(ApiError::bad_request(format!(
            "the body of the request is not a JSON object: {}",
            short(obj)
        )));
    };
    match m.get("apiVersion").and_then(Value::as_str) {
        None | Some("") => {
            m.insert("apiVersion".to_owned(), json!(info.api_version()));
        }
        Some(v) if !info.is_api_version(v) => {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({v}) does not match the expected API version ({})",
                info.api_version()
            )));
        }
        Some(_) => {}
    }
    if m.get("kind")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        m.insert("kind".to_owned(), json!(info.kind));
    }
    Ok(())
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 100 {
        format!(
            "{}...",
            &s[..s.char_indices().nth(100).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

/// The request's namespace in the object: set when absent, a 400 when different; removed for
/// cluster-scoped kinds.
pub(crate) fn namespace(obj: &mut Value, ctx: &Ctx) -> ApiResult<()> {
    if !ctx.strategy.info().namespaced {
        object::set_meta(obj, "namespace", None);
        return Ok(());
    }
    let want = ctx.path.namespace.clone().unwrap_or_default();
    match object::namespace(obj) {
        "" => object::set_meta(obj, "namespace", Some(json!(want))),
        ns if ns != want => {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        _ => {}
    }
    Ok(())
}

/// NamespaceLifecycle: the namespace of a new object exists and is not terminating (read from
/// the storage, only what the check needs decoded).
pub(crate) async fn check_namespace(ctx: &Ctx, name: &str) -> ApiResult<()> {
    let Some(ns) = ctx.path.namespace.as_deref() else {
        return Ok(());
    };
    let api = &ctx.api;
    let key = api.namespaces.info().key(None, ns);
    let kv = api
        .objects
        .get_kv(&key, &crate::api::Api::namespaces_gr(), ns)
        .await?;
    if namespace_deleting(api, ns, &kv) {
        let mut e = ApiError::forbidden(
            &ctx.strategy.info().gr(),
            name,
            &format!(
                "unable to create new content in namespace {ns} because it is being terminated"
            ),
        );
        // The cause client-go's event recorders look for (`v1.NamespaceTerminatingCause`).
        if let Some(d) = e.details.as_mut() {
            d.causes.push(crate::http::status::Cause {
                reason: "NamespaceTerminating".to_owned(),
                message: format!("namespace {ns} is being terminated"),
                field: "metadata.namespace".to_owned(),
            });
        }
        return Err(e);
    }
    Ok(())
}

/// [`stored_deleting`] of a namespace's stored state, decoded once per revision of it.
fn namespace_deleting(api: &crate::api::Api, name: &str, kv: &crdkit_storage::KeyValue) -> bool {
    /// Past this many namespaces the memo starts over (names are the client's to choose).
    const MAX: usize = 4096;
    let lock = || {
        api.namespace_deleting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some((revision, deleting)) = lock().get(name)
        && *revision == kv.mod_revision
    {
        return *deleting;
    }
    let deleting = stored_deleting(&kv.value);
    let mut memo = lock();
    if memo.len() >= MAX {
        memo.clear();
    }
    memo.insert(name.to_owned(), (kv.mod_revision, deleting));
    deleting
}

/// Whether stored bytes hold an object being deleted ([`object::is_deleting`]), reading its
/// `metadata.deletionTimestamp` alone (every create in a namespace asks this of it).
fn stored_deleting(bytes: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        metadata: Option<Meta>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Meta {
        #[serde(default)]
        deletion_timestamp: crate::store::head::Str,
    }
    serde_json::from_slice::<Head>(bytes)
        .ok()
        .and_then(|h| h.metadata)
        .is_some_and(|m| !m.deletion_timestamp.text().is_empty())
}

/// `names.SimpleNameGenerator`: the prefix and five random characters of a safe alphabet.
pub(crate) fn generate_name(prefix: &str) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let bytes = uuid::Uuid::new_v4().into_bytes();
    let prefix = if prefix.len() > 58 {
        &prefix[..58]
    } else {
        prefix
    };
    let suffix: String = bytes[..5]
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect();
    format!("{prefix}{suffix}")
}

/// `BeforeCreate`'s system fields: a new uid, the creation time, generation 1, and nothing the
/// client may not set.
pub(crate) fn system_fields_for_create(obj: &mut Value, strategy: &dyn Strategy, now: i64) {
    let meta = object::metadata_mut(obj);
    for k in [
        "resourceVersion",
        "selfLink",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ] {
        meta.remove(k);
    }
    meta.insert("uid".to_owned(), json!(uuid::Uuid::new_v4().to_string()));
    meta.insert(
        "creationTimestamp".to_owned(),
        json!(crate::clock::format(now)),
    );
    if strategy.uses_generation() {
        meta.insert("generation".to_owned(), json!(1));
    } else {
        meta.remove("generation");
    }
}

/// `BeforeUpdate`: the fields an update cannot change come from the old object; the errors of
/// changing the immutable ones.
pub(crate) fn system_fields_for_update(new: &mut Value, old: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let old_meta = old.get("metadata").cloned().unwrap_or(Value::Null);
    let meta: &mut Map<String, Value> = object::metadata_mut(new);
    let uid = meta.get("uid").and_then(Value::as_str).unwrap_or("");
    let old_uid = old_meta.get("uid").and_then(Value::as_str).unwrap_or("");
    if uid.is_empty() {
        meta.insert("uid".to_owned(), json!(old_uid));
    } else if uid != old_uid {
        errs.push(FieldError::invalid(
            &FieldPath::new("metadata").child("uid"),
            uid,
            "field is immutable",
        ));
    }
    for k in ["creationTimestamp", "generation"] {
        match old_meta.get(k) {
            Some(v) => meta.insert(k.to_owned(), v.clone()),
            None => meta.remove(k),
        };
    }
    for k in ["deletionTimestamp", "deletionGracePeriodSeconds"] {
        if let Some(v) = old_meta.get(k) {
            meta.insert(k.to_owned(), v.clone());
        } else {
            meta.remove(k);
        }
    }
    errs
}

/// No new finalizer on an object being deleted (`ValidateObjectMetaUpdate`).
pub(crate) fn finalizer_errors(new: &Value, old: &Value) -> Vec<FieldError> {
    if !object::is_deleting(old) {
        return Vec::new();
    }
    let old_f = object::finalizers(old);
    let added: Vec<String> = object::finalizers(new)
        .into_iter()
        .filter(|f| !old_f.contains(f))
        .collect();
    if added.is_empty() {
        return Vec::new();
    }
    let list: Vec<String> = added
        .iter()
        .map(|f| crdkit_apimachinery::gofmt::quote(f))
        .collect();
    vec![FieldError::forbidden(
        &FieldPath::new("metadata").child("finalizers"),
        format!(
            "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
            list.join(", ")
        ),
    )]
}

/// The custom resource strategy's warnings for finalizer names added (`generateWarningsFromObj`).
pub(crate) fn finalizer_warnings(new: &Value, old: Option<&Value>) -> Vec<String> {
    let old_f = old.map(object::finalizers).unwrap_or_default();
    let mut added: Vec<String> = object::finalizers(new)
        .into_iter()
        .filter(|f| !old_f.contains(f))
        .collect();
    added.sort();
    added.dedup();
    let mut out = Vec::new();
    for f in added {
        for msg in label_key(&f) {
            out.push(format!("metadata.finalizers: \"{f}\": {msg}"));
        }
        if !f.contains('/') && !matches!(f.as_str(), "kubernetes" | "orphan" | "foregroundDeletion")
        {
            out.push(format!(
                "metadata.finalizers: \"{f}\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
            ));
        }
    }
    out
}

/// Whether anything but `metadata` differs (`copyNonMetadata` compared).
pub(crate) fn spec_changed(new: &Value, old: &Value) -> bool {
    let strip = |v: &Value| -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(k, _)| k.as_str() != "metadata")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            other => other.clone(),
        }
    };
    strip(new) != strip(old)
}

/// The manager of a write that is not an apply: `fieldManager` (validated as `kind`'s option,
/// `CreateOptions`, `UpdateOptions` or `PatchOptions`), else the user agent's product name.
pub(crate) fn manager(ctx: &Ctx, kind: &str) -> ApiResult<String> {
    let given = ctx.query.get("fieldManager").unwrap_or("");
    validate_field_manager(given, false, kind).map_err(|e| ApiError::from_apply(&e))?;
    let agent = ctx
        .headers
        .get(http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    Ok(manager_or_user_agent(given, agent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finalizer_name_warnings() {
        let new = json!({"metadata": {"finalizers": ["stable.example.com/finalizer", "plain", "kubernetes"]}});
        assert_eq!(
            finalizer_warnings(&new, None),
            [
                "metadata.finalizers: \"plain\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
            ]
        );
        let old = json!({"metadata": {"finalizers": ["plain"]}});
        assert!(finalizer_warnings(&new, Some(&old)).is_empty());
    }

    #[test]
    fn no_new_finalizers_while_deleting() {
        let old = json!({"metadata": {"deletionTimestamp": "2021-01-01T00:00:00Z", "finalizers": ["a/b"]}});
        let new = json!({"metadata": {"finalizers": ["a/b", "c/d"]}});
        assert_eq!(
            finalizer_errors(&new, &old)[0].to_string(),
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"c/d\"}"
        );
        assert!(finalizer_errors(&json!({"metadata": {}}), &old).is_empty());
    }

    #[test]
    fn stored_namespaces_being_deleted() {
        // The same answer as decoding the object and asking it.
        let cases = [
            r#"{"metadata":{"name":"a","deletionTimestamp":"2021-01-01T00:00:00Z","managedFields":[{"f":1}]},"spec":{}}"#,
            r#"{"metadata":{"name":"a","deletionTimestamp":""}}"#,
            r#"{"metadata":{"name":"a","deletionTimestamp":null}}"#,
            r#"{"metadata":{"name":"a","deletionTimestamp":1}}"#,
            r#"{"metadata":{"name":"a"}}"#,
            r#"{"metadata":"x"}"#,
            r#"{"kind":"Namespace"}"#,
            "[1]",
            "",
        ];
        let want = [true, false, false, false, false, false, false, false, false];
        for (bytes, want) in cases.iter().zip(want) {
            let head: Value = serde_json::from_slice(bytes.as_bytes()).unwrap_or_default();
            assert_eq!(object::is_deleting(&head), want, "{bytes}");
            assert_eq!(stored_deleting(bytes.as_bytes()), want, "{bytes}");
        }
    }

    #[test]
    fn generated_names() {
        let n = generate_name("web-");
        assert_eq!(n.len(), 9);
        assert!(n.starts_with("web-"));
    }
}
