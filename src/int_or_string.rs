//! [`IntOrString`]: an integer or a string, as Kubernetes' `intstr.IntOrString`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An integer or a string, `x-kubernetes-int-or-string: true`: a port (`8080` or `"http"`), a
/// count or a percentage (`2` or `"25%"`). Mirrors apimachinery `pkg/util/intstr`, with the
/// integer an `i64` (JSON's integer, what the API server accepts) rather than Go's `int32`.
/// `crdgen import` writes it for int-or-string fields.
///
/// ```
/// use crdkit::IntOrString;
///
/// let port: IntOrString = serde_json::from_str("\"http\"").unwrap();
/// assert_eq!(port, IntOrString::from("http"));
/// assert_eq!(serde_json::to_string(&IntOrString::from(8080)).unwrap(), "8080");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrString {
    /// An integer.
    Int(i64),
    /// A string.
    String(String),
}

impl Default for IntOrString {
    /// `0`, Go's zero value of the type.
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(i) => write!(f, "{i}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl From<i64> for IntOrString {
    fn from(i: i64) -> Self {
        IntOrString::Int(i)
    }
}

impl From<i32> for IntOrString {
    fn from(i: i32) -> Self {
        IntOrString::Int(i.into())
    }
}

impl From<&str> for IntOrString {
    fn from(s: &str) -> Self {
        IntOrString::String(s.to_owned())
    }
}

impl From<String> for IntOrString {
    fn from(s: String) -> Self {
        IntOrString::String(s)
    }
}

impl crdkit_shape::Schema for IntOrString {
    const SHAPE: crdkit_shape::Shape = crdkit_shape::Shape::int_or_string().named("IntOrString");
}
