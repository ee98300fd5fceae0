//! The CRD schema in its two forms: the wire form [`JsonSchemaProps`] and the checked
//! [`Structural`] model.

pub mod check;
mod convert;
pub mod field_path;
pub mod props;
mod structural;

pub use convert::ConvertError;
pub use props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};
pub use structural::{
    AdditionalProperties, Extensions, Generic, ListType, MapType, NestedValueValidation,
    Structural, Type, ValidationRule, ValueValidation,
};
pub use check::{validate_structural, validate_structural_props, StructuralOptions};
pub use field_path::valid_field_path;
