//! The API server's side of a conversion webhook call, over
//! [`crdkit_crd::conversion`]: the review version it picks, the `ConversionReview` it
//! sends, and the checks of the answer (`conversion::client::converted_objects`) with Go's
//! messages as the API server words them after `conversion webhook for <gvk> `.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/conversion/webhook_converter.go`
//! (`createConversionReviewObjects`, `webhookConverter.Convert`'s error messages).

use serde_json::Value;

use crdkit_crd::conversion::client;
use crdkit_crd::conversion::{ConversionReview, ReviewVersion};

/// The review version to send: the first of the CRD's `conversionReviewVersions` the API
/// server knows (`v1`, `v1beta1`).
///
/// # Errors
/// `no supported conversion review versions` when none is known.
pub fn review_version(conversion_review_versions: &[String]) -> Result<ReviewVersion, String> {
    conversion_review_versions
        .iter()
        .find_map(|v| ReviewVersion::parse(&format!("apiextensions.k8s.io/{v}")))
        .ok_or_else(|| "no supported conversion review versions".to_owned())
}

/// The request body: a `ConversionReview` of `version` asking to convert `objects` to
/// `desired_api_version`.
#[must_use]
pub fn request(
    version: ReviewVersion,
    uid: &str,
    desired_api_version: &str,
    objects: &[Value],
) -> Value {
    let review = ConversionReview::request(version, uid, desired_api_version, objects.to_vec());
    serde_json::to_value(review).unwrap_or(Value::Null)
}

/// The converted objects of `answer`, a webhook's response to [`request`]: checked, with the
/// original `metadata` restored but for labels and annotations.
///
/// # Errors
/// The API server's message after `conversion webhook for <gvk> `: `failed: <why>` (the answer
/// does not decode, is not a successful review of this request), `returned 1 objects, expected
/// 2`, `returned invalid converted object at index 0: must have the same name: a != b`, ...
pub fn converted_objects(
    version: ReviewVersion,
    uid: &str,
    objects: &[Value],
    desired_api_version: &str,
    answer: &Value,
) -> Result<Vec<Value>, String> {
    let review: ConversionReview = serde_json::from_value(answer.clone())
        .map_err(|e| format!("failed: the answer is not a ConversionReview: {e}"))?;
    client::converted_objects(version, uid, objects, desired_api_version, &review).map_err(|m| {
        if m.starts_with("returned ") {
            m
        } else if m.starts_with("invalid converted object") || m.starts_with("invalid metadata") {
            format!("returned {m}")
        } else {
            format!("failed: {m}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        converted_objects(ReviewVersion::V1, "u", &sent(), "example.com/v1", a)
    }

    #[test]
    fn review_versions() {
        let v = |l: &[&str]| review_version(&l.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(v(&["v1", "v1beta1"]), Ok(ReviewVersion::V1));
        assert_eq!(v(&["v2", "v1beta1"]), Ok(ReviewVersion::V1beta1));
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
                "failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got v1, Kind=Status",
            ),
            (
                check(&answer(Value::Null)).unwrap_err(),
                "failed: no response provided",
            ),
            (
                check(&answer(
                    json!({"uid": "x", "result": {"status": "Success"}}),
                ))
                .unwrap_err(),
                "failed: expected response.uid=\"u\", got \"x\"",
            ),
            // The page's failed response.
            (
                check(&answer(json!({"uid": "u", "result": {"status": "Failed",
                    "message": "hostPort could not be parsed into a separate host and port"}})))
                .unwrap_err(),
                "failed: hostPort could not be parsed into a separate host and port",
            ),
            (
                check(&answer(
                    json!({"uid": "u", "result": {"status": "Failure"}}),
                ))
                .unwrap_err(),
                "failed: response.result.status was 'Failure', not 'Success'",
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
                "returned invalid metadata in object at index 0: metadata.labels[a] must be a string, but is int64 in converted object",
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
        assert!(
            converted_objects(
                ReviewVersion::V1beta1,
                "u",
                &sent(),
                "example.com/v1",
                &beta
            )
            .is_ok()
        );
    }
}
