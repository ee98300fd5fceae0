//! Kubernetes' own types inside a spec (`kube` feature): their shapes are generated from the
//! OpenAPI Kubernetes publishes, so rules reaching into them are type-checked and costed at
//! compile time, and the CRD passes the API server's checks.

use crdkit::CustomResource;
use k8s_openapi::api::core::v1::{EnvVar, PodTemplateSpec, ResourceRequirements, Toleration};
use serde::{Deserialize, Serialize};

/// The database: a pod template and the types operators embed most.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Database", namespaced)]
#[crd(validation(rule = "!has(self.template) || self.template.spec.containers.size() > 0"))]
pub struct DatabaseSpec {
    pub replicas: i32,
    pub resources: Option<ResourceRequirements>,
    #[serde(default)]
    pub env: Vec<EnvVar>,
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    pub template: Option<PodTemplateSpec>,
}

#[test]
fn the_api_server_admits_the_crd() {
    let crd = Database::crd().unwrap();
    assert_eq!(crdkit::crd_check::check_crd_full(&crd), vec![]);
}

#[test]
fn list_types_and_keys_are_the_published_ones() {
    let crd = Database::crd().unwrap().to_value();
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    let pod = &spec["properties"]["template"]["properties"]["spec"];
    let ports = &pod["properties"]["containers"]["items"]["properties"]["ports"];
    assert_eq!(ports["x-kubernetes-list-type"], "map");
    assert_eq!(
        ports["x-kubernetes-list-map-keys"],
        serde_json::json!(["containerPort", "protocol"])
    );
    assert_eq!(pod["required"], serde_json::json!(["containers"]));
    // An embedded ObjectMeta is `type: object`: the API server knows its fields.
    assert_eq!(
        spec["properties"]["template"]["properties"]["metadata"]["type"],
        "object"
    );
    assert!(spec["properties"]["template"]["properties"]["metadata"]["properties"].is_null());
}

/// Typos and type errors reaching into embedded Kubernetes types fail at the rule's literal, in
/// the API server's words. `TRYBUILD=overwrite` blesses the `.stderr` files.
#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("ui/k8s/*.rs");
}
