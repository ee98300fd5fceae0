//! # crdkit
//!
//! Kubernetes CustomResourceDefinitions from Rust types, checked at compile time, and the API
//! server's own pruning, defaulting and validation on the client side.
//!
//! Derive [`CustomResource`] on the spec of a resource: crdkit writes the structural OpenAPI
//! schema from the Rust types (serde attributes respected), adds what `#[crd(..)]` says (names,
//! versions, subresources, printer columns, selectable fields, validations, defaults,
//! `x-kubernetes-*` extensions), and refuses to compile what the API server would reject: names
//! that are not DNS labels, paths that lead nowhere, defaults that do not validate, CEL rules that
//! do not parse, Rust shapes that have no structural schema.
//!
//! ```
//! use crdkit::CustomResource;
//! use serde::{Deserialize, Serialize};
//!
//! /// The CronTab of the Kubernetes documentation.
//! #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default)]
//! #[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced,
//!       short_name = "ct", category = "all", status = CronTabStatus,
//!       scale(spec_replicas = ".spec.replicas", status_replicas = ".status.replicas"),
//!       print_column(name = "Spec", json_path = ".spec.cronSpec"),
//!       print_column(name = "Age", json_path = ".metadata.creationTimestamp"))]
//! #[serde(rename_all = "camelCase")]
//! pub struct CronTabSpec {
//!     /// When to run, in cron syntax.
//!     #[crd(pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$", default = "5 0 * * *")]
//!     pub cron_spec: String,
//!     pub image: String,
//!     #[crd(minimum = 1, maximum = 10, default = 1)]
//!     pub replicas: i32,
//! }
//!
//! #[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default)]
//! pub struct CronTabStatus {
//!     pub replicas: i32,
//! }
//!
//! // The root type is generated: metadata, spec, status, and the CRD.
//! let crd = CronTab::crd().unwrap();
//! assert_eq!(crd.metadata.name.as_deref(), Some("crontabs.stable.example.com"));
//! let yaml = crd.to_yaml();
//! assert!(yaml.contains("pattern: ^(\\d+|\\*)"));
//! assert!(yaml.contains("type: date")); // column types come from the schema
//!
//! let ct = CronTab::new("my-new-cron-object", CronTabSpec {
//!     cron_spec: "* * * * */5".into(),
//!     image: "my-awesome-cron-image".into(),
//!     replicas: 3,
//! });
//! let json = serde_json::to_value(&ct).unwrap();
//! assert_eq!(json["apiVersion"], "stable.example.com/v1");
//! assert_eq!(json["kind"], "CronTab");
//!
//! // Validation as the API server does it, on the typed value.
//! assert!(ct.validate().is_ok());
//! let mut bad = ct.clone();
//! bad.spec.replicas = 15;
//! assert_eq!(
//!     bad.validate().unwrap_err().errors[0].to_string(),
//!     "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"
//! );
//!
//! // Pruning and defaulting of what a client sent.
//! let sent = serde_json::json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
//!     "metadata": {"name": "x"}, "spec": {"image": "busybox", "someRandomField": 1}});
//! let received = CronTab::prune_and_default(sent).unwrap();
//! assert_eq!((received.spec.cron_spec.as_str(), received.spec.replicas), ("5 0 * * *", 1));
//! ```
//!
//! Any CRD, for example one read from a file, admits objects as the API server does, on raw
//! JSON ([`admission::Admission`]):
//!
//! ```
//! # use crdkit::CustomResource as _;
//! # #[derive(crdkit::CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
//! # #[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced)]
//! # pub struct CronTabSpec {
//! #     #[crd(minimum = 1, maximum = 10, default = 1)]
//! #     replicas: i32,
//! # }
//! use crdkit::admission::Admission;
//!
//! let crd = CronTab::crd().unwrap(); // or CustomResourceDefinition::from_value(yaml_value)
//! let admission = Admission::new(&crd, "v1").unwrap();
//! let mut obj = serde_json::json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
//!     "metadata": {"name": "x"}, "spec": {"replicas": 15, "someRandomField": 1}});
//! let result = admission.create(&mut obj);
//! assert_eq!(result.unknown_fields, ["spec.someRandomField"]);
//! assert_eq!(
//!     result.errors[0].to_string(),
//!     "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"
//! );
//! ```
//!
//! A wrong CRD does not compile:
//!
//! ```compile_fail
//! # use serde::{Deserialize, Serialize};
//! #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
//! #[crd(group = "stable.example.com", version = "v1", kind = "CronTab",
//!       print_column(name = "Spec", json_path = ".spec.cronSpc"))]
//! pub struct CronTabSpec {
//!     cron_spec: String,
//! }
//! ```
//!
//! A kind with several versions is one enum over the versions' root types,
//! `#[derive(`[`Versions`]`)]`, or one annotated spec, [`versioned`]: either gives the CRD with
//! every version, checked against each other at compile time, and the typed conversions a
//! conversion webhook runs ([`Versioned::convert`]).
//!
//! The [`attributes`] page lists every attribute with the CRD field it writes, side by side
//! with kube-derive's and kubebuilder's spelling; [`migrating`] is the way from kube-derive
//! (every `#[kube(..)]`, schemars, garde and validator attribute, and what behaves differently).
//!
//! ## Features
//!
//! - `validation` (default): `validate()`, `validate_update(&old)` and `prune_and_default` on
//!   generated roots ([`Validate`]), and the [`admission`], [`validate`], [`prune`], [`default`]
//!   and [`cel`] modules. Without it (`default-features = false`) the derive emits the CRD only,
//!   with every compile-time check, and the crate builds in a fraction of the time.
//! - `crd`: CRDs themselves: `crd_check` (the API server's checks of CRDs, on create and update),
//!   `openapi` (the documents the API server publishes for them) and `conversion`
//!   (`ConversionReview` and typed conversions, for conversion webhooks).
//! - `cli` (implies `crd`): the `crdgen` command line as a library (`cli::main`), with its YAML
//!   reader; off for libraries that only validate.
//! - `kube`: generated roots implement `kube::Resource` (so `kube::Api<CronTab>` works) and
//!   kube-core's `HasSpec`/`HasStatus`, CRDs convert to k8s-openapi's type
//!   (`kube::KubeCrdExt`), and the k8s-openapi types specs embed (`PodTemplateSpec` and
//!   everything in it, `ServiceSpec`, `PersistentVolumeClaimSpec`, references, selectors,
//!   workload specs, `IntOrString`, `Quantity`, `Time`, `Condition`, ...) have shapes, generated
//!   from the OpenAPI Kubernetes publishes for the k8s-openapi version the program picks, so
//!   rules reaching into them are checked at compile time. `#[crd(max_desc_len = N)]` shortens
//!   their descriptions.
//! - `schemars` (implies `crd`): `#[crd(schemars)]` fields take their schema from
//!   `schemars::JsonSchema`; `crd()` runs the API server's CRD checks on such CRDs.
//! - `chrono`, `jiff`, `url`, `uuid` (each off by default): schemas for those crates' types
//!   (timestamps as `date-time`, dates as `date`, `Url` as `uri`, `Uuid` as `uuid`); they touch
//!   no derive and add no dependency beyond the crate itself.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod int_or_string;

#[doc = include_str!("../docs/attributes.md")]
pub mod attributes {}

#[doc = include_str!("../docs/migrating-from-kube-derive.md")]
pub mod migrating {}

pub use crdkit_apimachinery::version::{
    compare_priority as version_priority, sort_by_priority as sort_versions,
};
pub use crdkit_macros::{CustomResource, Schema, Versions, versioned};
pub use crdkit_schema::crd::CustomResourceDefinition;
pub use crdkit_shape::Schema;
pub use crdkit_shape::resource::{CrdError, CustomResource, MergeError, merge_crds};
pub use crdkit_shape::versions::{ConversionError, Versioned};
pub use int_or_string::IntOrString;
/// serde, which the derives build on, for code that names it through crdkit: `crdgen
/// import` writes `#[serde(crate = "crdkit::serde")]`, so that its types need no dependency
/// but crdkit.
pub use serde;
/// serde_json, whose `Value` holds what a schema leaves open
/// (`x-kubernetes-preserve-unknown-fields`).
pub use serde_json;
#[cfg(feature = "validation")]
pub use validation::{DecodeError, Invalid, Validate};

#[cfg(feature = "validation")]
mod validation;

mod checked_crd;

/// What the API server does with objects: admission on create, update and status update.
#[cfg(feature = "validation")]
pub use crdkit_apiextensions::admission;
/// Defaulting of objects (apiextensions `defaulting`).
#[cfg(feature = "validation")]
pub use crdkit_apiextensions::default;
/// Pruning of unknown fields (apiextensions `pruning`).
#[cfg(feature = "validation")]
pub use crdkit_apiextensions::prune;
/// Validation of objects against a compiled schema: OpenAPI, metadata, list types, CEL.
#[cfg(feature = "validation")]
pub use crdkit_apiextensions::validate;
/// Field paths and field errors with the API server's texts.
pub use crdkit_apimachinery::field;
/// Kubernetes name rules (DNS labels and subdomains, label keys and values).
pub use crdkit_apimachinery::names;
/// The priority of versions, as kubectl and the API server's discovery order them.
pub use crdkit_apimachinery::version;
/// Kubernetes CEL: parser, type checker, cost estimator and evaluator ([`crdkit_cel`]).
#[cfg(feature = "validation")]
pub use crdkit_cel as cel;
/// `crdgen`, the command line: `crdkit::cli::main(&[CronTab::crd()?])` is a user's own crdgen.
#[cfg(feature = "cli")]
pub mod cli {
    pub use crdkit_cli::{INVALID, OK, USAGE, main, run};
}
/// Conversion webhooks: `ConversionReview`, typed conversions between versions, round trips
/// without loss (the HTTP server is the `crdkit-webhook` crate).
#[cfg(feature = "crd")]
pub use crdkit_crd::conversion;
/// The API server's validation of CRDs (`crdgen check`).
#[cfg(feature = "crd")]
pub use crdkit_crd::crd_check;
/// The OpenAPI v3 and v2 documents the API server publishes for CRDs (`crdgen openapi`).
#[cfg(feature = "crd")]
pub use crdkit_crd::openapi;
/// The CRD schema: the wire form [`schema::JsonSchemaProps`] and the structural model
/// [`schema::Structural`] with its checks.
pub use crdkit_schema as schema;
/// The CustomResourceDefinition types (`apiextensions.k8s.io/v1`), read from YAML or JSON and
/// written as YAML.
pub use crdkit_schema::crd;
/// A small, deterministic YAML writer (`kubectl get -o yaml` style).
pub use crdkit_schema::yaml;
/// Shapes: the `const` schemas that `#[derive(Schema)]` emits, and their compile-time checks
/// (implement [`Schema`] by hand for a foreign type with [`shape::Shape`]'s builders).
pub use crdkit_shape as shape;
/// Kinds with several versions: the declaration, the CRD, the checks between versions and the
/// conversion of objects ([`Versioned`]).
pub use crdkit_shape::versions;

/// The `metadata` of objects: crdkit's own type, or k8s-openapi's with the `kube` feature.
#[cfg(not(feature = "kube"))]
pub use crdkit_schema::meta::ObjectMeta;
#[cfg(feature = "kube")]
pub use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// kube-rs integration: the CRD as k8s-openapi's type, schemas of k8s-openapi types.
#[cfg(feature = "kube")]
pub mod kube {
    pub use crate::kube_impls::{KubeCrdExt, to_k8s};
    pub use crdkit_shape::k8s::QUANTITY_PATTERN;
}
#[cfg(feature = "kube")]
mod kube_impls;

/// What generated code uses. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::ObjectMeta;
    pub use crate::checked_crd::checked_crd;
    #[cfg(feature = "validation")]
    pub use crate::validation::{DecodeError, Invalid, Validate, compile as compile_resource};
    #[cfg(feature = "validation")]
    pub use crdkit_apiextensions::validate::CompiledSchema;
    pub use crdkit_macros::Versions;
    pub use crdkit_schema::crd::CustomResourceDefinition;
    pub use crdkit_schema::{ListType, MapType};
    pub use crdkit_shape::resource::{
        CrdError, CustomResource, PrinterColumn, ResourceDecl, Scale,
    };
    pub use crdkit_shape::versions::Versioned;
    pub use crdkit_shape::{
        DefaultValue, Enum, Field, Json, Kind, MapKey, Msg, Repr, Rule, Rules, Schema, Shape,
        Variant, VariantKind, cel, check, size, versions,
    };
    #[cfg(feature = "kube")]
    pub use k8s_openapi;
    #[cfg(feature = "kube")]
    pub use kube_core;
    pub use serde;
    pub use serde_json;

    pub use crdkit_schema::Structural;
    pub use crdkit_shape::NotStructural;
    #[cfg(feature = "schemars")]
    pub use crdkit_shape::schemars::{schemars_schema, schemars_schema_with};

    /// A `default = path` function's value as JSON.
    ///
    /// # Errors
    /// When the value does not serialize to JSON.
    pub fn default_value<T: serde::Serialize>(
        v: T,
    ) -> Result<Option<serde_json::Value>, serde_json::Error> {
        serde_json::to_value(v).map(Some)
    }

    /// A serde default as the schema's: none when serde writes it as null.
    ///
    /// # Errors
    /// When the value does not serialize to JSON.
    pub fn serde_default(
        written: Result<serde_json::Value, serde_json::Error>,
    ) -> Result<Option<serde_json::Value>, serde_json::Error> {
        written.map(|v| (!v.is_null()).then_some(v))
    }
}

/// Validation of a root type's objects (`validate`, `validate_update`, `prune_and_default`) when
/// the `validation` feature is on; expanded by `#[derive(CustomResource)]`.
#[cfg(feature = "validation")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_validation {
    ($root:ident) => {
        impl $crate::__private::Validate for $root {
            fn compiled_schema() -> ::core::result::Result<
                &'static $crate::__private::CompiledSchema,
                $crate::__private::CrdError,
            > {
                static CELL: ::std::sync::OnceLock<
                    ::core::result::Result<
                        $crate::__private::CompiledSchema,
                        $crate::__private::CrdError,
                    >,
                > = ::std::sync::OnceLock::new();
                CELL.get_or_init(|| {
                    $crate::__private::compile_resource(
                        &<Self as $crate::__private::CustomResource>::RESOURCE,
                    )
                })
                .as_ref()
                .map_err(::core::clone::Clone::clone)
            }
        }

        impl $root {
            /// Validates the object as the API server does on create.
            ///
            /// # Errors
            /// Every error, with the API server's type, field and message.
            pub fn validate(&self) -> ::core::result::Result<(), $crate::__private::Invalid> {
                <Self as $crate::__private::Validate>::validate(self)
            }

            /// Validates the object as an update of `old`, as the API server does.
            ///
            /// # Errors
            /// Every error, with the API server's type, field and message.
            pub fn validate_update(
                &self,
                old: &Self,
            ) -> ::core::result::Result<(), $crate::__private::Invalid> {
                <Self as $crate::__private::Validate>::validate_update(self, old)
            }

            /// Prunes unknown fields and applies defaults as the API server does on receipt,
            /// then deserializes.
            ///
            /// # Errors
            /// When the API server would reject the object before validation, or the result
            /// does not deserialize.
            pub fn prune_and_default(
                value: $crate::__private::serde_json::Value,
            ) -> ::core::result::Result<Self, $crate::__private::DecodeError> {
                <Self as $crate::__private::Validate>::prune_and_default(value)
            }
        }
    };
}

/// Expands to nothing without the `validation` feature: the CRD only.
#[cfg(not(feature = "validation"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_validation {
    ($root:ident) => {};
}

/// Implements `kube::Resource`, `HasSpec` and (with a status) `HasStatus` for a root type when
/// the `kube` feature is on.
#[cfg(feature = "kube")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube_resource {
    ($root:ident, $group:literal, $version:literal, $api_version:literal, $kind:literal, $plural:literal, $scope:ident, $status:ident) => {
        $crate::__kube_resource_impl!(
            $root,
            $group,
            $version,
            $api_version,
            $kind,
            $plural,
            $scope
        );
        $crate::__kube_has_spec_status!($root, $status);
    };
}

/// Expands to nothing without the `kube` feature.
#[cfg(not(feature = "kube"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube_resource {
    ($($t:tt)*) => {};
}
