//! The one door to crdkit's engine: every type and function the server takes from it.
//!
//! CRD types and YAML come from `crdkit-schema`, field errors and name rules from
//! `crdkit-apimachinery`, admission, CRD checks and compiled schemas from `crdkit-apiextensions`,
//! server-side apply and managed fields from `crdkit-apply`.

pub(crate) use crdkit_apiextensions::admission::{Admission, Admitted};
pub(crate) use crdkit_apiextensions::validate::{CompiledSchema, ResourceInfo};
pub(crate) use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath, aggregate};
pub(crate) use crdkit_apimachinery::names::{dns1123_label, label_key, label_value};
pub(crate) use crdkit_apply::request::{
    check_patched_object, decode_apply_patch_with, ignore_managed_fields_timestamps,
    manager_or_user_agent, validate_field_manager,
};
pub(crate) use crdkit_apply::{ApplyError, FieldManager};
pub(crate) use crdkit_crd::crd_check::check_crd_full;
pub(crate) use crdkit_schema::Structural;
pub(crate) use crdkit_schema::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceSubresourceScale,
};
pub(crate) use crdkit_schema::props::JsonSchemaProps;
pub(crate) use crdkit_schema::yaml::to_string as to_yaml;
