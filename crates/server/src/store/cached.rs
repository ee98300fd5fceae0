//! What the watch cache keeps of each stored object (the cacher's decoded objects and
//! `cachingObject`): the fields selections ask for, decoded once per write, and the object's
//! encoding as served, made once per view and shared as bytes by every LIST, GET and watcher.
//!
//! Mirrors apiserver `pkg/storage/cacher/watch_cache.go` (`GetAttrsFunc` run once per event:
//! labels and fields kept beside the object) and `caching_object.go` (one serialization per
//! encoder, handed to every watcher). The encoding is kept as the watch frame
//! `{"type":"ADDED","object":…}\n` it was first needed as; the object alone is a slice of it.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::{Bytes, BytesMut};
use crdkit_storage::{Decode, KeyValue};
use serde::Deserialize;
use serde_json::Value;

use super::head::{Str, StrPairs};

/// The cache over every key, objects decoded by [`Decoder`].
pub type Cache = crdkit_storage::WatchCache<Decoder>;
/// One state of an object in the cache.
pub type Entry = crdkit_storage::Entry<Decoded>;
/// One write delivered by the cache.
pub type Change = crdkit_storage::Change<Decoded>;

/// Decodes what selections need; see [`Decoded`].
#[derive(Debug, Default, Clone)]
pub struct Decoder {
    /// Heads left by writers for the bytes they wrote ([`Hints`]).
    hints: Option<Arc<Hints>>,
}

impl Decoder {
    /// A decoder that first takes what writers left in `hints`.
    #[must_use]
    pub fn with_hints(hints: Arc<Hints>) -> Decoder {
        Decoder { hints: Some(hints) }
    }
}

/// What writers know of the objects they are writing, for a backend whose watch hands out the
/// very bytes it was given ([`crdkit_storage::Storage::shares_values`]): the writer reads an
/// object's head from the value it has just encoded, and the cache takes it for the event of
/// those bytes instead of parsing them again.
///
/// Keyed by the bytes' address and length. Each hint holds a clone of its bytes, which keeps
/// their allocation alive, so no other bytes can have that address while the hint is kept: an
/// equal address means the same bytes. A write that fails takes its hint back
/// ([`Hints::forget`]); what is left behind otherwise (a cache that never saw the event) is
/// bounded in number and in bytes held.
#[derive(Debug)]
pub struct Hints(Mutex<Kept>);

#[derive(Debug)]
struct Kept {
    hints: VecDeque<(Bytes, Decoded)>,
    /// The bytes the hints hold.
    bytes: usize,
}

impl Default for Hints {
    fn default() -> Self {
        Hints(Mutex::new(Kept {
            hints: VecDeque::with_capacity(Self::KEPT),
            bytes: 0,
        }))
    }
}

impl Hints {
    /// Hints kept: far more than writes in flight. The oldest go first.
    const KEPT: usize = 256;
    /// Bytes the kept hints may hold (a few of the largest objects).
    const KEPT_BYTES: usize = 16 << 20;

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Leaves the head of `obj`, about to be stored as `bytes`.
    pub fn put(&self, bytes: &Bytes, obj: &Value) {
        if bytes.is_empty() || bytes.len() > Self::KEPT_BYTES {
            return;
        }
        let Some(head) = Decoded::of_value(obj) else {
            return;
        };
        let mut kept = self.lock();
        while kept.hints.len() >= Self::KEPT || kept.bytes + bytes.len() > Self::KEPT_BYTES {
            let Some((old, _)) = kept.hints.pop_front() else {
                break;
            };
            kept.bytes -= old.len();
        }
        kept.bytes += bytes.len();
        kept.hints.push_back((bytes.clone(), head));
    }

    /// The head left for `bytes`, taken.
    fn take(&self, bytes: &Bytes) -> Option<Decoded> {
        let mut kept = self.lock();
        let at = kept
            .hints
            .iter()
            .position(|(b, _)| (b.as_ptr(), b.len()) == (bytes.as_ptr(), bytes.len()))?;
        let (b, head) = kept.hints.remove(at)?;
        kept.bytes -= b.len();
        Some(head)
    }

    /// Drops the hint left for `bytes`, whose write failed.
    pub fn forget(&self, bytes: &Bytes) {
        self.take(bytes);
    }

    /// How many hints are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().hints.len()
    }
}

/// The stored object's `metadata.name`, `metadata.namespace` and labels (the string values
/// among them, as `unstructured` reads them), what the garbage collector reads, and its
/// encodings as served.
#[derive(Debug, Default)]
pub struct Decoded {
    /// `metadata.name` as stored.
    pub name: String,
    /// `metadata.namespace` as stored.
    pub namespace: String,
    /// `metadata.labels` as stored.
    pub labels: Labels,
    /// What the garbage collector's graph reads (`controllers::gc`): decoded here, once per
    /// write, so that the graph holds the cache's entries rather than copies of their fields.
    pub ownership: Ownership,
    encoded: Mutex<Option<Arc<Encoded>>>,
}

/// An object's identity and references as the garbage collector's graph reads them (Go's
/// graph watches objects' metadata only).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Ownership {
    /// `metadata.uid`; empty for an object the graph leaves out.
    pub uid: String,
    /// The group of `apiVersion`.
    pub group: String,
    /// `kind`.
    pub kind: String,
    /// `metadata.ownerReferences`.
    pub owners: Vec<OwnerRef>,
    /// Whether `metadata.deletionTimestamp` is set.
    pub deleting: bool,
    /// `metadata.finalizers`.
    pub finalizers: Vec<String>,
}

/// One `metadata.ownerReferences` entry, its fields as `unstructured` reads them (an entry that
/// is not an object has empty fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerRef {
    /// The group of `apiVersion`.
    pub group: String,
    /// `kind`.
    pub kind: String,
    /// `name`.
    pub name: String,
    /// `uid`.
    pub uid: String,
    /// `blockOwnerDeletion`.
    pub block: bool,
}

/// The group of an `apiVersion` (empty for the core group).
fn group_of(api_version: &str) -> String {
    api_version
        .rsplit_once('/')
        .map(|(g, _)| g.to_owned())
        .unwrap_or_default()
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Head {
    #[serde(default)]
    api_version: Str,
    #[serde(default)]
    kind: Str,
    #[serde(default)]
    metadata: Option<Meta>,
}

/// Only what selections and the garbage collector read; every other field is skipped without
/// being built.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Meta {
    #[serde(default)]
    name: Str,
    #[serde(default)]
    namespace: Str,
    #[serde(default)]
    labels: StrPairs,
    #[serde(default)]
    uid: Str,
    /// Rare, read as values.
    #[serde(default)]
    owner_references: Option<serde_json::Value>,
    #[serde(default)]
    finalizers: Option<serde_json::Value>,
    #[serde(default)]
    deletion_timestamp: Str,
}

impl Ownership {
    /// `api_version` and `kind` of the object, `meta` its decoded `metadata`.
    fn of(api_version: Str, kind: Str, meta: &mut Meta) -> Ownership {
        let uid = std::mem::take(&mut meta.uid).text();
        Ownership::read(
            uid,
            &api_version.text(),
            kind.text(),
            meta.owner_references.as_ref(),
            meta.finalizers.as_ref(),
            !std::mem::take(&mut meta.deletion_timestamp)
                .text()
                .is_empty(),
        )
    }

    /// The ownership of an object with `uid` (none without one).
    fn read(
        uid: String,
        api_version: &str,
        kind: String,
        owner_references: Option<&Value>,
        finalizers: Option<&Value>,
        deleting: bool,
    ) -> Ownership {
        if uid.is_empty() {
            return Ownership::default();
        }
        let owners = match owner_references {
            Some(Value::Array(refs)) => refs
                .iter()
                .map(|r| OwnerRef {
                    group: group_of(r["apiVersion"].as_str().unwrap_or("")),
                    kind: r["kind"].as_str().unwrap_or("").to_owned(),
                    name: r["name"].as_str().unwrap_or("").to_owned(),
                    uid: r["uid"].as_str().unwrap_or("").to_owned(),
                    block: r["blockOwnerDeletion"].as_bool() == Some(true),
                })
                .collect(),
            _ => Vec::new(),
        };
        let finalizers = match finalizers {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        Ownership {
            uid,
            group: group_of(api_version),
            kind,
            owners,
            deleting,
            finalizers,
        }
    }
}

/// A string field as the decoder reads it: empty when absent or not a string.
fn text(v: Option<&Value>) -> &str {
    v.and_then(Value::as_str).unwrap_or_default()
}

impl Decoded {
    /// What [`Decoder`] reads from the JSON of `obj`, read from the value. `None` for an object
    /// whose JSON the decoder does not read field by field (`metadata` neither an object nor
    /// null: it reads nothing then); those are decoded from their bytes.
    fn of_value(obj: &Value) -> Option<Decoded> {
        let obj = obj.as_object()?;
        let empty = serde_json::Map::new();
        let meta = match obj.get("metadata") {
            None | Some(Value::Null) => &empty,
            Some(Value::Object(meta)) => meta,
            Some(_) => return None,
        };
        let labels = match meta.get("labels") {
            Some(Value::Object(labels)) => Labels::new(
                labels
                    .iter()
                    .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?))),
            ),
            _ => Labels::default(),
        };
        let ownership = Ownership::read(
            text(meta.get("uid")).to_owned(),
            text(obj.get("apiVersion")),
            text(obj.get("kind")).to_owned(),
            meta.get("ownerReferences"),
            meta.get("finalizers"),
            !text(meta.get("deletionTimestamp")).is_empty(),
        );
        Some(Decoded {
            name: text(meta.get("name")).to_owned(),
            namespace: text(meta.get("namespace")).to_owned(),
            labels,
            ownership,
            encoded: Mutex::new(None),
        })
    }
}

impl Decode for Decoder {
    type Object = Decoded;

    /// One term per label ([`label_term`]), for lists selecting a label's value.
    fn terms(&self, object: &Decoded) -> Vec<String> {
        object
            .labels
            .pairs()
            .map(|(k, v)| label_term(k, v))
            .collect()
    }

    /// A label's key: a list selecting one value of a label has every value of it indexed.
    fn family<'t>(&self, term: &'t str) -> &'t str {
        term.split_once('=').map_or(term, |(key, _)| key)
    }

    fn decode(&self, kv: &KeyValue) -> Decoded {
        if let Some(head) = self.hints.as_ref().and_then(|h| h.take(&kv.value)) {
            return head;
        }
        // A value that is not an object decodes to nothing here; reading it fails with a 500
        // where it is served (`super::decode`).
        // Only an object: a struct would also read from an array, by position.
        let head = match kv.value.trim_ascii_start().first() {
            Some(b'{') => serde_json::from_slice::<Head>(&kv.value).unwrap_or_default(),
            _ => Head::default(),
        };
        let mut meta = head.metadata.unwrap_or_default();
        let labels = Labels::new(meta.labels.0.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        Decoded {
            ownership: Ownership::of(head.api_version, head.kind, &mut meta),
            name: meta.name.text(),
            namespace: meta.namespace.text(),
            labels,
            encoded: Mutex::new(None),
        }
    }
}

/// The index term of label `key` with `value` (`key=value`: label keys hold no `=`, and the
/// index only narrows, so a clash could cost time, never a wrong answer).
#[must_use]
pub fn label_term(key: &str, value: &str) -> String {
    let mut term = String::with_capacity(key.len() + 1 + value.len());
    term.push_str(key);
    term.push('=');
    term.push_str(value);
    term
}

/// An object's labels in one buffer, keys sorted: per label the key's and the value's byte
/// lengths (LEB128), then their bytes. A few short labels are kept inline in the entry: a list
/// selecting by label reads each entry once, without following a pointer or scanning for
/// separators.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Labels(Buf);

/// Bytes kept inline up to [`INLINE`], else boxed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Buf {
    Inline(u8, [u8; INLINE]),
    Heap(Box<[u8]>),
}

/// Inline capacity: with the tag and the length, 56 bytes (two or three short labels).
const INLINE: usize = 54;

impl Default for Buf {
    fn default() -> Self {
        Buf::Inline(0, [0; INLINE])
    }
}

impl Labels {
    /// The labels `pairs` (sorted by key, as a JSON object's keys are).
    pub fn new<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Labels {
        let mut buf = Vec::new();
        for (k, v) in pairs {
            push_len(&mut buf, k.len());
            push_len(&mut buf, v.len());
            buf.extend_from_slice(k.as_bytes());
            buf.extend_from_slice(v.as_bytes());
        }
        Labels(match u8::try_from(buf.len()) {
            Ok(len) if buf.len() <= INLINE => {
                let mut inline = [0; INLINE];
                inline[..buf.len()].copy_from_slice(&buf);
                Buf::Inline(len, inline)
            }
            _ => Buf::Heap(buf.into_boxed_slice()),
        })
    }

    fn bytes(&self) -> &[u8] {
        match &self.0 {
            Buf::Inline(len, buf) => &buf[..usize::from(*len)],
            Buf::Heap(buf) => buf,
        }
    }

    /// The labels in order.
    fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        let mut rest = self.bytes();
        std::iter::from_fn(move || {
            let (klen, r) = take_len(rest)?;
            let (vlen, r) = take_len(r)?;
            let (k, r) = r.split_at_checked(klen)?;
            let (v, r) = r.split_at_checked(vlen)?;
            rest = r;
            Some((k, v))
        })
    }

    /// The value of label `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        let (_, v) = self.iter().find(|(k, _)| *k == key.as_bytes())?;
        // Built from strings, cut at their lengths.
        std::str::from_utf8(v).ok()
    }

    /// The labels, keys sorted.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        // Built from strings, cut at their lengths: never invalid.
        let s = |b| std::str::from_utf8(b).unwrap_or_default();
        self.iter().map(move |(k, v)| (s(k), s(v)))
    }

    /// The labels as a map.
    #[cfg(test)]
    #[must_use]
    pub fn to_map(&self) -> std::collections::BTreeMap<String, String> {
        self.pairs()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }
}

fn push_len(buf: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        buf.push(u8::try_from(n & 0x7f).unwrap_or(0) | 0x80);
        n >>= 7;
    }
    buf.push(u8::try_from(n).unwrap_or(0));
}

fn take_len(buf: &[u8]) -> Option<(usize, &[u8])> {
    let mut n = 0usize;
    for (i, &b) in buf.iter().enumerate().take(10) {
        n |= usize::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            return Some((n, &buf[i + 1..]));
        }
    }
    None
}

/// What a stored object is served as: the version it was converted to and the rules it was
/// decoded with (a CRD's mod revision: a new CRD means new schemas), so that objects read
/// under equal views encode equally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// The mod revision of the CRD whose schemas decoded the object (0: built in).
    pub rules: u64,
    /// The request version.
    pub version: String,
}

/// A watch event's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// `ADDED`
    Added,
    /// `MODIFIED`
    Modified,
    /// `DELETED`
    Deleted,
}

impl EventType {
    /// The frame's head up to the object.
    fn head(self) -> &'static [u8] {
        match self {
            EventType::Added => br#"{"type":"ADDED","object":"#,
            EventType::Modified => br#"{"type":"MODIFIED","object":"#,
            EventType::Deleted => br#"{"type":"DELETED","object":"#,
        }
    }
}

const TAIL: &[u8] = b"}\n";

/// An object as served under one view: its JSON inside a watch frame.
#[derive(Debug)]
pub struct Encoded {
    view: View,
    ty: EventType,
    frame: Bytes,
}

impl Encoded {
    /// Wraps the JSON of an object as a frame of type `ty`.
    #[must_use]
    pub fn new(view: View, ty: EventType, json: &[u8]) -> Encoded {
        Encoded {
            view,
            ty,
            frame: frame(ty, json),
        }
    }

    /// The object's JSON (shares the frame's bytes).
    #[must_use]
    pub fn json(&self) -> Bytes {
        let head = self.ty.head().len();
        self.frame.slice(head..self.frame.len() - TAIL.len())
    }

    /// The watch frame of type `ty`: shared when it is the kept one, else built.
    #[must_use]
    pub fn frame(&self, ty: EventType) -> Bytes {
        if ty == self.ty {
            self.frame.clone()
        } else {
            frame(ty, &self.json())
        }
    }
}

fn frame(ty: EventType, json: &[u8]) -> Bytes {
    let head = ty.head();
    let mut b = BytesMut::with_capacity(head.len() + json.len() + TAIL.len());
    b.extend_from_slice(head);
    b.extend_from_slice(json);
    b.extend_from_slice(TAIL);
    b.freeze()
}

impl Decoded {
    /// The encoding kept for the view of `rules` and `version` (see [`View`]), if any.
    #[must_use]
    pub fn encoded_for(&self, rules: u64, version: &str) -> Option<Arc<Encoded>> {
        self.slot()
            .as_ref()
            .filter(|e| e.view.rules == rules && e.view.version == version)
            .cloned()
    }

    /// Keeps `encoded` (one view at a time: the last one asked for).
    pub fn keep(&self, encoded: Arc<Encoded>) {
        *self.slot() = Some(encoded);
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Arc<Encoded>>> {
        self.encoded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(value: &[u8]) -> Decoded {
        Decoder::default().decode(&KeyValue {
            key: "/k".into(),
            value: Bytes::copy_from_slice(value),
            create_revision: 1,
            mod_revision: 1,
        })
    }

    fn head(d: &Decoded) -> (&str, &str, &Labels, &Ownership) {
        (&d.name, &d.namespace, &d.labels, &d.ownership)
    }

    /// A writer's hint must be what the cache would have parsed from the bytes.
    #[test]
    fn heads_read_from_values_are_those_read_from_bytes() {
        use serde_json::json;
        let objects = [
            json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "a",
                "namespace": "ns", "uid": "u", "labels": {"x": "y", "n": 1, "z": ""},
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "d",
                    "uid": "o", "blockOwnerDeletion": true}, 7, {"apiVersion": 3}],
                "finalizers": ["f", 1], "deletionTimestamp": "2021-01-01T00:00:00Z",
                "managedFields": [{"manager": "m"}]}, "spec": {"x": [1, {"y": null}]}}),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}}),
            json!({"apiVersion": 1, "kind": ["x"], "metadata": {"name": 2, "uid": "u",
                "labels": ["a"], "finalizers": "f", "ownerReferences": {"a": 1},
                "deletionTimestamp": 5}}),
            json!({"apiVersion": "g/v", "kind": "K", "metadata": {"uid": "", "labels": "x",
                "ownerReferences": [{"uid": "o"}]}}),
            json!({"apiVersion": "g/v", "kind": "K", "metadata": null}),
            json!({"kind": "K"}),
            json!({}),
        ];
        for obj in &objects {
            let from_value = Decoded::of_value(obj).expect("read field by field");
            let from_bytes = decode(&serde_json::to_vec(obj).unwrap());
            assert_eq!(head(&from_value), head(&from_bytes), "{obj}");
        }
        // What the decoder does not read field by field is left to it.
        for obj in [
            json!({"metadata": ["a", "b"]}),
            json!({"metadata": "m"}),
            json!([1]),
        ] {
            assert!(Decoded::of_value(&obj).is_none(), "{obj}");
        }
    }

    /// A hint is taken once, for the very bytes it was left for; the oldest go first.
    #[test]
    fn hints_are_taken_for_the_bytes_they_were_left_for() {
        use serde_json::json;
        let hints = Arc::new(Hints::default());
        let decoder = Decoder::with_hints(Arc::clone(&hints));
        let kv = |value: &Bytes| KeyValue {
            key: "/k".into(),
            value: value.clone(),
            create_revision: 1,
            mod_revision: 1,
        };
        let written = Bytes::from_static(br#"{"metadata":{"name":"in-bytes"}}"#);
        // A head that is not that of the bytes shows where a decode came from.
        hints.put(&written, &json!({"metadata": {"name": "hinted"}}));
        let copy = Bytes::copy_from_slice(&written);
        assert_eq!(decoder.decode(&kv(&copy)).name, "in-bytes");
        assert_eq!(decoder.decode(&kv(&written)).name, "hinted");
        assert_eq!(decoder.decode(&kv(&written)).name, "in-bytes");
        // Hints left by writes that never reached storage are dropped, oldest first.
        let first = Bytes::from_static(br#"{"metadata":{"name":"first"}}"#);
        hints.put(&first, &json!({"metadata": {"name": "hinted"}}));
        let mut kept = Vec::new();
        for i in 0..Hints::KEPT {
            let b = Bytes::from(format!(r#"{{"metadata":{{"name":"n{i}"}}}}"#));
            hints.put(&b, &json!({"metadata": {"name": "hinted"}}));
            kept.push(b);
        }
        assert_eq!(decoder.decode(&kv(&first)).name, "first");
        assert_eq!(decoder.decode(&kv(&kept[0])).name, "hinted");
        assert_eq!(decoder.decode(&kv(&kept[Hints::KEPT - 1])).name, "hinted");
        // Values the decoder reads otherwise leave no hint.
        let odd = Bytes::from_static(br#"{"metadata":"m"}"#);
        hints.put(&odd, &json!({"metadata": "m"}));
        assert_eq!(hints.len(), Hints::KEPT - 2);
        // Bounded in bytes too: large values push out the oldest, none is kept past the bound.
        let big = |c: u8| Bytes::from(vec![c; Hints::KEPT_BYTES / 3]);
        let bigs = [big(b'a'), big(b'b'), big(b'c')];
        for b in &bigs {
            hints.put(b, &json!({"metadata": {"name": "big"}}));
        }
        let kept = hints.lock();
        assert!(kept.bytes <= Hints::KEPT_BYTES);
        assert_eq!(
            kept.bytes,
            kept.hints.iter().map(|(b, _)| b.len()).sum::<usize>()
        );
        drop(kept);
        assert_eq!(decoder.decode(&kv(&bigs[2])).name, "big");
        let huge = Bytes::from(vec![b' '; Hints::KEPT_BYTES + 1]);
        hints.put(&huge, &json!({"metadata": {"name": "huge"}}));
        assert_eq!(decoder.decode(&kv(&huge)).name, "");
    }

    #[test]
    fn decodes_what_the_garbage_collector_reads() {
        let obj = serde_json::json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "data": {"a": "b"},
            "metadata": {"name": "a", "namespace": "ns", "uid": "u",
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "d",
                    "uid": "o", "blockOwnerDeletion": true}, 7],
                "managedFields": [{"manager": "m"}], "finalizers": ["f", 1],
                "deletionTimestamp": "2021-01-01T00:00:00Z"}});
        let d = decode(&serde_json::to_vec(&obj).unwrap());
        let o = &d.ownership;
        assert_eq!(
            (o.uid.as_str(), o.group.as_str(), o.kind.as_str()),
            ("u", "apps", "ReplicaSet")
        );
        assert_eq!((d.namespace.as_str(), d.name.as_str()), ("ns", "a"));
        let empty = OwnerRef {
            group: String::new(),
            kind: String::new(),
            name: String::new(),
            uid: String::new(),
            block: false,
        };
        let owner = OwnerRef {
            group: "apps".into(),
            kind: "Deployment".into(),
            name: "d".into(),
            uid: "o".into(),
            block: true,
        };
        // As `unstructured` reads them: an entry that is not an object has empty fields, and
        // finalizers that are not strings are skipped.
        assert_eq!(o.owners, vec![owner, empty]);
        assert_eq!(o.finalizers, vec!["f".to_owned()]);
        assert!(o.deleting);
        // Fields of the wrong type read as empty.
        let odd = serde_json::json!({"apiVersion": 1, "kind": [], "metadata": {"uid": "u", "name": {},
            "deletionTimestamp": 5, "ownerReferences": "x"}});
        let d = decode(&serde_json::to_vec(&odd).unwrap());
        let o = &d.ownership;
        assert_eq!(
            (
                o.uid.as_str(),
                o.group.as_str(),
                o.kind.as_str(),
                d.name.as_str()
            ),
            ("u", "", "", "")
        );
        assert!(!o.deleting && o.owners.is_empty());
        // No uid, or no object (an array is not read by position), is nothing for the graph.
        for v in [
            &br#"{"metadata": {"name": "a"}}"#[..],
            br#"{"metadata": {"uid": 3}}"#,
            b"[1]",
            br#"["v1", "Pod", {"name": "a", "uid": "u"}]"#,
            br#"{"metadata": "x"}"#,
            b"not json",
        ] {
            assert_eq!(decode(v).ownership, Ownership::default(), "{v:?}");
        }
        let d = decode(br#"["v1", "Pod", {"name": "a", "uid": "u"}]"#);
        assert_eq!(d.name, "");
    }

    #[test]
    fn decodes_what_selections_read() {
        let kv = KeyValue {
            key: "/registry/g/r/ns/a".into(),
            value: Bytes::from_static(
                br#"{"metadata":{"name":"a","namespace":"ns","labels":{"x":"y","n":1},"managedFields":[{"a":1}]},"spec":{}}"#,
            ),
            create_revision: 1,
            mod_revision: 2,
        };
        let d = Decoder::default().decode(&kv);
        assert_eq!((d.name.as_str(), d.namespace.as_str()), ("a", "ns"));
        assert_eq!(d.labels.to_map().len(), 1);
        assert_eq!(d.labels.get("x"), Some("y"));
        assert_eq!(d.labels.get("n"), None);
        assert_eq!(Decoder::default().terms(&d), ["x=y"]);
        assert_eq!(Decoder::default().family("x=y"), "x");
        assert_eq!(
            Decoder::default().family("example.com/x=a=b"),
            "example.com/x"
        );
        let l = Labels::new([("a", ""), ("b", "c")]);
        assert_eq!(
            (l.get("a"), l.get("b"), l.get("c")),
            (Some(""), Some("c"), None)
        );
        // Long keys and values (lengths over 127 take two bytes), kept on the heap.
        let (k, v) = ("k".repeat(300), "v".repeat(200));
        let l = Labels::new([("a", "1"), (k.as_str(), v.as_str()), ("z", "")]);
        assert!(matches!(l.0, Buf::Heap(_)));
        assert_eq!(l.get(&k), Some(v.as_str()));
        assert_eq!(
            (l.get("a"), l.get("z"), l.get("k")),
            (Some("1"), Some(""), None)
        );
        assert_eq!(l.to_map().len(), 3);
        // A label with a NUL or a multi-byte character is kept whole.
        let l = Labels::new([("a\0b", "é\0"), ("c", "d")]);
        assert!(matches!(l.0, Buf::Inline(..)));
        assert_eq!(
            (l.get("a\0b"), l.get("a"), l.get("c")),
            (Some("é\0"), None, Some("d"))
        );
        let junk = KeyValue {
            value: Bytes::from_static(b"[1]"),
            ..kv
        };
        assert!(Decoder::default().decode(&junk).name.is_empty());
    }

    #[test]
    fn one_encoding_per_view_shared_as_frames() {
        let view = View {
            rules: 3,
            version: "v1".into(),
        };
        let e = Encoded::new(view.clone(), EventType::Modified, br#"{"a":1}"#);
        assert_eq!(&e.json()[..], br#"{"a":1}"#);
        assert_eq!(
            &e.frame(EventType::Modified)[..],
            b"{\"type\":\"MODIFIED\",\"object\":{\"a\":1}}\n"
        );
        assert_eq!(
            &e.frame(EventType::Deleted)[..],
            b"{\"type\":\"DELETED\",\"object\":{\"a\":1}}\n"
        );
        let d = Decoded::default();
        d.keep(Arc::new(e));
        assert!(d.encoded_for(3, "v1").is_some());
        assert!(d.encoded_for(4, "v1").is_none());
        assert!(d.encoded_for(3, "v2").is_none());
    }
}
