//! Schema-aware, lazy CEL views of JSON: mirrors apiserver `pkg/cel/common/valuesunstructured.go`
//! (`UnstructuredToVal`, `unstructuredMap`, `unstructuredList` and its set/map variants),
//! apiextensions `schema/cel/model/schemas.go` (`WithTypeAndObjectMeta`), property names
//! escaped as apiserver `pkg/cel/escaping.go` does ([`crate::escaping`]).
//!
//! Nothing is converted up front: selecting a field or an element converts that one value.

use std::sync::Arc;

use serde_json::Value as Json;

use super::error::{EvalError, EvalResult};
use crate::schema::{self as cs, ListType, Schema, Type};
use crate::value::{Bytes, List, ListKind, Map, Str, Value};
use crdkit_apimachinery::gofmt;
use crdkit_cel_check::escaping::{escape, unescape};

/// A JSON object seen through its schema.
#[derive(Clone, Copy, Debug)]
pub struct JsonObject<'a> {
    /// The object's members, as in the input (unescaped property names).
    pub map: &'a serde_json::Map<String, Json>,
    /// The object's own schema: its `properties` or `additionalProperties` convert the values.
    pub schema: &'a dyn Schema,
    /// How keys are looked up.
    pub kind: ObjectKind,
}

/// The three shapes of `type: object` in `UnstructuredToVal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// `properties` (escaped names, null fields absent); `meta` adds `apiVersion`, `kind` and
    /// `metadata.name`/`generateName` (the root and embedded resources, unless their schema
    /// declares all of these itself).
    Object {
        /// Whether `apiVersion`, `kind` and `metadata.name`/`generateName` are added.
        meta: bool,
    },
    /// `additionalProperties` with a schema.
    Map,
    /// Neither: no key is accessible.
    Opaque,
}

/// A JSON array seen through its schema (`schema` is the array's; elements use its `items`).
#[derive(Clone, Copy, Debug)]
pub struct JsonList<'a> {
    /// The array's elements, as in the input.
    pub items: &'a [Json],
    /// The array's schema: `items` converts the elements, and `x-kubernetes-list-type` and
    /// `x-kubernetes-list-map-keys` give the [`ListKind`].
    pub schema: &'a dyn Schema,
}

fn invalid(msg: String) -> EvalError {
    EvalError::other(msg)
}

/// `UnstructuredToVal(value, schema)`; `meta` marks the root of a resource.
///
/// # Errors
///
/// An [`EvalError`] worded as apiserver's when `v` does not fit `schema`: `null` where the
/// schema is not nullable, a JSON type other than the schema's, an array schema without
/// `items`, or a string that does not parse as its `format` (`byte`, `duration`, `date`,
/// `date-time`).
pub fn from_json<'a>(v: &'a Json, schema: &'a dyn Schema, meta: bool) -> EvalResult<'a> {
    if v.is_null() {
        return if schema.nullable() {
            Ok(Value::Null)
        } else {
            Err(invalid(
                "invalid data, got null for schema with nullable=false".into(),
            ))
        };
    }
    if schema.int_or_string() {
        return match v {
            Json::String(s) => Ok(Value::String(Str::Borrowed(s))),
            Json::Number(n) if n.as_i64().is_some() => Ok(Value::Int(n.as_i64().unwrap_or(0))),
            _ => Err(invalid(
                "invalid data, expected XIntOrString value to be either a string or integer".into(),
            )),
        };
    }
    match schema.ty() {
        Some(Type::Object) => {
            let Json::Object(map) = v else {
                return Err(invalid(
                    "invalid data, expected a map for the provided schema with type=object".into(),
                ));
            };
            // `WithTypeAndObjectMeta` keeps a schema that declares the type and object meta.
            let meta = (meta || schema.embedded_resource())
                && !cs::declares_type_and_object_meta(schema);
            let kind = if meta || schema.has_properties() {
                ObjectKind::Object { meta }
            } else if schema.additional_properties().is_some() {
                ObjectKind::Map
            } else {
                ObjectKind::Opaque
            };
            Ok(Value::Map(Map::Json(JsonObject { map, schema, kind })))
        }
        Some(Type::Array) => {
            let Json::Array(items) = v else {
                return Err(invalid(
                    "invalid data, expected an array for the provided schema with type=array"
                        .into(),
                ));
            };
            if schema.items().is_none() {
                return Err(invalid(
                    "invalid array type, expected Items with a non-empty Schema".into(),
                ));
            }
            Ok(Value::List(List::Json(JsonList { items, schema })))
        }
        Some(Type::String) => {
            let Json::String(s) = v else {
                return Err(invalid(format!(
                    "invalid data, expected string, got {}",
                    gofmt::type_name(v)
                )));
            };
            string_with_format(s, schema)
        }
        Some(Type::Number) => match v {
            Json::Number(n) => Ok(Value::Double(n.as_f64().unwrap_or(f64::NAN))),
            _ => Err(invalid(format!(
                "invalid data, expected float, got {}",
                gofmt::type_name(v)
            ))),
        },
        Some(Type::Integer) => match v {
            Json::Number(n) if n.as_i64().is_some() => Ok(Value::Int(n.as_i64().unwrap_or(0))),
            _ => Err(invalid(format!(
                "invalid data, expected int, got {}",
                gofmt::type_name(v)
            ))),
        },
        Some(Type::Boolean) => match v {
            Json::Bool(b) => Ok(Value::Bool(*b)),
            _ => Err(invalid(format!(
                "invalid data, expected bool, got {}",
                gofmt::type_name(v)
            ))),
        },
        None if schema.preserve_unknown_fields() => Ok(Value::Unknown(v)),
        None => Err(invalid("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got ".into())),
    }
}

fn string_with_format<'a>(s: &'a str, schema: &'a dyn Schema) -> EvalResult<'a> {
    match schema.format() {
        Some("duration") => super::strfmt::parse_strfmt_duration(s)
            .map(Value::Duration)
            .ok_or_else(|| {
                invalid(format!(
                    "Invalid duration {s}: time: invalid duration {s:?}"
                ))
            }),
        Some("date") => super::strfmt::parse_full_date(s)
            .map(Value::Timestamp)
            .ok_or_else(|| invalid(format!("Invalid date formatted string {s}"))),
        Some("date-time") => super::strfmt::parse_strfmt_datetime(s)
            .map(Value::Timestamp)
            .ok_or_else(|| invalid(format!("Invalid date-time formatted string {s}"))),
        Some("byte") => crdkit_apimachinery::gobase64::decode(s)
            .ok()
            .map(|b| Value::Bytes(Bytes::Shared(Arc::from(b))))
            .ok_or_else(|| invalid(format!("Invalid byte formatted string {s}"))),
        _ => Ok(Value::String(Str::Borrowed(s))),
    }
}

impl<'a> JsonObject<'a> {
    /// The schema of a property (after unescaping), if accessible.
    fn prop_schema(&self, key: &str) -> Option<&'a dyn Schema> {
        match self.kind {
            ObjectKind::Object { meta } => {
                if meta {
                    match key {
                        "kind" | "apiVersion" => return Some(&cs::STRING),
                        "metadata" => return Some(&cs::OBJECT_META),
                        _ => {}
                    }
                }
                self.schema.property(key)
            }
            ObjectKind::Map => self.schema.additional_properties(),
            ObjectKind::Opaque => None,
        }
    }

    /// `Find(key)`: `escaped` is the key as written in CEL; for objects the property name is
    /// its unescaped form (`unescaped`, computed by the caller once).
    pub fn find(&self, escaped: &str, unescaped: Option<&str>) -> Option<EvalResult<'a>> {
        let key = match self.kind {
            ObjectKind::Object { .. } => unescaped?,
            _ => escaped,
        };
        let (k, v) = if self.map.len() <= cs::SMALL_MAP {
            self.map.iter().find(|(k, _)| k.as_str() == key)?
        } else {
            self.map.get_key_value(key)?
        };
        if matches!(self.kind, ObjectKind::Object { .. }) && v.is_null() {
            return None;
        }
        let schema = self.prop_schema(k)?;
        Some(from_json(v, schema, false))
    }

    /// Like [`find`](Self::find) without converting: the raw JSON and its schema.
    #[inline]
    pub fn find_raw(
        &self,
        escaped: &str,
        unescaped: Option<&str>,
    ) -> Option<(&'a Json, &'a dyn Schema)> {
        let key = match self.kind {
            ObjectKind::Object { .. } => unescaped?,
            _ => escaped,
        };
        let (k, v) = if self.map.len() <= cs::SMALL_MAP {
            self.map.iter().find(|(k, _)| k.as_str() == key)?
        } else {
            self.map.get_key_value(key)?
        };
        if v.is_null() {
            return None;
        }
        Some((v, self.prop_schema(k)?))
    }

    /// Looks a key up as `m[key]` does: unescapes for objects.
    pub fn find_key(&self, key: &str) -> Option<EvalResult<'a>> {
        match self.kind {
            ObjectKind::Object { .. } => {
                let u = unescape(key)?;
                self.find(key, Some(&u))
            }
            _ => self.find(key, None),
        }
    }

    /// The accessible keys, escaped for objects, in JSON order.
    pub fn keys(&self) -> impl Iterator<Item = Value<'a>> + '_ {
        let object = matches!(self.kind, ObjectKind::Object { .. });
        self.map.iter().filter_map(move |(k, _)| {
            self.prop_schema(k)?;
            if object {
                match escape(k) {
                    Some(e) if e != *k => return Some(Value::string(e)),
                    _ => {}
                }
            }
            Some(Value::String(Str::Borrowed(k)))
        })
    }

    /// The accessible entries (key as in [`keys`](Self::keys)).
    pub fn entries(&self) -> Vec<(Value<'a>, EvalResult<'a>)> {
        let object = matches!(self.kind, ObjectKind::Object { .. });
        self.map
            .iter()
            .filter_map(|(k, v)| {
                let schema = self.prop_schema(k)?;
                let key = match object.then(|| escape(k)).flatten() {
                    Some(e) if e != *k => Value::string(e),
                    _ => Value::String(Str::Borrowed(k)),
                };
                if object && v.is_null() {
                    return None;
                }
                Some((key, from_json(v, schema, false)))
            })
            .collect()
    }

    /// `size()`: Go's `len(value)`, every key of the JSON object.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the JSON object has no keys.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl<'a> JsonList<'a> {
    /// The element schema.
    #[must_use]
    pub fn item_schema(&self) -> &'a dyn Schema {
        self.schema.items().unwrap_or(&cs::STRING)
    }

    /// Element `i` converted with the item schema.
    ///
    /// # Errors
    ///
    /// As [`from_json`], when the element does not fit the item schema.
    ///
    /// # Panics
    ///
    /// If `i` is not below the number of elements.
    pub fn get(&self, i: usize) -> EvalResult<'a> {
        from_json(&self.items[i], self.item_schema(), false)
    }

    /// The list-type semantics of this array.
    #[must_use]
    pub fn kind(&self) -> ListKind {
        match self.schema.list_type() {
            Some(ListType::Set) => ListKind::Set,
            Some(ListType::Map) => ListKind::MapList(
                self.schema
                    .list_map_keys()
                    .iter()
                    .map(|k| escape(k).unwrap_or_else(|| k.clone()))
                    .collect(),
            ),
            _ => ListKind::Plain,
        }
    }
}
