//! ObjectMeta coercion: what decoding `metadata` into Go's `metav1.ObjectMeta` and back does.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/objectmeta/coerce.go`
//! (`GetObjectMetaWithOptions`, `SetObjectMeta`) and `algorithm.go` (`CoerceWithOptions`): the
//! API server round-trips the root `metadata` (in `unstructuredSchemaCoercer.apply`) and that of
//! every `x-kubernetes-embedded-resource` (in `Coerce`) through the typed struct, so unknown
//! fields inside `metadata` disappear even under `x-kubernetes-preserve-unknown-fields`, empty
//! fields are dropped (`omitempty`), timestamps are rewritten as RFC 3339 UTC seconds, and a field
//! of the wrong type is an error (`json: cannot unmarshal number into Go struct field
//! ObjectMeta.name of type string`) — or, with `drop_invalid`, silently dropped.
//!
//! What differs from Go: a zero `creationTimestamp` is dropped at the root too (the API server
//! keeps `null` there until it sets the creation time).

use serde_json::{Map, Value};

use crate::field::{BadValue, FieldError, FieldPath, go_json};
use crate::prune::{MAX_DEPTH, additional};
use crate::schema::Structural;
use crate::validate::goparse::{format_rfc3339, parse_rfc3339};

#[derive(Clone, Copy)]
enum Kind {
    Str,
    Int,
    Time,
    TimePtr,
    IntPtr,
    StrMap,
    OwnerRefs,
    StrList,
    ManagedFields,
    BoolPtr,
    Raw,
}

const OBJECT_META: [(&str, Kind); 15] = [
    ("annotations", Kind::StrMap),
    ("creationTimestamp", Kind::Time),
    ("deletionGracePeriodSeconds", Kind::IntPtr),
    ("deletionTimestamp", Kind::TimePtr),
    ("finalizers", Kind::StrList),
    ("generateName", Kind::Str),
    ("generation", Kind::Int),
    ("labels", Kind::StrMap),
    ("managedFields", Kind::ManagedFields),
    ("name", Kind::Str),
    ("namespace", Kind::Str),
    ("ownerReferences", Kind::OwnerRefs),
    ("resourceVersion", Kind::Str),
    ("selfLink", Kind::Str),
    ("uid", Kind::Str),
];

const OWNER_REFERENCE: [(&str, Kind); 6] = [
    ("apiVersion", Kind::Str),
    ("blockOwnerDeletion", Kind::BoolPtr),
    ("controller", Kind::BoolPtr),
    ("kind", Kind::Str),
    ("name", Kind::Str),
    ("uid", Kind::Str),
];

const MANAGED_FIELDS_ENTRY: [(&str, Kind); 7] = [
    ("apiVersion", Kind::Str),
    ("fieldsType", Kind::Str),
    ("fieldsV1", Kind::Raw),
    ("manager", Kind::Str),
    ("operation", Kind::Str),
    ("subresource", Kind::Str),
    ("time", Kind::TimePtr),
];

/// What decoding `metadata` gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectMeta {
    /// `metadata` as `ToUnstructured` writes it back.
    pub value: Map<String, Value>,
    /// Paths of the fields `metav1.ObjectMeta` does not have (`metadata.foo`).
    pub unknown_fields: Vec<String>,
}

/// Decodes `metadata` as `GetObjectMetaWithOptions` does. `parent` is the path of the object
/// holding it (nil at the root). Errors are Go's decoding messages.
///
/// # Errors
/// The first field of the wrong type (unless `drop_invalid`), or a non-object `metadata`.
pub fn get_object_meta(
    metadata: &Value,
    parent: &FieldPath,
    drop_invalid: bool,
) -> Result<ObjectMeta, String> {
    let prefix = parent.child("metadata").to_string();
    let Value::Object(map) = metadata else {
        if metadata.is_null() {
            return Ok(ObjectMeta::default());
        }
        let err = format!(
            "json: cannot unmarshal {} into Go value of type v1.ObjectMeta",
            json_kind(metadata)
        );
        if drop_invalid {
            return Err(format!(
                "invalid metadata: expected object, got {}",
                go_type(metadata)
            ));
        }
        return Err(err);
    };
    let mut out = ObjectMeta::default();
    let mut first_err = None;
    for (k, v) in sorted(map) {
        let Some(&(_, kind)) = OBJECT_META.iter().find(|(n, _)| n == k) else {
            out.unknown_fields.push(format!("{prefix}.{k}"));
            continue;
        };
        match decode(kind, v, "ObjectMeta", k) {
            Ok(Some(x)) => {
                out.value.insert(k.clone(), x);
            }
            Ok(None) => {}
            Err(Fatal(e)) if !drop_invalid => return Err(e),
            Err(Saved(e)) if !drop_invalid => {
                first_err.get_or_insert(e);
            }
            Err(_) => {}
        }
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// A decoding error: `Saved` type errors let decoding go on (the first one is reported),
/// `Fatal` ones (from `Time.UnmarshalJSON`) stop it.
enum DecodeError {
    Saved(String),
    Fatal(String),
}
use DecodeError::{Fatal, Saved};

fn sorted(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut v: Vec<_> = map.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

fn json_kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
    }
}

fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

fn type_error(v: &Value, strukt: &str, field: &str, ty: &str) -> DecodeError {
    Saved(format!(
        "json: cannot unmarshal {} into Go struct field {strukt}.{field} of type {ty}",
        json_kind(v)
    ))
}

/// Decodes one field; `Ok(None)` when `ToUnstructured` leaves it out.
fn decode(kind: Kind, v: &Value, strukt: &str, field: &str) -> Result<Option<Value>, DecodeError> {
    if v.is_null() {
        return Ok(match kind {
            Kind::Str if strukt == "OwnerReference" => Some(Value::String(String::new())),
            _ => None,
        });
    }
    match kind {
        Kind::Str => match v {
            Value::String(s) if s.is_empty() && strukt != "OwnerReference" => Ok(None),
            Value::String(_) => Ok(Some(v.clone())),
            _ => Err(type_error(
                v,
                strukt,
                field,
                if field == "uid" {
                    "types.UID"
                } else {
                    "string"
                },
            )),
        },
        Kind::Int | Kind::IntPtr => match int64(v) {
            Some(0) if matches!(kind, Kind::Int) => Ok(None),
            Some(i) => Ok(Some(Value::from(i))),
            None if v.is_number() => Err(Saved(format!(
                "json: cannot unmarshal number {} into Go struct field {strukt}.{field} of type int64",
                go_json(v)
            ))),
            None => Err(type_error(v, strukt, field, "int64")),
        },
        Kind::BoolPtr => match v {
            Value::Bool(_) => Ok(Some(v.clone())),
            _ => Err(type_error(v, strukt, field, "bool")),
        },
        Kind::Time | Kind::TimePtr => match v {
            Value::String(s) => parse_rfc3339(s)
                .map(|t| Some(Value::String(format_rfc3339(t))))
                .map_err(Fatal),
            _ => Err(Fatal(format!(
                "json: cannot unmarshal {} into Go value of type string",
                json_kind(v)
            ))),
        },
        Kind::Raw => Ok(Some(v.clone())),
        Kind::StrMap => {
            let Value::Object(m) = v else {
                return Err(type_error(v, strukt, field, "map[string]string"));
            };
            let mut out = Map::new();
            let mut err = None;
            for (k, x) in sorted(m) {
                match x {
                    Value::String(_) => {
                        out.insert(k.clone(), x.clone());
                    }
                    Value::Null => {
                        out.insert(k.clone(), Value::String(String::new()));
                    }
                    _ => {
                        err.get_or_insert(type_error(x, strukt, field, "string"));
                    }
                }
            }
            match err {
                Some(e) => Err(e),
                None => Ok((!out.is_empty()).then_some(Value::Object(out))),
            }
        }
        Kind::StrList => {
            let Value::Array(items) = v else {
                return Err(type_error(v, strukt, field, "[]string"));
            };
            let mut out = Vec::new();
            for x in items {
                match x {
                    Value::String(_) => out.push(x.clone()),
                    Value::Null => out.push(Value::String(String::new())),
                    _ => return Err(type_error(x, strukt, field, "string")),
                }
            }
            Ok((!out.is_empty()).then_some(Value::Array(out)))
        }
        Kind::OwnerRefs => structs(v, strukt, field, "OwnerReference", &OWNER_REFERENCE),
        Kind::ManagedFields => structs(
            v,
            strukt,
            field,
            "ManagedFieldsEntry",
            &MANAGED_FIELDS_ENTRY,
        ),
    }
}

fn structs(
    v: &Value,
    strukt: &str,
    field: &str,
    elem: &str,
    fields: &[(&str, Kind)],
) -> Result<Option<Value>, DecodeError> {
    let Value::Array(items) = v else {
        return Err(type_error(v, strukt, field, &format!("[]v1.{elem}")));
    };
    let mut out = Vec::new();
    for x in items {
        let m = match x {
            Value::Object(m) => m.clone(),
            Value::Null => Map::new(),
            _ => return Err(type_error(x, strukt, field, &format!("v1.{elem}"))),
        };
        let mut o = Map::new();
        for &(name, kind) in fields {
            let decoded = match m.get(name) {
                Some(x) => decode(kind, x, elem, &format!("{field}.{name}"))?,
                None => decode(kind, &Value::Null, elem, name)?,
            };
            if let Some(d) = decoded {
                o.insert(name.to_owned(), d);
            }
        }
        out.push(Value::Object(o));
    }
    Ok((!out.is_empty()).then_some(Value::Array(out)))
}

/// An integer as Go's `json.Unmarshal` into `int64` accepts it (integral floats below 1e21 are
/// printed without exponent by Go and so decode).
fn int64(v: &Value) -> Option<i64> {
    let n = v.as_number()?;
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    #[allow(clippy::cast_possible_truncation)]
    (f.fract() == 0.0 && f.abs() < 9.223_372_036_854_775e18).then_some(f as i64)
}

/// `CoerceWithOptions`: round-trips the `metadata` of embedded resources (and of the root if
/// `is_resource_root`) and checks that their `apiVersion` and `kind` are strings. Returns the
/// unknown metadata fields.
///
/// # Errors
/// The first `must be a string` or metadata decoding error, as `field.Invalid`.
pub fn coerce(
    path: &FieldPath,
    obj: &mut Value,
    s: &Structural,
    is_resource_root: bool,
    drop_invalid: bool,
) -> Result<Vec<String>, FieldError> {
    let mut unknown = Vec::new();
    let root;
    let s = if is_resource_root && !s.extensions.embedded_resource {
        let mut c = s.clone();
        c.extensions.embedded_resource = true;
        root = c;
        &root
    } else {
        s
    };
    coerce_node(path, obj, Some(s), drop_invalid, &mut unknown, 0)?;
    unknown.sort();
    Ok(unknown)
}

fn coerce_node(
    path: &FieldPath,
    x: &mut Value,
    s: Option<&Structural>,
    drop_invalid: bool,
    unknown: &mut Vec<String>,
    depth: usize,
) -> Result<(), FieldError> {
    let Some(s) = s else { return Ok(()) };
    if depth > MAX_DEPTH {
        return Ok(());
    }
    match x {
        Value::Object(map) => {
            if s.extensions.embedded_resource {
                coerce_embedded(path, map, drop_invalid, unknown)?;
            }
            for (k, v) in map.iter_mut() {
                if let Some(prop) = s.properties.get(k) {
                    coerce_node(
                        &path.child(k),
                        v,
                        Some(prop),
                        drop_invalid,
                        unknown,
                        depth + 1,
                    )?;
                } else if let Some(ap) = additional(s) {
                    coerce_node(&path.key(k), v, ap, drop_invalid, unknown, depth + 1)?;
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                coerce_node(
                    &path.index(i),
                    v,
                    s.items.as_deref(),
                    drop_invalid,
                    unknown,
                    depth + 1,
                )?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn coerce_embedded(
    path: &FieldPath,
    map: &mut Map<String, Value>,
    drop_invalid: bool,
    unknown: &mut Vec<String>,
) -> Result<(), FieldError> {
    for k in ["apiVersion", "kind"] {
        if let Some(v) = map.get(k)
            && !v.is_string()
        {
            if drop_invalid {
                map.remove(k);
            } else {
                return Err(FieldError::invalid(
                    &path.child(k),
                    BadValue::from(v),
                    "must be a string",
                ));
            }
        }
    }
    let Some(meta) = map.get("metadata") else {
        return Ok(());
    };
    match get_object_meta(meta, path, drop_invalid) {
        Err(e) if !drop_invalid => Err(FieldError::invalid(
            &path.child("metadata"),
            BadValue::from(meta),
            e,
        )),
        Err(_) => Ok(()),
        Ok(m) => {
            unknown.extend(m.unknown_fields);
            map.insert("metadata".to_owned(), Value::Object(m.value));
            Ok(())
        }
    }
}
