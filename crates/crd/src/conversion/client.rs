//! The API server's side of a conversion webhook call: what it accepts as an answer.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/conversion/webhook_converter.go`
//! (`getConvertedObjectsFromResponse`, then per object the group-version and kind checks,
//! `validateConvertedObject` and `restoreObjectMeta`), for a client that calls a webhook as the
//! API server would (`crdgen convert` through a webhook URL, a local API server). The messages
//! are Go's without the `conversion webhook for <group/version, Kind=kind>` prefix the API
//! server puts before them.

use serde_json::{Map, Value};

use super::meta::{restore_object_meta, validate_converted_object};
use super::review::{ConversionReview, KIND, ReviewVersion};

/// The objects of a webhook's `answer` to a request of `version` and `uid` that sent
/// `objects` to `desired_api_version`: checked, with their `metadata` restored as the API server
/// restores it.
///
/// # Errors
/// Go's message for the first problem: `expected response.uid="a", got "b"`, `no response
/// provided`, the webhook's `result.message`, `returned 1 objects, expected 2`,
/// `invalid converted object at index 0: must have the same name: a != b`, ...
pub fn converted_objects(
    version: ReviewVersion,
    uid: &str,
    objects: &[Value],
    desired_api_version: &str,
    answer: &ConversionReview,
) -> Result<Vec<Value>, String> {
    if version == ReviewVersion::V1 {
        // v1beta1 answers were never checked for their type or uid; Go keeps it so.
        if answer.api_version != version.api_version() || answer.kind != KIND {
            return Err(format!(
                "expected webhook response of {}, Kind={KIND}, got {}, Kind={}",
                version.api_version(),
                answer.api_version,
                answer.kind
            ));
        }
    }
    let Some(response) = &answer.response else {
        return Err("no response provided".to_owned());
    };
    if version == ReviewVersion::V1 && response.uid != uid {
        return Err(format!(
            "expected response.uid={uid:?}, got {:?}",
            response.uid
        ));
    }
    if !response.result.is_success() {
        return Err(match response.result.message.as_deref() {
            Some(m) if !m.is_empty() => m.to_owned(),
            _ => format!(
                "response.result.status was '{}', not 'Success'",
                response.result.status
            ),
        });
    }
    if response.converted_objects.len() != objects.len() {
        return Err(format!(
            "returned {} objects, expected {}",
            response.converted_objects.len(),
            objects.len()
        ));
    }
    let text =
        |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let mut out = Vec::with_capacity(objects.len());
    for (i, (original, converted)) in objects.iter().zip(&response.converted_objects).enumerate() {
        let bad = |m: String| format!("invalid converted object at index {i}: {m}");
        let (Value::Object(original), Value::Object(converted)) = (original, converted) else {
            return Err(bad("not a JSON object".to_owned()));
        };
        let got = text(converted, "apiVersion");
        if got != desired_api_version {
            return Err(bad(format!(
                "invalid groupVersion (expected {desired_api_version}, received {got})"
            )));
        }
        let (want, got) = (text(original, "kind"), text(converted, "kind"));
        if want != got {
            return Err(bad(format!(
                "invalid kind (expected {want}, received {got})"
            )));
        }
        validate_converted_object(original, converted).map_err(bad)?;
        let mut converted = converted.clone();
        restore_object_meta(original, &mut converted)
            .map_err(|m| format!("invalid metadata in object at index {i}: {m}"))?;
        out.push(Value::Object(converted));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversion::review::{ConversionResponse, Status};
    use serde_json::json;

    fn answer(uid: &str, result: Status, objects: Vec<Value>) -> ConversionReview {
        ConversionReview::response(
            ReviewVersion::V1,
            ConversionResponse {
                uid: uid.into(),
                result,
                converted_objects: objects,
            },
        )
    }

    #[test]
    fn answers_are_checked_as_the_api_server_checks_them() {
        let sent = vec![
            json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
                               "metadata": {"name": "a", "resourceVersion": "1"}, "hostPort": "h:1"}),
        ];
        let good = json!({"apiVersion": "example.com/v1", "kind": "CronTab",
                          "metadata": {"name": "a", "resourceVersion": "2"}, "host": "h", "port": "1"});
        let check = |a: &ConversionReview| {
            converted_objects(ReviewVersion::V1, "u", &sent, "example.com/v1", a)
        };
        let got = check(&answer("u", Status::success(), vec![good.clone()])).unwrap();
        assert_eq!(
            got[0]["metadata"]["resourceVersion"], "1",
            "metadata restored"
        );
        let cases = [
            (
                answer("x", Status::success(), vec![good.clone()]),
                "expected response.uid=\"u\", got \"x\"",
            ),
            (answer("u", Status::failed("nope"), vec![]), "nope"),
            (
                answer(
                    "u",
                    Status {
                        status: "Failure".into(),
                        ..Status::default()
                    },
                    vec![],
                ),
                "response.result.status was 'Failure', not 'Success'",
            ),
            (
                answer("u", Status::success(), vec![]),
                "returned 0 objects, expected 1",
            ),
            (
                answer(
                    "u",
                    Status::success(),
                    vec![json!({"apiVersion": "example.com/v2", "kind": "CronTab"})],
                ),
                "invalid converted object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v2)",
            ),
            (
                answer(
                    "u",
                    Status::success(),
                    vec![json!({"apiVersion": "example.com/v1", "kind": "X"})],
                ),
                "invalid converted object at index 0: invalid kind (expected CronTab, received X)",
            ),
            (
                answer(
                    "u",
                    Status::success(),
                    vec![
                        json!({"apiVersion": "example.com/v1", "kind": "CronTab", "metadata": {"name": "b"}}),
                    ],
                ),
                "invalid converted object at index 0: must have the same name: a != b",
            ),
            (
                answer(
                    "u",
                    Status::success(),
                    vec![json!({"apiVersion": "example.com/v1", "kind": "CronTab"})],
                ),
                "invalid converted object at index 0: must have the same name: a != ",
            ),
        ];
        for (a, want) in cases {
            assert_eq!(check(&a).unwrap_err(), want);
        }
        let mut wrong = answer("u", Status::success(), vec![good]);
        wrong.api_version = "apiextensions.k8s.io/v1beta1".into();
        assert_eq!(
            check(&wrong).unwrap_err(),
            "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview"
        );
        // v1beta1 answers: neither type nor uid checked.
        wrong.response.as_mut().unwrap().uid = "other".into();
        assert!(
            converted_objects(ReviewVersion::V1beta1, "u", &sent, "example.com/v1", &wrong).is_ok()
        );
    }
}
