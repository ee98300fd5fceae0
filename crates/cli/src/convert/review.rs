//! The API server's side of a conversion webhook call: the `ConversionReview` it sends, and the
//! checks of the answer before it uses the converted objects.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/conversion/webhook_converter.go`
//! (`createConversionReviewObjects`, `getConvertedObjectsFromResponse`, the checks of
//! `webhookConverter.Convert`, `validateConvertedObject` and `restoreObjectMeta`).
//!
//! A minimal client of its own: the `ConversionReview` types and these checks are being written
//! as a pure module of `crdkit-apiextensions` (`conversion::client::converted_objects`, branch
//! `webhook`); once that is merged, this module should call it instead.

use serde_json::{Map, Value, json};

/// The `ConversionReview` versions the API server sends, in its order of preference.
const KNOWN: [&str; 2] = ["v1", "v1beta1"];

/// The review version to send: the first of the CRD's `conversionReviewVersions` the API
/// server knows.
///
/// # Errors
/// `no supported conversion review versions` when none is known.
pub fn review_version(conversion_review_versions: &[String]) -> Result<&'static str, String> {
    conversion_review_versions
        .iter()
        .find_map(|v| KNOWN.iter().find(|k| **k == v.as_str()).copied())
        .ok_or_else(|| "no supported conversion review versions".to_owned())
}

/// The request body: `ConversionReview` of `version` asking to convert `objects` to
/// `desired_api_version`.
#[must_use]
pub fn request(version: &str, uid: &str, desired_api_version: &str, objects: &[Value]) -> Value {
    json!({
        "apiVersion": format!("apiextensions.k8s.io/{version}"),
        "kind": "ConversionReview",
        "request": {"uid": uid, "desiredAPIVersion": desired_api_version, "objects": objects},
    })
}

/// The converted objects of `answer`, a webhook's response to [`request`]: checked, with the
/// original `metadata` restored but for labels and annotations.
///
/// # Errors
/// Go's message for the first problem (`expected response.uid="a", got "b"`, the webhook's
/// `result.message`, `returned 1 objects, expected 2`, `invalid converted object at index 0:
/// must have the same name: a != b`, ...), without the `conversion webhook for ...` prefix.
pub fn converted_objects(
    version: &str,
    uid: &str,
    objects: &[Value],
    desired_api_version: &str,
    answer: &Value,
) -> Result<Vec<Value>, String> {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let review_api_version = format!("apiextensions.k8s.io/{version}");
    if version == "v1" {
        // v1beta1 answers were never checked for their type or uid.
        let (av, kind) = (text(answer, "apiVersion"), text(answer, "kind"));
        if av != review_api_version || kind != "ConversionReview" {
            return Err(format!(
                "expected webhook response of {review_api_version}, Kind=ConversionReview, got {av}, Kind={kind}"
            ));
        }
    }
    let Some(response) = answer.get("response").filter(|r| !r.is_null()) else {
        return Err("no response provided".to_owned());
    };
    if version == "v1" && text(response, "uid") != uid {
        return Err(format!(
            "expected response.uid={}, got {}",
            go_quote(uid),
            go_quote(&text(response, "uid"))
        ));
    }
    let result = response.get("result").cloned().unwrap_or(Value::Null);
    let status = text(&result, "status");
    if status != "Success" {
        let message = text(&result, "message");
        return Err(if message.is_empty() {
            format!("response.result.status was '{status}', not 'Success'")
        } else {
            message
        });
    }
    let converted = response
        .get("convertedObjects")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    if converted.len() != objects.len() {
        return Err(format!(
            "returned {} objects, expected {}",
            converted.len(),
            objects.len()
        ));
    }
    let mut out = Vec::with_capacity(objects.len());
    for (i, (original, converted)) in objects.iter().zip(converted).enumerate() {
        let bad = |m: String| format!("returned invalid converted object at index {i}: {m}");
        let (Value::Object(original), Value::Object(converted)) = (original, converted) else {
            return Err(bad("not a JSON object".to_owned()));
        };
        let got = text(&Value::Object(converted.clone()), "apiVersion");
        if got != desired_api_version {
            return Err(bad(format!(
                "invalid groupVersion (expected {desired_api_version}, received {got})"
            )));
        }
        let field = |m: &Map<String, Value>, p: &str| {
            Value::Object(m.clone())
                .pointer(p)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let (want, got) = (field(original, "/kind"), field(converted, "/kind"));
        if want != got {
            return Err(bad(format!(
                "invalid kind (expected {want}, received {got})"
            )));
        }
        for (what, p) in [
            ("kind", "/kind"),
            ("name", "/metadata/name"),
            ("namespace", "/metadata/namespace"),
            ("UID", "/metadata/uid"),
        ] {
            let (e, a) = (field(original, p), field(converted, p));
            if e != a {
                return Err(bad(format!("must have the same {what}: {e} != {a}")));
            }
        }
        let mut converted = converted.clone();
        restore_object_meta(original, &mut converted)
            .map_err(|m| format!("returned invalid metadata in object at index {i}: {m}"))?;
        out.push(Value::Object(converted));
    }
    Ok(out)
}

/// `restoreObjectMeta`: `converted` gets the original `metadata`, but for the labels and
/// annotations the webhook returned (which must be maps of strings, and valid).
fn restore_object_meta(
    original: &Map<String, Value>,
    converted: &mut Map<String, Value>,
) -> Result<(), String> {
    let response_meta = match converted.get("metadata") {
        None => return Err("missing metadata in converted object".to_owned()),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => {
            return Err(format!(
                "invalid metadata of type {} in converted object",
                go_type(other)
            ));
        }
    };
    let mut meta = match original.get("metadata") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    for field in ["labels", "annotations"] {
        let Some(response) = response_meta.get(field).filter(|v| !v.is_null()) else {
            meta.remove(field);
            continue;
        };
        let Value::Object(response) = response else {
            return Err(format!(
                "invalid metadata.{field} of type {} in converted object",
                go_type(response)
            ));
        };
        for (k, v) in response {
            if !v.is_string() {
                return Err(format!(
                    "metadata.{field}[{k}] must be a string, but is {} in converted object",
                    go_type(v)
                ));
            }
        }
        if meta.get(field) != Some(&Value::Object(response.clone())) {
            let strings: std::collections::BTreeMap<&str, &str> = response
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default()))
                .collect();
            let problems = if field == "labels" {
                label_errors(&strings)
            } else {
                annotation_errors(&strings)
            };
            if !problems.is_empty() {
                return Err(problems.join(", "));
            }
        }
        meta.insert(field.to_owned(), Value::Object(response.clone()));
    }
    converted.insert("metadata".to_owned(), Value::Object(meta));
    Ok(())
}

/// `ValidateLabels` at `metadata.labels`.
fn label_errors(labels: &std::collections::BTreeMap<&str, &str>) -> Vec<String> {
    let mut errs = Vec::new();
    for (k, v) in labels {
        for m in crdkit_apimachinery::names::label_key(k) {
            errs.push(format!(
                "metadata.labels: Invalid value: {}: {m}",
                go_quote(k)
            ));
        }
        for m in crdkit_apimachinery::names::label_value(v) {
            errs.push(format!(
                "metadata.labels: Invalid value: {}: {m}",
                go_quote(v)
            ));
        }
    }
    errs
}

/// `ValidateAnnotations` at `metadata.annotation` (sic, Go's path).
fn annotation_errors(annotations: &std::collections::BTreeMap<&str, &str>) -> Vec<String> {
    let mut errs = Vec::new();
    let mut size = 0;
    for (k, v) in annotations {
        for m in crdkit_apimachinery::names::label_key(&k.to_lowercase()) {
            errs.push(format!(
                "metadata.annotation: Invalid value: {}: {m}",
                go_quote(k)
            ));
        }
        size += k.len() + v.len();
    }
    if size > 256 * 1024 {
        errs.push(format!(
            "metadata.annotation: Too long: may not be more than {} bytes",
            256 * 1024
        ));
    }
    errs
}

fn go_quote(s: &str) -> String {
    crdkit_apimachinery::field::go_quote(s)
}

/// Go's `%T` of a decoded JSON value.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent() -> Vec<Value> {
        vec![
            json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
            "metadata": {"name": "local-crontab", "namespace": "default", "resourceVersion": "143",
                         "labels": {"a": "1"}},
            "hostPort": "localhost:1234"}),
        ]
    }

    fn answer(response: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "response": response})
    }

    fn good() -> Value {
        json!({"kind": "CronTab", "apiVersion": "example.com/v1",
            "metadata": {"name": "local-crontab", "namespace": "default", "resourceVersion": "999",
                         "labels": {"b": "2"}},
            "host": "localhost", "port": "1234"})
    }

    fn check(a: &Value) -> Result<Vec<Value>, String> {
        converted_objects("v1", "u", &sent(), "example.com/v1", a)
    }

    #[test]
    fn review_versions() {
        let v = |l: &[&str]| review_version(&l.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(v(&["v1", "v1beta1"]), Ok("v1"));
        assert_eq!(v(&["v2", "v1beta1"]), Ok("v1beta1"));
        assert_eq!(
            v(&["v2"]).unwrap_err(),
            "no supported conversion review versions"
        );
    }

    /// The page's successful response: metadata restored but for labels.
    #[test]
    fn success() {
        let got = check(&answer(json!({"uid": "u", "result": {"status": "Success"},
            "convertedObjects": [good()]})))
        .unwrap();
        assert_eq!(
            got[0]["metadata"],
            json!({"name": "local-crontab", "namespace": "default", "resourceVersion": "143",
                   "labels": {"b": "2"}})
        );
        assert_eq!(got[0]["host"], "localhost");
    }

    #[test]
    fn bad_answers() {
        let with = |f: &dyn Fn(&mut Value)| {
            let mut obj = good();
            f(&mut obj);
            check(&answer(json!({"uid": "u", "result": {"status": "Success"},
                "convertedObjects": [obj]})))
            .unwrap_err()
        };
        let cases = [
            (
                check(&json!({"apiVersion": "v1", "kind": "Status"})).unwrap_err(),
                "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got v1, Kind=Status",
            ),
            (
                check(&answer(Value::Null)).unwrap_err(),
                "no response provided",
            ),
            (
                check(&answer(
                    json!({"uid": "x", "result": {"status": "Success"}}),
                ))
                .unwrap_err(),
                "expected response.uid=\"u\", got \"x\"",
            ),
            // The page's failed response.
            (
                check(&answer(json!({"uid": "u", "result": {"status": "Failed",
                    "message": "hostPort could not be parsed into a separate host and port"}})))
                .unwrap_err(),
                "hostPort could not be parsed into a separate host and port",
            ),
            (
                check(&answer(
                    json!({"uid": "u", "result": {"status": "Failure"}}),
                ))
                .unwrap_err(),
                "response.result.status was 'Failure', not 'Success'",
            ),
            (
                check(&answer(
                    json!({"uid": "u", "result": {"status": "Success"}, "convertedObjects": []}),
                ))
                .unwrap_err(),
                "returned 0 objects, expected 1",
            ),
            (
                with(&|o| o["apiVersion"] = json!("example.com/v1beta1")),
                "returned invalid converted object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v1beta1)",
            ),
            (
                with(&|o| o["kind"] = json!("Other")),
                "returned invalid converted object at index 0: invalid kind (expected CronTab, received Other)",
            ),
            (
                with(&|o| o["metadata"]["name"] = json!("other")),
                "returned invalid converted object at index 0: must have the same name: local-crontab != other",
            ),
            (
                with(&|o| o["metadata"]["namespace"] = json!("kube-system")),
                "returned invalid converted object at index 0: must have the same namespace: default != kube-system",
            ),
            (
                with(&|o| o["metadata"]["labels"] = json!({"a": 1})),
                "returned invalid metadata in object at index 0: metadata.labels[a] must be a string, but is float64 in converted object",
            ),
            (
                with(&|o| o["metadata"]["labels"] = json!({"a": "not valid!"})),
                "returned invalid metadata in object at index 0: metadata.labels: Invalid value: \"not valid!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ),
            (
                with(&|o| {
                    o.as_object_mut().unwrap().remove("metadata");
                }),
                "returned invalid converted object at index 0: must have the same name: local-crontab != ",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
        // v1beta1 answers are not checked for their type or uid.
        let beta = json!({"response": {"uid": "x", "result": {"status": "Success"},
            "convertedObjects": [good()]}});
        assert!(converted_objects("v1beta1", "u", &sent(), "example.com/v1", &beta).is_ok());
    }
}
