//! Snapshot reads over "current state + write log", shared by the memory and redb backends.
//!
//! etcd's mvcc (server/mvcc/kvstore.go, index.go) keeps every revision of every key until
//! compaction. We keep the current state plus the log of writes since the compacted revision,
//! which holds the same information: a key's value at revision R is its current value unless a
//! write after R touched it, in which case it is the value before the first such write.

use std::collections::BTreeMap;
use std::ops::Bound;

use crate::{Error, Event, KeyValue, ListOptions, Result, Revision};

/// The revision a list reads at: `at` if given and still readable, else `current`.
pub(crate) fn read_revision(
    at: Option<Revision>,
    current: Revision,
    compacted: Revision,
) -> Result<Revision> {
    match at {
        None => Ok(current),
        Some(requested) if requested > current => Err(Error::FutureRevision { requested, current }),
        Some(requested) if requested < compacted => Err(Error::Compacted {
            requested,
            compacted,
        }),
        Some(requested) => Ok(requested),
    }
}

/// The first key a list looks at: strictly after the continue key, or the prefix itself.
pub(crate) fn lower_bound<'a>(prefix: &'a str, options: &'a ListOptions) -> Bound<&'a str> {
    match options.continue_key.as_deref() {
        Some(after) if after >= prefix => Bound::Excluded(after),
        _ => Bound::Included(prefix),
    }
}

/// The least key above every key under `prefix` (etcd clientv3 `op.go` `getPrefix`: the last
/// byte incremented), when that is simple: the prefix ends in an ASCII byte below DEL, so the
/// end is ASCII too. `None` for any other prefix (the caller checks keys against it).
pub(crate) fn prefix_end(prefix: &str) -> Option<String> {
    let &last = prefix.as_bytes().last()?;
    if last >= 0x7f {
        return None;
    }
    // An ASCII last byte is a whole character: the head is a valid string.
    let mut end = String::with_capacity(prefix.len());
    end.push_str(&prefix[..prefix.len() - 1]);
    end.push(char::from(last + 1));
    Some(end)
}

/// Whether `key` lies in the list's range (under `prefix`, after `lower`).
fn in_range(key: &str, prefix: &str, lower: Bound<&str>) -> bool {
    key.starts_with(prefix)
        && match lower {
            Bound::Excluded(after) => key > after,
            Bound::Included(first) => key >= first,
            Bound::Unbounded => true,
        }
}

/// The states at revision R of the keys in range that writes after R touched, from the events
/// after R in revision order: the value before the first such write (`None`: absent at R).
pub(crate) fn overlay<'e>(
    events_after: impl IntoIterator<Item = &'e Event>,
    prefix: &str,
    lower: Bound<&str>,
) -> BTreeMap<String, Option<KeyValue>> {
    overlay_of(events_after, prefix, lower, |e| &e.key, Event::prev_kv)
}

/// [`overlay`] over any record of writes: `key` names the key written, `before` its state
/// before the write.
pub(crate) fn overlay_of<'e, E: 'e, T>(
    writes_after: impl IntoIterator<Item = &'e E>,
    prefix: &str,
    lower: Bound<&str>,
    key: impl Fn(&'e E) -> &'e str,
    before: impl Fn(&'e E) -> Option<T>,
) -> BTreeMap<String, Option<T>> {
    let mut states = BTreeMap::new();
    for write in writes_after {
        let k = key(write);
        if in_range(k, prefix, lower) && !states.contains_key(k) {
            states.insert(k.to_owned(), before(write));
        }
    }
    states
}

/// Merges the current items in range (sorted by key) with the overlay of the keys changed since
/// the read revision and cuts the page at `limit`: the state at the read revision, as a page,
/// and whether more items follow.
pub(crate) fn page(
    current: impl Iterator<Item = Result<KeyValue>>,
    overlay: BTreeMap<String, Option<KeyValue>>,
    limit: Option<usize>,
) -> Result<(Vec<KeyValue>, bool)> {
    let limit = limit.filter(|&n| n > 0).unwrap_or(usize::MAX);
    let mut items = Vec::new();
    for kv in merge(current, overlay, |kv: &KeyValue| kv.key.as_str()) {
        let kv = kv?;
        if items.len() == limit {
            return Ok((items, true));
        }
        items.push(kv);
    }
    Ok((items, false))
}

/// The state at the read revision, in key order: the current items in range (sorted by key)
/// where no write after the revision touched them, else the overlay's state (absent: skipped).
/// Shared by the backends' snapshot lists and the watch cache's.
pub(crate) fn merge<'k, T: 'k>(
    current: impl Iterator<Item = Result<T>>,
    overlay: BTreeMap<String, Option<T>>,
    key: impl Fn(&T) -> &str,
) -> impl Iterator<Item = Result<T>> {
    let mut current = current.peekable();
    let mut overlay = overlay.into_iter().peekable();
    std::iter::from_fn(move || {
        loop {
            let next = match (current.peek(), overlay.peek()) {
                (None, None) => return None,
                (Some(Err(_)), _) => return current.next(),
                (Some(Ok(item)), Some((changed, _))) if key(item) == changed.as_str() => {
                    current.next();
                    overlay.next().and_then(|(_, state)| state)
                }
                (Some(Ok(item)), Some((changed, _))) if key(item) < changed.as_str() => {
                    current.next().and_then(Result::ok)
                }
                (_, Some(_)) => overlay.next().and_then(|(_, state)| state),
                (Some(Ok(_)), None) => current.next().and_then(Result::ok),
            };
            if let Some(item) = next {
                return Some(Ok(item));
            }
        }
    })
}
