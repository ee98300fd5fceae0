//! Label selectors: their validation, their conversion for matching, their printing in errors.
//!
//! Mirrors apimachinery `pkg/apis/meta/v1/validation/validation.go` (`ValidateLabelSelector`)
//! and `LabelSelectorAsSelector` / `labels.Selector.Matches` of `pkg/apis/meta/v1/helpers.go`.

use serde_json::Value;

use super::meta::{label_name, labels};
use super::read::{Obj, arr, obj, str_map, str_of, strs};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

/// A label selector requirement, as `LabelSelectorAsSelector` reads it.
pub(crate) struct Requirement<'a> {
    key: &'a str,
    op: &'a str,
    values: Vec<&'a str>,
}

/// A selector read once, for matching (`None`: nil selector).
pub(crate) struct Selector<'a> {
    match_labels: Vec<(&'a str, &'a str)>,
    exprs: Vec<Requirement<'a>>,
}

impl Selector<'_> {
    /// Whether it selects nothing in particular (`labels.Selector.Empty()`).
    pub(crate) fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.exprs.is_empty()
    }

    /// `Selector.Matches`.
    pub(crate) fn matches(&self, labels: &Obj) -> bool {
        let get = |k: &str| labels.get(k).and_then(Value::as_str);
        self.match_labels.iter().all(|(k, v)| get(k) == Some(v))
            && self.exprs.iter().all(|r| match r.op {
                "In" => get(r.key).is_some_and(|v| r.values.contains(&v)),
                "NotIn" => get(r.key).is_none_or(|v| !r.values.contains(&v)),
                "Exists" => get(r.key).is_some(),
                _ => get(r.key).is_none(),
            })
    }
}

/// `LabelSelectorAsSelector`: `None` when the selector does not convert (an unknown operator,
/// values where none may be, an invalid key or value).
pub(crate) fn as_selector(sel: &Obj) -> Option<Selector<'_>> {
    let mut out = Selector {
        match_labels: str_map(sel, "matchLabels").collect(),
        exprs: Vec::new(),
    };
    for (k, v) in &out.match_labels {
        if !names::label_key(k).is_empty() || !names::label_value(v).is_empty() {
            return None;
        }
    }
    for e in arr(sel, "matchExpressions") {
        let e = e.as_object()?;
        let r = Requirement {
            key: str_of(e, "key"),
            op: str_of(e, "operator"),
            values: strs(e, "values").collect(),
        };
        let ok = match r.op {
            "In" | "NotIn" => !r.values.is_empty(),
            "Exists" | "DoesNotExist" => r.values.is_empty(),
            _ => false,
        };
        if !ok
            || !names::label_key(r.key).is_empty()
            || r.values.iter().any(|v| !names::label_value(v).is_empty())
        {
            return None;
        }
        out.exprs.push(r);
    }
    Some(out)
}

/// `ValidateLabelSelector` (invalid label values are not allowed).
pub(crate) fn label_selector(sel: &Obj, path: &FieldPath, errs: &mut Vec<FieldError>) {
    labels(sel, "matchLabels", &path.child("matchLabels"), errs);
    for (i, e) in arr(sel, "matchExpressions").iter().enumerate() {
        let p = path.child("matchExpressions").index(i);
        let e = e.as_object().cloned().unwrap_or_default();
        let values: Vec<&str> = strs(&e, "values").collect();
        match str_of(&e, "operator") {
            "In" | "NotIn" if values.is_empty() => errs.push(FieldError::required(
                &p.child("values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(FieldError::forbidden(
                &p.child("values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            op => errs.push(FieldError::invalid(
                &p.child("operator"),
                op,
                "not a valid selector operator",
            )),
        }
        label_name(str_of(&e, "key"), &p.child("key"), errs);
        for (j, v) in values.iter().enumerate() {
            for msg in names::label_value(v) {
                errs.push(FieldError::invalid(&p.child("values").index(j), *v, msg));
            }
        }
    }
}

/// A `*metav1.LabelSelector` as Go's `json.Marshal` prints it in an error: fields in
/// declaration order (`matchLabels`, then `matchExpressions` with `key`, `operator`, `values`).
pub(crate) fn selector_bad_value(sel: Option<&Value>) -> BadValue {
    let Some(Value::Object(sel)) = sel else {
        return BadValue::Json(Value::Null);
    };
    let mut parts = Vec::new();
    if let Some(ml) = obj(sel, "matchLabels").filter(|m| !m.is_empty()) {
        parts.push(format!(
            "\"matchLabels\":{}",
            crdkit_apimachinery::gofmt::json(&Value::Object(ml.clone()))
        ));
    }
    let exprs = arr(sel, "matchExpressions");
    if !exprs.is_empty() {
        let items: Vec<String> = exprs
            .iter()
            .map(|e| {
                let e = e.as_object().cloned().unwrap_or_default();
                let mut s = format!(
                    "{{\"key\":{},\"operator\":{}",
                    crdkit_apimachinery::gofmt::json(&Value::from(str_of(&e, "key"))),
                    crdkit_apimachinery::gofmt::json(&Value::from(str_of(&e, "operator")))
                );
                if let Some(v) = e
                    .get("values")
                    .filter(|v| v.as_array().is_some_and(|a| !a.is_empty()))
                {
                    s.push_str(",\"values\":");
                    s.push_str(&crdkit_apimachinery::gofmt::json(v));
                }
                s.push('}');
                s
            })
            .collect();
        parts.push(format!("\"matchExpressions\":[{}]", items.join(",")));
    }
    BadValue::Raw(format!("{{{}}}", parts.join(",")))
}
