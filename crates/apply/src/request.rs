//! The request side of apply: the patch body, the `fieldManager` option, and the checks the
//! API server makes of the object an apply produced.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/patch.go` (`applyPatcher`: the body decoded as YAML
//! into a map; `applyPatch`: the uid, namespace and name checks), `rest.go` (`checkName`),
//! `create.go` (`managerOrUserAgent`), `pkg/registry/rest/meta.go`
//! (`EnsureObjectNamespaceMatchesRequestNamespace`) and apimachinery
//! `pkg/apis/meta/v1/validation/validation.go` (`ValidatePatchOptions`, `ValidateFieldManager`).

use serde_json::{Map, Value};

use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::gofmt;

use crate::error::ApplyError;

/// The longest field manager name (`FieldManagerMaxLength`).
pub const FIELD_MANAGER_MAX_LENGTH: usize = 128;

/// An `application/apply-patch+yaml` body (YAML or JSON) as the object to apply.
///
/// # Errors
/// A body that is not YAML, or whose document is not a mapping:
/// `error decoding patch: ...` (400).
pub fn decode_apply_patch(body: &[u8]) -> Result<Value, ApplyError> {
    decode_apply_patch_with(body, serde_saphyr::Options::default())
}

/// [`decode_apply_patch`] with the YAML reader's `options` (a server's budget: nesting, and
/// aliases charged as they expand).
///
/// # Errors
/// As [`decode_apply_patch`]; a body over the budget is `error decoding patch: ...` too.
pub fn decode_apply_patch_with(
    body: &[u8],
    options: serde_saphyr::Options,
) -> Result<Value, ApplyError> {
    let bad = |m: String| ApplyError::BadRequest(format!("error decoding patch: {m}"));
    let max_depth = options.budget.as_ref().map(|b| b.max_depth);
    let yaml_bad = |e: serde_saphyr::Error| bad(yaml_error(&e, max_depth));
    let text = std::str::from_utf8(body).map_err(|e| bad(e.to_string()))?;
    if text.trim().is_empty() {
        // `null` decodes into an empty map.
        return Ok(Value::Object(Map::new()));
    }
    let v: Value = if text.trim_start().starts_with('{') {
        match serde_json::from_str(text) {
            Ok(v) => v,
            Err(_) => serde_saphyr::from_str_with_options(text, options).map_err(yaml_bad)?,
        }
    } else {
        serde_saphyr::from_str_with_options(text, options).map_err(yaml_bad)?
    };
    match v {
        Value::Object(_) => Ok(v),
        Value::Null => Ok(Value::Object(Map::new())),
        other => Err(bad(format!(
            "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            json_kind(&other)
        ))),
    }
}

/// A YAML reader's error as go-yaml words the limits it shares (`yaml: exceeded max depth of
/// N`, with the budget's `max_depth`; `yaml: document contains excessive aliasing`: within the
/// size of a body only aliases can exceed a budget made for it), otherwise the reader's first
/// line.
#[must_use]
pub fn yaml_error(e: &serde_saphyr::Error, max_depth: Option<usize>) -> String {
    let msg = e.to_string();
    if let Some(depth) = max_depth
        && (msg.contains("budget breached: Depth") || msg.contains("recursion limit exceeded"))
    {
        return format!("yaml: exceeded max depth of {depth}");
    }
    if msg.contains("budget breached") || msg.contains("alias replay") {
        return "yaml: document contains excessive aliasing".to_owned();
    }
    first_line(&msg)
}

fn first_line(s: &str) -> String {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .to_owned()
}

/// The JSON kind as Go's `encoding/json` names it in `UnmarshalTypeError`.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}

/// `ValidatePatchOptions` (and the `fieldManager` part of create and update options): for an
/// apply the manager is required; any manager is at most 128 bytes of printable characters.
///
/// # Errors
/// [`ApplyError::InvalidOptions`] (422) for `kind` (`PatchOptions`, `CreateOptions`,
/// `UpdateOptions`).
pub fn validate_field_manager(manager: &str, apply: bool, kind: &str) -> Result<(), ApplyError> {
    let path = FieldPath::new("fieldManager");
    let mut errors = Vec::new();
    if apply && manager.is_empty() {
        errors.push(FieldError::required(&path, "is required for apply patch"));
    }
    if manager.len() > FIELD_MANAGER_MAX_LENGTH {
        let max = i64::try_from(FIELD_MANAGER_MAX_LENGTH).unwrap_or(i64::MAX);
        errors.push(FieldError::too_long(&path, max));
    }
    for (i, c) in manager.char_indices() {
        if !gofmt::is_print(c) {
            errors.push(FieldError::invalid(
                &path,
                manager,
                format!("invalid character {} (at position {i})", go_unicode(c)),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApplyError::InvalidOptions {
            kind: kind.to_owned(),
            errors,
        })
    }
}

/// Go's `%#U`: `U+0007`, followed by the quoted character when printable.
fn go_unicode(c: char) -> String {
    let code = format!("U+{:04X}", c as u32);
    if gofmt::is_print(c) {
        format!("{code} '{c}'")
    } else {
        code
    }
}

/// `managerOrUserAgent`: the manager, or the user agent up to its first `/`, without
/// unprintable characters, cut at 128 bytes.
#[must_use]
pub fn manager_or_user_agent(manager: &str, user_agent: &str) -> String {
    if !manager.is_empty() {
        return manager.to_owned();
    }
    let prefix = user_agent.split('/').next().unwrap_or_default();
    let mut out = String::new();
    for c in prefix.chars().filter(|c| gofmt::is_print(*c)) {
        if out.len() + c.len_utf8() > FIELD_MANAGER_MAX_LENGTH {
            break;
        }
        out.push(c);
    }
    out
}

/// The checks of the object an apply (or any patch) produced, in the API server's order: a
/// `uid` on an object being created (409), the namespace (set from the request when absent,
/// cleared for cluster-scoped resources, 400 when it differs) and the name (400 when it differs
/// from the URL's).
///
/// `namespace` is the request's namespace (`None` for cluster-scoped resources),
/// `group_resource` the resource (`crontabs.stable.example.com`).
///
/// # Errors
/// As above, with the API server's texts.
pub fn check_patched_object(
    obj: &mut Value,
    name: &str,
    namespace: Option<&str>,
    created: bool,
    group_resource: &str,
) -> Result<(), ApplyError> {
    let get = |obj: &Value, k: &str| {
        obj.get("metadata")
            .and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let uid = get(obj, "uid");
    if created && !uid.is_empty() {
        return Err(ApplyError::ObjectConflict {
            group_resource: group_resource.to_owned(),
            name: name.to_owned(),
            detail: format!(
                "uid mismatch: the provided object specified uid {uid}, and no existing object was found"
            ),
        });
    }
    let request_ns = namespace.unwrap_or_default();
    let obj_ns = get(obj, "namespace");
    if obj_ns != request_ns {
        if obj_ns.is_empty() || request_ns.is_empty() {
            set_meta(obj, "namespace", request_ns);
        } else {
            return Err(ApplyError::BadRequest(
                "the namespace of the provided object does not match the namespace sent on the request"
                    .to_owned(),
            ));
        }
    }
    let obj_name = get(obj, "name");
    if obj_name != name {
        return Err(ApplyError::BadRequest(format!(
            "the name of the object ({obj_name}) does not match the name on the URL ({name})"
        )));
    }
    Ok(())
}

fn set_meta(obj: &mut Value, key: &str, value: &str) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let meta = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(m) = meta.as_object_mut() {
        if value.is_empty() {
            m.remove(key);
        } else {
            m.insert(key.to_owned(), Value::String(value.to_owned()));
        }
    }
}

/// `IgnoreManagedFieldsTimestampsTransformer`: when a write changes nothing but the times of
/// managed fields entries, the old times are kept, so that a no-op apply stores nothing new.
#[must_use]
pub fn ignore_managed_fields_timestamps(new: Value, old: &Value) -> Value {
    let entries = |v: &Value| {
        v.get("metadata")
            .and_then(|m| m.get("managedFields"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let (new_entries, old_entries) = (entries(&new), entries(old));
    if new_entries.len() != old_entries.len() || new_entries.is_empty() {
        return new;
    }
    let time = |e: &Value| e.get("time").cloned();
    if new_entries
        .iter()
        .zip(&old_entries)
        .all(|(n, o)| time(n) == time(o))
    {
        return new;
    }
    let without_time = |e: &Value| {
        let mut e = e.clone();
        if let Some(m) = e.as_object_mut() {
            m.remove("time");
        }
        e
    };
    if new_entries
        .iter()
        .zip(&old_entries)
        .any(|(n, o)| without_time(n) != without_time(o))
    {
        return new;
    }
    let mut new_restored = new.clone();
    if let Some(Value::Array(list)) = new_restored.pointer_mut("/metadata/managedFields") {
        for (n, o) in list.iter_mut().zip(&old_entries) {
            if let Some(m) = n.as_object_mut() {
                match o.get("time") {
                    Some(t) => {
                        m.insert("time".to_owned(), t.clone());
                    }
                    None => {
                        m.remove("time");
                    }
                }
            }
        }
    }
    if new_restored == *old {
        new_restored
    } else {
        new
    }
}
