//! kube-rs `examples/crd_derive.rs`: the flagship example (root name, plural, status with
//! conditions, scale, a printer column, a selectable field).

use serde_json::json;

use super::{V0, at, compare, crdkit_crd, kube_crd, under};

mod kube_side {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
    use kube::CustomResource;
    use schemars::{JsonSchema, json_schema};
    use serde::{Deserialize, Serialize};

    /// Our spec for Foo
    ///
    /// A struct with our chosen Kind will be created for us, using the following kube attrs
    #[derive(
        CustomResource, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone, JsonSchema,
    )]
    #[kube(
        group = "clux.dev",
        version = "v1",
        kind = "Foo",
        plural = "fooz",
        root = "FooCrd",
        namespaced,
        doc = "Custom resource representing a Foo",
        status = "FooStatus",
        derive = "PartialEq",
        derive = "Default",
        attr = "allow(deprecated)",
        shortname = "f",
        scale(
            spec_replicas_path = ".spec.replicas",
            status_replicas_path = ".status.replicas"
        ),
        printcolumn(
            name = "Spec",
            type_ = "string",
            description = "name of foo",
            json_path = ".spec.name",
        ),
        selectable = "spec.name"
    )]
    pub struct MyFoo {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        info: Option<String>,
    }

    #[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
    pub struct FooStatus {
        is_bad: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[schemars(schema_with = "conditions")]
        pub conditions: Vec<Condition>,
    }

    fn conditions(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
        json_schema!({
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["type"],
            "items": {
                "type": "object",
                "properties": {
                    "lastTransitionTime": { "format": "date-time", "type": "string" },
                    "message": { "type": "string" },
                    "observedGeneration": { "type": "integer", "format": "int64", "default": 0 },
                    "reason": { "type": "string" },
                    "status": { "type": "string" },
                    "type": { "type": "string" }
                },
                "required": ["lastTransitionTime", "message", "reason", "status", "type"],
            },
        })
    }
}

// `allow_unresolved` warns that the scale paths are not checked; this test knows.
#[allow(deprecated)]
mod crdkit_side {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
    use serde::{Deserialize, Serialize};

    /// Our spec for Foo
    ///
    /// A struct with our chosen Kind will be created for us, using the following kube attrs
    #[derive(
        crdkit::CustomResource, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone,
    )]
    #[crd(
        group = "clux.dev",
        version = "v1",
        kind = "Foo",
        plural = "fooz",
        root = "FooCrd",
        namespaced,
        root_description = "Custom resource representing a Foo",
        status = FooStatus,
        derive(PartialEq, Default),
        attr(allow(deprecated)),
        short_name = "f",
        // `MyFoo` has no `replicas`, nor `FooStatus`: the API server accepts the paths, and
        // crdkit does with `allow_unresolved` (with a warning).
        scale(
            spec_replicas = ".spec.replicas",
            status_replicas = ".status.replicas",
            allow_unresolved
        ),
        print_column(
            name = "Spec",
            type = "string",
            description = "name of foo",
            json_path = ".spec.name"
        ),
        selectable_field = ".spec.name"
    )]
    pub struct MyFoo {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        info: Option<String>,
    }

    #[derive(crdkit::Schema, Debug, Clone, Serialize, Deserialize, PartialEq)]
    pub struct FooStatus {
        is_bad: bool,
        // No `schema_with`: `Condition` has its schema, with the validations Kubernetes
        // publishes for it; the list's keys are the field's.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[crd(list_type = "map", list_map_keys("type"))]
        pub conditions: Vec<Condition>,
    }
}

#[test]
fn crd_derive() {
    let conditions = format!("{V0}.properties.status.properties.conditions.items.properties");
    compare(
        &kube_crd::<kube_side::FooCrd>(),
        &crdkit_crd::<crdkit_side::FooCrd>(),
        &[
            at(
                format!("{V0}.title"),
                Some(json!("FooCrd")),
                None,
                "no title (module docs)",
            ),
            at(
                format!("{V0}.properties.spec.properties.info.nullable"),
                Some(json!(true)),
                None,
                "`skip_serializing_if` keeps null out: not nullable (module docs)",
            ),
            at(
                format!("{V0}.properties.status.nullable"),
                Some(json!(true)),
                None,
                "the root never writes a null status (module docs)",
            ),
            at(
                "spec.versions[0].selectableFields[0].jsonPath",
                Some(json!("spec.name")),
                Some(json!(".spec.name")),
                "kube-rs's path lacks the leading dot, and the API server rejects its CRD \
                 (`expected [ or . but got: spec`); crdkit refuses `selectable = \"spec.name\"` with \
                 the fix",
            ),
            under(
                format!("{conditions}.message"),
                "`Condition`'s schema as Kubernetes publishes it: `maxLength: 32768`",
            ),
            under(
                format!("{conditions}.observedGeneration"),
                "`minimum: 0` as Kubernetes publishes it; no `default: 0` (the hand-written \
                 schema's), which the API server would write into every condition",
            ),
            under(
                format!("{conditions}.reason"),
                "`minLength: 1, maxLength: 1024` and the pattern Kubernetes publishes",
            ),
            under(
                format!("{conditions}.status"),
                "`enum: [True, False, Unknown]` as Kubernetes publishes it",
            ),
            under(
                format!("{conditions}.type"),
                "`maxLength: 316` and the qualified-name pattern Kubernetes publishes",
            ),
        ],
    );
}
