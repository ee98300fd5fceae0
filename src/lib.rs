//! # crdkit
//!
//! Kubernetes CustomResourceDefinitions from Rust types, checked at compile time.
#![forbid(unsafe_code)]

pub use crdkit_macros::{CustomResource, Schema};
pub use crdkit_runtime::crd::CustomResourceDefinition;
pub use crdkit_runtime::resource::{CrdError, CustomResource, MergeError, merge_crds};
pub use crdkit_runtime::shape::Schema;
pub use crdkit_runtime::{crd, names, schema, shape, yaml};

/// The `metadata` of objects: crdkit's own type, or k8s-openapi's with the `kube` feature.
#[cfg(not(feature = "kube"))]
pub use crdkit_runtime::meta::ObjectMeta;
#[cfg(feature = "kube")]
pub use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// kube-rs integration: the CRD as k8s-openapi's type, schemas of k8s-openapi types.
#[cfg(feature = "kube")]
pub mod kube {
    pub use crate::kube_impls::{KubeCrdExt, to_k8s};
    pub use crdkit_runtime::shape::k8s::QUANTITY_PATTERN;
}
#[cfg(feature = "kube")]
mod kube_impls;

/// What generated code uses. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::ObjectMeta;
    pub use crdkit_runtime::crd::CustomResourceDefinition;
    pub use crdkit_runtime::resource::{
        CrdError, CustomResource, PrinterColumn, ResourceDecl, Scale,
    };
    pub use crdkit_runtime::schema::{ListType, MapType};
    pub use crdkit_runtime::shape::check;
    pub use crdkit_runtime::shape::{
        DefaultValue, Enum, Field, Json, Kind, Msg, Repr, Rule, Rules, Schema, Shape, Variant,
        VariantKind,
    };
    #[cfg(feature = "kube")]
    pub use k8s_openapi;
    #[cfg(feature = "kube")]
    pub use kube_core;
    pub use serde;
    pub use serde_json;

    #[cfg(feature = "schemars")]
    pub use crdkit_runtime::shape::schemars::schemars_schema;

    /// A `default = path` function's value as JSON.
    ///
    /// # Errors
    /// When the value does not serialize to JSON.
    pub fn default_value<T: serde::Serialize>(v: T) -> Result<serde_json::Value, String> {
        serde_json::to_value(v).map_err(|e| e.to_string())
    }
}

/// Implements `kube::Resource` for a root type when the `kube` feature is on.
#[cfg(feature = "kube")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube_resource {
    ($root:ident, $group:literal, $version:literal, $api_version:literal, $kind:literal, $plural:literal, $scope:ident) => {
        $crate::__kube_resource_impl!(
            $root,
            $group,
            $version,
            $api_version,
            $kind,
            $plural,
            $scope
        );
    };
}

/// Expands to nothing without the `kube` feature.
#[cfg(not(feature = "kube"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube_resource {
    ($($t:tt)*) => {};
}
