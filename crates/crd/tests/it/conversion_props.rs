//! Property tests of `conversion`: `v1beta1 -> v1 -> v1beta1` and `v1 -> v1beta1 -> v1` give
//! back the object, whatever it holds (fields neither version knows, values the other version
//! cannot hold, labels and annotations); any request body is answered with a review.

use crdkit_crd::conversion::{ConversionReview, parse_review};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::conversion_crontab::{V1, V1BETA1, conversions};

/// Any JSON value, a few levels deep (numbers: integers and finite floats).
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-zA-Z0-9 :./-]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Fields neither version's type has (`x-...`, so they never collide with known ones).
fn unknown_fields() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map("x-[a-z]{1,5}", any_json(), 0..3)
        .prop_map(|m| m.into_iter().collect())
}

/// `metadata`: identity, and maybe labels and annotations (the API server drops empty maps
/// from stored metadata, so they are either missing or not empty).
fn metadata() -> impl Strategy<Value = Value> {
    let map =
        |k: &'static str| prop::option::of(prop::collection::btree_map(k, "[a-z0-9]{0,8}", 1..3));
    (
        "[a-z][a-z0-9-]{0,10}[a-z0-9]",
        map("[a-z]{1,8}"),
        map("([a-z]{1,5}\\.[a-z]{2,3}/)?[a-z]{1,8}"),
        "[0-9]{1,5}",
    )
        .prop_map(|(name, labels, annotations, rv)| {
            let mut m = json!({"name": name, "namespace": "default", "uid": format!("uid-{name}"),
                               "resourceVersion": rv, "creationTimestamp": "2019-09-04T14:03:02Z"});
            if let Some(l) = labels {
                m["labels"] = json!(l);
            }
            if let Some(a) = annotations {
                m["annotations"] = json!(a);
            }
            m
        })
}

/// A host or port part: anything but `:` (which would make `hostPort` ambiguous, and the
/// conversion fail, not lose data).
fn part() -> impl Strategy<Value = Option<String>> {
    prop::option::of("[a-z0-9.-]{0,8}")
}

fn object(
    api_version: &str,
    meta: Value,
    fields: Map<String, Value>,
    unknown: Map<String, Value>,
) -> Value {
    let mut o = Map::new();
    o.insert("apiVersion".into(), api_version.into());
    o.insert("kind".into(), "CronTab".into());
    o.insert("metadata".into(), meta);
    o.extend(fields);
    o.extend(unknown);
    Value::Object(o)
}

fn v1beta1_object() -> impl Strategy<Value = Value> {
    let host_port = prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        ("[a-z0-9.-]{0,8}", "[a-z0-9]{0,5}")
            .prop_map(|(h, p)| Some(Value::String(format!("{h}:{p}")))),
    ];
    (metadata(), host_port, unknown_fields()).prop_map(|(meta, hp, unknown)| {
        let mut fields = Map::new();
        if let Some(hp) = hp {
            fields.insert("hostPort".into(), hp);
        }
        object(V1BETA1, meta, fields, unknown)
    })
}

fn v1_object() -> impl Strategy<Value = Value> {
    (
        metadata(),
        part(),
        part(),
        prop::option::of("[A-Za-z/_]{1,12}"),
        unknown_fields(),
    )
        .prop_map(|(meta, host, port, tz, unknown)| {
            let mut fields = Map::new();
            for (k, v) in [("host", host), ("port", port), ("timezone", tz)] {
                if let Some(v) = v {
                    fields.insert(k.into(), v.into());
                }
            }
            object(V1, meta, fields, unknown)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn v1beta1_to_v1_and_back_is_identity(obj in v1beta1_object()) {
        let c = conversions();
        let there = c.convert(obj.clone(), V1).expect("converts to v1");
        prop_assert_eq!(&there["apiVersion"], V1);
        prop_assert_eq!(c.convert(there, V1BETA1).expect("converts back"), obj);
    }

    #[test]
    fn v1_to_v1beta1_and_back_is_identity(obj in v1_object()) {
        let c = conversions();
        let there = c.convert(obj.clone(), V1BETA1).expect("converts to v1beta1");
        prop_assert_eq!(&there["apiVersion"], V1BETA1);
        prop_assert_eq!(c.convert(there, V1).expect("converts back"), obj);
    }

    /// Through the review: a list of objects of both versions, there and back.
    #[test]
    fn reviews_round_trip(objs in prop::collection::vec(prop_oneof![v1_object(), v1beta1_object()], 0..5)) {
        let c = conversions();
        let there = c.review(&ConversionReview::request(
            crdkit_crd::conversion::ReviewVersion::V1, "u", V1, objs.clone()).request.unwrap());
        prop_assert!(there.result.is_success(), "{:?}", there.result);
        prop_assert_eq!(there.converted_objects.len(), objs.len());
        for (orig, conv) in objs.iter().zip(&there.converted_objects) {
            let back = c.convert(conv.clone(), orig["apiVersion"].as_str().unwrap()).unwrap();
            prop_assert_eq!(&back, orig);
        }
    }

    /// Any body gets a review back, never a panic: uid copied when there is one.
    #[test]
    fn any_body_is_answered(body in any_json(), uid in "[a-z0-9-]{0,8}") {
        let c = conversions();
        for candidate in [
            body.clone(),
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                   "request": {"uid": uid, "desiredAPIVersion": V1, "objects": [body.clone()]}}),
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                   "request": {"uid": uid, "desiredAPIVersion": body.clone(), "objects": body}}),
        ] {
            let bytes = candidate.to_string().into_bytes();
            let answer = c.review_json(&bytes);
            prop_assert_eq!(&answer.kind, "ConversionReview");
            let response = answer.response.expect("a response");
            let want_uid = parse_review(&bytes).uid;
            prop_assert_eq!(response.uid, want_uid);
            let truncated = &bytes[..bytes.len() / 2];
            prop_assert!(c.review_json(truncated).response.is_some());
        }
    }
}
