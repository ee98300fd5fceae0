//! Helpers shared by the test modules: YAML, schemas from CRD `openAPIV3Schema`s, path elements.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use crdkit_apply::fieldpath::serialize::deserialize_path_element;
use crdkit_apply::fieldpath::{Path, Set};
use crdkit_apply::schema::Schema;
use crdkit_schema::{JsonSchemaProps, Structural};

/// The directory of the test data.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Reads a data file as JSON.
pub fn read_yaml_file(rel: &str) -> Value {
    let path = data_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    yaml(&text)
}

/// One YAML document as JSON (`null` when empty).
pub fn yaml(text: &str) -> Value {
    if text.trim().is_empty() {
        return Value::Null;
    }
    serde_saphyr::from_str::<Value>(text).unwrap_or_else(|e| panic!("YAML {text:?}: {e}"))
}

/// The structural form of a CRD `openAPIV3Schema` given as JSON.
pub fn structural(v: &Value) -> Structural {
    let props: JsonSchemaProps = serde_json::from_value(v.clone()).expect("JSONSchemaProps");
    Structural::from_props(&props).expect("structural")
}

/// A plain (non-Kubernetes-object) schema from a CRD `openAPIV3Schema`.
pub fn plain_schema(v: &Value) -> Arc<Schema> {
    Arc::new(Schema::from_structural(&structural(v)))
}

/// A path from serialized elements (`["f:spec", "k:{\"name\":\"a\"}"]`).
pub fn path(elems: &[String]) -> Path {
    Path(
        elems
            .iter()
            .map(|e| deserialize_path_element(e).unwrap_or_else(|err| panic!("{e}: {err}")))
            .collect(),
    )
}

/// A set of such paths.
pub fn set(paths: &[Vec<String>]) -> Set {
    Set::from_paths(paths.iter().map(|p| path(p)))
}
