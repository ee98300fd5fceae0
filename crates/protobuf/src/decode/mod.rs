//! Protobuf → JSON: the bytes read as gogo's generated `Unmarshal` reads them into the Go
//! struct, then written as Go's encoding/json writes that struct (JSON names, `omitempty`,
//! `omitzero`, pointers, embedded structs, the hand-written `MarshalJSON`s of `special`).
//!
//! Differences from Go: a `Quantity` keeps its text (Go re-prints it canonically, as it does
//! for JSON bodies); a field seen twice is merged as protobuf merges messages (the bytes of
//! both occurrences read as one).

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::descriptor::{Field, Label, MessageId, Registry, Scalar, Type};
use crate::envelope::{self, MAGIC};
use crate::error::DecodeError;
use crate::gotime;
use crate::special::Special;
use crate::wire::{self, Reader};

mod scalar;

use scalar::{base64, is_zero, looks_like_json, parse_json, scalar, string, zero};

/// What one field of a message holds after reading.
enum Slot<'a> {
    Absent,
    Scalar(Value),
    Bytes(&'a [u8]),
    /// A singular message: its bytes, those of every occurrence joined (protobuf merges them).
    Message(Cow<'a, [u8]>),
    List(Vec<Value>),
    Map(Map<String, Value>),
}

pub(crate) struct Decoder<'r> {
    pub(crate) reg: &'r Registry,
    pub(crate) max_depth: usize,
    /// JSON values still allowed: Go's zero values make a few bytes of protobuf (an empty
    /// `Deployment` is two) into many members, so the output is bounded by the input.
    pub(crate) budget: std::cell::Cell<usize>,
}

/// Appends an occurrence of a message field: reading the joined bytes merges the occurrences
/// as protobuf requires. The one-occurrence case borrows.
fn join<'a>(slot: &mut Option<Cow<'a, [u8]>>, piece: &'a [u8]) {
    match slot {
        None => *slot = Some(Cow::Borrowed(piece)),
        Some(bytes) => bytes.to_mut().extend_from_slice(piece),
    }
}

impl Decoder<'_> {
    fn spend(&self) -> Result<(), DecodeError> {
        match self.budget.get().checked_sub(1) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(DecodeError::TooManyValues),
        }
    }

    /// An object in its envelope (`k8s\0` + `runtime.Unknown`), with `apiVersion` and `kind`
    /// from the envelope as Go sets them after decoding.
    pub(crate) fn envelope(&self, bytes: &[u8], depth: usize) -> Result<Value, DecodeError> {
        let unknown = envelope::read(bytes)?;
        let id = self
            .reg
            .kind(&unknown.api_version, &unknown.kind)
            .ok_or_else(|| DecodeError::UnknownKind {
                api_version: unknown.api_version.clone(),
                kind: unknown.kind.clone(),
            })?;
        let mut value = self.message(id, unknown.raw, depth)?;
        if let Value::Object(map) = &mut value {
            map.insert("apiVersion".to_owned(), Value::String(unknown.api_version));
            map.insert("kind".to_owned(), Value::String(unknown.kind));
        }
        Ok(value)
    }

    /// A message's JSON from its bytes (`depth` counts the messages around it).
    pub(crate) fn message(
        &self,
        id: MessageId,
        bytes: &[u8],
        depth: usize,
    ) -> Result<Value, DecodeError> {
        if depth > self.max_depth {
            return Err(DecodeError::TooDeep(self.max_depth));
        }
        let msg = self.reg.message(id);
        match msg.special {
            Some(special) => self.special(special, id, bytes, depth),
            None => Ok(Value::Object(self.object(id, bytes, depth)?)),
        }
    }

    fn object(
        &self,
        id: MessageId,
        bytes: &[u8],
        depth: usize,
    ) -> Result<Map<String, Value>, DecodeError> {
        let msg = self.reg.message(id);
        let slots = self.read(id, bytes, depth)?;
        let mut out = Map::new();
        for (f, slot) in msg.fields.iter().zip(slots) {
            if f.inline {
                let Type::Message(m) = f.ty else { continue };
                let bytes: &[u8] = match &slot {
                    Slot::Message(b) => b,
                    _ => &[],
                };
                if let Value::Object(inner) = self.message(m, bytes, depth + 1)? {
                    for (k, v) in inner {
                        out.entry(k).or_insert(v);
                    }
                }
                continue;
            }
            let Some(name) = f.json else { continue };
            if let Some(v) = self.field_json(f, slot, depth)? {
                self.spend()?;
                out.insert(name.to_owned(), v);
            }
        }
        Ok(out)
    }

    /// The JSON of one field, `None` when Go's encoding/json leaves it out.
    fn field_json(
        &self,
        f: &Field,
        slot: Slot<'_>,
        depth: usize,
    ) -> Result<Option<Value>, DecodeError> {
        let absent = if f.omitempty || f.omitzero {
            None
        } else {
            Some(Value::Null)
        };
        Ok(match (slot, f.label, f.ty) {
            (Slot::Absent, Label::Single, Type::Scalar(s)) if !f.pointer && s != Scalar::Bytes => {
                let zero = zero(s);
                if (f.omitempty || f.omitzero) && is_zero(&zero) {
                    None
                } else {
                    Some(zero)
                }
            }
            (Slot::Absent, Label::Single, Type::Message(m)) if !f.pointer => {
                // `ExtraValue` and `Verbs` are Go slices: nil.
                if self.reg.message(m).special == Some(Special::StringList) {
                    absent
                } else if f.omitzero {
                    None
                } else {
                    Some(self.message(m, &[], depth + 1)?)
                }
            }
            (Slot::Absent, ..) => absent,
            (Slot::Scalar(v), ..) => {
                if !f.pointer && (f.omitempty || f.omitzero) && is_zero(&v) {
                    None
                } else {
                    Some(v)
                }
            }
            (Slot::Bytes(b), ..) => {
                if !f.pointer && f.omitempty && b.is_empty() {
                    None
                } else {
                    Some(base64(b))
                }
            }
            (Slot::Message(bytes), _, Type::Message(m)) => {
                let v = self.message(m, &bytes, depth + 1)?;
                let empty_list = matches!(&v, Value::Array(a) if a.is_empty());
                if !f.pointer && ((f.omitzero && v.is_null()) || (f.omitempty && empty_list)) {
                    None
                } else {
                    Some(v)
                }
            }
            (Slot::Message(_), ..) => absent,
            (Slot::List(items), ..) => Some(Value::Array(items)),
            (Slot::Map(map), ..) => Some(Value::Object(map)),
        })
    }

    /// Reads a message's fields as gogo's `Unmarshal` does: last scalar wins, repeated fields
    /// append, map entries insert, unknown fields are skipped.
    fn read<'a>(
        &self,
        id: MessageId,
        bytes: &'a [u8],
        depth: usize,
    ) -> Result<Vec<Slot<'a>>, DecodeError> {
        let msg = self.reg.message(id);
        let mut slots: Vec<Slot<'a>> = msg.fields.iter().map(|_| Slot::Absent).collect();
        let mut r = Reader::new(bytes);
        while !r.done() {
            let (number, wire) = r.key(msg.name)?;
            let Some((i, f)) = msg.field(number) else {
                r.skip(wire)?;
                continue;
            };
            let wrong = || DecodeError::WrongWireType {
                field: f.json.unwrap_or("-").to_owned(),
                wire,
            };
            match (f.label, f.ty) {
                (Label::Single, Type::Scalar(s)) => {
                    if wire != s.wire() {
                        return Err(wrong());
                    }
                    slots[i] = match s {
                        Scalar::Bytes => Slot::Bytes(r.bytes()?),
                        _ => Slot::Scalar(scalar(&mut r, s, f)?),
                    };
                }
                (Label::Single, Type::Message(_)) => {
                    if wire != wire::LEN {
                        return Err(wrong());
                    }
                    let piece = r.bytes()?;
                    match &mut slots[i] {
                        Slot::Message(bytes) => bytes.to_mut().extend_from_slice(piece),
                        slot => *slot = Slot::Message(Cow::Borrowed(piece)),
                    }
                }
                (Label::Repeated, ty) => {
                    let list = match &mut slots[i] {
                        Slot::List(list) => list,
                        slot => {
                            *slot = Slot::List(Vec::new());
                            let Slot::List(list) = slot else {
                                unreachable!()
                            };
                            list
                        }
                    };
                    match ty {
                        Type::Message(m) if wire == wire::LEN => {
                            self.spend()?;
                            list.push(self.message(m, r.bytes()?, depth + 1)?);
                        }
                        Type::Scalar(Scalar::Bytes) if wire == wire::LEN => {
                            self.spend()?;
                            list.push(base64(r.bytes()?));
                        }
                        Type::Scalar(Scalar::String) if wire == wire::LEN => {
                            self.spend()?;
                            list.push(string(r.bytes()?));
                        }
                        // gogo reads numbers packed or not.
                        Type::Scalar(s) if wire == wire::LEN => {
                            let mut packed = Reader::new(r.bytes()?);
                            while !packed.done() {
                                self.spend()?;
                                list.push(scalar(&mut packed, s, f)?);
                            }
                        }
                        Type::Scalar(s) if wire == s.wire() => {
                            self.spend()?;
                            list.push(scalar(&mut r, s, f)?);
                        }
                        _ => return Err(wrong()),
                    }
                }
                (Label::Map(key), ty) => {
                    if wire != wire::LEN {
                        return Err(wrong());
                    }
                    self.spend()?;
                    let (k, v) = self.map_entry(r.bytes()?, key, ty, f, depth)?;
                    match &mut slots[i] {
                        Slot::Map(map) => {
                            map.insert(k, v);
                        }
                        slot => *slot = Slot::Map(Map::from_iter([(k, v)])),
                    }
                }
            }
        }
        Ok(slots)
    }

    fn map_entry(
        &self,
        entry: &[u8],
        key: Scalar,
        ty: Type,
        f: &Field,
        depth: usize,
    ) -> Result<(String, Value), DecodeError> {
        let mut r = Reader::new(entry);
        let (mut k, mut v) = (None, None);
        let mut pieces: Option<Cow<'_, [u8]>> = None;
        while !r.done() {
            let (number, wire) = r.key("MapEntry")?;
            match (number, ty) {
                (1, _) if wire == key.wire() => {
                    k = Some(match key {
                        Scalar::String | Scalar::Bytes => {
                            String::from_utf8_lossy(r.bytes()?).into_owned()
                        }
                        s => scalar(&mut r, s, f)?.to_string(),
                    });
                }
                (2, Type::Message(_)) if wire == wire::LEN => join(&mut pieces, r.bytes()?),
                (2, Type::Scalar(Scalar::Bytes)) if wire == wire::LEN => {
                    v = Some(base64(r.bytes()?));
                }
                (2, Type::Scalar(Scalar::String)) if wire == wire::LEN => {
                    v = Some(string(r.bytes()?));
                }
                (2, Type::Scalar(s)) if wire == s.wire() => v = Some(scalar(&mut r, s, f)?),
                (1 | 2, _) => {
                    return Err(DecodeError::WrongWireType {
                        field: f.json.unwrap_or("-").to_owned(),
                        wire,
                    });
                }
                _ => r.skip(wire)?,
            }
        }
        let v = match (v, ty) {
            (_, Type::Message(m)) => {
                self.message(m, pieces.as_deref().unwrap_or(&[]), depth + 1)?
            }
            (Some(v), _) => v,
            // gogo starts a bytes value as `[]byte{}`: a missing one is empty, not nil.
            (None, Type::Scalar(Scalar::Bytes)) => Value::String(String::new()),
            (None, Type::Scalar(s)) => zero(s),
        };
        let k = k.unwrap_or_else(|| match key {
            Scalar::String | Scalar::Bytes => String::new(),
            s => zero(s).to_string(),
        });
        Ok((k, v))
    }

    fn special(
        &self,
        special: Special,
        id: MessageId,
        bytes: &[u8],
        depth: usize,
    ) -> Result<Value, DecodeError> {
        let msg = self.reg.message(id);
        let name = || msg.name.to_owned();
        if matches!(special, Special::Time | Special::MicroTime) && bytes.is_empty() {
            return Ok(Value::Null);
        }
        let slots = self.read(id, bytes, depth)?;
        let by_number = |n: u32| msg.field(n).map(|(i, _)| i);
        let get = |n: u32| {
            by_number(n).and_then(|i| match &slots[i] {
                Slot::Scalar(v) => Some(v.clone()),
                Slot::Bytes(b) => Some(Value::String(String::from_utf8_lossy(b).into_owned())),
                _ => None,
            })
        };
        let int = |n: u32| get(n).and_then(|v| v.as_i64()).unwrap_or(0);
        let text = |n: u32| {
            get(n)
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        };
        let raw = |n: u32| {
            by_number(n).and_then(|i| match &slots[i] {
                Slot::Bytes(b) => Some(*b),
                _ => None,
            })
        };
        let list = |n: u32| {
            by_number(n).and_then(|i| match &slots[i] {
                Slot::List(l) if !l.is_empty() => Some(Value::Array(l.clone())),
                _ => None,
            })
        };
        let schema = |n: u32| -> Result<Option<Value>, DecodeError> {
            let Some(i) = by_number(n) else {
                return Ok(None);
            };
            let (Slot::Message(bytes), Type::Message(m)) = (&slots[i], msg.fields[i].ty) else {
                return Ok(None);
            };
            self.message(m, bytes, depth + 1).map(Some)
        };
        Ok(match special {
            Special::Time if int(1) == gotime::GO_ZERO_TIME => Value::Null,
            Special::Time => Value::String(gotime::format_time(int(1))),
            Special::MicroTime => match gotime::micro_time(int(1), int(2)) {
                (gotime::GO_ZERO_TIME, 0) => Value::Null,
                (secs, nanos) => Value::String(gotime::format_micro_time(secs, nanos)),
            },
            Special::Duration => Value::String(gotime::format_duration(int(1))),
            Special::Quantity => match get(1) {
                Some(v) => v,
                None => Value::String("0".to_owned()),
            },
            Special::IntOrString => match int(1) {
                0 => Value::from(int(2)),
                1 => Value::String(text(3)),
                _ => {
                    return Err(DecodeError::InvalidJson {
                        field: name(),
                        detail: "impossible IntOrString.Type".to_owned(),
                    });
                }
            },
            Special::RawExtension => match raw(1) {
                None | Some([]) => Value::Null,
                Some(b) if b.starts_with(MAGIC) => self.envelope(b, depth + 1)?,
                Some(b) if looks_like_json(b) => parse_json(b, &name())?,
                Some(_) => return Err(DecodeError::UnknownRawContent { field: name() }),
            },
            Special::RawJson => match raw(1) {
                None | Some([]) => Value::Null,
                Some(b) => parse_json(b, &name())?,
            },
            Special::StringList => list(1).unwrap_or_else(|| Value::Array(Vec::new())),
            Special::GroupVersion => {
                let (g, v) = (text(1), text(2));
                Value::String(if g.is_empty() { v } else { format!("{g}/{v}") })
            }
            Special::PropsOrArray => match list(2) {
                Some(l) => l,
                None => schema(1)?.unwrap_or(Value::Null),
            },
            Special::PropsOrBool => match schema(2)? {
                Some(s) => s,
                None => Value::Bool(get(1).and_then(|v| v.as_bool()).unwrap_or(false)),
            },
            Special::PropsOrStringArray => match list(2) {
                Some(l) => l,
                None => schema(1)?.unwrap_or(Value::Null),
            },
        })
    }
}
