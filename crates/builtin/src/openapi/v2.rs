//! A definition as `/openapi/v2` publishes it, from its OpenAPI v3 form.
//!
//! Both documents are built by kube-openapi from the same Go definitions
//! (`zz_generated.openapi.go`); its v2 builder differs from the v3 one in three ways, which is
//! all this undoes (checked against the published `swagger.json` of v1.35.4 by
//! `examples/openapi_data.rs check`: every definition equal):
//! - a reference is `$ref: #/definitions/X`, not `allOf: [{$ref: #/components/schemas/X}]`
//!   beside its description (v3 wraps it so that siblings are allowed);
//! - no `default` anywhere (v3 keeps `+default` markers: `default: {}` beside references,
//!   `default: ""` on strings);
//! - `Quantity` and `IntOrString` are `type: string` (v3: `oneOf` of their two types, kube-openapi
//!   `OpenAPIV3OneOfTypes`).

use serde_json::{Map, Value, json};

const V3_PREFIX: &str = "#/components/schemas/";
const V2_PREFIX: &str = "#/definitions/";

/// Definitions whose v3 form is a `oneOf` of types and v2 form a string.
const ONE_OF_TYPES: &[&str] = &[
    "io.k8s.apimachinery.pkg.api.resource.Quantity",
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
];

/// The v2 form of definition `name`, whose v3 form is `schema`.
#[must_use]
pub fn definition(name: &str, schema: &Value) -> Value {
    let mut out = schema_v2(schema);
    if ONE_OF_TYPES.contains(&name)
        && let Value::Object(m) = &mut out
    {
        m.remove("oneOf");
        m.insert("type".to_owned(), json!("string"));
    }
    out
}

fn schema_v2(schema: &Value) -> Value {
    let Value::Object(m) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (k, v) in m {
        match k.as_str() {
            "default" => {}
            "$ref" => {
                out.insert(k.clone(), reference(v));
            }
            "allOf" if wrapped_reference(v).is_some() => {
                if let Some(r) = wrapped_reference(v) {
                    out.insert("$ref".to_owned(), reference(r));
                }
            }
            "properties" => {
                let props = v.as_object().into_iter().flatten();
                let props = props.map(|(p, s)| (p.clone(), schema_v2(s)));
                out.insert(k.clone(), Value::Object(props.collect()));
            }
            "items" | "additionalProperties" | "not" => {
                out.insert(k.clone(), schema_v2(v));
            }
            "allOf" | "anyOf" | "oneOf" => {
                let all = v.as_array().into_iter().flatten().map(schema_v2);
                out.insert(k.clone(), Value::Array(all.collect()));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// The `$ref` of `allOf: [{"$ref": ...}]`.
fn wrapped_reference(all_of: &Value) -> Option<&Value> {
    match all_of.as_array()?.as_slice() {
        [only] if only.as_object()?.len() == 1 => only.get("$ref"),
        _ => None,
    }
}

fn reference(r: &Value) -> Value {
    match r.as_str() {
        Some(s) => Value::String(match s.strip_prefix(V3_PREFIX) {
            Some(name) => format!("{V2_PREFIX}{name}"),
            None => s.to_owned(),
        }),
        None => r.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_unwrap_and_defaults_go() {
        let v3 = json!({"type": "object", "properties": {
            "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}], "default": {}, "description": "Standard."},
            "default": {"type": "string", "default": ""},
            "items": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/X"}], "default": {}}}}});
        assert_eq!(
            definition("Y", &v3),
            json!({"type": "object", "properties": {
                "metadata": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "description": "Standard."},
                "default": {"type": "string"},
                "items": {"type": "array", "items": {"$ref": "#/definitions/X"}}}})
        );
        let quantity =
            json!({"description": "Q", "oneOf": [{"type": "string"}, {"type": "number"}]});
        assert_eq!(
            definition("io.k8s.apimachinery.pkg.api.resource.Quantity", &quantity),
            json!({"description": "Q", "type": "string"})
        );
    }
}
