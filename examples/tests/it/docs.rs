//! Each example's CRD equals, as parsed YAML, the CRD the Kubernetes documentation prints for it
//! (transcribed in `tests/data/docs/`), with field order and descriptions aside; and the
//! versioning page's conversions on the examples of several versions.

use std::path::PathBuf;

use serde_json::Value;

/// Drops `description` keys of schemas and turns integral floats into integers, so that
/// `maximum: 10` and `maximum: 10.0` compare equal as the API server would.
fn normalize(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.contains_key("type") || m.contains_key("properties") {
                m.remove("description");
            }
            m.values_mut().for_each(normalize);
        }
        Value::Array(a) => a.iter_mut().for_each(normalize),
        Value::Number(n) => {
            if let Some(f) = n
                .as_f64()
                .filter(|f| f.fract() == 0.0 && !n.is_i64() && !n.is_u64())
            {
                #[allow(clippy::cast_possible_truncation)]
                {
                    *v = Value::from(f as i64);
                }
            }
        }
        _ => {}
    }
}

/// The versions keyed by name: "regardless of the order in which versions are defined in a
/// CustomResourceDefinition" (the versioning page), the API server reads `spec.versions` as a
/// set; crdkit lists them by priority, the page in definition order. The order is pinned by
/// `versions_are_listed_by_priority`.
fn versions_by_name(crd: &mut Value) {
    if let Some(Value::Array(versions)) = crd.pointer_mut("/spec/versions") {
        versions.sort_by_key(|v| v["name"].as_str().unwrap_or_default().to_owned());
    }
}

#[test]
fn versions_are_listed_by_priority() {
    for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
        let names: Vec<&str> = crd.spec.versions.iter().map(|v| v.name.as_str()).collect();
        let mut sorted = names.clone();
        crdkit::sort_versions(&mut sorted);
        assert_eq!(names, sorted, "{name}");
    }
    let crd = crdkit_examples::versions::multi::CronTab::crd().unwrap();
    let names: Vec<&str> = crd.spec.versions.iter().map(|v| v.name.as_str()).collect();
    // "For the example in Specify multiple versions, the version sort order is v1, followed by
    // v1beta1."
    assert_eq!(names, ["v1", "v1beta1"]);
}

#[test]
fn examples_equal_the_documentation() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/docs");
    let mut compared = 0;
    for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
        let path = dir.join(format!("{name}.crd.yaml"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            // Examples beyond the pages have no documentation counterpart.
            continue;
        };
        let mut want: Value = serde_saphyr::from_str(&text).expect("docs YAML parses");
        let mut got = crd.to_value();
        normalize(&mut want);
        normalize(&mut got);
        versions_by_name(&mut want);
        versions_by_name(&mut got);
        assert_eq!(
            got,
            want,
            "{name} differs from the documentation:\n{}",
            crd.to_yaml()
        );
        compared += 1;
    }
    assert_eq!(
        compared, 9,
        "every example has its documentation counterpart"
    );
}

/// The objects of the versioning page's `ConversionReview` request ("Webhook request and
/// response"), converted to `example.com/v1` by the webhook example's typed conversions: the
/// page's `convertedObjects`, and back.
#[test]
fn the_pages_conversion_review_objects() {
    use crdkit::{ConversionError, Versioned};
    use crdkit_examples::versions::webhook::CronTab;
    use serde_json::json;

    let request = [
        json!({"kind": "CronTab", "apiVersion": "example.com/v1beta1",
               "metadata": {"creationTimestamp": "2019-09-04T14:03:02Z", "name": "local-crontab",
                            "namespace": "default", "resourceVersion": "143",
                            "uid": "3415a7fc-162b-4300-b5da-fd6083580d66"},
               "hostPort": "localhost:1234"}),
        json!({"kind": "CronTab", "apiVersion": "example.com/v1beta1",
               "metadata": {"creationTimestamp": "2019-09-03T13:02:01Z", "name": "remote-crontab",
                            "resourceVersion": "12893", "uid": "359a83ec-b575-460d-b553-d859cedde8a0"},
               "hostPort": "example.com:2345"}),
    ];
    let response = [
        json!({"kind": "CronTab", "apiVersion": "example.com/v1",
               "metadata": {"creationTimestamp": "2019-09-04T14:03:02Z", "name": "local-crontab",
                            "namespace": "default", "resourceVersion": "143",
                            "uid": "3415a7fc-162b-4300-b5da-fd6083580d66"},
               "host": "localhost", "port": "1234"}),
        json!({"kind": "CronTab", "apiVersion": "example.com/v1",
               "metadata": {"creationTimestamp": "2019-09-03T13:02:01Z", "name": "remote-crontab",
                            "resourceVersion": "12893", "uid": "359a83ec-b575-460d-b553-d859cedde8a0"},
               "host": "example.com", "port": "2345"}),
    ];
    for (object, want) in request.iter().zip(&response) {
        let got = CronTab::convert(object.clone(), "example.com/v1").unwrap();
        assert_eq!(&got, want);
        assert_eq!(&CronTab::convert(got, "v1beta1").unwrap(), object);
        // Converting to the object's own version changes nothing.
        assert_eq!(
            &CronTab::convert(object.clone(), "v1beta1").unwrap(),
            object
        );
    }

    let mut bad = request[0].clone();
    bad["hostPort"] = json!("localhost");
    let err = CronTab::convert(bad, "example.com/v1").unwrap_err();
    assert_eq!(
        err,
        ConversionError::Failed(
            "hostPort could not be parsed into a separate host and port".to_owned()
        )
    );
    assert_eq!(
        CronTab::convert(request[0].clone(), "example.com/v2")
            .unwrap_err()
            .to_string(),
        "\"example.com/v2\" is not a version of CronTab.example.com (its versions: v1beta1, v1)"
    );
    let mut shirt = request[0].clone();
    shirt["kind"] = json!("Shirt");
    assert_eq!(
        CronTab::convert(shirt, "v1").unwrap_err().to_string(),
        "kind \"Shirt\" is not CronTab"
    );
    assert_eq!(
        CronTab::convert(json!([1]), "v1").unwrap_err(),
        ConversionError::NotAnObject
    );
    let mut other_group = request[0].clone();
    other_group["apiVersion"] = json!("other.com/v1beta1");
    assert!(matches!(
        CronTab::convert(other_group, "v1").unwrap_err(),
        ConversionError::UnknownVersion { .. }
    ));
    let mut not_a_string = request[0].clone();
    not_a_string["hostPort"] = json!(5);
    assert_eq!(
        CronTab::convert(not_a_string, "v1")
            .unwrap_err()
            .to_string(),
        "the example.com/v1beta1 object does not decode: invalid type: integer `5`, expected a string"
    );
}

/// The typed side: objects of any version read by `apiVersion`, converted, and the `None`
/// strategy (only `apiVersion` changes).
#[test]
fn typed_objects_of_any_version() {
    use crdkit::Versioned;
    use crdkit_examples::versions::{multi, webhook};
    use serde_json::json;

    let object = json!({"apiVersion": "example.com/v1", "kind": "CronTab",
                        "metadata": {"name": "x", "labels": {"a": "b"}},
                        "host": "h", "port": "80"});
    let read: webhook::CronTab = serde_json::from_value(object.clone()).unwrap();
    assert_eq!(read.api_version(), "example.com/v1");
    let stored = read.into_storage().unwrap();
    let webhook::CronTab::V1beta1(old) = &stored else {
        panic!("not stored as v1beta1: {stored:?}");
    };
    assert_eq!(old.spec.host_port.as_deref(), Some("h:80"));
    assert_eq!(
        old.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("a"))
            .map(String::as_str),
        Some("b")
    );
    assert_eq!(
        serde_json::to_value(stored.into_version("v1").unwrap()).unwrap(),
        object
    );
    let err = serde_json::from_value::<webhook::CronTab>(
        json!({"apiVersion": "example.com/v9", "kind": "CronTab"}),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("\"example.com/v9\" is not a version of CronTab.example.com"),
        "{err}"
    );

    // None: same schema, only apiVersion changes (and nothing is decoded).
    let none = multi::CronTab::convert(object.clone(), "v1beta1").unwrap();
    let mut want = object;
    want["apiVersion"] = json!("example.com/v1beta1");
    assert_eq!(none, want);
    assert_eq!(
        multi::CronTab::DECL.storage_version().unwrap().version,
        "v1beta1"
    );
}

/// `#[crdkit::versioned]`: the generated types per version and the conversions between them
/// (rename, added field with its default, type change through the named functions, status
/// carried over), typed and through `Versioned::convert`.
#[test]
fn one_definition_several_versions() {
    use crdkit::{ConversionError, Versioned};
    use crdkit_examples::versions::evolved::{CronTab, CronTabStatus, v1, v1alpha1, v1beta1};
    use serde_json::json;

    let old = v1alpha1::CronTab::new(
        "old",
        v1alpha1::CronTabSpec {
            schedule: "* * * * */5".into(),
            image: "busybox".into(),
            port: "8080".into(),
            tag: Some("1.36".into()),
        },
    );
    let beta = v1beta1::CronTab::from(old.clone());
    assert_eq!(beta.spec.replicas, 1, "the added field's default");
    assert_eq!(beta.spec.schedule, "* * * * */5");
    let mut new = v1::CronTab::try_from(beta.clone()).unwrap();
    assert_eq!(
        (new.spec.cron_spec.as_str(), new.spec.port),
        ("* * * * */5", 8080)
    );
    new.status = Some(CronTabStatus { replicas: 2 });
    let back = v1beta1::CronTab::try_from(new.clone()).unwrap();
    assert_eq!(back.spec.port, "8080");
    assert_eq!(back.status.map(|s| s.replicas), Some(2));
    assert_eq!(v1alpha1::CronTab::from(beta).spec, old.spec);

    // Through JSON, as a conversion webhook calls it: v1alpha1 → v1 → v1alpha1.
    let object = serde_json::to_value(&old).unwrap();
    let converted = CronTab::convert(object.clone(), "example.com/v1").unwrap();
    assert_eq!(converted["apiVersion"], "example.com/v1");
    assert_eq!(
        converted["spec"],
        json!({"cronSpec": "* * * * */5", "image": "busybox", "replicas": 1, "port": 8080, "tag": "1.36"})
    );
    assert_eq!(CronTab::convert(converted, "v1alpha1").unwrap(), object);

    let mut bad = object;
    bad["spec"]["port"] = json!("http");
    assert_eq!(
        CronTab::convert(bad, "v1").unwrap_err(),
        ConversionError::Failed("port: invalid digit found in string".to_owned())
    );
    let crd = CronTab::crd().unwrap();
    let names: Vec<&str> = crd.spec.versions.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["v1", "v1beta1", "v1alpha1"]);
    assert_eq!(CronTab::DECL.storage_version().unwrap().version, "v1");
}

/// `#[crd(flatten)]`: objects whose spec's fields sit at the root validate, prune and default
/// as the API server does with the page's schema.
#[test]
fn flattened_objects_validate_and_prune() {
    use crdkit_examples::versions::webhook::v1;
    use serde_json::json;

    let sent = json!({"apiVersion": "example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
                      "host": "h", "port": "80", "someRandomField": 1});
    let received = v1::CronTab::prune_and_default(sent).unwrap();
    assert_eq!(received.spec.host.as_deref(), Some("h"));
    assert!(received.validate().is_ok());
    assert_eq!(
        serde_json::to_value(&received).unwrap(),
        json!({"apiVersion": "example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
               "host": "h", "port": "80"})
    );
    let bad = json!({"apiVersion": "example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
                     "host": 5});
    let admission = crdkit::admission::Admission::new(&v1::CronTab::crd().unwrap(), "v1").unwrap();
    let mut obj = bad;
    let result = admission.create(&mut obj);
    assert_eq!(
        result.errors[0].to_string(),
        "host: Invalid value: \"integer\": host in body must be of type string: \"integer\""
    );
}
