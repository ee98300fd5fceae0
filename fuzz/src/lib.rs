//! Shared fixtures of the fuzz targets: a schema with every kind of node CEL rules see, and
//! for `cel_const` the derived shapes, the rule generator and the verdicts to compare.

pub mod cel_const;
pub mod reclaim;
pub mod requests;
mod rule_gen;

use crdkit_schema::{AdditionalProperties, ListType, Structural, Type};

fn of(ty: Type) -> Structural {
    Structural::of_type(ty)
}

/// `{name: string(maxLength 64), replicas: integer, ratio: number, on: boolean,
/// at: date-time, tags: [string] (set), ports: [{name, port}] (map), labels: {string: string},
/// any: preserve-unknown, port: int-or-string}` under a resource root at `spec`.
#[must_use]
pub fn schema() -> Structural {
    let mut name = of(Type::String);
    name.value_validation.max_length = Some(64);
    let mut at = of(Type::String);
    at.value_validation.format = Some("date-time".into());
    let mut tags = of(Type::Array);
    tags.items = Some(Box::new(of(Type::String)));
    tags.extensions.list_type = Some(ListType::Set);
    let mut port = of(Type::Object);
    port.properties.insert("name".into(), of(Type::String));
    port.properties.insert("port".into(), of(Type::Integer));
    port.value_validation.required = vec!["name".into()];
    let mut ports = of(Type::Array);
    ports.items = Some(Box::new(port));
    ports.extensions.list_type = Some(ListType::Map);
    ports.extensions.list_map_keys = vec!["name".into()];
    let mut labels = of(Type::Object);
    labels.additional_properties = Some(AdditionalProperties::Schema(Box::new(of(Type::String))));
    let mut any = Structural::default();
    any.extensions.preserve_unknown_fields = true;
    let mut ios = Structural::default();
    ios.extensions.int_or_string = true;
    let mut spec = of(Type::Object);
    for (k, v) in [
        ("name", name),
        ("replicas", of(Type::Integer)),
        ("ratio", of(Type::Number)),
        ("on", of(Type::Boolean)),
        ("at", at),
        ("tags", tags),
        ("ports", ports),
        ("labels", labels),
        ("any", any),
        ("port", ios),
    ] {
        spec.properties.insert(k.into(), v);
    }
    let mut root = of(Type::Object);
    root.properties.insert("spec".into(), spec);
    root
}

/// An object of [`schema`].
#[must_use]
pub fn object() -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "example.com/v1", "kind": "Fuzz", "metadata": {"name": "f"},
        "spec": {"name": "web", "replicas": 3, "ratio": 0.5, "on": true, "at": "2024-01-02T03:04:05Z",
                 "tags": ["a", "b"], "ports": [{"name": "http", "port": 80}], "labels": {"app": "web"},
                 "any": {"x": [1, 2]}, "port": "8080"}
    })
}
