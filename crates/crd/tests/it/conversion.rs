//! `conversion`: the page's ConversionReview examples, the API server's rules on converted
//! objects (webhook_converter.go), bad input, typed conversions and round trips.

use crdkit_crd::conversion::{
    BuildError, ConversionError, Conversions, DATA_ANNOTATION, Typed, parse_review,
};
use serde_json::{Value, json};

use crate::conversion_crontab::{V1, V1BETA1, conversions, v1, v1beta1};

fn data(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/data/conversion/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json_data(name: &str) -> Value {
    serde_json::from_slice(&data(name)).expect("test data is JSON")
}

fn answer(c: &Conversions, body: &[u8]) -> Value {
    serde_json::to_value(c.review_json(body)).expect("a review serializes")
}

#[test]
fn the_pages_request_gets_the_pages_response() {
    let c = conversions();
    for version in ["v1", "v1beta1"] {
        let got = answer(&c, &data(&format!("request-{version}.json")));
        assert_eq!(
            got,
            json_data(&format!("response-{version}.json")),
            "{version}"
        );
    }
}

#[test]
fn a_failure_is_failed_with_the_converters_message_and_no_objects() {
    let mut req = json_data("request-v1.json");
    req["request"]["objects"][1]["hostPort"] = json!("example.com");
    let got = answer(&conversions(), req.to_string().as_bytes());
    assert_eq!(got, json_data("response-failed-v1.json"));
}

fn review(desired: &str, objects: Value) -> Vec<u8> {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
           "request": {"uid": "u-1", "desiredAPIVersion": desired, "objects": objects}})
    .to_string()
    .into_bytes()
}

fn crontab(api_version: &str, name: &str, fields: Value) -> Value {
    let mut o = json!({"apiVersion": api_version, "kind": "CronTab",
                       "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}")}});
    o.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    o
}

fn failed(v: &Value) -> (&str, &str, &str) {
    let r = &v["response"];
    assert!(r.get("convertedObjects").is_none(), "{v}");
    (
        r["uid"].as_str().unwrap(),
        r["result"]["status"].as_str().unwrap(),
        r["result"]["message"].as_str().unwrap(),
    )
}

#[test]
fn bad_input_gets_a_failed_review() {
    let c = conversions();
    let ok = crontab(V1BETA1, "a", json!({"hostPort": "h:1"}));
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        ("malformed JSON", b"{\"request\": ".to_vec(), "", "request body is not JSON: EOF while parsing a value at line 1 column 12"),
        ("not JSON at all", b"\xff\xfe".to_vec(), "", "request body is not JSON: expected value at line 1 column 1"),
        ("unknown desiredAPIVersion", review("example.com/v3", json!([ok])), "u-1", "unexpected conversion version \"example.com/v3\""),
        ("another group", review("other.example.com/v1", json!([ok])), "u-1", "unexpected conversion version \"other.example.com/v1\""),
        ("no group", review("v1", json!([ok])), "u-1", "unexpected conversion version \"v1\""),
        ("wrong kind", review(V1, json!([{"apiVersion": V1BETA1, "kind": "Shirt", "metadata": {"name": "s"}}])), "u-1",
         "unexpected kind \"Shirt\" of example.com/v1beta1: this webhook converts no such kind"),
        ("unknown source version", review(V1, json!([crontab("example.com/v0", "a", json!({}))])), "u-1",
         "unexpected conversion version \"example.com/v0\""),
        ("object not an object", review(V1, json!([ok, 3])), "u-1", "invalid object: expected a JSON object, got int64"),
        ("no kind", review(V1, json!([{"apiVersion": V1BETA1}])), "u-1", "invalid object: apiVersion and kind must be set"),
        ("field of the wrong type", review(V1, json!([crontab(V1BETA1, "a", json!({"hostPort": 5}))])), "u-1",
         "cannot decode CronTab of example.com/v1beta1: invalid type: integer `5`, expected a string"),
        ("not a review", br#"{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "x"}}"#.to_vec(), "x",
         "expected a ConversionReview of apiextensions.k8s.io/v1 or apiextensions.k8s.io/v1beta1, got kind \"AdmissionReview\" of apiVersion \"admission.k8s.io/v1\""),
        ("no request", br#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview"}"#.to_vec(), "", "ConversionReview has no request"),
        ("request of the wrong type", br#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "request": 3}"#.to_vec(), "",
         "malformed ConversionReview: invalid type: integer `3`, expected struct ConversionRequest"),
        ("objects of the wrong type", br#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "request": {"uid": "y", "objects": {}}}"#.to_vec(), "y",
         "malformed ConversionReview: invalid type: map, expected a sequence"),
    ];
    for (name, body, uid, message) in cases {
        let got = answer(&c, &body);
        assert_eq!(got["apiVersion"], "apiextensions.k8s.io/v1", "{name}");
        assert_eq!(got["kind"], "ConversionReview", "{name}");
        assert_eq!(failed(&got), (uid, "Failed", message), "{name}");
    }
}

#[test]
fn a_v1beta1_review_is_answered_in_v1beta1_even_when_it_fails() {
    let body = br#"{"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "ConversionReview", "request": {"uid": "z"}}"#;
    let got = answer(&conversions(), body);
    assert_eq!(got["apiVersion"], "apiextensions.k8s.io/v1beta1");
    // No objects: nothing to convert, success.
    assert_eq!(got["response"]["result"]["status"], "Success");
    assert_eq!(parse_review(body).uid, "z");
}

#[test]
fn objects_of_several_versions_keep_their_order() {
    let objs = json!([
        crontab(V1, "a", json!({"host": "h", "port": "1"})),
        crontab(V1BETA1, "b", json!({"hostPort": "i:2"})),
        crontab(V1, "c", json!({})),
    ]);
    let got = answer(&conversions(), &review(V1BETA1, objs));
    let out = got["response"]["convertedObjects"].as_array().unwrap();
    let summary: Vec<(&str, &str, &Value)> = out
        .iter()
        .map(|o| {
            (
                o["metadata"]["name"].as_str().unwrap(),
                o["apiVersion"].as_str().unwrap(),
                &o["hostPort"],
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("a", V1BETA1, &json!("h:1")),
            ("b", V1BETA1, &json!("i:2")),
            ("c", V1BETA1, &Value::Null),
        ]
    );
}

/// A converter that changes what it should not: the API server's checks catch it.
#[test]
fn identity_metadata_changes_fail_other_metadata_changes_are_undone() {
    fn meddling(field: &'static str, value: Value) -> Conversions {
        Conversions::new().kind(
            "example.com",
            "CronTab",
            move |mut obj: Value, _to: &str| -> Result<Value, ConversionError> {
                if field == "kind" {
                    obj["kind"] = value.clone();
                } else {
                    obj["metadata"][field] = value.clone();
                }
                Ok(obj)
            },
        )
    }
    let obj = crontab(V1BETA1, "a", json!({"hostPort": "h:1"}));
    for (field, value, message) in [
        (
            "kind",
            json!("Other"),
            "invalid converted object: must have the same kind: CronTab != Other",
        ),
        (
            "name",
            json!("b"),
            "invalid converted object: must have the same name: a != b",
        ),
        (
            "namespace",
            json!("x"),
            "invalid converted object: must have the same namespace: default != x",
        ),
        (
            "uid",
            json!("u"),
            "invalid converted object: must have the same UID: uid-a != u",
        ),
        (
            "labels",
            json!({"k": 1}),
            "invalid converted object: metadata.labels[k] must be a string, but is int64 in converted object",
        ),
    ] {
        let err = meddling(field, value).convert(obj.clone(), V1).unwrap_err();
        assert_eq!(err.to_string(), message, "{field}");
    }
    for (field, value) in [
        ("resourceVersion", json!("9")),
        ("generation", json!(4)),
        ("finalizers", json!(["f"])),
    ] {
        let out = meddling(field, value).convert(obj.clone(), V1).unwrap();
        assert_eq!(out["metadata"], obj["metadata"], "{field}");
    }
    let out = meddling("labels", json!({"app": "new"}))
        .convert(obj.clone(), V1)
        .unwrap();
    assert_eq!(out["metadata"]["labels"], json!({"app": "new"}));
    let out = meddling("annotations", json!({"a": "b"}))
        .convert(obj, V1)
        .unwrap();
    assert_eq!(out["metadata"]["annotations"], json!({"a": "b"}));
}

#[test]
fn what_v1beta1_cannot_hold_survives_the_round_trip() {
    let c = conversions();
    let stored = crontab(
        V1,
        "a",
        json!({"host": "h", "port": "1", "timezone": "UTC"}),
    );
    let served = c.convert(stored.clone(), V1BETA1).unwrap();
    assert_eq!(served["hostPort"], "h:1");
    assert_eq!(
        served["metadata"]["annotations"][DATA_ANNOTATION],
        r#"{"example.com/v1":{"host":"h","port":"1","timezone":"UTC"}}"#
    );
    assert_eq!(c.convert(served.clone(), V1).unwrap(), stored);

    // A client changed the object at v1beta1: its change wins, the timezone comes back.
    let mut edited = served;
    edited["hostPort"] = json!("h2:2");
    edited["metadata"]["labels"] = json!({"edited": "yes"});
    let back = c.convert(edited, V1).unwrap();
    let mut want = crontab(
        V1,
        "a",
        json!({"host": "h2", "port": "2", "timezone": "UTC"}),
    );
    want["metadata"]["labels"] = json!({"edited": "yes"});
    assert_eq!(back, want);

    // Without the annotation, the loss is plain.
    let lossy = conversions().round_trip_annotation(None);
    let served = lossy.convert(stored.clone(), V1BETA1).unwrap();
    assert!(served["metadata"].get("annotations").is_none());
    assert_eq!(lossy.convert(served, V1).unwrap()["timezone"], Value::Null);
}

#[test]
fn lossless_conversions_add_no_annotation() {
    let c = conversions();
    let obj = crontab(V1BETA1, "a", json!({"hostPort": "h:1"}));
    let v1 = c.convert(obj.clone(), V1).unwrap();
    assert!(v1["metadata"].get("annotations").is_none(), "{v1}");
    assert_eq!(c.convert(v1, V1BETA1).unwrap(), obj);
}

#[test]
fn typed_conversions_find_their_way_through_neighbours() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct V3 {
        endpoint: String,
    }
    impl TryFrom<v1::CronTab> for V3 {
        type Error = String;
        fn try_from(o: v1::CronTab) -> Result<V3, String> {
            Ok(V3 {
                endpoint: format!(
                    "{}:{}",
                    o.host.ok_or("no host")?,
                    o.port.unwrap_or_default()
                ),
            })
        }
    }
    impl From<V3> for v1::CronTab {
        fn from(o: V3) -> v1::CronTab {
            let (h, p) = o.endpoint.split_once(':').unwrap_or((&o.endpoint, ""));
            v1::CronTab {
                host: Some(h.into()),
                port: Some(p.into()),
                timezone: None,
            }
        }
    }
    let t = Typed::new("CronTab")
        .version::<v1beta1::CronTab>(V1BETA1)
        .version::<v1::CronTab>(V1)
        .version::<V3>("example.com/v3")
        .convert::<v1beta1::CronTab, v1::CronTab>()
        .convert::<v1::CronTab, V3>()
        .build()
        .unwrap();
    let c = Conversions::new().typed(t);
    let out = c
        .convert(
            crontab(V1BETA1, "a", json!({"hostPort": "h:1"})),
            "example.com/v3",
        )
        .unwrap();
    assert_eq!(out["endpoint"], "h:1");
    assert_eq!(out["apiVersion"], "example.com/v3");
    // A failure on the way is the converter's message.
    let err = c
        .convert(crontab(V1BETA1, "a", json!({})), "example.com/v3")
        .unwrap_err();
    assert_eq!(err, ConversionError::Failed("no host".into()));
}

#[test]
fn typed_builder_mistakes_are_errors() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Lonely;
    let base = || Typed::new("CronTab").version::<v1beta1::CronTab>(V1BETA1);
    let cases: Vec<(Typed, BuildError)> = vec![
        (Typed::new("CronTab"), BuildError::NoVersions),
        (
            base().version::<v1::CronTab>(V1BETA1),
            BuildError::DuplicateVersion(V1BETA1.into()),
        ),
        (
            base().version::<v1beta1::CronTab>(V1),
            BuildError::DuplicateType(std::any::type_name::<v1beta1::CronTab>()),
        ),
        (
            base().version::<v1::CronTab>("v1"),
            BuildError::BadApiVersion("v1".into()),
        ),
        (
            base().version::<v1::CronTab>("other.com/v1"),
            BuildError::GroupsDiffer(V1BETA1.into(), "other.com/v1".into()),
        ),
        (
            base().convert::<v1beta1::CronTab, v1::CronTab>(),
            BuildError::UnknownType(std::any::type_name::<v1::CronTab>()),
        ),
        (
            base().version::<v1::CronTab>(V1),
            BuildError::Unreachable(V1BETA1.into(), V1.into()),
        ),
        (
            base()
                .version::<v1::CronTab>(V1)
                .convert_one_way::<v1beta1::CronTab, v1::CronTab>(),
            BuildError::Unreachable(V1.into(), V1BETA1.into()),
        ),
        (
            base()
                .version::<v1::CronTab>(V1)
                .version::<Lonely>("example.com/v9")
                .convert::<v1beta1::CronTab, v1::CronTab>(),
            BuildError::Unreachable(V1BETA1.into(), "example.com/v9".into()),
        ),
    ];
    for (t, want) in cases {
        assert_eq!(t.build().unwrap_err(), want);
    }
}
