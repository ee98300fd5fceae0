//! The one door to crdkit's engine: every type and function the server takes from it.
//!
//! CRD types and YAML come from `crdkit-schema`, field errors and name rules from
//! `crdkit-apimachinery`, admission, CRD checks and compiled schemas from `crdkit-apiextensions`,
//! server-side apply and managed fields from `crdkit-apply`.

pub use crdkit_apiextensions::admission::{Admission, AdmissionError, Admitted};
pub use crdkit_apiextensions::validate::{CompiledSchema, ResourceInfo};
pub use crdkit_apimachinery::field::{BadValue, ErrorType, FieldError, FieldPath, aggregate};
pub use crdkit_apimachinery::names::{dns1123_label, dns1123_subdomain, label_key, label_value};
pub use crdkit_apply::request::{
    check_patched_object, decode_apply_patch, ignore_managed_fields_timestamps,
    manager_or_user_agent, validate_field_manager,
};
pub use crdkit_apply::{ApplyError, FieldManager};
pub use crdkit_crd::crd_check::check_crd_full;
pub use crdkit_schema::Structural;
pub use crdkit_schema::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
};
pub use crdkit_schema::props::JsonSchemaProps;
pub use crdkit_schema::yaml::to_string as to_yaml;
