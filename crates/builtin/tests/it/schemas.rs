//! The published schemas as structural schemas: every kind converts, objects admit as
//! kubectl-validate admits them (moved from `crdgen validate`'s tests).

use serde_json::{Value, json};

use crdkit_apiextensions::admission::Admission;
use crdkit_builtin::schemas::{Catalog, KubernetesVersion};

fn newest() -> Catalog {
    Catalog::new(KubernetesVersion::newest())
}

/// Admits `obj` as a create against its built-in kind; the unknown fields and the errors as text.
fn admit(catalog: &Catalog, mut obj: Value) -> (Vec<String>, Vec<String>) {
    let api_version = obj["apiVersion"].as_str().unwrap().to_owned();
    let kind = obj["kind"].as_str().unwrap().to_owned();
    let schema = catalog.schema(&api_version, &kind).unwrap().unwrap();
    let admitted = Admission::for_schema(&api_version, &kind, &schema).create(&mut obj);
    (
        admitted.unknown_fields,
        admitted.errors.iter().map(ToString::to_string).collect(),
    )
}

#[test]
fn versions_parse_and_are_carried() {
    let carried = KubernetesVersion::carried();
    assert!(carried.len() >= 7, "{carried:?}");
    assert_eq!(KubernetesVersion::newest(), *carried.last().unwrap());
    let v = KubernetesVersion::parse("v1.33.4").unwrap();
    assert_eq!(v.to_string(), "1.33");
    assert_eq!(KubernetesVersion::parse("1.33"), Ok(v));
    assert!(
        KubernetesVersion::parse("1.2")
            .unwrap_err()
            .contains("known: 1.29")
    );
    for bad in ["", "1", "x.y", "1.33.x", "1.33.1.1"] {
        assert!(
            KubernetesVersion::parse(bad)
                .unwrap_err()
                .contains("not a Kubernetes version"),
            "{bad}"
        );
    }
}

/// Every kind of every carried version converts to a structural schema.
#[test]
fn every_kind_converts() {
    for v in KubernetesVersion::carried() {
        let c = Catalog::new(v);
        assert!(c.kinds().count() > 150, "{v}: {}", c.kinds().count());
        for (group, version, kind) in c.kinds() {
            let api_version = if group.is_empty() {
                version.to_owned()
            } else {
                format!("{group}/{version}")
            };
            let s = c.schema(&api_version, kind).unwrap();
            assert!(s.is_ok(), "{v} {api_version} {kind}: {s:?}");
        }
    }
}

#[test]
fn kinds_follow_the_version() {
    // FlowSchema moved to v1 in 1.29; v1beta3 was served until 1.31 (removed in 1.32).
    let old = Catalog::new(KubernetesVersion::parse("1.29").unwrap());
    let new = newest();
    assert!(old.has("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"));
    assert!(!new.has("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"));
    for (api_version, kind) in [
        ("v1", "Namespace"),
        ("v1", "ConfigMap"),
        ("v1", "Secret"),
        ("v1", "Service"),
        ("v1", "ServiceAccount"),
        ("apps/v1", "Deployment"),
        ("rbac.authorization.k8s.io/v1", "Role"),
        ("rbac.authorization.k8s.io/v1", "RoleBinding"),
        ("networking.k8s.io/v1", "Ingress"),
        ("batch/v1", "CronJob"),
    ] {
        assert!(new.has(api_version, kind), "{api_version} {kind}");
    }
    assert!(!new.has("v1", "Deployment"));
    assert!(!new.has("example.com/v1", "Namespace"));
    assert!(new.schema("example.com/v1", "Namespace").is_none());
}

#[test]
fn valid_objects() {
    let c = newest();
    let objects = [
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "gateway-conformance-infra", "labels": {"a": "b"}}}),
        // kubectl create --dry-run=client -o yaml writes `creationTimestamp: null`.
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "creationTimestamp": null}, "data": {"k": "v"}}),
        // kubectl-validate testcases/manifests/empty_secret.yaml: an empty `byte` string.
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "secret"}, "data": {"key": ""}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "secret"}, "data": {"key": "aGVsbG8="}}),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {
            "replicas": 2, "selector": {"matchLabels": {"app": "x"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}},
            "template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{
                "name": "x", "image": "nginx", "ports": [{"containerPort": 80}],
                "resources": {"limits": {"cpu": "1", "memory": "512Mi"}, "requests": {"cpu": 0.5}},
                "livenessProbe": {"httpGet": {"port": "http", "path": "/"}}}]}}}}),
        // kubectl-validate testcases/manifests/x_list_map_nonduplicate_key.yaml.
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "nginx-pod"}, "spec": {"containers": [{
            "name": "nginx", "image": "nginx", "ports": [
                {"protocol": "UDP", "containerPort": 88}, {"containerPort": 88, "protocol": "TCP"}]}]}}),
    ];
    for o in objects {
        let (unknown, errors) = admit(&c, o.clone());
        assert!(
            unknown.is_empty() && errors.is_empty(),
            "{o}: {unknown:?} {errors:?}"
        );
    }
}

#[test]
fn invalid_objects() {
    let c = newest();
    // kubectl-validate testcases (the causes each expects; not its `Unsupported value` for the
    // protocol, which comes from an enum it adds to the 1.23 schemas: the published ones have
    // none).
    let pod = |containers: Value| json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "nginx-pod"}, "spec": {"containers": containers}});
    let cases = [
        (
            "error_invalid_protocol_type",
            pod(
                json!([{"name": "nginx", "image": "nginx", "ports": [{"protocol": 22, "containerPort": 88}]}]),
            ),
            vec![
                r#"spec.containers[0].ports[0].protocol: Invalid value: "integer": spec.containers[0].ports[0].protocol in body must be of type string: "integer""#,
            ],
        ),
        (
            "error_x_list_map_duplicate_key",
            pod(json!([{"name": "nginx", "image": "nginx", "ports": [
                {"protocol": "UDP", "containerPort": 88},
                {"containerPort": 88, "protocol": "TCP"},
                {"protocol": "TCP", "containerPort": 88}]}])),
            vec![
                r#"spec.containers[0].ports[2]: Duplicate value: {"containerPort":88,"protocol":"TCP"}"#,
            ],
        ),
        (
            "error_quantity",
            pod(
                json!([{"name": "my-container", "image": "my-image:latest", "resources": {"requests": {"cpu": true, "memory": "256Mi"}}}]),
            ),
            vec![
                r#"<nil>: Invalid value: "": "spec.containers[0].resources.requests.cpu" must validate one and only one schema (oneOf). Found none valid"#,
                r#"spec.containers[0].resources.requests.cpu: Invalid value: "boolean": spec.containers[0].resources.requests.cpu in body must be of type string: "boolean""#,
            ],
        ),
        (
            "error_map_instead_of_array",
            pod(json!({"name": "nginx", "image": "nginx"})),
            vec![
                r#"spec.containers: Invalid value: "object": spec.containers in body must be of type array: "object""#,
            ],
        ),
        (
            "error_invalid_name",
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Bad_Name"}}),
            vec![
                r#"metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#,
            ],
        ),
    ];
    for (name, obj, want) in cases {
        let (_, got) = admit(&c, obj);
        assert_eq!(got, want, "{name}");
    }
    // A misspelled key is pruned and reported (kubectl-validate error_misspelled_key).
    let (unknown, errors) = admit(
        &c,
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"contAIN3rz": [], "containers": [{"name": "a"}]}}),
    );
    assert_eq!(unknown, ["spec.contAIN3rz"]);
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn references_inline_with_the_referrer_winning() {
    let c = newest();
    let s = c.schema("v1", "Service").unwrap().unwrap();
    let port = &s.properties["spec"].properties["ports"]
        .items
        .as_ref()
        .unwrap()
        .properties["targetPort"];
    assert!(port.extensions.int_or_string, "{port:?}");
    assert_eq!(port.generic.default, None, "the `{{}}` default is dropped");
    let time = &s.properties["metadata"].properties["creationTimestamp"];
    assert!(time.generic.nullable);
    // The apiextensions JSONSchemaProps refers to itself: the recursion stops, unchecked.
    let crd = c
        .schema("apiextensions.k8s.io/v1", "CustomResourceDefinition")
        .unwrap()
        .unwrap();
    let props = &crd.properties["spec"].properties["versions"]
        .items
        .as_ref()
        .unwrap()
        .properties["schema"]
        .properties["openAPIV3Schema"]
        .properties["properties"];
    let inner = props.additional_properties.as_ref().unwrap();
    assert!(
        matches!(inner, crdkit_schema::AdditionalProperties::Schema(s) if s.extensions.preserve_unknown_fields)
    );
}
