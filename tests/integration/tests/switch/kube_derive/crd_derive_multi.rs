//! kube-rs `examples/crd_derive_multi.rs`: two versions of one kind in two modules, merged
//! with `merge_crds(.., "v1")` (kube's and crdkit's both take the storage version).

use serde_json::json;

use super::{compare, under};

mod kube_side {
    pub mod v1 {
        use kube::CustomResource;
        use schemars::JsonSchema;
        use serde::{Deserialize, Serialize};

        // spec that is forwards compatible with v2 (can upgrade by truncating)
        #[derive(CustomResource, Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
        #[kube(
            group = "kube.rs",
            version = "v1",
            kind = "ManyDerive",
            status = "ManyDeriveStatus",
            namespaced
        )]
        pub struct ManyDeriveSpec {
            pub name: String,
            pub oldprop: u32,
        }
        #[derive(Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
        pub struct ManyDeriveStatus {
            pub condition: Option<bool>,
        }
    }
    pub mod v2 {
        use kube::CustomResource;
        use schemars::JsonSchema;
        use serde::{Deserialize, Serialize};

        // spec that is NOT backwards compatible with v1 (cannot retrieve oldprop if truncated)
        #[derive(CustomResource, Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
        #[kube(
            group = "kube.rs",
            version = "v2",
            kind = "ManyDerive",
            namespaced,
            status = "super::v1::ManyDeriveStatus"
        )]
        pub struct ManyDeriveSpec {
            pub name: String,
            pub extra: Option<String>,
        }
    }
}

mod crdkit_side {
    pub mod v1 {
        use serde::{Deserialize, Serialize};

        // spec that is forwards compatible with v2 (can upgrade by truncating)
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Default, Debug, Clone)]
        #[crd(
            group = "kube.rs",
            version = "v1",
            kind = "ManyDerive",
            status = ManyDeriveStatus,
            namespaced
        )]
        pub struct ManyDeriveSpec {
            pub name: String,
            pub oldprop: u32,
        }
        #[derive(crdkit::Schema, Serialize, Deserialize, Default, Debug, Clone)]
        pub struct ManyDeriveStatus {
            pub condition: Option<bool>,
        }
    }
    pub mod v2 {
        use serde::{Deserialize, Serialize};

        // spec that is NOT backwards compatible with v1 (cannot retrieve oldprop if truncated)
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Default, Debug, Clone)]
        #[crd(
            group = "kube.rs",
            version = "v2",
            kind = "ManyDerive",
            namespaced,
            status = super::v1::ManyDeriveStatus
        )]
        pub struct ManyDeriveSpec {
            pub name: String,
            pub extra: Option<String>,
        }
    }
}

#[test]
fn crd_derive_multi() {
    use kube::CustomResourceExt;
    let kube = kube::core::crd::merge_crds(
        vec![
            kube_side::v1::ManyDerive::crd(),
            kube_side::v2::ManyDerive::crd(),
        ],
        "v1",
    )
    .unwrap();
    let crdkit = crdkit::merge_crds(
        vec![
            crdkit_side::v1::ManyDerive::crd().unwrap(),
            crdkit_side::v2::ManyDerive::crd().unwrap(),
        ],
        "v1",
    )
    .unwrap();
    let schema = |i: usize| format!("spec.versions[{i}].schema.openAPIV3Schema");
    let (kube, crdkit) = (serde_json::to_value(kube).unwrap(), crdkit.to_value());
    // crdkit lists the versions by priority (v2, then v1, as kubectl orders them); kube-rs in
    // the order given. Compared in one order, version by version.
    let by_name = |crd: &serde_json::Value| {
        let mut c = crd.clone();
        let versions = c["spec"]["versions"].as_array_mut().unwrap();
        versions.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
        c
    };
    assert_eq!(crdkit["spec"]["versions"][0]["name"], json!("v2"));
    compare(
        &by_name(&kube),
        &by_name(&crdkit),
        &[
            under(format!("{}.title", schema(0)), "no title (module docs)"),
            under(
                format!("{}.description", schema(0)),
                "crdkit describes the root only when asked (`root_description`)",
            ),
            under(
                format!("{}.properties.status.nullable", schema(0)),
                "the root never writes a null status (module docs)",
            ),
            under(
                format!("{}.properties.spec.properties.oldprop", schema(0)),
                "`u32`: integer ranges (module docs)",
            ),
            under(format!("{}.title", schema(1)), "no title (module docs)"),
            under(
                format!("{}.description", schema(1)),
                "crdkit describes the root only when asked (`root_description`)",
            ),
            under(
                format!("{}.properties.status.nullable", schema(1)),
                "the root never writes a null status (module docs)",
            ),
        ],
    );
}
