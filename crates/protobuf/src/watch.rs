//! Watch streams as protobuf (`application/vnd.kubernetes.protobuf;stream=watch`): frames of a
//! four-byte big-endian length and a `meta.v1.WatchEvent` written without envelope, whose
//! `object.raw` is the object in its own envelope (apiserver `endpoints/handlers/watch.go`,
//! apimachinery `runtime/serializer/protobuf/protobuf.go` `RawSerializer`,
//! `util/framer/framer.go` `lengthDelimitedFrameWriter`).

use serde_json::Value;

use crate::decode::Decoder;
use crate::encode::Encoder;
use crate::envelope::MAGIC;
use crate::error::{DecodeError, EncodeError};
use crate::wire::{self, Reader, begin_len, end_len, put_bytes};

/// A decoded watch event.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    /// `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR`.
    pub event_type: String,
    /// The object (a `Status` for `ERROR`), with its `apiVersion` and `kind`.
    pub object: Value,
}

/// One frame: the length prefix and the event.
pub(crate) fn encode(
    enc: &Encoder<'_>,
    event_type: &str,
    object: &Value,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = vec![0; 4];
    put_bytes(&mut out, 1, event_type.as_bytes());
    let object_start = begin_len(&mut out, 2);
    let raw_start = begin_len(&mut out, 1);
    enc.envelope(object, &mut out, 0)?;
    end_len(&mut out, raw_start);
    end_len(&mut out, object_start);
    let len =
        u32::try_from(out.len() - 4).map_err(|_| EncodeError::FrameTooLarge(out.len() - 4))?;
    out[..4].copy_from_slice(&len.to_be_bytes());
    Ok(out)
}

/// A frame's event (the bytes after the length prefix).
pub(crate) fn decode(dec: &Decoder<'_>, event: &[u8]) -> Result<WatchEvent, DecodeError> {
    let mut event_type = String::new();
    let mut raw: &[u8] = &[];
    let mut r = Reader::new(event);
    while !r.done() {
        let (number, wire_type) = r.key("WatchEvent")?;
        match number {
            1 | 2 if wire_type != wire::LEN => {
                let field = if number == 1 { "type" } else { "object" };
                return Err(DecodeError::WrongWireType {
                    field: field.to_owned(),
                    wire: wire_type,
                });
            }
            1 => event_type = String::from_utf8_lossy(r.bytes()?).into_owned(),
            2 => {
                let mut o = Reader::new(r.bytes()?);
                while !o.done() {
                    match o.key("RawExtension")? {
                        (1, wire::LEN) => raw = o.bytes()?,
                        (1, w) => {
                            return Err(DecodeError::WrongWireType {
                                field: "raw".to_owned(),
                                wire: w,
                            });
                        }
                        (_, w) => o.skip(w)?,
                    }
                }
            }
            _ => r.skip(wire_type)?,
        }
    }
    let object = if raw.starts_with(MAGIC) {
        dec.envelope(raw, 1)?
    } else if raw.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(raw).map_err(|e| DecodeError::InvalidJson {
            field: "object".to_owned(),
            detail: e.to_string(),
        })?
    };
    Ok(WatchEvent { event_type, object })
}

/// Why a frame could not be cut from a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameError {
    /// The frame announces more bytes than the limit allows.
    TooLarge {
        /// The announced length.
        len: u64,
        /// The limit.
        max: usize,
    },
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLarge { len, max } => {
                write!(f, "watch frame of {len} bytes exceeds the limit of {max}")
            }
        }
    }
}

impl std::error::Error for FrameError {}

/// A frame's event and the bytes after it.
pub type Frame<'a> = (&'a [u8], &'a [u8]);

/// Cuts the first frame off a buffer: `Ok(Some((event, rest)))`, or `Ok(None)` while the frame
/// is incomplete. A length over `max` is refused before anything is buffered for it.
///
/// # Errors
/// [`FrameError::TooLarge`].
pub fn split_frame(buf: &[u8], max: usize) -> Result<Option<Frame<'_>>, FrameError> {
    let Some((head, rest)) = buf.split_first_chunk::<4>() else {
        return Ok(None);
    };
    let len = u32::from_be_bytes(*head);
    if u64::from(len) > max as u64 {
        return Err(FrameError::TooLarge {
            len: u64::from(len),
            max,
        });
    }
    let len = len as usize;
    Ok((rest.len() >= len).then(|| rest.split_at(len)))
}
