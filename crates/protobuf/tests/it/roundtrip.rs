//! JSON → protobuf → JSON for real objects of many kinds, and the JSON Go writes for them.

use crdkit_protobuf::{DecodeError, EncodeError, decode, encode, supports};
use serde_json::{Value, json};

use crate::common::{SAMPLES, assert_subset, load};

#[test]
fn every_sample_round_trips_and_encoding_is_stable() {
    for name in SAMPLES {
        let input = load(name);
        let bytes = encode(&input).unwrap_or_else(|e| panic!("{name}: {e}"));
        let output = decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_subset(&input, &output, name);
        // What Go writes back reads as the same bytes: the zero values it adds are the ones
        // gogo writes anyway.
        let again = encode(&output).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again, bytes, "{name}: encode(decode(bytes)) differs");
        assert_eq!(decode(&again).unwrap(), output, "{name}");
    }
}

fn round(v: &Value) -> Value {
    decode(&encode(v).unwrap()).unwrap()
}

#[test]
fn go_writes_the_zero_values_it_does_not_omit() {
    let out =
        round(&json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}}));
    // `selector` is a pointer without omitempty; `template` and `strategy` are structs (never
    // empty for encoding/json); `status` too; `containers` a slice without omitempty;
    // `creationTimestamp` is omitzero since Kubernetes 1.35.
    assert_eq!(
        out,
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
               "spec": {"selector": null, "strategy": {}, "template": {"metadata": {}, "spec": {"containers": null}}},
               "status": {}})
    );
}

#[test]
fn pointers_keep_their_zero_values_and_values_lose_them() {
    let out = round(
        &json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
        "spec": {"replicas": 0, "paused": false, "minReadySeconds": 0}}),
    );
    assert_eq!(out["spec"]["replicas"], json!(0)); // *int32
    assert!(out["spec"].get("paused").is_none()); // bool, omitempty
    assert!(out["spec"].get("minReadySeconds").is_none()); // int32, omitempty
    let port = round(
        &json!({"apiVersion": "v1", "kind": "Service", "metadata": {}, "spec": {"ports": [{"port": 0}]}}),
    );
    // `port` has no omitempty; `targetPort` is a struct: the zero IntOrString is 0.
    assert_eq!(
        port["spec"]["ports"][0],
        json!({"port": 0, "targetPort": 0})
    );
}

#[test]
fn int_or_string_quantities_bytes_and_times() {
    let svc = round(&load("service"));
    assert_eq!(svc["spec"]["ports"][0]["targetPort"], json!(8080));
    assert_eq!(svc["spec"]["ports"][1]["targetPort"], json!("metrics"));
    let pod = round(&load("pod"));
    assert_eq!(
        pod["spec"]["containers"][0]["resources"]["requests"]["cpu"],
        json!("1500m")
    );
    assert_eq!(pod["spec"]["overhead"], json!({"cpu": "250m"}));
    let secret = round(&load("secret"));
    assert_eq!(secret["data"]["tls.key"], json!("AAECAwQFBgcICQ=="));
    // An empty value is a non-nil []byte: gogo writes it (prost would not).
    let empty = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {}, "data": {"e": ""}});
    let bytes = encode(&empty).unwrap();
    assert!(
        bytes
            .windows(7)
            .any(|w| w == [0x12, 0x05, 0x0a, 0x01, b'e', 0x12, 0x00]),
        "{bytes:?}"
    );
    assert_eq!(decode(&bytes).unwrap()["data"], json!({"e": ""}));
    // Map values that are empty messages are written (gogo), and read back as Go has them.
    let review = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "metadata": {},
        "status": {"user": {"extra": {"none": []}}}});
    let bytes = encode(&review).unwrap();
    assert!(
        bytes
            .windows(8)
            .any(|w| w == [0x22, 0x08, 0x0a, 0x04, b'n', b'o', b'n', b'e']),
        "{bytes:?}"
    );
    assert_eq!(
        decode(&bytes).unwrap()["status"]["user"]["extra"],
        json!({"none": []})
    );
    // metav1.Time keeps seconds (Time.Unmarshal drops the nanoseconds), MicroTime microseconds.
    let ns = round(&json!({"apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": "n", "creationTimestamp": "2024-05-06T09:08:09.75+02:00"}}));
    assert_eq!(
        ns["metadata"]["creationTimestamp"],
        json!("2024-05-06T07:08:09Z")
    );
    let lease = round(&load("lease"));
    assert_eq!(
        lease["spec"]["renewTime"],
        json!("2024-05-06T07:08:24.999999Z")
    );
    let flow = round(
        &json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema", "metadata": {}}),
    );
    assert_eq!(
        flow["spec"]["priorityLevelConfiguration"],
        json!({"name": ""})
    );
    let job = round(
        &json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {},
        "spec": {"template": {"spec": {"containers": []}}, "podFailurePolicy": {"rules": [{"action": "Ignore",
          "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]}}}),
    );
    assert_eq!(
        job["spec"]["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["type"],
        json!("DisruptionTarget")
    );
}

#[test]
fn zero_times_are_null_unless_omitted() {
    // events.k8s.io `eventTime` is a MicroTime value without omitempty: Go writes null.
    let out = round(
        &json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"}}),
    );
    assert_eq!(out["eventTime"], Value::Null);
    // core/v1 `lastTimestamp` has omitempty, which does not omit a struct: null too.
    let out = round(&json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"}}));
    assert_eq!(out["lastTimestamp"], Value::Null);
    assert_eq!(out["eventTime"], Value::Null);
    assert!(
        out["metadata"].get("creationTimestamp").is_none(),
        "omitzero"
    );
}

#[test]
fn lists_drop_the_items_type_meta_as_typed_lists_do() {
    let mut input = load("deploymentlist");
    input["items"][0]["apiVersion"] = json!("apps/v1");
    input["items"][0]["kind"] = json!("Deployment");
    let out = round(&input);
    assert!(out["items"][0].get("kind").is_none());
    assert_eq!(out["metadata"]["remainingItemCount"], json!(5));
    assert_eq!(out["items"][1]["spec"]["replicas"], json!(0));
}

#[test]
fn embedded_objects_stay_json() {
    let out = round(&load("controllerrevision"));
    assert_eq!(out["data"], load("controllerrevision")["data"]);
    let crd = round(&load("crd"));
    let props = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(props["cronSpec"]["default"], json!("5 0 * * *"));
    assert_eq!(props["closed"]["additionalProperties"], json!(false));
    assert_eq!(
        props["labels"]["additionalProperties"],
        json!({"type": "string"})
    );
    assert_eq!(
        props["pairs"]["items"],
        json!([{"type": "string"}, {"type": "integer"}])
    );
    assert_eq!(
        props["deps"]["dependencies"],
        json!({"a": ["b", "c"], "d": {"required": ["e"]}})
    );
    assert_eq!(props["color"]["enum"], json!(["red", "green", null]));
    assert_eq!(props["ratio"]["multipleOf"], json!(0.5));
    assert_eq!(props["replicas"]["maximum"], json!(10));
}

#[test]
fn kinds_without_messages_are_refused() {
    assert!(supports("apps/v1", "Deployment"));
    assert!(supports("v1", "Status"));
    assert!(supports("apps/v1", "Status"));
    assert!(supports("meta.k8s.io/v1", "PartialObjectMetadataList"));
    assert!(supports(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition"
    ));
    assert!(supports("apiregistration.k8s.io/v1", "APIService"));
    assert!(!supports("stable.example.com/v1", "CronTab"));
    assert!(!supports("stable.example.com/v1", "Status"));
    // Table has no protobuf message (its cells are `[]interface{}`, `protobuf:"-"`).
    assert!(!supports("meta.k8s.io/v1", "Table"));
    let cr = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {}});
    assert_eq!(
        encode(&cr).unwrap_err(),
        EncodeError::UnknownKind {
            api_version: "stable.example.com/v1".into(),
            kind: "CronTab".into()
        }
    );
    assert_eq!(
        encode(&json!({"kind": "Pod"})).unwrap_err(),
        EncodeError::MissingTypeMeta
    );
}

#[test]
fn wrong_json_types_name_the_field() {
    let bad = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {},
        "spec": {"template": {"spec": {"containers": [{"name": "a", "ports": [{"containerPort": "80"}]}]}}}});
    assert_eq!(
        encode(&bad).unwrap_err().to_string(),
        "spec.template.spec.containers[0].ports[0].containerPort: expected int32, found \"80\""
    );
    let big = json!({"apiVersion": "v1", "kind": "Service", "metadata": {}, "spec": {"ports": [{"port": 70000}]}});
    assert!(encode(&big).is_ok(), "int32 range holds 70000");
    let over = json!({"apiVersion": "v1", "kind": "Service", "metadata": {}, "spec": {"ports": [{"port": 3_000_000_000_u64}]}});
    assert!(matches!(
        encode(&over),
        Err(EncodeError::InvalidValue { .. })
    ));
    let labels = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"labels": {"a": 1}}});
    assert_eq!(
        encode(&labels).unwrap_err().to_string(),
        "metadata.labels[a]: expected string, found 1"
    );
    let b64 =
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {}, "data": {"k": "not base64!"}});
    assert!(
        encode(&b64)
            .unwrap_err()
            .to_string()
            .starts_with("data[k]: expected base64 string")
    );
    let time = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"creationTimestamp": "yesterday"}});
    assert!(
        encode(&time)
            .unwrap_err()
            .to_string()
            .starts_with("metadata.creationTimestamp: expected RFC 3339 time")
    );
}

#[test]
fn envelope_errors_are_the_serializers() {
    assert_eq!(decode(b"").unwrap_err(), DecodeError::EmptyData);
    assert_eq!(decode(b"k8s\0").unwrap_err(), DecodeError::EmptyBody);
    assert_eq!(
        decode(b"{}").unwrap_err().to_string(),
        "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"
    );
    let mut cr =
        crdkit_protobuf::encode(&json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}}))
            .unwrap();
    // Rename the kind in place: ConfigMap → ConfigMaq.
    let at = cr.windows(9).position(|w| w == b"ConfigMap").unwrap();
    cr[at + 8] = b'q';
    assert_eq!(
        decode(&cr).unwrap_err().to_string(),
        "no kind \"ConfigMaq\" is registered for version \"v1\""
    );
}
