//! kubectl's client-side apply annotation, seen from server-side apply.
//!
//! Mirrors apimachinery `pkg/util/managedfields/internal/lastappliedmanager.go`,
//! `lastappliedupdater.go` and `lastapplied.go`: when `kubectl` applies server-side to an object
//! it used to apply client-side, conflicts on fields its `last-applied-configuration` holds (with
//! the values the object still has) are taken over; and the annotation follows what kubectl
//! applies, for a later client-side apply.

use serde_json::{Map, Value};

use crate::fieldpath::Set;
use crate::typed::TypedValue;

/// `kubectl.kubernetes.io/last-applied-configuration`.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Annotations may take 256 KiB in all (`TotalAnnotationSizeLimitB`).
const ANNOTATIONS_LIMIT: usize = 256 * 1024;

fn annotations(obj: &Value) -> Option<&Map<String, Value>> {
    obj.get("metadata")?.get("annotations")?.as_object()
}

/// `hasLastApplied`.
pub(crate) fn has_last_applied(obj: &Value) -> bool {
    annotations(obj)
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
}

/// `buildLastApplied`: the applied object without the annotation, as Go's JSON encoder writes it
/// (keys sorted, HTML escaped, a newline at the end).
pub(crate) fn build_last_applied(config: &Value) -> String {
    let mut obj = config.clone();
    if let Some(Value::Object(a)) = obj
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
    {
        a.remove(LAST_APPLIED);
    }
    let mut s = crdkit_apimachinery::gofmt::json(&obj);
    s.push('\n');
    s
}

/// `SetLastApplied`: dropped again when the annotations would exceed their size limit.
pub(crate) fn set_last_applied(obj: &mut Value, value: &str) {
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let annotations = meta
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    if !annotations.is_object() {
        *annotations = Value::Object(Map::new());
    }
    let Some(a) = annotations.as_object_mut() else {
        return;
    };
    a.insert(LAST_APPLIED.to_owned(), Value::String(value.to_owned()));
    let size: usize = a
        .iter()
        .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
        .sum();
    if size > ANNOTATIONS_LIMIT {
        a.remove(LAST_APPLIED);
    }
}

/// `allowedConflictsFromLastApplied`: the fields of the annotation whose values the live object
/// still has. `gv` is the manager's group version and `typed` its `ObjectToTyped`.
pub(crate) fn allowed_conflicts(
    live: &Value,
    gv: &str,
    typed: &dyn Fn(&Value) -> Result<TypedValue, String>,
) -> Result<Set, String> {
    let last = annotations(live)
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or("no last applied annotation")?;
    let live_typed =
        typed(live).map_err(|e| format!("failed to convert live obj to typed: {e}"))?;
    let last_obj: Value = serde_json::from_str(last)
        .map_err(|e| format!("failed to decode last applied obj: {e} in '{last}'"))?;
    let last_version = last_obj
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if last_version != gv {
        return Err(format!(
            "expected version of last applied to match live object '{gv}', but got '{last_version}'"
        ));
    }
    let last_typed =
        typed(&last_obj).map_err(|e| format!("failed to convert last applied to typed: {e}"))?;
    let set = last_typed
        .to_field_set()
        .map_err(|e| format!("failed to create fieldset for last applied object: {e}"))?;
    let c = last_typed
        .compare(&live_typed)
        .map_err(|e| format!("failed to compare last applied object and live object: {e}"))?;
    Ok(set
        .difference(&c.modified)
        .difference(&c.added)
        .difference(&c.removed))
}
