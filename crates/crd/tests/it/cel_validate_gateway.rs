//! Real-world rules: the Gateway API CRDs (166 `x-kubernetes-validations`) and the example
//! objects of apiextensions `test/integration/ratcheting_test_cases`, in
//! `gateway_api.json`. The CRDs pass the CRD check; every valid object validates on create;
//! every invalid one fails; an unchanged update of an invalid object is ratcheted to no error,
//! except where the invalid part does not correlate (duplicate map-list keys).

use crdkit_apiextensions::validate::{CompiledSchema, ResourceInfo};
use crdkit_crd::crd_check::check_crd_full;
use crdkit_schema::Structural;
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::Value;

fn data() -> Value {
    let path = format!(
        "{}/tests/data/cel/validate/gateway_api.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

struct Schemas(Vec<(String, String, CompiledSchema)>);

impl Schemas {
    fn new(crds: &[Value]) -> Schemas {
        let mut out = Vec::new();
        for c in crds {
            let crd = CustomResourceDefinition::from_value(c.clone()).unwrap();
            let problems = check_crd_full(&crd);
            assert!(problems.is_empty(), "{:?}: {problems:?}", crd.metadata.name);
            for v in &crd.spec.versions {
                let props = v
                    .schema
                    .as_ref()
                    .unwrap()
                    .open_api_v3_schema
                    .as_ref()
                    .unwrap();
                let api_version = format!("{}/{}", crd.spec.group, v.name);
                let info = ResourceInfo {
                    api_version: api_version.clone(),
                    kind: crd.spec.names.kind.clone(),
                    namespaced: None,
                };
                let s = CompiledSchema::new(&Structural::from_props(props).unwrap())
                    .with_resource(info);
                out.push((api_version, crd.spec.names.kind.clone(), s));
            }
        }
        Schemas(out)
    }

    fn of(&self, obj: &Value) -> &CompiledSchema {
        let (a, k) = (obj["apiVersion"].as_str(), obj["kind"].as_str());
        let found = self
            .0
            .iter()
            .find(|(av, kind, _)| Some(av.as_str()) == a && Some(kind.as_str()) == k);
        &found.unwrap().2
    }
}

#[test]
fn gateway_api() {
    let data = data();
    let schemas = Schemas::new(data["crds"].as_array().unwrap());
    let mut failures = Vec::new();
    for v in data["valid"].as_array().unwrap() {
        let s = schemas.of(&v["object"]);
        let mut obj = v["object"].clone();
        s.prune_and_default(&mut obj).unwrap();
        let errs = s.validate(&obj);
        if !errs.is_empty() {
            failures.push(format!("valid/{}: {errs:?}", v["file"]));
        }
    }
    for v in data["invalid"].as_array().unwrap() {
        let file = v["file"].as_str().unwrap();
        let s = schemas.of(&v["object"]);
        let mut obj = v["object"].clone();
        s.prune_and_default(&mut obj).unwrap();
        if s.validate(&obj).is_empty() {
            failures.push(format!("invalid/{file}: no error"));
        }
        let unchanged = s.validate_update(&obj, &obj);
        let expect_ratcheted = file != "gateway/duplicate-listeners.yaml";
        if unchanged.is_empty() != expect_ratcheted {
            failures.push(format!("invalid/{file} unchanged: {unchanged:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
