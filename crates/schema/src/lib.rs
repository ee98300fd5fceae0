//! The CRD schema in its two forms: the wire form [`JsonSchemaProps`] and the checked
//! [`Structural`] model.
//!
//! Also here: the `ObjectMeta` of custom objects ([`meta`]), the CustomResourceDefinition
//! types ([`crd`]), read from YAML or JSON (v1, and
//! v1beta1 converted as the API server does), a deterministic YAML writer ([`yaml`]), and the
//! bridge to CEL: [`Structural`] implements `crdkit_cel_check::schema::Schema`, so CEL declares
//! types from and reads JSON through the CRD model without knowing it.
//!
//! Depends on `crdkit-apimachinery` and `crdkit-cel-check` (for the bridge) only; it is part of
//! the derive's build, so nothing heavier belongs here.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cel;
pub mod check;
mod convert;
pub mod crd;
pub mod field_path;
pub mod meta;
pub mod props;
mod structural;
pub mod yaml;

pub use check::{StructuralOptions, validate_structural, validate_structural_props};
pub use convert::ConvertError;
pub use field_path::{FieldPathError, valid_field_path};
pub use props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};
pub use structural::{
    AdditionalProperties, Extensions, Generic, ListType, MapType, NestedValueValidation,
    Structural, Type, ValidationRule, ValueValidation,
};

/// The string formats the API server validates (apiextensions-apiserver
/// `pkg/apiserver/validation/formats.go`; `k8s-short-name` and `k8s-long-name` since 1.34); it
/// silently drops others. Integer formats are `int32`/`int64`, number formats `float`/`double`.
pub const STRING_FORMATS: &[&str] = &[
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
    "date-time",
    "k8s-short-name",
    "k8s-long-name",
];
