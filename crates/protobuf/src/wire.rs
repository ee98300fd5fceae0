//! The protobuf wire format as gogo's generated code reads and writes it (k8s.io/api
//! `generated.pb.go`: `encodeVarintGenerated`, `skipGenerated`), with its error texts.
//!
//! Lengths are checked against the bytes that remain before anything is sliced or allocated,
//! so a hostile length costs nothing.

use crate::error::DecodeError;

/// Wire types.
pub(crate) const VARINT: u8 = 0;
pub(crate) const FIXED64: u8 = 1;
pub(crate) const LEN: u8 = 2;
pub(crate) const START_GROUP: u8 = 3;
pub(crate) const END_GROUP: u8 = 4;
pub(crate) const FIXED32: u8 = 5;

/// Groups nest at most this deep when skipped (gogo's `skipGenerated` counts them too).
const MAX_GROUP_DEPTH: usize = 64;

pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    pub(crate) fn done(&self) -> bool {
        self.pos >= self.buf.len()
    }

    pub(crate) fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v: u64 = 0;
        let mut shift = 0u32;
        loop {
            if shift >= 64 {
                return Err(DecodeError::IntOverflow);
            }
            let Some(&b) = self.buf.get(self.pos) else {
                return Err(DecodeError::UnexpectedEof);
            };
            self.pos += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
            shift += 7;
        }
    }

    /// A field key: (field number, wire type). Go keeps the number as an int32.
    pub(crate) fn key(&mut self, message: &str) -> Result<(u32, u8), DecodeError> {
        let wire = self.varint()?;
        let number = wire >> 3;
        let wire_type = (wire & 7) as u8;
        if wire_type == END_GROUP {
            return Err(DecodeError::EndGroup(message.to_owned()));
        }
        if number == 0 || number > i32::MAX as u64 {
            return Err(DecodeError::IllegalTag {
                message: message.to_owned(),
                tag: number as i64 as i32,
                wire: wire_type,
            });
        }
        Ok((number as u32, wire_type))
    }

    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let len = self.varint()?;
        if (len as i64) < 0 {
            return Err(DecodeError::InvalidLength);
        }
        let rest = self.buf.len() - self.pos;
        if len > rest as u64 {
            return Err(DecodeError::UnexpectedEof);
        }
        let out = &self.buf[self.pos..self.pos + len as usize];
        self.pos += len as usize;
        Ok(out)
    }

    pub(crate) fn fixed64(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(
            b.try_into().map_err(|_| DecodeError::UnexpectedEof)?,
        ))
    }

    pub(crate) fn fixed32(&mut self) -> Result<u32, DecodeError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes(
            b.try_into().map_err(|_| DecodeError::UnexpectedEof)?,
        ))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.buf.len() - self.pos < n {
            return Err(DecodeError::UnexpectedEof);
        }
        let out = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Skips the value of an unknown field (`skipGenerated`).
    pub(crate) fn skip(&mut self, wire: u8) -> Result<(), DecodeError> {
        let mut depth = 0usize;
        let mut wire = wire;
        loop {
            match wire {
                VARINT => {
                    self.varint()?;
                }
                FIXED64 => {
                    self.take(8)?;
                }
                LEN => {
                    self.bytes()?;
                }
                FIXED32 => {
                    self.take(4)?;
                }
                START_GROUP => {
                    depth += 1;
                    if depth > MAX_GROUP_DEPTH {
                        return Err(DecodeError::TooDeep(MAX_GROUP_DEPTH));
                    }
                }
                END_GROUP => {
                    if depth == 0 {
                        return Err(DecodeError::UnexpectedEndGroup);
                    }
                    depth -= 1;
                }
                other => return Err(DecodeError::IllegalWireType(other)),
            }
            if depth == 0 {
                return Ok(());
            }
            let key = self.varint()?;
            wire = (key & 7) as u8;
        }
    }
}

pub(crate) fn put_varint(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push((v as u8) | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

pub(crate) fn put_key(buf: &mut Vec<u8>, number: u32, wire: u8) {
    put_varint(buf, (u64::from(number) << 3) | u64::from(wire));
}

pub(crate) fn put_bytes(buf: &mut Vec<u8>, number: u32, bytes: &[u8]) {
    put_key(buf, number, LEN);
    put_varint(buf, bytes.len() as u64);
    buf.extend_from_slice(bytes);
}

/// Starts a length-delimited value: one byte is reserved for its length, which most
/// Kubernetes messages fit in; [`end_len`] widens it when needed.
pub(crate) fn begin_len(buf: &mut Vec<u8>, number: u32) -> usize {
    put_key(buf, number, LEN);
    buf.push(0);
    buf.len()
}

pub(crate) fn end_len(buf: &mut Vec<u8>, start: usize) {
    let len = buf.len() - start;
    if len < 0x80 {
        buf[start - 1] = len as u8;
        return;
    }
    let mut head = Vec::with_capacity(10);
    put_varint(&mut head, len as u64);
    let extra = head.len() - 1;
    buf.resize(buf.len() + extra, 0);
    buf.copy_within(start..start + len, start + extra);
    buf[start - 1..start - 1 + head.len()].copy_from_slice(&head);
}
