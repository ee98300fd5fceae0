//! JSON → protobuf: the object read as Go's `json.Unmarshal` reads it into the Go struct, then
//! written as gogo's generated `Marshal` writes that struct (k8s.io/api `generated.pb.go`):
//! fields by number; Go values (not pointers) always, zero or not, embedded structs as empty
//! messages; pointers, slices and maps only when set; map entries sorted by key, key and
//! value always written (a nil `[]byte` value excepted); repeated numbers unpacked.
//!
//! Differences from Go: a `Quantity` is written as its JSON text (Go re-prints it canonically),
//! a `MicroTime` need not have six fraction digits, and unknown JSON fields are ignored (the
//! API server has pruned or refused them before an object is written back).

use base64::Engine as _;
use serde_json::{Map, Value};

use crate::descriptor::{Field, Label, MessageId, Registry, Scalar, Type};
use crate::error::{EncodeError, PathSegment};
use crate::special::Special;
use crate::wire::{self, begin_len, end_len, put_bytes, put_key, put_varint};
use crate::{envelope, gotime};

pub(crate) struct Encoder<'r> {
    pub(crate) reg: &'r Registry,
    pub(crate) max_depth: usize,
}

/// Go's `encoding/base64.StdEncoding` as `json.Unmarshal` uses it for `[]byte`: padded, and
/// lenient about the unused bits of the last symbol.
const GO_STD: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireCanonical),
);

impl Encoder<'_> {
    /// An object with its envelope, the kind taken from its `apiVersion` and `kind`.
    pub(crate) fn envelope(
        &self,
        object: &Value,
        out: &mut Vec<u8>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        let (Some(api_version), Some(kind)) = (
            object.get("apiVersion").and_then(Value::as_str),
            object.get("kind").and_then(Value::as_str),
        ) else {
            return Err(EncodeError::MissingTypeMeta);
        };
        let id = self
            .reg
            .kind(api_version, kind)
            .ok_or_else(|| EncodeError::UnknownKind {
                api_version: api_version.to_owned(),
                kind: kind.to_owned(),
            })?;
        envelope::write(out, api_version, kind, |out| {
            self.message(id, object, out, depth)
        })
    }

    /// The fields of a message (without its key and length).
    pub(crate) fn message(
        &self,
        id: MessageId,
        value: &Value,
        out: &mut Vec<u8>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        if depth > self.max_depth {
            return Err(EncodeError::TooDeep(self.max_depth));
        }
        let msg = self.reg.message(id);
        if let Some(special) = msg.special {
            return self.special(special, id, value, out, depth);
        }
        let empty = Map::new();
        let obj = match value {
            Value::Object(map) => map,
            Value::Null => &empty,
            other => return Err(EncodeError::invalid("object", other)),
        };
        for f in &msg.fields {
            if f.inline {
                if let Type::Message(m) = f.ty {
                    let start = begin_len(out, f.number);
                    self.message(m, value, out, depth + 1)?;
                    end_len(out, start);
                }
                continue;
            }
            let v = f.json.and_then(|n| obj.get(n)).filter(|v| !v.is_null());
            self.field(f, v, out, depth)
                .map_err(|e| e.at(PathSegment::Field(f.json.unwrap_or("-"))))?;
        }
        Ok(())
    }

    fn field(
        &self,
        f: &Field,
        v: Option<&Value>,
        out: &mut Vec<u8>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        match (f.label, f.ty) {
            (Label::Single, Type::Scalar(s)) => match v {
                Some(v) => scalar(out, f.number, s, v),
                // A nil []byte is not written; other Go values always are.
                None if f.pointer || s == Scalar::Bytes => Ok(()),
                None => scalar(out, f.number, s, &zero(s)),
            },
            (Label::Single, Type::Message(m)) => {
                if v.is_none() && f.pointer {
                    return Ok(());
                }
                if v.is_none() && self.reg.message(m).special == Some(Special::StringList) {
                    return Ok(()); // a nil slice
                }
                let start = begin_len(out, f.number);
                self.message(m, v.unwrap_or(&Value::Null), out, depth + 1)?;
                end_len(out, start);
                Ok(())
            }
            (Label::Repeated, ty) => {
                let Some(v) = v else { return Ok(()) };
                let Value::Array(items) = v else {
                    return Err(EncodeError::invalid("array", v));
                };
                for (i, item) in items.iter().enumerate() {
                    let r = match ty {
                        Type::Scalar(s) => scalar(
                            out,
                            f.number,
                            s,
                            if item.is_null() { &Value::Null } else { item },
                        ),
                        Type::Message(m) => {
                            let start = begin_len(out, f.number);
                            let r = self.message(m, item, out, depth + 1);
                            end_len(out, start);
                            r
                        }
                    };
                    r.map_err(|e| e.at(PathSegment::Index(i)))?;
                }
                Ok(())
            }
            (Label::Map(key), ty) => {
                let Some(v) = v else { return Ok(()) };
                let Value::Object(map) = v else {
                    return Err(EncodeError::invalid("object", v));
                };
                let mut keys: Vec<&String> = map.keys().collect();
                if !keys.is_sorted() {
                    keys.sort();
                }
                for k in keys {
                    let item = &map[k];
                    let start = begin_len(out, f.number);
                    let r = self.map_entry(out, key, k, ty, item, depth);
                    end_len(out, start);
                    r.map_err(|e| e.at(PathSegment::Key(k)))?;
                }
                Ok(())
            }
        }
    }

    fn map_entry(
        &self,
        out: &mut Vec<u8>,
        key: Scalar,
        k: &str,
        ty: Type,
        item: &Value,
        depth: usize,
    ) -> Result<(), EncodeError> {
        match key {
            Scalar::String | Scalar::Bytes => put_bytes(out, 1, k.as_bytes()),
            s => scalar(out, 1, s, &serde_json::from_str(k).unwrap_or(Value::Null))?,
        }
        match ty {
            Type::Scalar(Scalar::Bytes) if item.is_null() => Ok(()),
            Type::Scalar(s) => scalar(out, 2, s, item),
            Type::Message(m) => {
                let start = begin_len(out, 2);
                let r = self.message(m, item, out, depth + 1);
                end_len(out, start);
                r
            }
        }
    }

    fn special(
        &self,
        special: Special,
        id: MessageId,
        value: &Value,
        out: &mut Vec<u8>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        let msg = self.reg.message(id);
        let schema = |number: u32, v: &Value, out: &mut Vec<u8>| -> Result<(), EncodeError> {
            let Some((_, f)) = msg.field(number) else {
                return Ok(());
            };
            let Type::Message(m) = f.ty else {
                return Ok(());
            };
            let start = begin_len(out, number);
            let r = self.message(m, v, out, depth + 1);
            end_len(out, start);
            r
        };
        match (special, value) {
            (Special::Time | Special::MicroTime, Value::Null) => {}
            (Special::Time | Special::MicroTime, Value::String(s)) => {
                let expected = if special == Special::Time {
                    "RFC 3339 time"
                } else {
                    "RFC 3339 micro time"
                };
                let (secs, mut nanos) =
                    gotime::parse_time(s).ok_or_else(|| EncodeError::invalid(expected, value))?;
                if special == Special::MicroTime {
                    nanos -= nanos % 1000;
                }
                if secs != gotime::GO_ZERO_TIME || nanos != 0 {
                    put_key(out, 1, wire::VARINT);
                    put_varint(out, secs as u64);
                    put_key(out, 2, wire::VARINT);
                    put_varint(out, i64::from(nanos) as u64);
                }
            }
            (Special::Duration, Value::Null) => put_int(out, 1, 0),
            (Special::Duration, Value::String(s)) => {
                let nanos = gotime::parse_duration(s)
                    .ok_or_else(|| EncodeError::invalid("duration", value))?;
                put_int(out, 1, nanos);
            }
            (Special::Quantity, Value::Null) => put_bytes(out, 1, b"0"),
            (Special::Quantity, Value::String(s)) => put_bytes(out, 1, s.as_bytes()),
            (Special::Quantity, Value::Number(n)) => put_bytes(out, 1, n.to_string().as_bytes()),
            (Special::IntOrString, Value::Null) => {
                put_int(out, 1, 0);
                put_int(out, 2, 0);
                put_bytes(out, 3, b"");
            }
            (Special::IntOrString, Value::Number(_)) => {
                put_int(out, 1, 0);
                scalar(out, 2, Scalar::Int32, value)?;
                put_bytes(out, 3, b"");
            }
            (Special::IntOrString, Value::String(s)) => {
                put_int(out, 1, 1);
                put_int(out, 2, 0);
                put_bytes(out, 3, s.as_bytes());
            }
            (Special::RawExtension | Special::RawJson, Value::Null) => {}
            (Special::RawExtension | Special::RawJson, v) => {
                let raw = serde_json::to_vec(v).map_err(|_| EncodeError::invalid("JSON", v))?;
                put_bytes(out, 1, &raw);
            }
            (Special::StringList, Value::Null) => {}
            (Special::StringList, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    scalar(out, 1, Scalar::String, item)
                        .map_err(|e| e.at(PathSegment::Index(i)))?;
                }
            }
            (Special::GroupVersion, Value::String(s)) => {
                let (g, v) = s.split_once('/').unwrap_or(("", s));
                put_bytes(out, 1, g.as_bytes());
                put_bytes(out, 2, v.as_bytes());
            }
            (Special::PropsOrArray | Special::PropsOrStringArray, Value::Null) => {}
            (Special::PropsOrArray | Special::PropsOrStringArray, Value::Object(_)) => {
                schema(1, value, out)?;
            }
            (Special::PropsOrArray, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    schema(2, item, out).map_err(|e| e.at(PathSegment::Index(i)))?;
                }
            }
            (Special::PropsOrStringArray, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    scalar(out, 2, Scalar::String, item)
                        .map_err(|e| e.at(PathSegment::Index(i)))?;
                }
            }
            (Special::PropsOrBool, Value::Bool(b)) => put_int(out, 1, i64::from(*b)),
            (Special::PropsOrBool, Value::Null) => put_int(out, 1, 0),
            (Special::PropsOrBool, Value::Object(_)) => {
                put_int(out, 1, 1);
                schema(2, value, out)?;
            }
            (special, v) => return Err(EncodeError::invalid(expected(special), v)),
        }
        Ok(())
    }
}

fn expected(special: Special) -> &'static str {
    match special {
        Special::Time => "RFC 3339 time",
        Special::MicroTime => "RFC 3339 micro time",
        Special::Duration => "duration",
        Special::Quantity => "quantity",
        Special::IntOrString => "integer or string",
        Special::RawExtension | Special::RawJson => "JSON",
        Special::StringList => "array of strings",
        Special::GroupVersion => "group/version",
        Special::PropsOrArray => "schema or array of schemas",
        Special::PropsOrBool => "schema or boolean",
        Special::PropsOrStringArray => "schema or array of strings",
    }
}

fn put_int(out: &mut Vec<u8>, number: u32, v: i64) {
    put_key(out, number, wire::VARINT);
    put_varint(out, v as u64);
}

fn zero(s: Scalar) -> Value {
    match s {
        Scalar::String | Scalar::Bytes => Value::String(String::new()),
        Scalar::Bool => Value::Bool(false),
        _ => Value::from(0),
    }
}

/// One scalar as `json.Unmarshal` takes it (null is the zero value) and gogo writes it.
fn scalar(out: &mut Vec<u8>, number: u32, s: Scalar, v: &Value) -> Result<(), EncodeError> {
    let zero_value;
    let v = if v.is_null() {
        zero_value = zero(s);
        &zero_value
    } else {
        v
    };
    let int = |min: i64, max: i64, name: &'static str| -> Result<i64, EncodeError> {
        v.as_i64()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| EncodeError::invalid(name, v))
    };
    match s {
        Scalar::String => {
            let s = v
                .as_str()
                .ok_or_else(|| EncodeError::invalid("string", v))?;
            put_bytes(out, number, s.as_bytes());
        }
        Scalar::Bytes => {
            let text = v
                .as_str()
                .ok_or_else(|| EncodeError::invalid("base64 string", v))?;
            // Go's decoder skips line breaks.
            let text: std::borrow::Cow<'_, str> = if text.contains(['\r', '\n']) {
                text.replace(['\r', '\n'], "").into()
            } else {
                text.into()
            };
            let bytes = GO_STD
                .decode(text.as_bytes())
                .map_err(|_| EncodeError::invalid("base64 string", v))?;
            put_bytes(out, number, &bytes);
        }
        Scalar::Bool => {
            let b = v
                .as_bool()
                .ok_or_else(|| EncodeError::invalid("boolean", v))?;
            put_int(out, number, i64::from(b));
        }
        Scalar::Int32 => put_int(
            out,
            number,
            int(i64::from(i32::MIN), i64::from(i32::MAX), "int32")?,
        ),
        Scalar::Int64 => put_int(out, number, int(i64::MIN, i64::MAX, "int64")?),
        Scalar::Uint32 => put_int(out, number, int(0, i64::from(u32::MAX), "uint32")?),
        Scalar::Uint64 => {
            let n = v
                .as_u64()
                .ok_or_else(|| EncodeError::invalid("uint64", v))?;
            put_key(out, number, wire::VARINT);
            put_varint(out, n);
        }
        Scalar::Double => {
            let n = v
                .as_f64()
                .filter(|_| v.is_number())
                .ok_or_else(|| EncodeError::invalid("number", v))?;
            put_key(out, number, wire::FIXED64);
            out.extend_from_slice(&n.to_bits().to_le_bytes());
        }
        Scalar::Float => {
            let n = v
                .as_f64()
                .filter(|_| v.is_number())
                .ok_or_else(|| EncodeError::invalid("number", v))?;
            put_key(out, number, wire::FIXED32);
            #[allow(clippy::cast_possible_truncation)]
            out.extend_from_slice(&(n as f32).to_bits().to_le_bytes());
        }
    }
    Ok(())
}
