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

/// A workload's schema with each kind of node the field-set walks treat apart: list-maps (one
/// nested, with two keys), a set, an atomic list, an atomic map, a granular map, a scalar, and
/// a free-form `status`.
pub fn workload_schema() -> Value {
    serde_json::json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "containers": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"], "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "args": {"type": "array", "items": {"type": "string"}},
                    "ports": {"type": "array", "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["port", "protocol"],
                        "items": {"type": "object", "properties": {
                            "port": {"type": "integer"}, "protocol": {"type": "string"}}}},
                    "limits": {"type": "object", "x-kubernetes-map-type": "atomic",
                        "additionalProperties": {"type": "string"}}}}},
            "finalizers": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "schedule": {"type": "object", "additionalProperties": {"type": "string"}},
            "replicas": {"type": "integer"}}},
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}})
}

/// A small deterministic generator (xorshift): the same draws on every run.
pub struct Draws(pub u64);

impl Draws {
    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// A `spec` for [`workload_schema`]: containers whose names repeat (rarely missing), sets
    /// with repeated values, a schedule with a null value; with `odd`, also schedules that are
    /// empty or not what the schema says.
    pub fn spec(&mut self, odd: bool) -> serde_json::Map<String, Value> {
        let mut spec = serde_json::Map::new();
        if self.below(2) == 0 {
            let containers: Vec<Value> = (0..self.below(4))
                .map(|_| {
                    let mut c = serde_json::json!({"args": ["a", "b"], "limits": {"cpu": "1"}});
                    // Mostly one of a few names (so some are given twice), rarely none.
                    if self.below(20) != 0 {
                        c["name"] = format!("c{}", self.below(3)).into();
                    }
                    let ports: Vec<Value> = (0..self.below(3))
                        .map(|_| serde_json::json!({"port": self.below(2), "protocol": "TCP"}))
                        .collect();
                    if !ports.is_empty() {
                        c["ports"] = ports.into();
                    }
                    c
                })
                .collect();
            spec.insert("containers".into(), containers.into());
        }
        if self.below(2) == 0 {
            let f: Vec<Value> = (0..self.below(3))
                .map(|i| format!("f{}", self.below(2) + i).into())
                .collect();
            spec.insert("finalizers".into(), f.into());
        }
        let schedules = if odd { 6 } else { 2 };
        match self.below(schedules) {
            0 => drop(spec.insert(
                "schedule".into(),
                serde_json::json!({"tz": "UTC", "window": null}),
            )),
            1 if odd => drop(spec.insert("schedule".into(), serde_json::json!({}))),
            // Not what the schema says: walks of it fail.
            2 if odd => drop(spec.insert("schedule".into(), serde_json::json!([1]))),
            _ => {}
        }
        if self.below(3) == 0 {
            spec.insert("replicas".into(), self.below(5).into());
        }
        spec
    }
}
