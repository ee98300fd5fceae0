//! The CRD schema in its two forms: the wire form [`JsonSchemaProps`] and the checked
//! [`Structural`] model.

mod convert;
pub mod props;
mod structural;

pub use convert::ConvertError;
pub use props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};
pub use structural::{
    AdditionalProperties, Extensions, Generic, ListType, MapType, NestedValueValidation,
    Structural, Type, ValidationRule, ValueValidation,
};
