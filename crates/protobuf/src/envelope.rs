//! The envelope of every protobuf body: the magic `k8s\0`, then a `runtime.Unknown` whose
//! `typeMeta` names the kind and whose `raw` holds the object's message (apimachinery
//! `runtime/serializer/protobuf/protobuf.go` `Serializer.Decode`/`doEncode`,
//! `runtime/types_proto.go` `NestedMarshalTo`).

use crate::error::DecodeError;
use crate::wire::{self, Reader};

/// The bytes every protobuf body starts with.
pub const MAGIC: &[u8; 4] = b"k8s\0";

/// The fields of a `runtime.Unknown` that decoding uses.
pub(crate) struct Unknown<'a> {
    pub(crate) api_version: String,
    pub(crate) kind: String,
    pub(crate) raw: &'a [u8],
}

/// Reads the magic and the `Unknown`, with `Serializer.Decode`'s errors.
pub(crate) fn read(data: &[u8]) -> Result<Unknown<'_>, DecodeError> {
    if data.is_empty() {
        return Err(DecodeError::EmptyData);
    }
    let Some(body) = data.strip_prefix(MAGIC) else {
        return Err(DecodeError::NoPrefix);
    };
    if body.is_empty() {
        return Err(DecodeError::EmptyBody);
    }
    let mut unknown = Unknown {
        api_version: String::new(),
        kind: String::new(),
        raw: &[],
    };
    let mut r = Reader::new(body);
    while !r.done() {
        let (number, wire_type) = r.key("Unknown")?;
        let wrong = |field: &str| DecodeError::WrongWireType {
            field: field.to_owned(),
            wire: wire_type,
        };
        match number {
            1 if wire_type == wire::LEN => {
                let mut t = Reader::new(r.bytes()?);
                while !t.done() {
                    let (n, w) = t.key("TypeMeta")?;
                    match n {
                        1 | 2 if w != wire::LEN => {
                            return Err(DecodeError::WrongWireType {
                                field: if n == 1 { "apiVersion" } else { "kind" }.to_owned(),
                                wire: w,
                            });
                        }
                        1 => unknown.api_version = String::from_utf8_lossy(t.bytes()?).into_owned(),
                        2 => unknown.kind = String::from_utf8_lossy(t.bytes()?).into_owned(),
                        _ => t.skip(w)?,
                    }
                }
            }
            1 => return Err(wrong("TypeMeta")),
            2 if wire_type == wire::LEN => unknown.raw = r.bytes()?,
            2 => return Err(wrong("Raw")),
            3 | 4 if wire_type != wire::LEN => {
                return Err(wrong(if number == 3 {
                    "ContentEncoding"
                } else {
                    "ContentType"
                }));
            }
            _ => r.skip(wire_type)?,
        }
    }
    if unknown.kind.is_empty() {
        return Err(DecodeError::MissingKind);
    }
    if unknown.api_version.is_empty() {
        return Err(DecodeError::MissingVersion);
    }
    Ok(unknown)
}

/// Writes the magic and an `Unknown` around `raw` as `NestedMarshalTo` does: `typeMeta`
/// (`apiVersion`, `kind`), `raw`, then the empty `contentEncoding` and `contentType`.
pub(crate) fn write<E>(
    out: &mut Vec<u8>,
    api_version: &str,
    kind: &str,
    raw: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
) -> Result<(), E> {
    out.extend_from_slice(MAGIC);
    let start = wire::begin_len(out, 1);
    wire::put_bytes(out, 1, api_version.as_bytes());
    wire::put_bytes(out, 2, kind.as_bytes());
    wire::end_len(out, start);
    let start = wire::begin_len(out, 2);
    raw(out)?;
    wire::end_len(out, start);
    wire::put_bytes(out, 3, b"");
    wire::put_bytes(out, 4, b"");
    Ok(())
}
