//! The one door to crdkit's engine: every type and function the server takes from it.
//!
//! The engine is moving from `crdkit-runtime` into `crdkit-schema` (CRD types, YAML) and
//! `crdkit-apiextensions` (admission, CRD checks); only this module names the crate, so that
//! move is a change of `use` lines here.

pub use crdkit_runtime::admission::{Admission, AdmissionError, Admitted};
pub use crdkit_runtime::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
};
pub use crdkit_runtime::crd_check::check_crd_full;
pub use crdkit_runtime::field::{BadValue, ErrorType, FieldError, FieldPath, aggregate};
pub use crdkit_runtime::names::{dns1123_label, dns1123_subdomain, label_key, label_value};
pub use crdkit_runtime::schema::JsonSchemaProps;
pub use crdkit_runtime::schema::Structural;
pub use crdkit_runtime::validate::{CompiledSchema, ResourceInfo};
pub use crdkit_runtime::yaml::to_string as to_yaml;
