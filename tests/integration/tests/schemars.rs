//! `#[crd(schemars)]`: fields whose types implement `schemars::JsonSchema` but not crdkit's
//! `Schema`, converted when the CRD is built, with non-structural parts reported by path.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A type from a crate that only knows schemars.
#[derive(JsonSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Foreign {
    pub max_retries: Option<u32>,
    pub mode: Mode,
}

#[derive(JsonSchema, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    Fast,
    Safe,
}

/// Recursive: schemars needs a `$ref`, which structural schemas do not have.
#[derive(JsonSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Tree {
    pub children: Vec<Tree>,
}

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Job")]
pub struct JobSpec {
    #[crd(schemars)]
    pub foreign: Foreign,
}

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Bad")]
pub struct BadSpec {
    #[crd(schemars)]
    pub tree: Tree,
}

#[test]
fn schemars_types_become_structural() {
    let crd = Job::crd().expect("structural");
    let schema = &crd.to_value()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]
        ["spec"]["properties"]["foreign"];
    assert_eq!(
        schema,
        &json!({
            "description": "A type from a crate that only knows schemars.",
            "type": "object",
            "required": ["mode"],
            "properties": {
                "maxRetries": {"type": "integer", "minimum": 0, "nullable": true},
                "mode": {"type": "string", "enum": ["Fast", "Safe"]},
            }
        })
    );
}

#[test]
fn non_structural_parts_are_reported_with_their_path() {
    let err = Bad::crd().unwrap_err().to_string();
    assert!(err.starts_with("spec.tree: children[*]: `$ref`"), "{err}");
}

/// A rule reaching into a `#[crd(schemars)]` field cannot be checked at compile time (the
/// schema is only known at run time): `crd()` runs the API server's checks and reports it.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Retry")]
#[crd(validation(rule = "self.foreign.maxRetriez < 10"))]
pub struct RetrySpec {
    #[crd(schemars)]
    pub foreign: Foreign,
}

#[test]
fn rules_into_run_time_schemas_are_checked_by_crd() {
    let err = Retry::crd().unwrap_err().to_string();
    assert!(
        err.contains(
            "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"
        ) && err.contains("undefined field 'maxRetriez'"),
        "{err}"
    );
}
