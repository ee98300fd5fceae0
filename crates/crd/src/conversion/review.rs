//! The `ConversionReview` wire types of `apiextensions.k8s.io/v1` and `v1beta1`.
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/v1/types.go` and
//! `v1beta1/types.go` (`ConversionReview`, `ConversionRequest`, `ConversionResponse`) and the
//! part of apimachinery `meta/v1.Status` a conversion result uses. Both versions have the same
//! fields; only `apiVersion` tells them apart, and a webhook answers in the version it was sent.
//!
//! Differences from Go's encoding, each following the versioning page's examples: an empty
//! `request` or `convertedObjects` is left out instead of written as `null`, and `result` carries
//! only the fields that are set (Go writes `"metadata": {}` too).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// The kind of every review.
pub const KIND: &str = "ConversionReview";

/// `result.status` of a conversion that succeeded (`metav1.StatusSuccess`).
pub const STATUS_SUCCESS: &str = "Success";

/// `result.status` of a conversion that failed, as the versioning page writes it. (The API
/// server takes anything but `Success` as a failure; Go's `metav1.StatusFailure` is `Failure`.)
pub const STATUS_FAILED: &str = "Failed";

/// The two `apiVersion`s of `ConversionReview`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReviewVersion {
    /// `apiextensions.k8s.io/v1`
    V1,
    /// `apiextensions.k8s.io/v1beta1` (deprecated in Kubernetes 1.16, still sent when a CRD's
    /// `conversionReviewVersions` lists it first)
    V1beta1,
}

impl ReviewVersion {
    /// `apiextensions.k8s.io/v1` or `apiextensions.k8s.io/v1beta1`.
    #[must_use]
    pub fn api_version(self) -> &'static str {
        match self {
            ReviewVersion::V1 => "apiextensions.k8s.io/v1",
            ReviewVersion::V1beta1 => "apiextensions.k8s.io/v1beta1",
        }
    }

    /// The version an `apiVersion` names, when it is one of the two.
    #[must_use]
    pub fn parse(api_version: &str) -> Option<ReviewVersion> {
        match api_version {
            "apiextensions.k8s.io/v1" => Some(ReviewVersion::V1),
            "apiextensions.k8s.io/v1beta1" => Some(ReviewVersion::V1beta1),
            _ => None,
        }
    }
}

/// A `ConversionReview`: the API server sends one with `request`, the webhook answers with the
/// same `apiVersion` and `kind` and a `response`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConversionReview {
    /// `apiextensions.k8s.io/v1` or `apiextensions.k8s.io/v1beta1`.
    #[serde(rename = "apiVersion", default)]
    pub api_version: String,
    /// `ConversionReview`.
    #[serde(default)]
    pub kind: String,
    /// What to convert; set by the API server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<ConversionRequest>,
    /// The converted objects or the failure; set by the webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<ConversionResponse>,
}

/// `request`: what to convert.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConversionRequest {
    /// `uid`: names this call; the response copies it.
    #[serde(default, deserialize_with = "null_as_default")]
    pub uid: String,
    /// `desiredAPIVersion`: `<group>/<version>` every object is converted to.
    #[serde(
        rename = "desiredAPIVersion",
        default,
        deserialize_with = "null_as_default"
    )]
    pub desired_api_version: String,
    /// `objects`: the custom objects, possibly in several versions; each is converted on its
    /// own and the answer keeps their order.
    #[serde(default, deserialize_with = "null_as_default")]
    pub objects: Vec<Value>,
}

/// `response`: the converted objects, or why there are none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConversionResponse {
    /// `uid`, copied from `request.uid`.
    #[serde(default, deserialize_with = "null_as_default")]
    pub uid: String,
    /// `result`: `{"status": "Success"}`, or `{"status": "Failed", "message": ...}`.
    #[serde(default)]
    pub result: Status,
    /// `convertedObjects`: `request.objects` converted, in their order; empty on failure.
    #[serde(
        rename = "convertedObjects",
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub converted_objects: Vec<Value>,
}

/// `result`: the part of `metav1.Status` a conversion reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// `status`: [`STATUS_SUCCESS`] or a failure ([`STATUS_FAILED`]).
    #[serde(default, deserialize_with = "null_as_default")]
    pub status: String,
    /// `message`: why the conversion failed; the API server reports it to the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `reason`: a machine-readable word (unused by the API server for conversions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `code`: an HTTP status code (unused by the API server for conversions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
}

impl Status {
    /// `{"status": "Success"}`.
    #[must_use]
    pub fn success() -> Status {
        Status {
            status: STATUS_SUCCESS.to_owned(),
            ..Status::default()
        }
    }

    /// `{"status": "Failed", "message": message}`.
    #[must_use]
    pub fn failed(message: impl Into<String>) -> Status {
        Status {
            status: STATUS_FAILED.to_owned(),
            message: Some(message.into()),
            ..Status::default()
        }
    }

    /// Whether the status is `Success`, the only one the API server accepts.
    #[must_use]
    pub fn is_success(&self) -> bool {
        self.status == STATUS_SUCCESS
    }
}

impl ConversionReview {
    /// A request, as the API server sends it (`createConversionReviewObjects`).
    #[must_use]
    pub fn request(
        version: ReviewVersion,
        uid: impl Into<String>,
        desired_api_version: impl Into<String>,
        objects: Vec<Value>,
    ) -> ConversionReview {
        ConversionReview {
            api_version: version.api_version().to_owned(),
            kind: KIND.to_owned(),
            request: Some(ConversionRequest {
                uid: uid.into(),
                desired_api_version: desired_api_version.into(),
                objects,
            }),
            response: None,
        }
    }

    /// A response in `version` with only `response` set.
    #[must_use]
    pub fn response(version: ReviewVersion, response: ConversionResponse) -> ConversionReview {
        ConversionReview {
            api_version: version.api_version().to_owned(),
            kind: KIND.to_owned(),
            request: None,
            response: Some(response),
        }
    }

    /// A failed response: `uid` copied, `result` `{"status": "Failed", "message": message}`.
    #[must_use]
    pub fn failed(
        version: ReviewVersion,
        uid: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ConversionReview::response(
            version,
            ConversionResponse {
                uid: uid.into(),
                result: Status::failed(message),
                converted_objects: Vec::new(),
            },
        )
    }

    /// The version `apiVersion` names, if it is one of the two.
    #[must_use]
    pub fn version(&self) -> Option<ReviewVersion> {
        ReviewVersion::parse(&self.api_version)
    }
}

/// Go decodes `null` into a field as its zero value; serde's `default` covers only a missing key.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// Why a request body is not a `ConversionReview` this module can answer. The webhook still
/// answers it with a failed review (see [`crate::conversion::Conversions::review_json`]): only a
/// review's `result.message` reaches the user in the API server's error.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BadReview {
    /// `{"request": ` cut short: the body is not JSON.
    Json(String),
    /// `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}`: not a
    /// `ConversionReview` of a known version.
    NotAReview {
        /// `apiVersion` of the body, empty when missing.
        api_version: String,
        /// `kind` of the body, empty when missing.
        kind: String,
    },
    /// `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "request": 3}`:
    /// the review's fields do not have their types.
    Fields(String),
    /// `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview"}`: no `request`.
    NoRequest,
}

impl std::fmt::Display for BadReview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadReview::Json(e) => write!(f, "request body is not JSON: {e}"),
            BadReview::NotAReview { api_version, kind } => write!(
                f,
                "expected a ConversionReview of apiextensions.k8s.io/v1 or apiextensions.k8s.io/v1beta1, got kind {kind:?} of apiVersion {api_version:?}"
            ),
            BadReview::Fields(e) => write!(f, "malformed ConversionReview: {e}"),
            BadReview::NoRequest => f.write_str("ConversionReview has no request"),
        }
    }
}

impl std::error::Error for BadReview {}

/// A request body read as far as it goes: the review when it is one, else why not, with the
/// version and `uid` to answer with (v1 and `""` when they cannot be read).
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedReview {
    /// The version to answer in.
    pub version: ReviewVersion,
    /// `request.uid` when it could be read.
    pub uid: String,
    /// The request, or why the body is not one.
    pub request: Result<ConversionRequest, BadReview>,
}

/// Reads a request body. Never fails: a body that is not a review comes back as
/// [`ParsedReview::request`] `Err`, with whatever version and `uid` could be read from it, so
/// that the answer is still a review the API server can report.
#[must_use]
pub fn parse_review(body: &[u8]) -> ParsedReview {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return ParsedReview {
                version: ReviewVersion::V1,
                uid: String::new(),
                request: Err(BadReview::Json(e.to_string())),
            };
        }
    };
    let text = |k: &str| {
        value
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    let uid = value
        .get("request")
        .and_then(|r| r.get("uid"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let version = match ReviewVersion::parse(&api_version) {
        Some(v) if kind == KIND => v,
        found => {
            return ParsedReview {
                version: found.unwrap_or(ReviewVersion::V1),
                uid,
                request: Err(BadReview::NotAReview { api_version, kind }),
            };
        }
    };
    let request = match serde_json::from_value::<ConversionReview>(value) {
        Ok(ConversionReview {
            request: Some(r), ..
        }) => Ok(r),
        Ok(_) => Err(BadReview::NoRequest),
        Err(e) => Err(BadReview::Fields(e.to_string())),
    };
    ParsedReview {
        version,
        uid,
        request,
    }
}
