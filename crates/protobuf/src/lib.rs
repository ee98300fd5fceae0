//! Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`) to and from the JSON
//! objects an API server stores, for every built-in kind of Kubernetes 1.35 and the meta
//! types (`Status`, `WatchEvent`, lists, `PartialObjectMetadata`, discovery documents), and
//! the gnostic `OpenAPI` v2 document kubectl 1.27/1.28 ask for.
//!
//! The codec is driven by message descriptors carried as data (`data/descriptors.txt`,
//! generated from the release's `generated.proto` files and Go structs by
//! `examples/generate.rs`): field numbers and wire types from the protos, JSON names,
//! `omitempty`, pointers and embedded structs from the Go structs, so that decoding gives
//! what Go's encoding/json writes for the decoded struct and encoding writes what gogo's
//! generated `Marshal` writes.
//!
//! ```
//! use serde_json::json;
//!
//! let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
//!                 "metadata": {"name": "cfg", "namespace": "default"},
//!                 "data": {"k": "v"}, "binaryData": {"b": "AAE="}});
//! let bytes = crdkit_protobuf::encode(&cm)?;
//! assert!(bytes.starts_with(crdkit_protobuf::MAGIC));
//! let back = crdkit_protobuf::decode(&bytes)?;
//! assert_eq!(back["binaryData"], cm["binaryData"]);
//! // Go's JSON of the decoded struct: the zero `creationTimestamp` is `omitzero`.
//! assert_eq!(back["metadata"], json!({"name": "cfg", "namespace": "default"}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layers (each uses only those before it): `wire` (varints, keys, lengths) ← `descriptor`
//! (the data) ← `special` (the hand-written JSON types) ← `envelope` (`k8s\0` +
//! `runtime.Unknown`) ← `decode`, `encode` ← `watch`; `openapi_v2` apart, on `wire` only.
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::pedantic)]
// Wire values are reinterpreted between widths on purpose (Go's `int32(v)`, `uint64(i)`).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]
// The wire code reads `r` (reader), `f` (field), `k`/`v` (entry) as gogo's code does.
#![allow(clippy::many_single_char_names)]
// A field's flags are Go's: pointer, omitempty, omitzero, embedded.
#![allow(clippy::struct_excessive_bools)]
// Arms are named after the Go case they mirror, even where two give the same value.
#![allow(clippy::match_same_arms)]

mod decode;
mod descriptor;
mod encode;
mod envelope;
mod error;
mod gotime;
mod openapi_v2;
mod special;
mod watch;
mod wire;

use serde_json::Value;

pub use envelope::MAGIC;
pub use error::{DecodeError, EncodeError};
pub use openapi_v2::encode_openapi_v2;
pub use watch::{Frame, FrameError, WatchEvent, split_frame};

/// The media type of protobuf bodies.
pub const CONTENT_TYPE: &str = "application/vnd.kubernetes.protobuf";
/// The media type of protobuf watch streams.
pub const WATCH_CONTENT_TYPE: &str = "application/vnd.kubernetes.protobuf;stream=watch";
/// What kubectl 1.27/1.28 send as `Accept` for `/openapi/v2`.
pub const OPENAPI_V2_ACCEPT: &str = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
/// The `Content-Type` to answer it with: kube-openapi's dotted form, since Go's
/// `mime.ParseMediaType` (in kubectl) refuses the `@` of the Accept form.
pub const OPENAPI_V2_CONTENT_TYPE: &str =
    "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/// Messages nested deeper than this are refused (the local API server's JSON depth limit).
pub const DEFAULT_MAX_DEPTH: usize = 127;

/// The codec with its limits.
#[derive(Clone, Copy, Debug)]
pub struct Codec {
    max_depth: usize,
}

impl Default for Codec {
    fn default() -> Self {
        Self {
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

impl Codec {
    /// A codec refusing messages nested deeper than `max_depth`.
    #[must_use]
    pub fn with_max_depth(max_depth: usize) -> Self {
        Self { max_depth }
    }

    /// A decoder for `input_len` bytes: at most two JSON values a byte, and 4096.
    fn decoder(self, input_len: usize) -> decode::Decoder<'static> {
        decode::Decoder {
            reg: descriptor::registry(),
            max_depth: self.max_depth,
            budget: std::cell::Cell::new(input_len.saturating_mul(2).saturating_add(4096)),
        }
    }

    fn encoder(self) -> encode::Encoder<'static> {
        encode::Encoder {
            reg: descriptor::registry(),
            max_depth: self.max_depth,
        }
    }

    /// A protobuf body (`k8s\0` + `runtime.Unknown`) as the JSON object Go writes for it, with
    /// `apiVersion` and `kind` from the envelope.
    ///
    /// # Errors
    /// Bytes that are no protobuf body, that do not decode as the named kind (with gogo's
    /// texts), a kind without a message, or messages nested deeper than the limit.
    pub fn decode(&self, body: &[u8]) -> Result<Value, DecodeError> {
        self.decoder(body.len()).envelope(body, 0)
    }

    /// A JSON object as the protobuf body Go writes for it; its `apiVersion` and `kind` choose
    /// the message.
    ///
    /// # Errors
    /// An object without `apiVersion`/`kind`, a kind without a message (custom resources:
    /// serve them as JSON), or a value Go's `json.Unmarshal` would refuse for its field.
    pub fn encode(&self, object: &Value) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(256);
        self.encoder().envelope(object, &mut out, 0)?;
        Ok(out)
    }

    /// One watch frame: the big-endian length and a `WatchEvent` whose object is the protobuf
    /// body of `object`.
    ///
    /// # Errors
    /// As [`Codec::encode`].
    pub fn encode_watch_event(
        &self,
        event_type: &str,
        object: &Value,
    ) -> Result<Vec<u8>, EncodeError> {
        watch::encode(&self.encoder(), event_type, object)
    }

    /// The event of one watch frame (the bytes after its length; see [`split_frame`]).
    ///
    /// # Errors
    /// As [`Codec::decode`].
    pub fn decode_watch_event(&self, event: &[u8]) -> Result<WatchEvent, DecodeError> {
        watch::decode(&self.decoder(event.len()), event)
    }
}

/// [`Codec::decode`] with the default limits.
///
/// # Errors
/// As [`Codec::decode`].
pub fn decode(body: &[u8]) -> Result<Value, DecodeError> {
    Codec::default().decode(body)
}

/// [`Codec::encode`] with the default limits.
///
/// # Errors
/// As [`Codec::encode`].
pub fn encode(object: &Value) -> Result<Vec<u8>, EncodeError> {
    Codec::default().encode(object)
}

/// Whether a kind has a protobuf message: every built-in kind and the meta kinds; custom
/// resources have none (the API server answers them in JSON).
#[must_use]
pub fn supports(api_version: &str, kind: &str) -> bool {
    descriptor::registry().kind(api_version, kind).is_some()
}
