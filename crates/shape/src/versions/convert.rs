//! Conversion of objects between the versions of a kind: typed steps between neighbouring
//! versions (`TryFrom`/`From` between their root types), walked from the object's version to
//! the one asked for.
//!
//! What the API server does with a webhook's answer (apiextensions-apiserver
//! `pkg/apiserver/conversion/webhook_converter.go`, `restoreObjectMeta`) is done here too: the
//! converted object keeps the original's `metadata` except `labels` and `annotations`.

use std::fmt::Display;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Conversion, KindDecl, Versioned};

/// Why an object did not convert.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConversionError {
    /// `42`: objects are JSON objects.
    NotAnObject,
    /// `{"apiVersion": "example.com/v3", ..}`, or a target version that is not declared.
    UnknownVersion {
        /// The `apiVersion` (or version) asked for or found.
        api_version: String,
        /// The kind.
        kind: String,
        /// The group.
        group: String,
        /// The declared versions, comma-separated.
        known: String,
    },
    /// `{"kind": "Shirt", ..}` given to the CronTab's conversion.
    WrongKind {
        /// The kind of the declaration.
        expected: String,
        /// The object's `kind`.
        found: String,
    },
    /// The object does not decode into its version's Rust type.
    Decode {
        /// The object's `apiVersion`.
        api_version: String,
        /// serde's message.
        message: String,
    },
    /// A typed conversion failed; the message is the conversion's own error
    /// (`hostPort could not be parsed into a separate host and port`).
    Failed(String),
}

impl std::fmt::Display for ConversionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotAnObject => f.write_str("the object is not a JSON object"),
            Self::UnknownVersion {
                api_version,
                kind,
                group,
                known,
            } => write!(
                f,
                "{api_version:?} is not a version of {kind}.{group} (its versions: {known})"
            ),
            Self::WrongKind { expected, found } => write!(f, "kind {found:?} is not {expected}"),
            Self::Decode {
                api_version,
                message,
            } => write!(f, "the {api_version} object does not decode: {message}"),
            Self::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ConversionError {}

/// What one step between neighbouring versions can fail with; [`convert`] adds the versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The object does not decode into the step's source type.
    Decode(String),
    /// The typed conversion failed, with its message.
    Failed(String),
}

/// Conversion of a version's root type from the neighbouring version's: implemented for every
/// type with `TryFrom<T>` (or `From<T>`) whose error prints.
#[diagnostic::on_unimplemented(
    message = "no conversion from `{T}` to `{Self}`",
    label = "neighbouring versions of a kind convert to each other",
    note = "implement `From<{T}> for {Self}` (or `TryFrom`, whose error becomes the webhook's failure message), and the way back",
    note = "when the versions have the same schema, declare `#[versions(conversion = \"None\")]` instead: the API server then only changes `apiVersion`"
)]
pub trait ConvertFrom<T>: Sized {
    /// Converts `value`.
    ///
    /// # Errors
    /// The conversion's error, printed.
    fn convert_from(value: T) -> Result<Self, String>;
}

impl<T, U> ConvertFrom<T> for U
where
    U: TryFrom<T>,
    U::Error: Display,
{
    fn convert_from(value: T) -> Result<Self, String> {
        U::try_from(value).map_err(|e| e.to_string())
    }
}

/// Conversion of a field whose type changed between two versions
/// (`#[versioned(changed(since = .., from_type = ..))]`): any `TryFrom`/`From`.
#[diagnostic::on_unimplemented(
    message = "the field's type changed from `{T}` to `{Self}`, and nothing converts one into the other",
    label = "this field converts between versions",
    note = "implement `From<{T}> for {Self}` (or `TryFrom`) and the way back, or name functions: `changed(since = .., from_type = .., upgrade_with = path, downgrade_with = path)`"
)]
pub trait ConvertField<T>: Sized {
    /// Converts `value`.
    ///
    /// # Errors
    /// The conversion's error, printed.
    fn convert_field(value: T) -> Result<Self, String>;
}

impl<T, U> ConvertField<T> for U
where
    U: TryFrom<T>,
    U::Error: Display,
{
    fn convert_field(value: T) -> Result<Self, String> {
        U::try_from(value).map_err(|e| e.to_string())
    }
}

/// The value of a field for objects of versions that do not have it
/// (`#[versioned(added(since = ..))]`, `removed(since = ..)`): the type's `Default`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no default for objects of the versions without this field",
    label = "this field is added or removed between versions",
    note = "give it a function, `added(since = .., default = path)`, or implement `Default` for `{Self}`"
)]
pub trait AddedDefault: Sized {
    /// The value.
    fn added_default() -> Self;
}

impl<T: Default> AddedDefault for T {
    fn added_default() -> Self {
        T::default()
    }
}

/// What an `upgrade_with`/`downgrade_with` function returns: the value, or a `Result` whose
/// error prints.
pub trait Converted<T> {
    /// The value or the printed error.
    ///
    /// # Errors
    /// The function's error.
    fn converted(self) -> Result<T, String>;
}

impl<T> Converted<T> for T {
    fn converted(self) -> Result<T, String> {
        Ok(self)
    }
}

impl<T, E: Display> Converted<T> for Result<T, E> {
    fn converted(self) -> Result<T, String> {
        self.map_err(|e| e.to_string())
    }
}

/// Converts a field value through [`ConvertField`] (what generated conversions call).
///
/// # Errors
/// The conversion's error, printed.
pub fn convert_field<T, U: ConvertField<T>>(value: T) -> Result<U, String> {
    U::convert_field(value)
}

/// One step between neighbouring versions: decodes the object as `A`, converts it to `B`
/// through [`ConvertFrom`], encodes `B`.
///
/// # Errors
/// When the object does not decode as `A`, or the conversion fails.
pub fn step<A, B>(object: Value) -> Result<Value, StepError>
where
    A: DeserializeOwned,
    B: Serialize + ConvertFrom<A>,
{
    let a: A = serde_json::from_value(object).map_err(|e| StepError::Decode(e.to_string()))?;
    let b = B::convert_from(a).map_err(StepError::Failed)?;
    // Roots serialize to JSON objects; a failure here is a bug of the type's Serialize.
    serde_json::to_value(b).map_err(|e| StepError::Failed(e.to_string()))
}

/// A step function: [`step`] instantiated for two neighbouring versions.
pub type Step = fn(Value) -> Result<Value, StepError>;

/// Converts `object` to version `to` (a version name or an `apiVersion`): with the `None`
/// strategy by setting `apiVersion`; with `Webhook` through `steps`, where `steps[i]` holds the
/// conversions from version `i` to `i + 1` and back. The result keeps the object's `metadata`,
/// with the converted `labels` and `annotations`.
///
/// # Errors
/// See [`ConversionError`].
pub fn convert(
    decl: &KindDecl,
    steps: &[(Step, Step)],
    object: Value,
    to: &str,
) -> Result<Value, ConversionError> {
    let unknown = |api_version: &str| unknown_version(decl, api_version);
    let Some(first) = decl.versions.first() else {
        return Err(unknown(to));
    };
    let Value::Object(map) = &object else {
        return Err(ConversionError::NotAnObject);
    };
    let kind = map.get("kind").and_then(Value::as_str).unwrap_or_default();
    if kind != first.kind {
        return Err(ConversionError::WrongKind {
            expected: first.kind.to_owned(),
            found: kind.to_owned(),
        });
    }
    let api_version = map
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let from = decl
        .position(api_version)
        .filter(|_| api_version.contains('/'))
        .ok_or_else(|| unknown(api_version))?;
    let target = decl.position(to).ok_or_else(|| unknown(to))?;
    if from == target {
        return Ok(object);
    }
    let metadata = map.get("metadata").cloned();
    let mut current = object;
    match decl.conversion {
        Conversion::None => {}
        Conversion::Webhook(_) => {
            let mut at = from;
            while at != target {
                let (next, run) = if at < target {
                    (at + 1, steps.get(at).map(|s| s.0))
                } else {
                    (at - 1, steps.get(at - 1).map(|s| s.1))
                };
                // The derive gives one pair per neighbours; a hand-built table may not.
                let run = run.ok_or_else(|| {
                    ConversionError::Failed(format!(
                        "no conversion from {} to {}",
                        decl.versions[at].api_version(),
                        decl.versions[next].api_version()
                    ))
                })?;
                current = run(current).map_err(|e| match e {
                    StepError::Decode(message) => ConversionError::Decode {
                        api_version: decl.versions[at].api_version(),
                        message,
                    },
                    StepError::Failed(m) => ConversionError::Failed(m),
                })?;
                at = next;
            }
        }
    }
    let Value::Object(out) = &mut current else {
        return Err(ConversionError::NotAnObject);
    };
    out.insert(
        "apiVersion".to_owned(),
        Value::String(decl.versions[target].api_version()),
    );
    out.insert("kind".to_owned(), Value::String(first.kind.to_owned()));
    restore_metadata(out, metadata);
    Ok(current)
}

/// The error for an `apiVersion` (or version) that is not one of the kind's.
#[must_use]
pub fn unknown_version(decl: &KindDecl, api_version: &str) -> ConversionError {
    let (kind, group) = decl
        .versions
        .first()
        .map_or(("", ""), |v| (v.kind, v.group));
    ConversionError::UnknownVersion {
        api_version: api_version.to_owned(),
        kind: kind.to_owned(),
        group: group.to_owned(),
        known: decl
            .versions
            .iter()
            .map(|v| v.version)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The `apiVersion` of a JSON object, or `""`.
#[must_use]
pub fn api_version_of(object: &Value) -> String {
    object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// A typed object in another version, through its JSON form and [`Versioned::convert`].
///
/// # Errors
/// See [`ConversionError`].
pub fn into_version<T>(object: T, version: &str) -> Result<T, ConversionError>
where
    T: Versioned + Serialize + DeserializeOwned,
{
    let value =
        serde_json::to_value(&object).map_err(|e| ConversionError::Failed(e.to_string()))?;
    let converted = T::convert(value, version)?;
    let api_version = api_version_of(&converted);
    serde_json::from_value(converted).map_err(|e| ConversionError::Decode {
        api_version,
        message: e.to_string(),
    })
}

/// The original `metadata`, with `labels` and `annotations` as the conversion left them.
fn restore_metadata(out: &mut Map<String, Value>, original: Option<Value>) {
    let Some(Value::Object(mut meta)) = original else {
        return;
    };
    let converted = out.get("metadata").and_then(Value::as_object);
    for key in ["labels", "annotations"] {
        match converted.and_then(|c| c.get(key)) {
            Some(v) if !v.is_null() => {
                meta.insert(key.to_owned(), v.clone());
            }
            _ => {
                meta.remove(key);
            }
        }
    }
    out.insert("metadata".to_owned(), Value::Object(meta));
}
