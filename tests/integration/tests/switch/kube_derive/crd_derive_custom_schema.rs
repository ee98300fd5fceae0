//! kube-rs `examples/crd_derive_custom_schema.rs` (`schema = "manual"`, a hand-written
//! `JsonSchema` for the root) and `examples/crd_derive_no_schema.rs` (`schema = "disabled"`, a
//! schema dropped in from YAML). crdkit always derives the schema from the types: the port
//! keeps the spec and compares the schema crdkit derives with the hand-written ones.

use std::borrow::Cow;

use serde_json::json;

use super::{V0, at, compare, crdkit_crd, kube_crd};

mod kube_side {
    use kube::CustomResource;
    use serde::{Deserialize, Serialize};

    /// CustomResource with manually implemented `JsonSchema`
    #[derive(CustomResource, Serialize, Deserialize, Debug, Clone)]
    #[kube(
        group = "clux.dev",
        version = "v1",
        kind = "Bar",
        namespaced,
        schema = "manual"
    )]
    pub struct MyBar {
        bars: u32,
    }
}

impl schemars::JsonSchema for kube_side::Bar {
    fn schema_name() -> Cow<'static, str> {
        "Bar".into()
    }

    fn json_schema(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "properties": {
                "spec": {
                    "properties": {
                        "bars": {
                            "type": "integer"
                        }
                    },
                    "required": [
                        "bars"
                    ],
                    "type": "object"
                }
            },
            "required": [
                "spec"
            ],
            "title": "Bar"
        })
    }
}

mod crdkit_side {
    use serde::{Deserialize, Serialize};

    /// CustomResource with manually implemented `JsonSchema`
    #[derive(crdkit::CustomResource, Serialize, Deserialize, Debug, Clone)]
    #[crd(group = "clux.dev", version = "v1", kind = "Bar", namespaced)]
    pub struct MyBar {
        bars: u32,
    }
}

#[test]
fn crd_derive_custom_schema() {
    let spec = format!("{V0}.properties.spec");
    compare(
        &kube_crd::<kube_side::Bar>(),
        &crdkit_crd::<crdkit_side::Bar>(),
        &[
            at(
                format!("{V0}.title"),
                Some(json!("Bar")),
                None,
                "no title (module docs)",
            ),
            at(
                format!("{V0}.type"),
                None,
                Some(json!("object")),
                "the hand-written root has no `type`, which the API server requires of a \
                 structural root (`type: Required value: must not be empty at the root`)",
            ),
            at(
                format!("{spec}.description"),
                None,
                Some(json!(
                    "CustomResource with manually implemented `JsonSchema`"
                )),
                "crdkit describes `spec` with the spec type's doc comment",
            ),
            at(
                format!("{spec}.properties.bars.minimum"),
                None,
                Some(json!(0)),
                "`u32` is bounded (integer ranges, module docs)",
            ),
            at(
                format!("{spec}.properties.bars.maximum"),
                None,
                Some(json!(4_294_967_295_u64)),
                "`u32` is bounded (integer ranges, module docs)",
            ),
        ],
    );
}

/// `crd_derive_no_schema.rs` drops in a schema whose `bars` has `type: int`, which is no
/// OpenAPI type: the API server rejects that CRD. crdkit's schema comes from `bars: u32`.
#[test]
fn crd_derive_no_schema() {
    let schema = &crdkit_crd::<crdkit_side::Bar>()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
        ["properties"]["spec"]["properties"]["bars"];
    assert_eq!(
        schema,
        &json!({"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u64})
    );
    let manual = serde_json::from_value(json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "properties": {"bars": {"type": "int"}},
            "required": ["bars"]
        }}
    }))
    .unwrap();
    let mut crd = crdkit_side::Bar::crd().unwrap();
    crd.spec.versions[0].schema = Some(crdkit::crd::CustomResourceValidation {
        open_api_v3_schema: Some(manual),
    });
    let errors: Vec<String> = crdkit::crd_check::check_crd(&crd)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        errors.iter().any(|e| e.contains("properties[bars].type")),
        "{errors:?}"
    );
}
