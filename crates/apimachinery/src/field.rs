//! Field-level validation errors, as the API server reports them.
//!
//! Mirrors apimachinery `pkg/util/validation/field/errors.go` and `path.go`. A [`FieldError`]
//! prints exactly as Go's `field.Error.Error()` does, bad value included, so that messages can be
//! compared with the API server's byte for byte:
//!
//! ```
//! use crdkit_apimachinery::field::{FieldError, FieldPath};
//!
//! let path = FieldPath::new("spec").child("ports").index(0).child("name");
//! let err = FieldError::invalid(&path, "Foo", "must be lowercase");
//! assert_eq!(err.to_string(), r#"spec.ports[0].name: Invalid value: "Foo": must be lowercase"#);
//! assert_eq!(FieldPath::nil().to_string(), "<nil>");
//! ```
//!
//! What differs from Go: the `Origin`/declarative-validation bookkeeping fields are left out, and
//! a bad value is a [`BadValue`] (the Go types that reach `field.Error` from JSON data, plus a
//! pre-rendered form for Go structs) instead of `interface{}`.

use std::fmt::{self, Write as _};

use serde_json::Value;

#[cfg(test)]
mod tests;

use crate::gofmt;

/// One step of a [`FieldPath`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Elem {
    /// `.name` (Go's `Child`).
    Child(String),
    /// `[index]` or `[key]` (Go's `Index` and `Key` store the same thing).
    Subscript(String),
}

/// The path from some root to a field, like Go's `*field.Path`.
///
/// The empty path is Go's nil path and prints as `<nil>`; children print dotted, indices and map
/// keys in brackets: `spec.ports[0].name`, `metadata.labels[app]`. A child with an empty name
/// prints as `[]`, as in Go.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath {
    elems: Vec<Elem>,
}

impl FieldPath {
    /// The nil path (`<nil>`), the root that relative paths such as `properties[spec]` start from.
    #[must_use]
    pub const fn nil() -> FieldPath {
        FieldPath { elems: Vec::new() }
    }

    /// A root path of one name (Go's `field.NewPath(name)`).
    #[must_use]
    pub fn new(name: &str) -> FieldPath {
        FieldPath::nil().child(name)
    }

    /// `self.name`; `name` may contain dots (`child("openAPIV3Schema.type")`), as Go allows.
    #[must_use]
    pub fn child(&self, name: &str) -> FieldPath {
        self.push(Elem::Child(name.to_owned()))
    }

    /// `self[index]`.
    #[must_use]
    pub fn index(&self, index: usize) -> FieldPath {
        self.push(Elem::Subscript(index.to_string()))
    }

    /// `self[key]`; the key is printed verbatim, without quoting.
    #[must_use]
    pub fn key(&self, key: &str) -> FieldPath {
        self.push(Elem::Subscript(key.to_owned()))
    }

    /// `self` followed by every step of `rest`.
    #[must_use]
    pub fn join(&self, rest: &FieldPath) -> FieldPath {
        let mut elems = self.elems.clone();
        elems.extend(rest.elems.iter().cloned());
        FieldPath { elems }
    }

    /// Whether this is the nil path.
    #[must_use]
    pub fn is_nil(&self) -> bool {
        self.elems.is_empty()
    }

    /// The first step alone, as Go's `Path.Root().String()` prints it (`<nil>` for the nil path).
    #[must_use]
    pub fn root(&self) -> FieldPath {
        FieldPath {
            elems: self.elems.iter().take(1).cloned().collect(),
        }
    }

    fn push(&self, e: Elem) -> FieldPath {
        let mut elems = Vec::with_capacity(self.elems.len() + 1);
        elems.extend(self.elems.iter().cloned());
        elems.push(e);
        FieldPath { elems }
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.elems.is_empty() {
            return f.write_str("<nil>");
        }
        for (i, e) in self.elems.iter().enumerate() {
            match e {
                Elem::Child(name) if !name.is_empty() => {
                    if i > 0 {
                        f.write_char('.')?;
                    }
                    f.write_str(name)?;
                }
                // An unnamed child is printed as an empty subscript, as in Go.
                Elem::Child(_) => f.write_str("[]")?,
                Elem::Subscript(s) => write!(f, "[{s}]")?,
            }
        }
        Ok(())
    }
}

/// Why a field is invalid (Go's `field.ErrorType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorType {
    /// `FieldValueNotFound`: "Not found".
    NotFound,
    /// `FieldValueRequired`: "Required value".
    Required,
    /// `FieldValueDuplicate`: "Duplicate value".
    Duplicate,
    /// `FieldValueInvalid`: "Invalid value".
    Invalid,
    /// `FieldValueNotSupported`: "Unsupported value".
    NotSupported,
    /// `FieldValueForbidden`: "Forbidden".
    Forbidden,
    /// `FieldValueTooLong`: "Too long".
    TooLong,
    /// `FieldValueTooMany`: "Too many".
    TooMany,
    /// `FieldValueTooFew`: "Too few".
    TooFew,
    /// `InternalError`: "Internal error".
    Internal,
    /// `FieldValueTypeInvalid`: "Invalid value".
    TypeInvalid,
    /// `FieldValueTooShort`: "Too short".
    TooShort,
}

impl ErrorType {
    /// The machine-readable name (`FieldValueRequired`), as in a `Status` cause.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
            ErrorType::TooShort => "FieldValueTooShort",
        }
    }

    /// Parses the machine-readable name.
    #[must_use]
    pub fn parse(s: &str) -> Option<ErrorType> {
        ALL_ERROR_TYPES.iter().copied().find(|t| t.as_str() == s)
    }

    /// The human-readable text (`Required value`), Go's `ErrorType.String()`.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
            ErrorType::TooShort => "Too short",
        }
    }
}

const ALL_ERROR_TYPES: [ErrorType; 12] = [
    ErrorType::NotFound,
    ErrorType::Required,
    ErrorType::Duplicate,
    ErrorType::Invalid,
    ErrorType::NotSupported,
    ErrorType::Forbidden,
    ErrorType::TooLong,
    ErrorType::TooMany,
    ErrorType::TooFew,
    ErrorType::Internal,
    ErrorType::TypeInvalid,
    ErrorType::TooShort,
];

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// The offending value of a [`FieldError`], typed as far as Go's printing depends on it.
///
/// Go prints `int64`, `int32`, `float64`, `float32` and `bool` with `%v`, strings with `%q`, and
/// everything else as `json.Marshal` gives it. [`BadValue::from`] a `&serde_json::Value` picks the
/// Go type that apimachinery's JSON decoding gives the value (integers → `int64`, other numbers →
/// `float64`, `null`/arrays/objects → JSON).
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// Go's `omitValue`: only the error type is printed.
    Omitted,
    /// A Go `string`, printed as `%q`.
    String(String),
    /// A Go `int64`/`int32`/`int`, printed in decimal.
    Int(i64),
    /// A Go `float64`, printed as `%v` (`1.5`, `1e+06`).
    Float(f64),
    /// A Go `bool`.
    Bool(bool),
    /// Any other Go value that `json.Marshal` renders; printed as Go's compact JSON (sorted keys,
    /// HTML-escaped). Strings here print as JSON strings, as Go does for a `*string`.
    Json(Value),
    /// A value rendered ahead of time, printed verbatim (e.g. Go's JSON of an internal struct).
    Raw(String),
}

impl From<&str> for BadValue {
    fn from(s: &str) -> Self {
        BadValue::String(s.to_owned())
    }
}
impl From<String> for BadValue {
    fn from(s: String) -> Self {
        BadValue::String(s)
    }
}
impl From<&String> for BadValue {
    fn from(s: &String) -> Self {
        BadValue::String(s.clone())
    }
}
impl From<i64> for BadValue {
    fn from(i: i64) -> Self {
        BadValue::Int(i)
    }
}
impl From<i32> for BadValue {
    fn from(i: i32) -> Self {
        BadValue::Int(i64::from(i))
    }
}
impl From<usize> for BadValue {
    fn from(i: usize) -> Self {
        BadValue::Int(i64::try_from(i).unwrap_or(i64::MAX))
    }
}
impl From<f64> for BadValue {
    fn from(f: f64) -> Self {
        BadValue::Float(f)
    }
}
impl From<bool> for BadValue {
    fn from(b: bool) -> Self {
        BadValue::Bool(b)
    }
}
impl From<&Value> for BadValue {
    fn from(v: &Value) -> Self {
        match v {
            Value::String(s) => BadValue::String(s.clone()),
            Value::Bool(b) => BadValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => BadValue::Int(i),
                None => BadValue::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::Null | Value::Array(_) | Value::Object(_) => BadValue::Json(v.clone()),
        }
    }
}
impl From<Value> for BadValue {
    fn from(v: Value) -> Self {
        BadValue::from(&v)
    }
}

impl fmt::Display for BadValue {
    /// Go's rendering of the value inside `ErrorBody`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::Omitted => Ok(()),
            BadValue::String(s) => f.write_str(&gofmt::quote(s)),
            BadValue::Int(i) => write!(f, "{i}"),
            BadValue::Float(x) => f.write_str(&gofmt::format_float(*x)),
            BadValue::Bool(b) => write!(f, "{b}"),
            BadValue::Json(v) => f.write_str(&gofmt::json(v)),
            BadValue::Raw(s) => f.write_str(s),
        }
    }
}

/// A field-level validation error, Go's `*field.Error`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// Why the field is invalid.
    pub error_type: ErrorType,
    /// Where.
    pub field: FieldPath,
    /// The offending value (printed only for the types that print one).
    pub bad_value: BadValue,
    /// What is wrong, in words; may be empty.
    pub detail: String,
}

impl FieldError {
    /// `field.Required`: `Required value`, with an optional detail.
    #[must_use]
    pub fn required(field: &FieldPath, detail: impl Into<String>) -> FieldError {
        FieldError::new(
            ErrorType::Required,
            field,
            BadValue::String(String::new()),
            detail,
        )
    }

    /// `field.Invalid`: `Invalid value: <value>`.
    #[must_use]
    pub fn invalid(
        field: &FieldPath,
        value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> FieldError {
        FieldError::new(ErrorType::Invalid, field, value.into(), detail)
    }

    /// `field.TypeInvalid`: printed like `Invalid`, typed `FieldValueTypeInvalid`.
    #[must_use]
    pub fn type_invalid(
        field: &FieldPath,
        value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> FieldError {
        FieldError::new(ErrorType::TypeInvalid, field, value.into(), detail)
    }

    /// `field.NotSupported`: the detail lists the supported values, each `%q`-quoted:
    /// `supported values: "a", "b"` (no detail when the list is empty).
    #[must_use]
    pub fn not_supported<S: AsRef<str>>(
        field: &FieldPath,
        value: impl Into<BadValue>,
        supported: &[S],
    ) -> FieldError {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| gofmt::quote(s.as_ref())).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        FieldError::new(ErrorType::NotSupported, field, value.into(), detail)
    }

    /// `field.Forbidden`.
    #[must_use]
    pub fn forbidden(field: &FieldPath, detail: impl Into<String>) -> FieldError {
        FieldError::new(
            ErrorType::Forbidden,
            field,
            BadValue::String(String::new()),
            detail,
        )
    }

    /// `field.Duplicate`: `Duplicate value: <value>`.
    #[must_use]
    pub fn duplicate(field: &FieldPath, value: impl Into<BadValue>) -> FieldError {
        FieldError::new(ErrorType::Duplicate, field, value.into(), "")
    }

    /// `field.NotFound`: `Not found: <value>`.
    #[must_use]
    pub fn not_found(field: &FieldPath, value: impl Into<BadValue>) -> FieldError {
        FieldError::new(ErrorType::NotFound, field, value.into(), "")
    }

    /// `field.TooLong`: `Too long: may not be more than N bytes` (the value is never printed; a
    /// negative `max_bytes` gives `value is too long`).
    #[must_use]
    pub fn too_long(field: &FieldPath, max_bytes: i64) -> FieldError {
        let detail = match max_bytes {
            1 => "may not be more than 1 byte".to_owned(),
            n if n >= 0 => format!("may not be more than {n} bytes"),
            _ => "value is too long".to_owned(),
        };
        FieldError::new(
            ErrorType::TooLong,
            field,
            BadValue::from("<value omitted>"),
            detail,
        )
    }

    /// `field.TooLongCharacters`: like [`FieldError::too_long`], counted in characters.
    #[must_use]
    pub fn too_long_characters(field: &FieldPath, max_chars: i64) -> FieldError {
        let detail = match max_chars {
            1 => "may not be more than 1 character".to_owned(),
            n if n >= 0 => format!("may not be more than {n} characters"),
            _ => "value is too long".to_owned(),
        };
        FieldError::new(
            ErrorType::TooLong,
            field,
            BadValue::from("<value omitted>"),
            detail,
        )
    }

    /// `field.TooShort`: `Too short: must be at least N characters`.
    #[must_use]
    pub fn too_short(field: &FieldPath, value: impl Into<BadValue>, min_chars: i64) -> FieldError {
        let detail = match min_chars {
            1 => "must be at least 1 character".to_owned(),
            n if n >= 0 => format!("must be at least {n} characters"),
            _ => "value is too short".to_owned(),
        };
        FieldError::new(ErrorType::TooShort, field, value.into(), detail)
    }

    /// `field.TooMany`: `Too many: <actual>: must have at most N items` (`actual` < 0 omits it;
    /// `max` < 0 gives `has too many items`).
    #[must_use]
    pub fn too_many(field: &FieldPath, actual: i64, max: i64) -> FieldError {
        let detail = match max {
            1 => "must have at most 1 item".to_owned(),
            n if n >= 0 => format!("must have at most {n} items"),
            _ => "has too many items".to_owned(),
        };
        let value = if actual >= 0 {
            BadValue::Int(actual)
        } else {
            BadValue::Omitted
        };
        FieldError::new(ErrorType::TooMany, field, value, detail)
    }

    /// `field.TooFew`: `Too few: <actual>: must have at least N items`.
    #[must_use]
    pub fn too_few(field: &FieldPath, actual: i64, min: i64) -> FieldError {
        let detail = match min {
            1 => "must have at least 1 item".to_owned(),
            n if n >= 0 => format!("must have at least {n} items"),
            _ => "has too few items".to_owned(),
        };
        FieldError::new(ErrorType::TooFew, field, BadValue::Int(actual), detail)
    }

    /// `field.InternalError`: `Internal error: <err>`.
    #[must_use]
    pub fn internal(field: &FieldPath, err: impl fmt::Display) -> FieldError {
        let detail = err.to_string();
        FieldError::new(
            ErrorType::Internal,
            field,
            BadValue::Raw(detail.clone()),
            detail,
        )
    }

    fn new(
        error_type: ErrorType,
        field: &FieldPath,
        bad_value: BadValue,
        detail: impl Into<String>,
    ) -> FieldError {
        FieldError {
            error_type,
            field: field.clone(),
            bad_value,
            detail: detail.into(),
        }
    }

    /// The message without the field, Go's `ErrorBody()`: `Invalid value: "x": detail`.
    #[must_use]
    pub fn body(&self) -> String {
        let mut s = String::from(self.error_type.message());
        match self.error_type {
            ErrorType::Required
            | ErrorType::Forbidden
            | ErrorType::TooLong
            | ErrorType::TooShort
            | ErrorType::Internal => {}
            _ => {
                if self.bad_value != BadValue::Omitted {
                    let _ = write!(s, ": {}", self.bad_value);
                }
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// The same error with `base` in front of its path.
    #[must_use]
    pub fn prefixed(mut self, base: &FieldPath) -> FieldError {
        self.field = base.join(&self.field);
        self
    }
}

impl fmt::Display for FieldError {
    /// Go's `Error()`: `<field>: <body>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl std::error::Error for FieldError {}

/// Go's `ErrorList.ToAggregate().Error()`: duplicates dropped, one message alone, several as
/// `[a, b]`; the empty list gives the empty string.
#[must_use]
pub fn aggregate(errors: &[FieldError]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for e in errors {
        let msg = e.to_string();
        if !seen.contains(&msg) {
            seen.push(msg);
        }
    }
    match seen.len() {
        0 => String::new(),
        1 => seen.swap_remove(0),
        _ => format!("[{}]", seen.join(", ")),
    }
}
