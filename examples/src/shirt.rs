//! "Selectable fields for custom resources": the Shirt, selectable by `.spec.color` and
//! `.spec.size`.

use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "Shirt",
    namespaced,
    selectable_field = ".spec.color",
    selectable_field = ".spec.size"
)]
#[crd(
    print_column(name = "Color", json_path = ".spec.color"),
    print_column(name = "Size", json_path = ".spec.size")
)]
#[serde(default)]
pub struct ShirtSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
}
