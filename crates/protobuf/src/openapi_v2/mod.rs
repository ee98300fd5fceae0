//! `/openapi/v2` as protobuf: the Swagger JSON as gnostic's `openapi_v2.Document`
//! (github.com/google/gnostic-models `openapiv2/OpenAPIv2.proto`, `OpenAPIv2.go`
//! `NewDocument`...), which kube-openapi's handler marshals with `proto.Marshal` and kubectl
//! 1.27/1.28 read for apply, diff and explain.
//!
//! proto3: scalars are written when not zero, messages when present, fields by number. JSON
//! objects with free keys become `repeated Named*` entries in key order; `x-` keys become
//! `vendor_extension` `NamedAny`s; values of any type (`default`, `example`, `enum`, vendor
//! extensions) become `Any { yaml }`. gnostic writes that YAML with yaml.v3 in block style;
//! here scalars are written as yaml.v3 writes them and collections in flow style (JSON),
//! which every YAML reader reads as the same value.

use serde_json::{Map, Value};

use crate::wire::{self, begin_len, end_len, put_bytes, put_key, put_varint};

mod tables;

use tables::{K, M, Table, table};

/// The gnostic `openapi_v2.Document` of a Swagger 2.0 JSON document, as kube-openapi serves
/// it for `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`.
///
/// ```
/// let swagger = serde_json::json!({"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.35.0"}});
/// let bytes = crdkit_protobuf::encode_openapi_v2(&swagger);
/// assert_eq!(&bytes[..7], b"\n\x032.0\x12\x15");
/// ```
#[must_use]
pub fn encode_openapi_v2(swagger: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 << 16);
    message(&mut out, M::Document, swagger);
    out
}

fn message(out: &mut Vec<u8>, m: M, v: &Value) {
    let obj = v.as_object();
    match m {
        M::Named(value) => {
            if let Some(obj) = obj {
                each(out, 1, value, obj);
            }
        }
        // `$ref` makes a JSON reference (gnostic tries the reference first).
        M::ParametersItem | M::ResponseValue => {
            let is_ref = obj.is_some_and(|o| o.contains_key("$ref"));
            let inner = match (m, is_ref) {
                (_, true) => (2, M::JsonReference),
                (M::ParametersItem, false) => (1, M::Parameter),
                _ => (1, M::Response),
            };
            sub(out, inner.0, inner.1, v);
        }
        M::Parameter => {
            if obj.and_then(|o| o.get("in")).and_then(Value::as_str) == Some("body") {
                sub(out, 1, M::BodyParameter, v);
            } else {
                let start = begin_len(out, 2);
                let (n, inner) = match obj.and_then(|o| o.get("in")).and_then(Value::as_str) {
                    Some("header") => (1, M::HeaderParameter),
                    Some("formData") => (2, M::FormDataParameter),
                    Some("path") => (4, M::PathParameter),
                    _ => (3, M::QueryParameter),
                };
                sub(out, n, inner, v);
                end_len(out, start);
            }
        }
        M::SchemaItem => {
            if obj.and_then(|o| o.get("type")).and_then(Value::as_str) == Some("file") {
                sub(out, 2, M::FileSchema, v);
            } else {
                sub(out, 1, M::Schema, v);
            }
        }
        M::AdditionalPropertiesItem => match v {
            Value::Bool(b) => put_bool(out, 2, *b, true),
            _ => sub(out, 1, M::Schema, v),
        },
        M::TypeItem | M::StringArray => match v {
            Value::Array(items) => items.iter().for_each(|s| put_str(out, 1, s, true)),
            s => put_str(out, 1, s, true),
        },
        M::ItemsItem => match v {
            Value::Array(items) => items.iter().for_each(|s| sub(out, 1, M::Schema, s)),
            s => sub(out, 1, M::Schema, s),
        },
        M::SecurityDefinitionsItem => {
            let get = |k: &str| obj.and_then(|o| o.get(k)).and_then(Value::as_str);
            let (n, inner) = match (get("type"), get("flow")) {
                (Some("apiKey"), _) => (2, M::ApiKeySecurity),
                (Some("oauth2"), Some("implicit")) => (3, M::Oauth2Implicit),
                (Some("oauth2"), Some("password")) => (4, M::Oauth2Password),
                (Some("oauth2"), Some("application")) => (5, M::Oauth2Application),
                (Some("oauth2"), _) => (6, M::Oauth2AccessCode),
                _ => (1, M::BasicSecurity),
            };
            sub(out, n, inner, v);
        }
        _ => {
            if let Some(obj) = obj {
                fields(out, table(m), obj);
            }
        }
    }
}

fn sub(out: &mut Vec<u8>, number: u32, m: M, v: &Value) {
    let start = begin_len(out, number);
    message(out, m, v);
    end_len(out, start);
}

fn fields(out: &mut Vec<u8>, table: Table, obj: &Map<String, Value>) {
    for &(key, number, kind) in table {
        match (key, kind) {
            ("x-", _) => {
                for (k, v) in obj.iter().filter(|(k, _)| k.starts_with("x-")) {
                    let start = begin_len(out, number);
                    put_str(out, 1, &Value::String(k.clone()), false);
                    any(out, 2, v);
                    end_len(out, start);
                }
            }
            (_, K::Each(value)) => each(out, number, value, obj),
            _ => {
                if let Some(v) = obj.get(key) {
                    value(out, number, kind, v);
                }
            }
        }
    }
}

/// `Named* { name = 1; value = 2; }` for every member but the `x-` ones.
fn each(out: &mut Vec<u8>, number: u32, kind: &K, obj: &Map<String, Value>) {
    for (k, v) in obj.iter().filter(|(k, _)| !k.starts_with("x-")) {
        let start = begin_len(out, number);
        put_str(out, 1, &Value::String(k.clone()), false);
        value(out, 2, *kind, v);
        end_len(out, start);
    }
}

fn value(out: &mut Vec<u8>, number: u32, kind: K, v: &Value) {
    match kind {
        K::Str => put_str(out, number, v, false),
        K::Bool => put_bool(out, number, v.as_bool().unwrap_or(false), false),
        K::F64 => {
            let f = v.as_f64().unwrap_or(0.0);
            if f != 0.0 {
                put_key(out, number, wire::FIXED64);
                out.extend_from_slice(&f.to_bits().to_le_bytes());
            }
        }
        K::I64 => {
            let n = v.as_i64().unwrap_or(0);
            if n != 0 {
                put_key(out, number, wire::VARINT);
                put_varint(out, n as u64);
            }
        }
        K::Strs => {
            if let Some(items) = v.as_array() {
                for s in items {
                    put_str(out, number, s, true);
                }
            }
        }
        K::Any => any(out, number, v),
        K::Anys => {
            if let Some(items) = v.as_array() {
                for item in items {
                    any(out, number, item);
                }
            }
        }
        K::Msg(m) => sub(out, number, m, v),
        K::Msgs(m) => {
            if let Some(items) = v.as_array() {
                for item in items {
                    sub(out, number, m, item);
                }
            }
        }
        K::Each(inner) => {
            if let Some(obj) = v.as_object() {
                each(out, number, inner, obj);
            }
        }
    }
}

/// proto3 writes an empty string only inside a repeated field.
fn put_str(out: &mut Vec<u8>, number: u32, v: &Value, always: bool) {
    let s = match v {
        Value::String(s) => s.as_str(),
        _ => return,
    };
    if always || !s.is_empty() {
        put_bytes(out, number, s.as_bytes());
    }
}

fn put_bool(out: &mut Vec<u8>, number: u32, b: bool, always: bool) {
    if b || always {
        put_key(out, number, wire::VARINT);
        out.push(u8::from(b));
    }
}

/// `Any { yaml = 2 }` (the `google.protobuf.Any value = 1` is never set by gnostic's reader).
fn any(out: &mut Vec<u8>, number: u32, v: &Value) {
    let start = begin_len(out, number);
    put_bytes(out, 2, yaml(v).as_bytes());
    end_len(out, start);
}

/// A value as YAML text ending in a newline: scalars as yaml.v3 writes them, collections as
/// JSON (YAML's flow style).
fn yaml(v: &Value) -> String {
    match v {
        Value::String(s) if plain(s) => format!("{s}\n"),
        other => format!("{other}\n"),
    }
}

/// Whether a string can be written unquoted: it reads back as the same string, not as a
/// number, boolean or null (YAML 1.1 and 1.2 spellings), and holds no indicator.
fn plain(s: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
    ];
    let Some(first) = s.chars().next() else {
        return false;
    };
    if KEYWORDS.contains(&s.to_ascii_lowercase().as_str()) || s.ends_with(' ') {
        return false;
    }
    if first.is_ascii_digit() || matches!(first, '-' | '+' | '.') {
        return false;
    }
    s.chars().all(|c| {
        c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '.' | '-' | ' ' | '(' | ')' | ',')
    }) && !s.contains(": ")
        && !s.contains(" #")
}
