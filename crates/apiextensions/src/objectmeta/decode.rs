//! Decoding one field of `metav1.ObjectMeta` (and of its owner references and managed-fields
//! entries) as `encoding/json` does, and writing it back as `ToUnstructured` does.

use serde_json::{Map, Value};

use crdkit_apimachinery::gofmt;
use crdkit_apimachinery::goparse::{format_rfc3339, parse_rfc3339};

#[derive(Clone, Copy)]
pub(super) enum Kind {
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

/// A decoding error: `Saved` type errors let decoding go on (the first one is reported),
/// `Fatal` ones (from `Time.UnmarshalJSON`) stop it.
pub(super) enum DecodeError {
    Saved(String),
    Fatal(String),
}
use DecodeError::{Fatal, Saved};

pub(super) fn sorted(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut v: Vec<_> = map.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

pub(super) fn json_kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
    }
}

fn type_error(v: &Value, strukt: &str, field: &str, ty: &str) -> DecodeError {
    Saved(format!(
        "json: cannot unmarshal {} into Go struct field {strukt}.{field} of type {ty}",
        json_kind(v)
    ))
}

/// Decodes one field; `Ok(None)` when `ToUnstructured` leaves it out.
pub(super) fn decode(
    kind: Kind,
    v: &Value,
    strukt: &str,
    field: &str,
) -> Result<Option<Value>, DecodeError> {
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
                gofmt::json(v)
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
                .map_err(|e| Fatal(e.to_string())),
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
    let empty = Map::new();
    for x in items {
        let m = match x {
            Value::Object(m) => m,
            Value::Null => &empty,
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

/// The kind of field `name` of `ObjectMeta`.
pub(super) fn kind_of(name: &str) -> Option<Kind> {
    Some(match name {
        "annotations" | "labels" => Kind::StrMap,
        "creationTimestamp" => Kind::Time,
        "deletionGracePeriodSeconds" => Kind::IntPtr,
        "deletionTimestamp" => Kind::TimePtr,
        "finalizers" => Kind::StrList,
        "generateName" | "name" | "namespace" | "resourceVersion" | "selfLink" | "uid" => Kind::Str,
        "generation" => Kind::Int,
        "managedFields" => Kind::ManagedFields,
        "ownerReferences" => Kind::OwnerRefs,
        _ => return None,
    })
}

/// Whether [`decode`] gives `v` back unchanged (and without error).
pub(super) fn is_decoded(kind: Kind, v: &Value) -> bool {
    match (kind, v) {
        (Kind::Str, Value::String(s)) => !s.is_empty(),
        (Kind::Int, Value::Number(n)) => n.as_i64().is_some_and(|i| i != 0),
        (Kind::IntPtr, Value::Number(n)) => n.as_i64().is_some(),
        (Kind::BoolPtr, Value::Bool(_)) | (Kind::Raw, _) => !v.is_null(),
        // `format_rfc3339` writes 20 bytes ending in `Z`; those parse back to themselves.
        (Kind::Time | Kind::TimePtr, Value::String(s)) => {
            s.len() == 20 && s.ends_with('Z') && parse_rfc3339(s).is_ok()
        }
        (Kind::StrMap, Value::Object(m)) => {
            let mut prev: Option<&str> = None;
            !m.is_empty()
                && m.iter().all(|(k, v)| {
                    let in_order = prev.is_none_or(|p| p < k.as_str());
                    prev = Some(k);
                    in_order && v.is_string()
                })
        }
        (Kind::StrList, Value::Array(items)) => {
            !items.is_empty() && items.iter().all(Value::is_string)
        }
        // What the field manager writes and what a stored object holds: checked in place,
        // never decoded into a copy (two copies of `fieldsV1` per write otherwise).
        (Kind::OwnerRefs, Value::Array(items)) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|x| is_decoded_struct(x, &OWNER_REFERENCE, true))
        }
        (Kind::ManagedFields, Value::Array(items)) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|x| is_decoded_struct(x, &MANAGED_FIELDS_ENTRY, false))
        }
        _ => false,
    }
}

/// Whether [`structs`] gives the element `x` back unchanged: an object with no field but
/// `fields` (whose names are sorted, as [`structs`] writes them), each in its decoded form; an
/// `OwnerReference` (`owner`) has all its string fields, `ToUnstructured` writing empty ones.
fn is_decoded_struct(x: &Value, fields: &[(&str, Kind)], owner: bool) -> bool {
    let Value::Object(m) = x else {
        return false;
    };
    let mut present = 0;
    for &(name, kind) in fields {
        match m.get(name) {
            Some(Value::String(_)) if owner && matches!(kind, Kind::Str) => present += 1,
            Some(v) if !(owner && matches!(kind, Kind::Str)) && is_decoded(kind, v) => {
                present += 1;
            }
            None if !(owner && matches!(kind, Kind::Str)) => {}
            _ => return false,
        }
    }
    let mut prev: Option<&str> = None;
    present == m.len()
        && m.keys().all(|k| {
            let in_order = prev.is_none_or(|p| p < k.as_str());
            prev = Some(k);
            in_order
        })
}
