//! Built-in kinds with their published schema (tests/data/kubernetes-apps-v1.json), patched as
//! `kubectl apply` patches them: a three-way strategic merge patch computed client-side from
//! the `last-applied-configuration` annotation, the new manifest and the live object, with
//! `$setElementOrder` for every merged list it touches, `$patch: delete` items for removed
//! ones, `$retainKeys` for fields with strategy `retainKeys`, `$deleteFromPrimitiveList` for
//! scalars. The server only applies it (research/apiserver.md §3.4).

use crdkit_patch::{FieldKind, LookupPatchMeta, OpenApiPatchMeta, PatchMeta};
use serde_json::{Value, json};

use crate::common::apply;

fn schemas() -> Value {
    serde_json::from_str(include_str!("../data/kubernetes-apps-v1.json")).unwrap()
}

fn kind<'a>(schemas: &'a Value, name: &str) -> OpenApiPatchMeta<'a> {
    OpenApiPatchMeta::new(schemas.as_object().unwrap(), name).unwrap()
}

fn deployment() -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "finalizers": ["a", "b"],
                     "labels": {"app": "web", "tier": "front"}},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {
                    "containers": [
                        {"name": "web", "image": "nginx:1.24", "imagePullPolicy": "IfNotPresent",
                         "terminationMessagePath": "/dev/termination-log",
                         "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"},
                                 {"name": "INJECTED", "value": "3"}],
                         "ports": [{"containerPort": 53, "protocol": "TCP"}, {"containerPort": 53, "protocol": "UDP"}]},
                        // Added by an admission webhook: not in last-applied-configuration.
                        {"name": "proxy", "image": "envoy"}
                    ],
                    "volumes": [{"name": "config", "configMap": {"name": "web"}}, {"name": "tmp", "emptyDir": {}}],
                    "restartPolicy": "Always"
                }
            }
        }
    })
}

/// Applies `patch` to the Deployment and returns the result.
fn patch_deployment(patch: &Value) -> Value {
    let schemas = schemas();
    apply(
        &deployment(),
        patch,
        &kind(&schemas, "io.k8s.api.apps.v1.Deployment"),
    )
    .unwrap()
}

#[test]
fn the_schema_answers_for_paths() {
    let schemas = schemas();
    let deployment = kind(&schemas, "io.k8s.api.apps.v1.Deployment");
    let (spec, _) = deployment.lookup_struct("spec").unwrap();
    assert_eq!(
        (spec.type_name(), spec.kind()),
        ("DeploymentSpec", FieldKind::Struct)
    );
    let (strategy, meta) = spec.lookup_struct("strategy").unwrap();
    assert_eq!(
        (strategy.type_name(), meta),
        ("DeploymentStrategy", PatchMeta::new("retainKeys", ""))
    );
    let (template, _) = spec.lookup_struct("template").unwrap();
    let (pod, _) = template.lookup_struct("spec").unwrap();
    let (container, meta) = pod.lookup_slice("containers").unwrap();
    assert_eq!(
        (container.type_name(), meta),
        ("Container", PatchMeta::new("merge", "name"))
    );
    let (_, meta) = pod.lookup_slice("volumes").unwrap();
    assert_eq!(meta, PatchMeta::new("merge,retainKeys", "name"));
    assert_eq!(meta.strategy().unwrap(), (true, "merge"));
    let (_, meta) = container.lookup_slice("ports").unwrap();
    assert_eq!(meta.merge_key, "containerPort");
    let (metadata, _) = deployment.lookup_struct("metadata").unwrap();
    let (labels, meta) = metadata.lookup_struct("labels").unwrap();
    assert_eq!(
        (labels.kind(), meta),
        (FieldKind::Map, PatchMeta::default())
    );
    let (value, _) = labels.lookup_struct("any-label").unwrap();
    assert_eq!(value.kind(), FieldKind::Primitive("string"));
    let (finalizer, meta) = metadata.lookup_slice("finalizers").unwrap();
    assert_eq!(
        (finalizer.kind(), meta),
        (FieldKind::Primitive("string"), PatchMeta::new("merge", ""))
    );
    let (_, replicas) = spec.lookup_struct("replicas").unwrap();
    assert_eq!(replicas, PatchMeta::default());
    assert_eq!(
        spec.lookup_struct("replica").unwrap_err().to_string(),
        r#"unable to find api field in struct DeploymentSpec for the json field "replica""#
    );
    let inline =
        json!({"allOf": [{"$ref": "#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec"}]});
    let inline = OpenApiPatchMeta::from_schema(schemas.as_object().unwrap(), &inline).unwrap();
    assert_eq!(
        (inline.type_name(), inline.schema()),
        ("DeploymentSpec", spec.schema())
    );
    let service = kind(&schemas, "io.k8s.api.core.v1.Service");
    let (service_spec, _) = service.lookup_struct("spec").unwrap();
    let (_, meta) = service_spec.lookup_slice("ports").unwrap();
    assert_eq!(meta, PatchMeta::new("merge", "port"));
}

#[test]
fn image_change_keeps_what_the_server_added() {
    let got = patch_deployment(&json!({
        "metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}},
        "spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "web"}],
            "containers": [{"image": "nginx:1.25", "name": "web"}]}}}
    }));
    let mut want = deployment();
    want["metadata"]["annotations"] =
        json!({"kubectl.kubernetes.io/last-applied-configuration": "{}"});
    want["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.25");
    assert_eq!(got, want);
}

#[test]
fn strategy_switched_with_retain_keys() {
    let got = patch_deployment(&json!({
        "spec": {"strategy": {"$retainKeys": ["type"], "rollingUpdate": null, "type": "Recreate"}}
    }));
    assert_eq!(got["spec"]["strategy"], json!({"type": "Recreate"}));
}

#[test]
fn env_var_removed() {
    let got = patch_deployment(&json!({
        "spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "web"}],
            "containers": [{"$setElementOrder/env": [{"name": "A"}],
                            "env": [{"$patch": "delete", "name": "B"}], "name": "web"}]}}}
    }));
    let containers = &got["spec"]["template"]["spec"]["containers"];
    assert_eq!(
        containers[0]["env"],
        json!([{"name": "A", "value": "1"}, {"name": "INJECTED", "value": "3"}])
    );
    assert_eq!(containers[1]["name"], "proxy");
}

#[test]
fn volume_source_switched_with_retain_keys() {
    let got = patch_deployment(&json!({
        "spec": {"template": {"spec": {
            "$setElementOrder/volumes": [{"name": "config"}, {"name": "tmp"}],
            "volumes": [{"$retainKeys": ["name", "secret"], "configMap": null, "name": "config",
                         "secret": {"secretName": "web"}}]}}}
    }));
    assert_eq!(
        got["spec"]["template"]["spec"]["volumes"],
        json!([{"name": "config", "secret": {"secretName": "web"}}, {"name": "tmp", "emptyDir": {}}])
    );
}

#[test]
fn finalizer_and_label_removed() {
    let got = patch_deployment(&json!({
        "metadata": {"$deleteFromPrimitiveList/finalizers": ["a"], "$setElementOrder/finalizers": ["b"],
                     "labels": {"tier": null, "track": "stable"}}
    }));
    assert_eq!(got["metadata"]["finalizers"], json!(["b"]));
    assert_eq!(
        got["metadata"]["labels"],
        json!({"app": "web", "track": "stable"})
    );
}

/// Container ports merge by `containerPort` alone (their list-map keys are containerPort and
/// protocol): a patch of the UDP port merges into the first port 53, the TCP one, as the API
/// server's strategic merge patch does.
#[test]
fn container_ports_merge_by_container_port_only() {
    let got = patch_deployment(&json!({
        "spec": {"template": {"spec": {"containers": [
            {"name": "web", "ports": [{"containerPort": 53, "protocol": "UDP", "name": "dns"}]}]}}}
    }));
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"][0]["ports"],
        json!([{"containerPort": 53, "protocol": "UDP", "name": "dns"}, {"containerPort": 53, "protocol": "UDP"}])
    );
}

#[test]
fn service_port_added() {
    let schemas = schemas();
    let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
        "spec": {"clusterIP": "10.0.0.10", "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080}],
                 "selector": {"app": "web"}, "type": "ClusterIP"}});
    let patch = json!({"spec": {"$setElementOrder/ports": [{"port": 80}, {"port": 443}],
        "ports": [{"name": "https", "port": 443, "targetPort": 8443}]}});
    let got = apply(
        &service,
        &patch,
        &kind(&schemas, "io.k8s.api.core.v1.Service"),
    )
    .unwrap();
    assert_eq!(
        got["spec"]["ports"],
        json!([{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080},
               {"name": "https", "port": 443, "targetPort": 8443}])
    );
    assert_eq!(got["spec"]["clusterIP"], "10.0.0.10");
}
