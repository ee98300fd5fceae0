//! The formatting helpers of kubernetes `pkg/printers/internalversion/printers.go` and the
//! apimachinery functions it calls (`labels.FormatLabels`, `metav1.FormatLabelSelector`,
//! `duration.HumanDuration`, `IntOrString.String`), over JSON objects.
//!
//! Objects are read as the API server's Go types decode them: a missing or mistyped field is
//! its zero value (`""`, `0`, `false`, empty), never an error.

use serde_json::{Map, Value};

use crdkit_apimachinery::duration::human_duration;
use crdkit_apimachinery::goparse::parse_rfc3339;
use crdkit_apimachinery::names;

/// `v` at `path` (`["spec", "replicas"]`), or `Null`.
pub(super) fn at<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
    path.iter().fold(v, |v, k| v.get(k).unwrap_or(&Value::Null))
}

/// The string at `path`, `""` when absent.
pub(super) fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    at(v, path).as_str().unwrap_or("")
}

/// The integer at `path`, 0 when absent (Go's `int32` zero value).
pub(super) fn int_at(v: &Value, path: &[&str]) -> i64 {
    at(v, path).as_i64().unwrap_or(0)
}

/// The array at `path`, empty when absent.
pub(super) fn list_at<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    at(v, path).as_array().map_or(&[], Vec::as_slice)
}

/// The object at `path`, `None` when absent.
pub(super) fn map_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Map<String, Value>> {
    at(v, path).as_object()
}

/// The number of entries of the object (map) at `path`.
pub(super) fn len_at(v: &Value, path: &[&str]) -> i64 {
    let n = match at(v, path) {
        Value::Object(m) => m.len(),
        Value::Array(a) => a.len(),
        _ => 0,
    };
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The object's name, the first cell of most rows.
pub(super) fn name_cell(obj: &Value) -> Value {
    Value::String(str_at(obj, &["metadata", "name"]).to_owned())
}

/// The object's age, the `Age` cell.
pub(super) fn age_cell(obj: &Value, now: i64) -> Value {
    Value::String(age_at(obj, &["metadata", "creationTimestamp"], now))
}

/// `translateTimestampSince`: the age of the timestamp at `path`, `<unknown>` when it is absent
/// (Go's zero time). A timestamp that does not parse cannot reach a printer in Go (decoding
/// fails first); it prints as absent here.
pub(super) fn age_at(v: &Value, path: &[&str], now: i64) -> String {
    match timestamp(at(v, path)) {
        Some(t) => human_duration(now - t),
        None => "<unknown>".to_owned(),
    }
}

/// The seconds of an RFC 3339 timestamp value (`metav1.Time` or `MicroTime`).
pub(super) fn timestamp(v: &Value) -> Option<i64> {
    v.as_str().and_then(|s| parse_rfc3339(s).ok())
}

/// `printBoolPtr`: `True`, `False`, or `<unset>` when absent.
pub(super) fn bool_ptr(v: &Value) -> String {
    match v.as_bool() {
        Some(true) => "True".to_owned(),
        Some(false) => "False".to_owned(),
        None => "<unset>".to_owned(),
    }
}

/// `IntOrString.String()`: the number, or the string.
pub(super) fn int_or_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => "0".to_owned(),
    }
}

/// `Quantity.String()` of a stored quantity. The API server stores quantities in their
/// canonical form (`1Gi`, `500m`), so it is printed as stored; a number is printed as Go's
/// quantity of that number would be for integers.
pub(super) fn quantity(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => "0".to_owned(),
    }
}

/// `labels.FormatLabels`: `k=v` sorted by key, joined by `,`; `<none>` when empty.
pub(super) fn labels(v: &Value) -> String {
    let pairs: Vec<String> = v
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
        .collect();
    if pairs.is_empty() {
        "<none>".to_owned()
    } else {
        pairs.join(",")
    }
}

/// `metav1.LabelSelectorAsSelector(sel).String()`: the requirements sorted by key (`k=v`,
/// `k in (a,b)`, `k notin (a)`, `k`, `!k`), or `Err` where Go's conversion fails (an invalid
/// key, value or operator). An absent or empty selector is `""`.
pub(super) fn label_selector(sel: &Value) -> Result<String, ()> {
    let Some(sel) = sel.as_object() else {
        return Ok(String::new());
    };
    let mut reqs: Vec<(String, String)> = Vec::new();
    for (k, v) in sel
        .get("matchLabels")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let v = v.as_str().unwrap_or("");
        if !names::label_key(k).is_empty() || !names::label_value(v).is_empty() {
            return Err(());
        }
        reqs.push((k.clone(), format!("{k}={v}")));
    }
    for expr in sel
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = str_at(expr, &["key"]);
        let mut values: Vec<&str> = list_at(expr, &["values"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if !names::label_key(key).is_empty()
            || values.iter().any(|v| !names::label_value(v).is_empty())
        {
            return Err(());
        }
        values.sort_unstable();
        let text = match str_at(expr, &["operator"]) {
            "In" | "NotIn" if values.is_empty() => return Err(()),
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" if values.is_empty() => key.to_owned(),
            "DoesNotExist" if values.is_empty() => format!("!{key}"),
            _ => return Err(()),
        };
        reqs.push((key.to_owned(), text));
    }
    reqs.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(reqs
        .into_iter()
        .map(|(_, r)| r)
        .collect::<Vec<_>>()
        .join(","))
}

/// `metav1.FormatLabelSelector`: the selector, `<none>` when it selects by nothing, `<error>`
/// when it does not convert.
pub(super) fn format_label_selector(sel: &Value) -> String {
    match label_selector(sel) {
        Ok(s) if s.is_empty() => "<none>".to_owned(),
        Ok(s) => s,
        Err(()) => "<error>".to_owned(),
    }
}

/// `layoutContainerCells`: the containers' names and images, each joined by `,`.
pub(super) fn containers(list: &[Value]) -> (String, String) {
    let names: Vec<&str> = list.iter().map(|c| str_at(c, &["name"])).collect();
    let images: Vec<&str> = list.iter().map(|c| str_at(c, &["image"])).collect();
    (names.join(","), images.join(","))
}

/// The containers and images of `<spec>.template.spec.containers` (`spec`, or a cron job's
/// `spec.jobTemplate.spec`), as two cells.
pub(super) fn template_cells(obj: &Value, spec: &[&str]) -> [Value; 2] {
    let mut path = spec.to_vec();
    path.extend(["template", "spec", "containers"]);
    let (names, images) = containers(list_at(obj, &path));
    [Value::String(names), Value::String(images)]
}

/// `listWithMoreString`: the first `max` items, `+ N more...` beyond, `<unset>` when empty.
pub(super) fn list_with_more(list: &[String], count: usize, max: usize) -> String {
    let ret = list.join(",");
    if count > max {
        format!("{ret} + {} more...", count - max)
    } else if ret.is_empty() {
        "<unset>".to_owned()
    } else {
        ret
    }
}

/// Whether the condition of `type_` in `conditions` has status `True` (`hasJobCondition`: the
/// first condition of that type decides).
pub(super) fn condition_true(conditions: &[Value], type_: &str) -> bool {
    conditions
        .iter()
        .find(|c| str_at(c, &["type"]) == type_)
        .is_some_and(|c| str_at(c, &["status"]) == "True")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selectors_as_apimachinery_prints_them() {
        let sel = json!({"matchLabels": {"b": "2", "a": "1"},
            "matchExpressions": [{"key": "env", "operator": "In", "values": ["qa", "dev"]},
                                 {"key": "tier", "operator": "DoesNotExist"}]});
        assert_eq!(
            label_selector(&sel),
            Ok("a=1,b=2,env in (dev,qa),!tier".to_owned())
        );
        assert_eq!(format_label_selector(&json!({})), "<none>");
        assert_eq!(format_label_selector(&Value::Null), "<none>");
        assert_eq!(
            format_label_selector(&json!({"matchExpressions": [{"key": "a", "operator": "In"}]})),
            "<error>"
        );
        assert_eq!(
            format_label_selector(&json!({"matchLabels": {"a b": "c"}})),
            "<error>"
        );
        assert_eq!(labels(&json!({"b": "2", "a": "1"})), "a=1,b=2");
        assert_eq!(labels(&json!({})), "<none>");
    }

    #[test]
    fn small_formats() {
        assert_eq!(bool_ptr(&json!(true)), "True");
        assert_eq!(bool_ptr(&Value::Null), "<unset>");
        assert_eq!(int_or_string(&json!(1)), "1");
        assert_eq!(int_or_string(&json!("25%")), "25%");
        let list: Vec<String> = ["a", "b", "c"].map(str::to_owned).to_vec();
        assert_eq!(list_with_more(&list, 5, 3), "a,b,c + 2 more...");
        assert_eq!(list_with_more(&[], 0, 3), "<unset>");
        assert_eq!(
            age_at(&json!({}), &["metadata", "creationTimestamp"], 0),
            "<unknown>"
        );
    }
}
