//! The schema of a CRD kind and its list kind in an OpenAPI v3 document: `buildKubeNative`,
//! `addEmbeddedProperties` and `buildListSchema` of apiextensions-apiserver
//! `pkg/controller/openapi/builder/builder.go`, after `Structural.Unfold` (`schema/unfold.go`).
//!
//! What differs: the schema is transformed as JSON (the CRD's wire form) rather than through
//! the structural model; the fields the structural model does not keep (`example`,
//! `externalDocs`, `id`, `$schema`) are dropped the same way.

use serde_json::{Map, Value, json};

use super::meta;
use super::paths::Names;
use crate::engine::JsonSchemaProps;

const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.";
const METADATA_DESCRIPTION: &str = "Standard object's metadata.";
const LIST_METADATA_DESCRIPTION: &str = "Standard list metadata.";

/// The kind's schema: the CRD schema unfolded, `apiVersion`, `kind` and `metadata` added at the
/// root and in embedded resources, and the `x-kubernetes-group-version-kind` extension.
pub(crate) fn kind_schema(names: &Names, props: Option<&JsonSchemaProps>) -> Value {
    let mut schema = match props.map(serde_json::to_value) {
        Some(Ok(Value::Object(mut root))) => {
            normalize(&mut root, 0);
            set_type_meta(&mut root);
            embedded(&mut root, 0);
            root
        }
        _ => {
            let mut m = Map::new();
            m.insert("type".to_owned(), json!("object"));
            m
        }
    };
    schema.insert(
        "x-kubernetes-group-version-kind".to_owned(),
        json!([{"group": names.group, "version": names.version, "kind": names.kind}]),
    );
    Value::Object(schema)
}

/// `<ListKind> is a list of <Kind>`.
pub(crate) fn list_schema(names: &Names) -> Value {
    let item = format!("#/components/schemas/{}", names.definition(&names.kind));
    json!({
        "description": format!("{} is a list of {}", names.list_kind, names.kind),
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": {"description": API_VERSION_DESCRIPTION, "type": "string"},
            "items": {
                "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", names.plural),
                "type": "array",
                "items": {"$ref": item},
            },
            "kind": {"description": KIND_DESCRIPTION, "type": "string"},
            "metadata": {"description": LIST_METADATA_DESCRIPTION, "allOf": [{"$ref": format!("#/components/schemas/{}", meta::LIST_META)}]},
        },
        "x-kubernetes-group-version-kind": [{"group": names.group, "version": names.version, "kind": names.list_kind}],
    })
}

/// The deepest schema walked; deeper nodes are published as they are (a CRD this deep is
/// rejected by the CRD checks anyway).
const MAX_DEPTH: usize = 128;

/// Drops what the structural model does not keep, and unfolds `x-kubernetes-int-or-string`.
fn normalize(node: &mut Map<String, Value>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    for k in ["example", "externalDocs", "id", "$schema"] {
        node.remove(k);
    }
    unfold(node);
    for_children(node, |child| normalize(child, depth + 1));
}

/// `Structural.Unfold`: an int-or-string node gets `anyOf: [integer, string]`, or that `anyOf`
/// in front of its `allOf` when it has an `anyOf` of its own, unless it already spells one of
/// the two allowed patterns.
fn unfold(node: &mut Map<String, Value>) {
    if node.get("x-kubernetes-int-or-string") != Some(&Value::Bool(true)) {
        return;
    }
    let int_or_string = json!([{"type": "integer"}, {"type": "string"}]);
    if node.get("anyOf") == Some(&int_or_string) {
        return;
    }
    if let Some(Value::Array(all)) = node.get("allOf")
        && all.first().and_then(|f| f.get("anyOf")) == Some(&int_or_string)
    {
        return;
    }
    if node.contains_key("anyOf") {
        let mut all = match node.remove("allOf") {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        };
        all.insert(0, json!({"anyOf": int_or_string}));
        node.insert("allOf".to_owned(), Value::Array(all));
    } else {
        node.insert("anyOf".to_owned(), int_or_string);
    }
}

/// The type-meta properties and `metadata` by reference.
fn set_type_meta(node: &mut Map<String, Value>) {
    let props = node
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(props) = props {
        props.insert(
            "apiVersion".to_owned(),
            json!({"description": API_VERSION_DESCRIPTION, "type": "string"}),
        );
        props.insert(
            "kind".to_owned(),
            json!({"description": KIND_DESCRIPTION, "type": "string"}),
        );
        props.insert(
            "metadata".to_owned(),
            json!({"description": METADATA_DESCRIPTION, "allOf": [{"$ref": format!("#/components/schemas/{}", meta::OBJECT_META)}]}),
        );
    }
}

/// `addEmbeddedProperties`: embedded resources get the type meta, `metadata`, and `kind` and
/// `apiVersion` required.
fn embedded(node: &mut Map<String, Value>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    for_children(node, |child| embedded(child, depth + 1));
    if node.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true)) {
        set_type_meta(node);
        let required = node
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(req) = required {
            for k in ["kind", "apiVersion"] {
                if !req.iter().any(|r| r == k) {
                    req.push(json!(k));
                }
            }
        }
    }
}

/// The sub-schemas of properties, `items` and `additionalProperties`.
fn for_children(node: &mut Map<String, Value>, mut f: impl FnMut(&mut Map<String, Value>)) {
    if let Some(Value::Object(props)) = node.get_mut("properties") {
        for v in props.values_mut() {
            if let Value::Object(child) = v {
                f(child);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(child)) = node.get_mut(key) {
            f(child);
        }
    }
}
