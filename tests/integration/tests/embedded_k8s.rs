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

/// The same spec with descriptions shortened as `controller-gen crd:maxDescLen=80` does.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "ShortDatabase",
    max_desc_len = 80
)]
pub struct ShortDatabaseSpec {
    /// How many replicas to run; this description is longer than eighty bytes. It gets cut.
    pub replicas: i32,
    pub template: Option<PodTemplateSpec>,
}

/// The spec without descriptions: the golden CRD
/// (`tests/golden/bare-database.crd.yaml`, for the k8s-openapi version these tests pick).
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "BareDatabase",
    namespaced
)]
#[crd(max_desc_len = 0)]
#[crd(validation(rule = "!has(self.template) || self.template.spec.containers.size() > 0"))]
pub struct BareDatabaseSpec {
    /// Dropped.
    pub replicas: i32,
    pub resources: Option<ResourceRequirements>,
    #[serde(default)]
    pub env: Vec<EnvVar>,
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    pub template: Option<PodTemplateSpec>,
}

/// `BLESS=1 cargo test -p crdkit-integration-tests --test embedded_k8s golden` rewrites it.
#[test]
fn golden_crd_embedding_a_pod_template() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/bare-database.crd.yaml"
    );
    let yaml = BareDatabase::crd().unwrap().to_yaml();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, &yaml).unwrap();
    }
    let want = std::fs::read_to_string(path).unwrap();
    assert!(
        yaml == want,
        "{path} differs (BLESS=1 rewrites it; review the diff)"
    );
}

fn descriptions(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("description", serde_json::Value::String(d)) => out.push(d.clone()),
                    _ => descriptions(v, out),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| descriptions(v, out)),
        _ => {}
    }
}

#[test]
fn descriptions_are_shortened_as_controller_gen_does() {
    let full = Database::crd().unwrap().to_value();
    let short = ShortDatabase::crd().unwrap().to_value();
    let bare = BareDatabase::crd().unwrap().to_value();
    let (mut f, mut s, mut b) = (Vec::new(), Vec::new(), Vec::new());
    descriptions(&full, &mut f);
    descriptions(&short, &mut s);
    descriptions(&bare, &mut b);
    assert!(f.iter().any(|d| d.len() > 80));
    assert!(s.iter().all(|d| d.len() <= 83), "{s:?}");
    assert!(s.contains(
        &"How many replicas to run; this description is longer than eighty bytes.".to_owned()
    ));
    assert_eq!(b, Vec::<String>::new());
    let size = |v: &serde_json::Value| v.to_string().len();
    println!(
        "CRD bytes: full {}, maxDescLen 80 {}, none {}",
        size(&full),
        size(&short),
        size(&bare)
    );
    // A pod template's descriptions are most of the CRD.
    assert!(
        size(&full) > 4 * size(&bare),
        "{} vs {}",
        size(&full),
        size(&bare)
    );
    assert!(size(&full) < crdkit::shape::size::MAX_CRD_BYTES);
    assert_eq!(
        crdkit::crd_check::check_crd_full(&BareDatabase::crd().unwrap()),
        vec![]
    );
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

/// The generator of the shapes, run here where k8s-openapi's sources are at hand.
#[path = "../../../crates/shape/examples/k8s_shapes/main.rs"]
#[allow(dead_code)]
mod k8s_shapes;

/// `crates/shape/src/k8s/generated.rs` is what its generator writes from k8s-openapi's sources
/// and the published OpenAPI data.
#[test]
fn generated_shapes_are_current() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let manifest = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "k8s-openapi")
        .and_then(|p| p["manifest_path"].as_str())
        .unwrap()
        .to_owned();
    let root = std::path::Path::new(&manifest).parent().unwrap();
    let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let data = std::path::Path::new(repo).join("crates/builtin/data/kubernetes-openapi.json");
    let generated = k8s_shapes::generate(root, &data).unwrap();
    let committed = std::fs::read_to_string(
        std::path::Path::new(repo).join("crates/shape/src/k8s/generated.rs"),
    )
    .unwrap();
    assert!(
        generated == committed,
        "crates/shape/src/k8s/generated.rs is stale: run the k8s_shapes example"
    );
}
