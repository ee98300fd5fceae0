//! `/openapi/v2` as gnostic's `openapi_v2.Document`: a decoder written here from
//! gnostic-models `openapiv2/OpenAPIv2.proto` (field numbers transcribed separately from
//! the encoder's tables) reads the encoder's bytes back into the Swagger JSON.

use serde_json::{Map, Value, json};

use crate::common::assert_subset;

/// One field of the proto as the decoder reads it.
#[derive(Clone, Copy)]
enum D {
    Str,
    Bool,
    F64,
    I64,
    Strs,
    Any,
    Anys,
    Msg(&'static str),
    Msgs(&'static str),
    /// A `vendor_extension`: `NamedAny`s merged into the object.
    Ext,
    /// `repeated Named<X>` merged into the object.
    Named(&'static str),
    /// A oneof member: the value replaces the containing message's JSON.
    Oneof(&'static str),
}

/// `message` → `(number, JSON key, kind)`, from OpenAPIv2.proto.
fn proto(message: &str) -> Vec<(u32, &'static str, D)> {
    use D::*;
    let primitive = |o: u32| {
        vec![
            (o, "type", Str),
            (o + 1, "format", Str),
            (o + 2, "items", Msg("PrimitivesItems")),
            (o + 3, "collectionFormat", Str),
            (o + 4, "default", Any),
            (o + 5, "maximum", F64),
            (o + 6, "exclusiveMaximum", Bool),
            (o + 7, "minimum", F64),
            (o + 8, "exclusiveMinimum", Bool),
            (o + 9, "maxLength", I64),
            (o + 10, "minLength", I64),
            (o + 11, "pattern", Str),
            (o + 12, "maxItems", I64),
            (o + 13, "minItems", I64),
            (o + 14, "uniqueItems", Bool),
            (o + 15, "enum", Anys),
            (o + 16, "multipleOf", F64),
        ]
    };
    let mut fields = match message {
        "Document" => vec![
            (1, "swagger", Str),
            (2, "info", Msg("Info")),
            (3, "host", Str),
            (4, "basePath", Str),
            (5, "schemes", Strs),
            (6, "consumes", Strs),
            (7, "produces", Strs),
            (8, "paths", Msg("Paths")),
            (9, "definitions", Msg("Definitions")),
            (10, "parameters", Msg("ParameterDefinitions")),
            (11, "responses", Msg("ResponseDefinitions")),
            (12, "security", Msgs("SecurityRequirement")),
            (13, "securityDefinitions", Msg("SecurityDefinitions")),
            (14, "tags", Msgs("Tag")),
            (15, "externalDocs", Msg("ExternalDocs")),
            (16, "", Ext),
        ],
        "Info" => vec![
            (1, "title", Str),
            (2, "version", Str),
            (3, "description", Str),
            (4, "termsOfService", Str),
            (5, "contact", Msg("Contact")),
            (6, "license", Msg("License")),
            (7, "", Ext),
        ],
        "Contact" => vec![
            (1, "name", Str),
            (2, "url", Str),
            (3, "email", Str),
            (4, "", Ext),
        ],
        "License" | "ExternalDocs" if message == "License" => {
            vec![(1, "name", Str), (2, "url", Str), (3, "", Ext)]
        }
        "ExternalDocs" => vec![(1, "description", Str), (2, "url", Str), (3, "", Ext)],
        "Tag" => vec![
            (1, "name", Str),
            (2, "description", Str),
            (3, "externalDocs", Msg("ExternalDocs")),
            (4, "", Ext),
        ],
        "Paths" => vec![(1, "", Ext), (2, "", Named("PathItem"))],
        "PathItem" => vec![
            (1, "$ref", Str),
            (2, "get", Msg("Operation")),
            (3, "put", Msg("Operation")),
            (4, "post", Msg("Operation")),
            (5, "delete", Msg("Operation")),
            (6, "options", Msg("Operation")),
            (7, "head", Msg("Operation")),
            (8, "patch", Msg("Operation")),
            (9, "parameters", Msgs("ParametersItem")),
            (10, "", Ext),
        ],
        "Operation" => vec![
            (1, "tags", Strs),
            (2, "summary", Str),
            (3, "description", Str),
            (4, "externalDocs", Msg("ExternalDocs")),
            (5, "operationId", Str),
            (6, "produces", Strs),
            (7, "consumes", Strs),
            (8, "parameters", Msgs("ParametersItem")),
            (9, "responses", Msg("Responses")),
            (10, "schemes", Strs),
            (11, "deprecated", Bool),
            (12, "security", Msgs("SecurityRequirement")),
            (13, "", Ext),
        ],
        "ParametersItem" => vec![(1, "", Oneof("Parameter")), (2, "", Oneof("JsonReference"))],
        "Parameter" => vec![
            (1, "", Oneof("BodyParameter")),
            (2, "", Oneof("NonBodyParameter")),
        ],
        "NonBodyParameter" => vec![
            (1, "", Oneof("NamedParam")),
            (2, "", Oneof("EmptyParam")),
            (3, "", Oneof("EmptyParam")),
            (4, "", Oneof("NamedParam")),
        ],
        "BodyParameter" => vec![
            (1, "description", Str),
            (2, "name", Str),
            (3, "in", Str),
            (4, "required", Bool),
            (5, "schema", Msg("Schema")),
            (6, "", Ext),
        ],
        "NamedParam" => {
            let mut f = vec![
                (1, "required", Bool),
                (2, "in", Str),
                (3, "description", Str),
                (4, "name", Str),
            ];
            f.extend(primitive(5));
            f.push((22, "", Ext));
            f
        }
        "EmptyParam" => {
            let mut f = vec![
                (1, "required", Bool),
                (2, "in", Str),
                (3, "description", Str),
                (4, "name", Str),
                (5, "allowEmptyValue", Bool),
            ];
            f.extend(primitive(6));
            f.push((23, "", Ext));
            f
        }
        "PrimitivesItems" => {
            let mut f = primitive(1);
            f.push((18, "", Ext));
            f
        }
        "JsonReference" => vec![(1, "$ref", Str), (2, "description", Str)],
        "Responses" => vec![(1, "", Named("ResponseValue")), (2, "", Ext)],
        "ResponseValue" => vec![(1, "", Oneof("Response")), (2, "", Oneof("JsonReference"))],
        "Response" => vec![
            (1, "description", Str),
            (2, "schema", Msg("SchemaItem")),
            (3, "headers", Msg("Headers")),
            (4, "examples", Msg("Examples")),
            (5, "", Ext),
        ],
        "SchemaItem" => vec![(1, "", Oneof("Schema")), (2, "", Oneof("FileSchema"))],
        "FileSchema" => vec![
            (1, "format", Str),
            (2, "title", Str),
            (3, "description", Str),
            (4, "default", Any),
            (5, "required", Strs),
            (6, "type", Str),
            (7, "readOnly", Bool),
            (8, "externalDocs", Msg("ExternalDocs")),
            (9, "example", Any),
            (10, "", Ext),
        ],
        "Schema" => vec![
            (1, "$ref", Str),
            (2, "format", Str),
            (3, "title", Str),
            (4, "description", Str),
            (5, "default", Any),
            (6, "multipleOf", F64),
            (7, "maximum", F64),
            (8, "exclusiveMaximum", Bool),
            (9, "minimum", F64),
            (10, "exclusiveMinimum", Bool),
            (11, "maxLength", I64),
            (12, "minLength", I64),
            (13, "pattern", Str),
            (14, "maxItems", I64),
            (15, "minItems", I64),
            (16, "uniqueItems", Bool),
            (17, "maxProperties", I64),
            (18, "minProperties", I64),
            (19, "required", Strs),
            (20, "enum", Anys),
            (21, "additionalProperties", Msg("AdditionalPropertiesItem")),
            (22, "type", Msg("TypeItem")),
            (23, "items", Msg("ItemsItem")),
            (24, "allOf", Msgs("Schema")),
            (25, "properties", Msg("Properties")),
            (26, "discriminator", Str),
            (27, "readOnly", Bool),
            (28, "xml", Msg("Xml")),
            (29, "externalDocs", Msg("ExternalDocs")),
            (30, "example", Any),
            (31, "", Ext),
        ],
        "Xml" => vec![
            (1, "name", Str),
            (2, "namespace", Str),
            (3, "prefix", Str),
            (4, "attribute", Bool),
            (5, "wrapped", Bool),
            (6, "", Ext),
        ],
        "Definitions" | "Properties" => vec![(1, "", Named("Schema"))],
        "ParameterDefinitions" => vec![(1, "", Named("Parameter"))],
        "ResponseDefinitions" => vec![(1, "", Named("Response"))],
        "Headers" => vec![(1, "", Named("Header"))],
        "Header" => {
            let mut f = primitive(1);
            f.extend([(18, "description", Str), (19, "", Ext)]);
            f
        }
        "Examples" => vec![(1, "", Named("Any"))],
        "SecurityRequirement" => vec![(1, "", Named("StringArray"))],
        "SecurityDefinitions" => vec![(1, "", Named("SecurityDefinitionsItem"))],
        "SecurityDefinitionsItem" => vec![
            (1, "", Oneof("Basic")),
            (2, "", Oneof("ApiKey")),
            (3, "", Oneof("Implicit")),
            (4, "", Oneof("Password")),
            (5, "", Oneof("Password")),
            (6, "", Oneof("AccessCode")),
        ],
        "Basic" => vec![(1, "type", Str), (2, "description", Str), (3, "", Ext)],
        "ApiKey" => vec![
            (1, "type", Str),
            (2, "name", Str),
            (3, "in", Str),
            (4, "description", Str),
            (5, "", Ext),
        ],
        "Implicit" => vec![
            (1, "type", Str),
            (2, "flow", Str),
            (3, "scopes", Msg("Scopes")),
            (4, "authorizationUrl", Str),
            (5, "description", Str),
            (6, "", Ext),
        ],
        "Password" => vec![
            (1, "type", Str),
            (2, "flow", Str),
            (3, "scopes", Msg("Scopes")),
            (4, "tokenUrl", Str),
            (5, "description", Str),
            (6, "", Ext),
        ],
        "AccessCode" => vec![
            (1, "type", Str),
            (2, "flow", Str),
            (3, "scopes", Msg("Scopes")),
            (4, "authorizationUrl", Str),
            (5, "tokenUrl", Str),
            (6, "description", Str),
            (7, "", Ext),
        ],
        "Scopes" => vec![(1, "", Named("Str"))],
        other => panic!("no message {other}"),
    };
    fields.sort_by_key(|f| f.0);
    fields
}

/// The fields of a protobuf message: (number, varint or bytes).
fn fields(mut b: &[u8]) -> Vec<(u32, Result<u64, &[u8]>)> {
    fn varint(b: &mut &[u8]) -> u64 {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&c, rest) = b.split_first().expect("varint");
            *b = rest;
            v |= u64::from(c & 0x7f) << shift;
            if c < 0x80 {
                break;
            }
        }
        v
    }
    let mut out = Vec::new();
    while !b.is_empty() {
        let key = varint(&mut b);
        let value = match key & 7 {
            0 => Ok(varint(&mut b)),
            1 => {
                let (v, rest) = b.split_at(8);
                b = rest;
                Ok(u64::from_le_bytes(v.try_into().unwrap()))
            }
            2 => {
                let n = varint(&mut b) as usize;
                let (v, rest) = b.split_at(n);
                b = rest;
                Err(v)
            }
            w => panic!("wire type {w}"),
        };
        out.push(((key >> 3) as u32, value));
    }
    out
}

fn text(v: Result<u64, &[u8]>) -> String {
    String::from_utf8(v.expect_err("bytes").to_vec()).unwrap()
}

/// `Any.yaml` read back: JSON (flow style) or a plain scalar.
fn any(b: &[u8]) -> Value {
    let yaml = fields(b)
        .into_iter()
        .find(|f| f.0 == 2)
        .map(|f| text(f.1))
        .unwrap();
    let yaml = yaml.strip_suffix('\n').expect("a newline ends the YAML");
    serde_json::from_str(yaml).unwrap_or_else(|_| Value::String(yaml.to_owned()))
}

fn named(b: &[u8], value: &str) -> (String, Value) {
    let f = fields(b);
    let name = f
        .iter()
        .find(|f| f.0 == 1)
        .map(|f| text(f.1))
        .unwrap_or_default();
    let v = f.iter().find(|f| f.0 == 2).map(|f| f.1);
    let v = match (value, v) {
        ("Any", Some(v)) => any(v.unwrap_err()),
        ("Str", Some(v)) => Value::String(text(v)),
        ("StringArray", Some(v)) => Value::Array(
            fields(v.unwrap_err())
                .into_iter()
                .map(|f| Value::String(text(f.1)))
                .collect(),
        ),
        (m, Some(v)) => decode(m, v.unwrap_err()),
        (_, None) => Value::Null,
    };
    (name, v)
}

fn decode(message: &str, b: &[u8]) -> Value {
    match message {
        "TypeItem" => {
            let items: Vec<Value> = fields(b)
                .into_iter()
                .map(|f| Value::String(text(f.1)))
                .collect();
            return if items.len() == 1 {
                items[0].clone()
            } else {
                Value::Array(items)
            };
        }
        "ItemsItem" => {
            let items: Vec<Value> = fields(b)
                .into_iter()
                .map(|f| decode("Schema", f.1.unwrap_err()))
                .collect();
            return if items.len() == 1 {
                items[0].clone()
            } else {
                Value::Array(items)
            };
        }
        "AdditionalPropertiesItem" => {
            let (n, v) = fields(b)[0];
            return if n == 2 {
                Value::Bool(v.unwrap() != 0)
            } else {
                decode("Schema", v.unwrap_err())
            };
        }
        _ => {}
    }
    let spec = proto(message);
    let mut obj = Map::new();
    for (n, v) in fields(b) {
        let &(_, key, kind) = spec
            .iter()
            .find(|s| s.0 == n)
            .unwrap_or_else(|| panic!("{message}: no field {n}"));
        let push = |obj: &mut Map<String, Value>, v: Value| {
            obj.entry(key)
                .or_insert_with(|| json!([]))
                .as_array_mut()
                .unwrap()
                .push(v);
        };
        match kind {
            D::Str => {
                obj.insert(key.into(), Value::String(text(v)));
            }
            D::Bool => {
                obj.insert(key.into(), Value::Bool(v.unwrap() != 0));
            }
            D::F64 => {
                obj.insert(key.into(), json!(f64::from_bits(v.unwrap())));
            }
            D::I64 => {
                obj.insert(key.into(), json!(v.unwrap() as i64));
            }
            D::Strs => push(&mut obj, Value::String(text(v))),
            D::Any => {
                obj.insert(key.into(), any(v.unwrap_err()));
            }
            D::Anys => push(&mut obj, any(v.unwrap_err())),
            D::Msg(m) => {
                obj.insert(key.into(), decode(m, v.unwrap_err()));
            }
            D::Msgs(m) => push(&mut obj, decode(m, v.unwrap_err())),
            D::Ext => {
                let (k, v) = named(v.unwrap_err(), "Any");
                obj.insert(k, v);
            }
            D::Named(m) => {
                let (k, v) = named(v.unwrap_err(), m);
                obj.insert(k, v);
            }
            D::Oneof(m) => return decode(m, v.unwrap_err()),
        }
    }
    Value::Object(obj)
}

/// Integral doubles come back as floats: compare numbers by value.
fn normalize(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), normalize(v))).collect())
        }
        other => other.clone(),
    }
}

fn round_trip(swagger: &Value) {
    let bytes = crdkit_protobuf::encode_openapi_v2(swagger);
    let back = normalize(&decode("Document", &bytes));
    let want = normalize(swagger);
    // proto3 leaves out zero values (`false`, `""`, `0`); nothing else may be lost or added.
    assert_subset(&want, &back, "swagger");
    assert_subset(&back, &want, "decoded");
}

#[test]
fn published_documents_round_trip() {
    for name in [
        "crontab-conversion",
        "crontab-defaulting",
        "crontab-categories",
    ] {
        let path = format!(
            "{}/../../tests/golden/openapi/{name}.v2.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let swagger: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        round_trip(&swagger);
    }
}

#[test]
fn every_oneof_and_extension_round_trips() {
    let swagger = json!({
        "swagger": "2.0", "host": "example.com", "basePath": "/", "schemes": ["https"],
        "consumes": ["application/json"], "produces": ["application/json", "application/yaml"],
        "info": {"title": "Kubernetes", "version": "v1.35.0", "description": "d", "termsOfService": "t",
                 "contact": {"name": "n", "url": "u", "email": "e", "x-c": 1}, "license": {"name": "Apache-2.0", "url": "u"}, "x-info": "i"},
        "paths": {
            "/api/v1/pods": {
                "parameters": [{"$ref": "#/parameters/pretty", "description": "shared"},
                               {"name": "X-H", "in": "header", "type": "string", "required": true},
                               {"name": "id", "in": "path", "type": "integer", "maximum": 10, "minimum": 1, "exclusiveMinimum": true}],
                "get": {"operationId": "listPods", "tags": ["core_v1"], "schemes": ["https"], "deprecated": true, "summary": "s",
                        "consumes": ["*/*"], "produces": ["application/vnd.kubernetes.protobuf"],
                        "parameters": [{"name": "limit", "in": "query", "type": "integer", "uniqueItems": true, "allowEmptyValue": true,
                                        "items": {"type": "string", "items": {"type": "number", "multipleOf": 0.5}, "enum": ["a", 1]}},
                                       {"name": "file", "in": "formData", "type": "file", "maxLength": 9, "minLength": 1, "pattern": "^a"},
                                       {"name": "body", "in": "body", "required": true, "schema": {"$ref": "#/definitions/io.k8s.api.core.v1.Pod"}}],
                        "responses": {"200": {"description": "OK", "schema": {"$ref": "#/definitions/io.k8s.api.core.v1.Pod"},
                                              "headers": {"X-R": {"type": "integer", "format": "int32", "description": "r"}},
                                              "examples": {"application/json": {"kind": "Pod"}}},
                                      "201": {"description": "file", "schema": {"type": "file", "title": "f", "readOnly": true}},
                                      "401": {"$ref": "#/responses/unauthorized"}, "x-r": ["a"]},
                        "security": [{"BearerToken": []}, {"oauth": ["read", "write"]}],
                        "x-kubernetes-action": "list",
                        "x-kubernetes-group-version-kind": {"group": "", "kind": "Pod", "version": "v1"}},
                "x-path": true
            },
            "x-paths": "p"
        },
        "definitions": {
            "io.k8s.api.core.v1.Pod": {
                "type": "object", "description": "Pod", "required": ["spec"], "discriminator": "kind", "title": "Pod",
                "properties": {"spec": {"type": ["object", "null"], "additionalProperties": {"type": "string"}},
                               "list": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "maxItems": 3, "minItems": 1},
                               "closed": {"type": "object", "additionalProperties": false, "maxProperties": 4, "minProperties": 1},
                               "x": {"allOf": [{"$ref": "#/definitions/a"}, {"type": "string"}], "default": {"a": [1, "b"]},
                                     "example": "yes", "enum": ["true", "plain text", "a: b", null, 1.5], "readOnly": true,
                                     "xml": {"name": "x", "namespace": "ns", "prefix": "p", "attribute": true, "wrapped": true},
                                     "externalDocs": {"description": "d", "url": "u"}, "exclusiveMaximum": true, "maximum": 2.5}},
                "x-kubernetes-group-version-kind": [{"group": "", "kind": "Pod", "version": "v1"}],
                "x-kubernetes-list-type": "atomic"
            }
        },
        "parameters": {"pretty": {"name": "pretty", "in": "query", "type": "string", "uniqueItems": true},
                       "body": {"name": "body", "in": "body", "schema": {"type": "object"}}},
        "responses": {"unauthorized": {"description": "Unauthorized"}},
        "securityDefinitions": {
            "BearerToken": {"type": "apiKey", "name": "authorization", "in": "header", "description": "Bearer"},
            "basic": {"type": "basic"},
            "implicit": {"type": "oauth2", "flow": "implicit", "authorizationUrl": "a", "scopes": {"read": "r"}},
            "password": {"type": "oauth2", "flow": "password", "tokenUrl": "t", "scopes": {"write": "w"}},
            "application": {"type": "oauth2", "flow": "application", "tokenUrl": "t", "scopes": {}},
            "oauth": {"type": "oauth2", "flow": "accessCode", "authorizationUrl": "a", "tokenUrl": "t", "scopes": {"read": "r"}, "x-s": 2}
        },
        "security": [{"BearerToken": []}],
        "tags": [{"name": "core_v1", "description": "core", "externalDocs": {"url": "u"}}],
        "externalDocs": {"description": "docs", "url": "https://kubernetes.io"},
        "x-top": {"nested": [true, null]}
    });
    round_trip(&swagger);
}

#[test]
fn field_numbers_are_the_protos() {
    // swagger = 1, info = 2 { title = 1, version = 2 }.
    let bytes = crdkit_protobuf::encode_openapi_v2(
        &json!({"swagger": "2.0", "info": {"title": "K", "version": "v"}}),
    );
    assert_eq!(bytes, b"\x0a\x032.0\x12\x06\x0a\x01K\x12\x01v");
    // definitions = 9 { additional_properties = 1 { name = 1, value = 2 { type = 22 { value = 1 } } } }
    let bytes =
        crdkit_protobuf::encode_openapi_v2(&json!({"definitions": {"a": {"type": "object"}}}));
    assert_eq!(
        bytes,
        b"\x4a\x12\x0a\x10\x0a\x01a\x12\x0b\xb2\x01\x08\x0a\x06object"
    );
    // A vendor extension on a schema: vendor_extension = 31 { name = 1, value = 2 { yaml = 2 } }.
    let bytes = crdkit_protobuf::encode_openapi_v2(
        &json!({"definitions": {"a": {"x-kubernetes-list-type": "atomic"}}}),
    );
    assert!(bytes.windows(3).any(|w| w == b"\xfa\x01\x23"), "{bytes:?}");
    assert!(bytes.ends_with(b"\x12\x07atomic\n"));
}
