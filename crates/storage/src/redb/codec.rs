//! The byte layout of the redb tables (kine's log shape, see research/apiserver.md §7). Decoding
//! checks every length, so a damaged file yields [`Error::Corrupt`], never a panic.

use bytes::Bytes;

use crate::{Error, Event, EventKind, KeyValue, Result, Revision};

/// `kv` value: create revision, mod revision (both u64 little-endian), then the value.
pub(super) fn encode_kv(
    create_revision: Revision,
    mod_revision: Revision,
    value: &[u8],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + value.len());
    out.extend_from_slice(&create_revision.to_le_bytes());
    out.extend_from_slice(&mod_revision.to_le_bytes());
    out.extend_from_slice(value);
    out
}

pub(super) fn decode_kv(key: &str, bytes: &[u8]) -> Result<KeyValue> {
    let mut r = Reader {
        bytes,
        what: "kv record",
    };
    let create_revision = r.u64()?;
    let mod_revision = r.u64()?;
    Ok(KeyValue {
        key: key.to_owned(),
        value: Bytes::copy_from_slice(r.bytes),
        create_revision,
        mod_revision,
    })
}

/// `log` value (the revision is the table key): kind, create revision, previous mod revision,
/// key, then the optional new and previous values, each length-prefixed.
pub(super) fn encode_event(event: &Event) -> Vec<u8> {
    let len = event.key.len()
        + event.value.as_ref().map_or(0, Bytes::len)
        + event.prev_value.as_ref().map_or(0, Bytes::len);
    let mut out = Vec::with_capacity(40 + len);
    out.push(match event.kind {
        EventKind::Added => 0,
        EventKind::Modified => 1,
        EventKind::Deleted => 2,
    });
    out.extend_from_slice(&event.create_revision.to_le_bytes());
    out.extend_from_slice(&event.prev_mod_revision.to_le_bytes());
    put_bytes(&mut out, event.key.as_bytes());
    for value in [&event.value, &event.prev_value] {
        match value {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                put_bytes(&mut out, value);
            }
        }
    }
    out
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    // Keys and values are far below 4 GiB (the server limits request bodies); saturate rather
    // than wrap so an impossible length fails decoding instead of misreading.
    out.extend_from_slice(&u32::try_from(bytes.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(bytes);
}

pub(super) fn decode_event(revision: Revision, bytes: &[u8]) -> Result<Event> {
    let mut r = Reader {
        bytes,
        what: "log record",
    };
    let kind = match r.take(1)?[0] {
        0 => EventKind::Added,
        1 => EventKind::Modified,
        2 => EventKind::Deleted,
        other => {
            return Err(Error::Corrupt(format!(
                "log record {revision}: unknown event kind {other}"
            )));
        }
    };
    let create_revision = r.u64()?;
    let prev_mod_revision = r.u64()?;
    let key = std::str::from_utf8(r.sized()?)
        .map_err(|_| Error::Corrupt(format!("log record {revision}: key is not UTF-8")))?
        .to_owned();
    let value = r.optional()?;
    let prev_value = r.optional()?;
    if !r.bytes.is_empty() {
        return Err(Error::Corrupt(format!(
            "log record {revision}: trailing bytes"
        )));
    }
    let consistent = match kind {
        EventKind::Added => value.is_some() && prev_value.is_none(),
        EventKind::Modified => value.is_some() && prev_value.is_some(),
        EventKind::Deleted => value.is_none() && prev_value.is_some(),
    };
    if !consistent {
        return Err(Error::Corrupt(format!(
            "log record {revision}: values do not match the event kind"
        )));
    }
    Ok(Event {
        kind,
        key,
        revision,
        create_revision,
        value,
        prev_value,
        prev_mod_revision,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.bytes.len() < n {
            return Err(Error::Corrupt(format!("{} truncated", self.what)));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u64(&mut self) -> Result<u64> {
        let mut buf = [0; 8];
        buf.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(buf))
    }

    fn sized(&mut self) -> Result<&'a [u8]> {
        let mut buf = [0; 4];
        buf.copy_from_slice(self.take(4)?);
        let len = usize::try_from(u32::from_le_bytes(buf))
            .map_err(|_| Error::Corrupt(format!("{} length", self.what)))?;
        self.take(len)
    }

    fn optional(&mut self) -> Result<Option<Bytes>> {
        match self.take(1)?[0] {
            0 => Ok(None),
            1 => Ok(Some(Bytes::copy_from_slice(self.sized()?))),
            other => Err(Error::Corrupt(format!(
                "{}: bad option tag {other}",
                self.what
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event() -> Event {
        Event {
            kind: EventKind::Modified,
            key: "/registry/a".into(),
            revision: 7,
            create_revision: 3,
            value: Some(Bytes::from_static(b"{\"new\":1}")),
            prev_value: Some(Bytes::from_static(b"{}")),
            prev_mod_revision: 5,
        }
    }

    #[test]
    fn event_round_trip() {
        let e = event();
        assert_eq!(decode_event(7, &encode_event(&e)).unwrap(), e);
        let kv = decode_kv("/k", &encode_kv(2, 9, b"v")).unwrap();
        assert_eq!(
            (kv.create_revision, kv.mod_revision, &kv.value[..]),
            (2, 9, &b"v"[..])
        );
    }

    #[test]
    fn every_truncation_and_garbage_is_an_error() {
        let bytes = encode_event(&event());
        for n in 0..bytes.len() {
            assert!(
                matches!(decode_event(7, &bytes[..n]), Err(Error::Corrupt(_))),
                "truncated at {n}"
            );
        }
        let mut kind = bytes.clone();
        kind[0] = 9;
        assert!(matches!(decode_event(7, &kind), Err(Error::Corrupt(_))));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(decode_event(7, &long), Err(Error::Corrupt(_))));
        // An Added record that carries a previous value is inconsistent.
        let mut added = bytes;
        added[0] = 0;
        assert!(matches!(decode_event(7, &added), Err(Error::Corrupt(_))));
        assert!(matches!(
            decode_kv("/k", &[1, 2, 3]),
            Err(Error::Corrupt(_))
        ));
    }
}
