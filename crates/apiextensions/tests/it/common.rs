//! Helpers shared by the `object_*` tests (included with `#[path]`).
#![allow(dead_code)]

use crdkit_apiextensions::validate::CompiledSchema;
use crdkit_schema::{JsonSchemaProps, Structural};
use serde_json::Value;

/// A structural schema from its CRD (JSON) form.
pub fn schema(v: Value) -> Structural {
    let props: JsonSchemaProps = serde_json::from_value(v).expect("schema JSON");
    Structural::from_props(&props).expect("structural")
}

/// A compiled schema from its CRD (JSON) form.
pub fn compiled(v: Value) -> CompiledSchema {
    CompiledSchema::new(&schema(v))
}

/// OpenAPI validation alone, printed like Go's `field.Error.Error()`, sorted.
pub fn openapi_errors(s: &CompiledSchema, v: &Value) -> Vec<String> {
    let mut e: Vec<String> = s
        .validate_openapi(v, &crdkit_apimachinery::field::FieldPath::nil())
        .iter()
        .map(ToString::to_string)
        .collect();
    e.sort();
    e.dedup();
    e
}

/// Sorted strings.
pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v.dedup();
    v
}
