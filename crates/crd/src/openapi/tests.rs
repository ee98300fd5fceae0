use serde_json::{Value, json};

use super::*;
use crdkit_schema::crd::CustomResourceDefinition;

fn crontab() -> CustomResourceDefinition {
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "shortNames": ["ct"]},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
                    "example": {"x": 1},
                    "properties": {"cronSpec": {"type": "string", "pattern": "^a$"},
                        "port": {"x-kubernetes-int-or-string": true},
                        "template": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
                        "replicas": {"type": "integer", "minimum": 1, "maximum": 10}}}}}},
                "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}},
                {"name": "v2", "served": false, "storage": false}]}
    }))
    .unwrap()
}

/// kubectl's `supportsQueryParamV3`: the first PATCH operation of the kind must list
/// `fieldValidation` among its own query parameters.
fn supports_field_validation(doc: &Value, group: &str, version: &str, kind: &str) -> bool {
    let gvk = json!({"group": group, "version": version, "kind": kind});
    for item in doc["paths"].as_object().unwrap().values() {
        let Some(op) = item.get("patch") else {
            continue;
        };
        if op["x-kubernetes-group-version-kind"] != gvk {
            continue;
        }
        return op["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "fieldValidation" && p["in"] == "query");
    }
    false
}

#[test]
fn custom_resource_document_has_paths_operations_and_schemas() {
    let crd = crontab();
    let doc = group_version("stable.example.com", "v1", &[&crd]);
    assert_eq!(doc["openapi"], "3.0.0");
    let paths = doc["paths"].as_object().unwrap();
    let keys: Vec<&str> = paths.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "/apis/stable.example.com/v1/crontabs",
            "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs",
            "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}",
            "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale",
            "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status",
        ]
    );
    let all = &paths["/apis/stable.example.com/v1/crontabs"]["get"];
    assert_eq!(
        all["operationId"],
        "listStableExampleComV1CronTabForAllNamespaces"
    );
    let item = &paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"];
    assert_eq!(
        item["patch"]["operationId"],
        "patchStableExampleComV1NamespacedCronTab"
    );
    assert_eq!(item["patch"]["x-kubernetes-action"], "patch");
    // No strategic merge patch for custom resources: kubectl then sends a JSON merge patch.
    let content = item["patch"]["requestBody"]["content"].as_object().unwrap();
    assert!(!content.contains_key("application/strategic-merge-patch+json"));
    assert!(content.contains_key("application/merge-patch+json"));
    assert!(supports_field_validation(
        &doc,
        "stable.example.com",
        "v1",
        "CronTab"
    ));
    let scale = &paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale"];
    // builder.go's routes all carry the CRD's kind, the scale subresource's too; its bodies
    // are autoscaling/v1 Scale.
    assert_eq!(
        scale["get"]["x-kubernetes-group-version-kind"],
        json!({"group": "stable.example.com", "version": "v1", "kind": "CronTab"})
    );
    assert_eq!(
        scale["put"]["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/io.k8s.api.autoscaling.v1.Scale"
    );

    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let kind = &schemas["com.example.stable.v1.CronTab"];
    assert_eq!(
        kind["x-kubernetes-group-version-kind"],
        json!([{"group": "stable.example.com", "version": "v1", "kind": "CronTab"}])
    );
    assert_eq!(
        kind["properties"]["metadata"]["allOf"][0]["$ref"],
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    let spec = &kind["properties"]["spec"];
    // Kept since Kubernetes 1.36 (NewStructural keeps `example` and `externalDocs`).
    assert_eq!(spec["example"], json!({"x": 1}));
    assert_eq!(
        spec["properties"]["port"]["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
    let template = &spec["properties"]["template"];
    assert_eq!(template["required"], json!(["kind", "apiVersion"]));
    assert_eq!(template["properties"]["kind"]["type"], "string");
    assert!(schemas.contains_key("com.example.stable.v1.CronTabList"));
    assert!(schemas.contains_key("io.k8s.api.autoscaling.v1.Scale"));
    assert!(schemas.contains_key("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
}

#[test]
fn unserved_versions_and_other_groups_are_left_out() {
    let crd = crontab();
    let doc = group_version("stable.example.com", "v2", &[&crd]);
    assert!(doc["paths"].as_object().unwrap().is_empty());
    let doc = group_version("other.example.com", "v1", &[&crd]);
    assert!(doc["paths"].as_object().unwrap().is_empty());
}

#[test]
fn cluster_scoped_paths_have_no_namespace() {
    let mut crd = crontab();
    crd.spec.scope = "Cluster".to_owned();
    let doc = group_version("stable.example.com", "v1", &[&crd]);
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.contains_key("/apis/stable.example.com/v1/crontabs/{name}"));
    assert!(!paths.keys().any(|k| k.contains("{namespace}")));
    assert_eq!(
        paths["/apis/stable.example.com/v1/crontabs"]["get"]["operationId"],
        "listStableExampleComV1CronTab"
    );
}

#[test]
fn the_hash_changes_with_the_schema() {
    let crd = crontab();
    let a = hash(&group_version("stable.example.com", "v1", &[&crd]));
    let mut changed = crontab();
    changed.spec.versions[0]
        .schema
        .as_mut()
        .unwrap()
        .open_api_v3_schema
        .as_mut()
        .unwrap()
        .description = "changed".to_owned();
    let b = hash(&group_version("stable.example.com", "v1", &[&changed]));
    assert_ne!(a, b);
    assert_eq!(a, hash(&group_version("stable.example.com", "v1", &[&crd])));
    assert_eq!(a.len(), 32);
}

#[test]
fn built_in_documents_support_field_validation() {
    assert!(supports_field_validation(&core_v1(), "", "v1", "Namespace"));
    assert!(supports_field_validation(
        &apiextensions_v1(),
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinition"
    ));
    let core = core_v1();
    assert!(core["paths"].get("/api/v1/namespaces/{name}").is_some());
}

#[test]
fn index_lists_documents_with_their_hash() {
    let mut docs = BTreeMap::new();
    docs.insert("api/v1".to_owned(), "ABC".to_owned());
    assert_eq!(
        index(&docs),
        json!({"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=ABC"}}})
    );
}
