//! "Versions in CustomResourceDefinitions": one Rust type per version, merged into one CRD with
//! `v1` as the storage version, `v1alpha1` deprecated with its own warning and `v1beta1`
//! deprecated with the default one.

use crdkit::{CrdError, CustomResourceDefinition, merge_crds};

/// `example.com/v1alpha1`
pub mod v1alpha1 {
    use serde::{Deserialize, Serialize};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "example.com",
        version = "v1alpha1",
        kind = "CronTab",
        namespaced,
        deprecated,
        deprecation_warning = "example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab"
    )]
    #[serde(default)]
    pub struct CronTabSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub host: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<String>,
    }
}

/// `example.com/v1beta1`
pub mod v1beta1 {
    use serde::{Deserialize, Serialize};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "example.com",
        version = "v1beta1",
        kind = "CronTab",
        namespaced,
        deprecated
    )]
    #[serde(default)]
    pub struct CronTabSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub host: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<String>,
    }
}

/// `example.com/v1`, the storage version: the port became a number.
pub mod v1 {
    use serde::{Deserialize, Serialize};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(group = "example.com", version = "v1", kind = "CronTab", namespaced)]
    #[serde(default)]
    pub struct CronTabSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub host: Option<String>,
        #[crd(minimum = 1, maximum = 65535)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<u16>,
    }
}

/// The CRD with all three versions.
///
/// # Errors
/// When a version's CRD cannot be built (it can: every part is known at compile time).
pub fn crd() -> Result<CustomResourceDefinition, CrdError> {
    let parts = vec![
        v1alpha1::CronTab::crd()?,
        v1beta1::CronTab::crd()?,
        v1::CronTab::crd()?,
    ];
    merge_crds(parts, "v1").map_err(|e| CrdError {
        errors: vec![crdkit::shape::BuildError {
            path: String::new(),
            message: e.to_string(),
        }],
    })
}
