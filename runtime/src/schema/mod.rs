//! The CRD schema in its two forms: the wire form [`JsonSchemaProps`] and the checked
//! [`Structural`] model.

pub mod check;
mod convert;
pub mod field_path;
pub mod props;
mod structural;

pub use check::{StructuralOptions, validate_structural, validate_structural_props};
pub use convert::ConvertError;
pub use field_path::valid_field_path;
pub use props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};
pub use structural::{
    AdditionalProperties, Extensions, Generic, ListType, MapType, NestedValueValidation,
    Structural, Type, ValidationRule, ValueValidation,
};
