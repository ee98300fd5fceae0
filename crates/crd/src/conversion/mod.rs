//! Conversion webhooks: the `ConversionReview` a conversion webhook answers, and the rules the
//! API server applies to the answer, over converters written in Rust.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/conversion/webhook_converter.go` (what the API
//! server sends, checks and restores) and the Kubernetes e2e conversion webhook
//! (`test/images/agnhost/crd-conversion-webhook/converter/framework.go`: how a webhook answers).
//! Pure: no I/O; the HTTP side is the `crdkit-webhook` crate.
//!
//! - [`Convert`]: one object to a desired apiVersion, as JSON. A closure works, and so does a
//!   [`TypedConverter`] built with [`Typed`] from `From`/`TryFrom` between Rust types.
//! - [`Conversions`]: the converters of a webhook by group and kind, and the rules around each
//!   conversion: `apiVersion` set to `desiredAPIVersion`; kind, name, namespace and uid
//!   unchanged; labels and annotations may change; other `metadata` changes are put back;
//!   nothing lost across round trips ([`roundtrip`]).
//! - [`review`]: the wire types, and [`Conversions::review_json`] from request body to answer;
//!   [`client::converted_objects`]: the API server's checks of an answer, for callers of webhooks.
//!
//! ```
//! use crdkit_crd::conversion::{Conversions, ConversionError};
//! use serde_json::{json, Value};
//!
//! // The page's example: v1beta1 has `hostPort`, v1 has `host` and `port`.
//! let conversions = Conversions::new().kind("example.com", "CronTab",
//!     |mut obj: Value, to: &str| -> Result<Value, ConversionError> {
//!         let from = obj["apiVersion"].as_str().unwrap_or("").to_owned();
//!         let m = obj.as_object_mut().ok_or_else(|| ConversionError::failed("not an object"))?;
//!         match (from.as_str(), to) {
//!             ("example.com/v1beta1", "example.com/v1") => {
//!                 if let Some(hp) = m.remove("hostPort") {
//!                     let (host, port) = hp.as_str().and_then(|s| s.split_once(':'))
//!                         .ok_or_else(|| ConversionError::failed(
//!                             "hostPort could not be parsed into a separate host and port"))?;
//!                     m.insert("host".into(), host.into());
//!                     m.insert("port".into(), port.into());
//!                 }
//!             }
//!             ("example.com/v1", "example.com/v1beta1") => {
//!                 let (h, p) = (m.remove("host"), m.remove("port"));
//!                 if h.is_some() || p.is_some() {
//!                     let s = |v: Option<Value>| v.and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
//!                     m.insert("hostPort".into(), format!("{}:{}", s(h), s(p)).into());
//!                 }
//!             }
//!             _ => return Err(ConversionError::UnknownVersion(to.to_owned())),
//!         }
//!         Ok(obj)
//!     });
//! let body = br#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
//!   "request": {"uid": "705ab4f5", "desiredAPIVersion": "example.com/v1", "objects": [
//!     {"kind": "CronTab", "apiVersion": "example.com/v1beta1",
//!      "metadata": {"name": "local-crontab", "namespace": "default"}, "hostPort": "localhost:1234"}]}}"#;
//! let answer = serde_json::to_value(conversions.review_json(body)).unwrap();
//! assert_eq!(answer["response"]["uid"], "705ab4f5");
//! assert_eq!(answer["response"]["result"], json!({"status": "Success"}));
//! assert_eq!(answer["response"]["convertedObjects"][0]["port"], "1234");
//! ```

pub mod client;
pub mod meta;
pub mod review;
pub mod roundtrip;
pub mod typed;

use std::fmt;

use serde_json::{Map, Value};

pub use review::{
    BadReview, ConversionRequest, ConversionResponse, ConversionReview, ReviewVersion, Status,
    parse_review,
};
pub use roundtrip::DATA_ANNOTATION;
pub use typed::{BuildError, Typed, TypedConverter};

/// Converts one custom object, given as JSON with its `apiVersion`, `kind` and `metadata`, to
/// `desired_api_version`. The result may leave out `kind` and `metadata` (the original's are
/// used) and need not set `apiVersion` ([`Conversions`] sets it).
///
/// Closures `Fn(Value, &str) -> Result<Value, ConversionError>` implement it, so a converter
/// with another signature plugs in with one line:
/// `Conversions::new().kind(group, kind, |obj, to: &str| my_convert(obj, to).map_err(ConversionError::failed))`.
pub trait Convert: Send + Sync {
    /// Converts `object` to `desired_api_version`.
    ///
    /// # Errors
    /// Why it cannot be converted; the message reaches the user through the API server.
    fn convert(&self, object: Value, desired_api_version: &str) -> Result<Value, ConversionError>;
}

impl<F> Convert for F
where
    F: Fn(Value, &str) -> Result<Value, ConversionError> + Send + Sync,
{
    fn convert(&self, object: Value, desired_api_version: &str) -> Result<Value, ConversionError> {
        self(object, desired_api_version)
    }
}

/// Why an object could not be converted. `Display` is the `result.message` of the review.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConversionError {
    /// `"objects": [3]`, or an object without `kind` or `apiVersion`.
    InvalidObject(String),
    /// `{"apiVersion": "example.com/v1", "kind": "Other"}` sent to a webhook that converts
    /// only `CronTab`s of `example.com`.
    UnknownKind {
        /// The object's `apiVersion`.
        api_version: String,
        /// The object's `kind`.
        kind: String,
    },
    /// `desiredAPIVersion` (or the object's `apiVersion`) is not a version the converter knows.
    UnknownVersion(String),
    /// The object does not decode as the type of its version.
    Decode {
        /// The object's `apiVersion`.
        api_version: String,
        /// The object's `kind`.
        kind: String,
        /// serde's error.
        message: String,
    },
    /// The converter refused: `hostPort could not be parsed into a separate host and port`.
    Failed(String),
    /// The converted object breaks the API server's rules: `must have the same name: a != b`.
    InvalidResult(String),
}

impl ConversionError {
    /// [`ConversionError::Failed`] from any message (for `map_err`).
    pub fn failed(message: impl fmt::Display) -> ConversionError {
        ConversionError::Failed(message.to_string())
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConversionError::InvalidObject(m) => write!(f, "invalid object: {m}"),
            ConversionError::UnknownKind { api_version, kind } => write!(
                f,
                "unexpected kind {kind:?} of {api_version}: this webhook converts no such kind"
            ),
            // The e2e webhook's words (`unexpected conversion version %q`).
            ConversionError::UnknownVersion(v) => write!(f, "unexpected conversion version {v:?}"),
            ConversionError::Decode {
                api_version,
                kind,
                message,
            } => write!(f, "cannot decode {kind} of {api_version}: {message}"),
            ConversionError::Failed(m) => f.write_str(m),
            ConversionError::InvalidResult(m) => write!(f, "invalid converted object: {m}"),
        }
    }
}

impl std::error::Error for ConversionError {}

/// The group of an apiVersion: `example.com` of `example.com/v1`, `""` of `v1`.
pub(crate) fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

struct Registered {
    group: String,
    kind: String,
    converter: Box<dyn Convert>,
}

/// The converters of one webhook, by group and kind, and the review logic around them.
pub struct Conversions {
    kinds: Vec<Registered>,
    annotation: Option<String>,
}

impl Default for Conversions {
    fn default() -> Self {
        Conversions::new()
    }
}

impl fmt::Debug for Conversions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kinds: Vec<String> = self
            .kinds
            .iter()
            .map(|k| format!("{}.{}", k.kind, k.group))
            .collect();
        f.debug_struct("Conversions")
            .field("kinds", &kinds)
            .field("annotation", &self.annotation)
            .finish()
    }
}

fn object(v: Value) -> Result<Map<String, Value>, ConversionError> {
    match v {
        Value::Object(m) => Ok(m),
        other => Err(ConversionError::InvalidObject(format!(
            "expected a JSON object, got {}",
            crdkit_apimachinery::gofmt::type_name(&other)
        ))),
    }
}

impl Conversions {
    /// No converters; round trips kept in [`DATA_ANNOTATION`].
    #[must_use]
    pub fn new() -> Conversions {
        Conversions {
            kinds: Vec::new(),
            annotation: Some(DATA_ANNOTATION.to_owned()),
        }
    }

    /// Converts objects of `kind` in `group` with `converter`.
    #[must_use]
    pub fn kind(mut self, group: &str, kind: &str, converter: impl Convert + 'static) -> Self {
        self.kinds.push(Registered {
            group: group.to_owned(),
            kind: kind.to_owned(),
            converter: Box::new(converter),
        });
        self
    }

    /// Converts the kind of `converter` with it.
    #[must_use]
    pub fn typed(self, converter: TypedConverter) -> Self {
        let (group, kind) = (converter.group().to_owned(), converter.kind().to_owned());
        self.kind(&group, &kind, converter)
    }

    /// Keeps what conversions drop in the annotation `key` instead of [`DATA_ANNOTATION`], or
    /// (`None`) not at all: each conversion is then done once, without the check back.
    #[must_use]
    pub fn round_trip_annotation(mut self, key: Option<&str>) -> Self {
        self.annotation = key.map(str::to_owned);
        self
    }

    /// Converts one object to `desired_api_version` as a webhook answer must: see the module
    /// documentation. An object already at `desired_api_version` is returned as it is.
    ///
    /// # Errors
    /// A [`ConversionError`]: the object is malformed, of another kind, at an unknown version,
    /// the converter failed, or its result breaks the API server's rules.
    pub fn convert(&self, obj: Value, desired_api_version: &str) -> Result<Value, ConversionError> {
        let original = object(obj)?;
        let (Some(Value::String(api_version)), Some(Value::String(kind))) =
            (original.get("apiVersion"), original.get("kind"))
        else {
            return Err(ConversionError::InvalidObject(
                "apiVersion and kind must be set".to_owned(),
            ));
        };
        let (api_version, kind) = (api_version.clone(), kind.clone());
        let group = group_of(&api_version);
        let Some(reg) = self
            .kinds
            .iter()
            .find(|r| r.group == group && r.kind == kind)
        else {
            return Err(ConversionError::UnknownKind { api_version, kind });
        };
        if group_of(desired_api_version) != group || !desired_api_version.contains('/') {
            return Err(ConversionError::UnknownVersion(
                desired_api_version.to_owned(),
            ));
        }
        if api_version == desired_api_version {
            // The API server never sends these (`getObjectsToConvert`); nothing to do.
            return Ok(Value::Object(original));
        }
        let conv = &*reg.converter;
        let Some(key) = &self.annotation else {
            let mut out = self.converted(conv, &original, desired_api_version)?;
            return finish(&original, &mut out).map(|()| Value::Object(out));
        };
        let mut stripped = original.clone();
        let mut entries = roundtrip::take(&mut stripped, key);
        entries.remove(&api_version);
        let mut out = self.converted(conv, &stripped, desired_api_version)?;
        if let Some(theirs) = entries.remove(desired_api_version) {
            // What the conversion would give had nobody changed the object since the entry was
            // stored: the entry converted there and back.
            let mut at_desired = stripped.clone();
            at_desired.retain(|k, _| matches!(k.as_str(), "kind" | "metadata"));
            at_desired.insert("apiVersion".into(), desired_api_version.into());
            at_desired.extend(theirs.clone());
            let base = self
                .converted(conv, &at_desired, &api_version)
                .and_then(|there| self.converted(conv, &there, desired_api_version));
            if let Ok(base) = base {
                roundtrip::merge_body(&mut out, &base, &theirs);
            }
        }
        let back = self.converted(conv, &out, &api_version);
        if !back.is_ok_and(|back| roundtrip::same_body(&back, &stripped)) {
            entries.insert(api_version, roundtrip::body(&stripped));
        }
        roundtrip::put(&mut out, key, &entries);
        finish(&original, &mut out)?;
        Ok(Value::Object(out))
    }

    /// One raw conversion: the converter's result as an object with `apiVersion` set and
    /// `kind` and `metadata` filled in when it left them out.
    fn converted(
        &self,
        conv: &dyn Convert,
        from: &Map<String, Value>,
        to: &str,
    ) -> Result<Map<String, Value>, ConversionError> {
        let out = conv.convert(Value::Object(from.clone()), to)?;
        let mut out = object(out).map_err(|e| ConversionError::InvalidResult(e.to_string()))?;
        out.insert("apiVersion".into(), to.into());
        for k in ["kind", "metadata"] {
            if !out.contains_key(k)
                && let Some(v) = from.get(k)
            {
                out.insert(k.into(), v.clone());
            }
        }
        Ok(out)
    }

    /// Answers a request: every object converted in order, or the first failure.
    #[must_use]
    pub fn review(&self, request: &ConversionRequest) -> ConversionResponse {
        self.review_owned(request.clone())
    }

    /// [`Conversions::review`] of a request it may consume (no copy of the objects).
    #[must_use]
    pub fn review_owned(&self, request: ConversionRequest) -> ConversionResponse {
        let ConversionRequest {
            uid,
            desired_api_version,
            objects,
        } = request;
        let mut converted = Vec::with_capacity(objects.len());
        for obj in objects {
            match self.convert(obj, &desired_api_version) {
                Ok(v) => converted.push(v),
                Err(e) => {
                    return ConversionResponse {
                        uid,
                        result: Status::failed(e.to_string()),
                        converted_objects: Vec::new(),
                    };
                }
            }
        }
        ConversionResponse {
            uid,
            result: Status::success(),
            converted_objects: converted,
        }
    }

    /// Answers a request body. Always a review, in the version of the request (v1 when that
    /// cannot be read): a body that is not a review gets a failed one saying why, because the
    /// API server shows a review's message to the user and drops any other answer's body.
    #[must_use]
    pub fn review_json(&self, body: &[u8]) -> ConversionReview {
        let parsed = parse_review(body);
        match parsed.request {
            Ok(request) => ConversionReview::response(parsed.version, self.review_owned(request)),
            Err(bad) => ConversionReview::failed(parsed.version, parsed.uid, bad.to_string()),
        }
    }
}

/// The API server's checks of a converted object, and its restoring of `metadata`.
fn finish(
    original: &Map<String, Value>,
    out: &mut Map<String, Value>,
) -> Result<(), ConversionError> {
    meta::validate_converted_object(original, out).map_err(ConversionError::InvalidResult)?;
    meta::restore_object_meta(original, out).map_err(ConversionError::InvalidResult)
}
