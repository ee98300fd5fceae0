//! kube-openapi's validation errors and their conversion to [`FieldError`]s.
//!
//! Mirrors kube-openapi `pkg/validation/errors/schema.go` (the messages, always "in body") and
//! `pkg/validation/validate/schema_messages.go`, and apiextensions-apiserver
//! `pkg/apiserver/validation/validation.go` (`kubeOpenAPIResultToFieldErrors`).

use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::gofmt;

/// The error codes of kube-openapi that the conversion distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    InvalidType,
    Required,
    TooLong,
    Enum,
    MaxItems,
    TooManyProperties,
    /// Every other `*errors.Validation` (pattern, minimum, ...): `field.Invalid`.
    Other,
}

/// One error of a kube-openapi `Result`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum OpenApiError {
    /// An `*errors.Validation`: `name` is the dotted path (`spec.ports[0].name`).
    Validation {
        code: Code,
        name: String,
        value: Option<BadValue>,
        /// `Valid` (the limit) for too-long/too-many errors.
        valid: i64,
        /// The enum values, rendered as the conversion renders them.
        values: Vec<String>,
        message: String,
    },
    /// A plain Go `error` (composite messages, range checks): reported at the root path.
    Plain(String),
}

impl OpenApiError {
    pub(crate) fn message(&self) -> &str {
        match self {
            OpenApiError::Validation { message, .. } | OpenApiError::Plain(message) => message,
        }
    }

    fn validation(code: Code, name: &str, value: Option<BadValue>, message: String) -> Self {
        OpenApiError::Validation {
            code,
            name: name.to_owned(),
            value,
            valid: -1,
            values: Vec::new(),
            message,
        }
    }

    /// `errors.InvalidType` with a string value: `<name> in body must be of type <ty>: "<v>"`.
    pub(crate) fn invalid_type(name: &str, ty: &str, value: &str) -> Self {
        let message = format!(
            "{name} in body must be of type {ty}: {}",
            crdkit_apimachinery::gofmt::quote(value)
        );
        Self::validation(
            Code::InvalidType,
            name,
            Some(BadValue::from(value)),
            message,
        )
    }

    /// `errors.Required`.
    pub(crate) fn required(name: &str) -> Self {
        Self::validation(
            Code::Required,
            name,
            None,
            format!("{name} in body is required"),
        )
    }

    /// `errors.TooLong`.
    pub(crate) fn too_long(name: &str, max: i64, value: &str) -> Self {
        let message = format!("{name} in body should be at most {max} chars long");
        let mut e = Self::validation(Code::TooLong, name, Some(BadValue::from(value)), message);
        if let OpenApiError::Validation { valid, .. } = &mut e {
            *valid = max;
        }
        e
    }

    /// `errors.TooShort`.
    pub(crate) fn too_short(name: &str, min: i64, value: &str) -> Self {
        let message = format!("{name} in body should be at least {min} chars long");
        Self::validation(Code::Other, name, Some(BadValue::from(value)), message)
    }

    /// `errors.FailedPattern`.
    pub(crate) fn pattern(name: &str, pattern: &str, value: &str) -> Self {
        let message = format!("{name} in body should match '{pattern}'");
        Self::validation(Code::Other, name, Some(BadValue::from(value)), message)
    }

    /// `errors.TooManyItems`.
    pub(crate) fn too_many_items(name: &str, max: i64, size: i64) -> Self {
        let message = format!("{name} in body should have at most {max} items");
        let mut e = Self::validation(Code::MaxItems, name, Some(BadValue::Int(size)), message);
        if let OpenApiError::Validation { valid, .. } = &mut e {
            *valid = max;
        }
        e
    }

    /// `errors.TooFewItems`.
    pub(crate) fn too_few_items(name: &str, min: i64, size: i64) -> Self {
        let message = format!("{name} in body should have at least {min} items");
        Self::validation(Code::Other, name, Some(BadValue::Int(size)), message)
    }

    /// `errors.DuplicateItems`.
    pub(crate) fn duplicate_items(name: &str) -> Self {
        Self::validation(
            Code::Other,
            name,
            None,
            format!("{name} in body shouldn't contain duplicates"),
        )
    }

    /// `errors.TooManyProperties`.
    pub(crate) fn too_many_properties(name: &str, max: i64, size: i64) -> Self {
        let message = format!("{name} in body should have at most {max} properties");
        let mut e = Self::validation(
            Code::TooManyProperties,
            name,
            Some(BadValue::Int(size)),
            message,
        );
        if let OpenApiError::Validation { valid, .. } = &mut e {
            *valid = max;
        }
        e
    }

    /// `errors.TooFewProperties`.
    pub(crate) fn too_few_properties(name: &str, min: i64, size: i64) -> Self {
        let message = format!("{name} in body should have at least {min} properties");
        Self::validation(Code::Other, name, Some(BadValue::Int(size)), message)
    }

    /// `errors.PropertyNotAllowed` (`additionalProperties: false`).
    pub(crate) fn property_not_allowed(name: &str, key: &str) -> Self {
        let message = format!("{name}.{key} in body is a forbidden property");
        Self::validation(Code::Other, name, Some(BadValue::from(key)), message)
    }

    /// `errors.EnumFail`; `value` is `None` for null data.
    pub(crate) fn enum_fail(
        name: &str,
        value: BadValue,
        enum_values: &[serde_json::Value],
    ) -> Self {
        let values = enum_values
            .iter()
            .map(|v| match v {
                serde_json::Value::String(s) => s.clone(),
                v => gofmt::json(v),
            })
            .collect();
        // The message (`should be one of [..]`, Go's %v of a slice) is only used to tell errors
        // apart; the field error lists the values itself.
        let message = format!(
            "{name} in body should be one of {}",
            gofmt::json(&serde_json::Value::Array(enum_values.to_vec()))
        );
        OpenApiError::Validation {
            code: Code::Enum,
            name: name.to_owned(),
            value: Some(value),
            valid: -1,
            values,
            message,
        }
    }

    /// A number error (`should be less than or equal to 10`) with its Go-printed limit.
    pub(crate) fn number(name: &str, what: &str, limit: &str, value: BadValue) -> Self {
        let message = format!("{name} in body should be {what} {limit}");
        Self::validation(Code::Other, name, Some(value), message)
    }

    /// `errors.MultipleOfMustBePositive`.
    pub(crate) fn multiple_of_must_be_positive(name: &str, factor: BadValue) -> Self {
        let message = format!("factor MultipleOf declared for {name} must be positive: {factor}");
        Self::validation(Code::Other, name, Some(factor), message)
    }

    /// `must validate at least one schema (anyOf)`.
    pub(crate) fn any_of(name: &str) -> Self {
        OpenApiError::Plain(format!(
            "{} must validate at least one schema (anyOf)",
            quote(name)
        ))
    }

    /// `must validate one and only one schema (oneOf)`.
    pub(crate) fn one_of(name: &str, valid: usize) -> Self {
        let extra = if valid == 0 {
            "Found none valid".to_owned()
        } else {
            format!("Found {valid} valid alternatives")
        };
        OpenApiError::Plain(format!(
            "{} must validate one and only one schema (oneOf). {extra}",
            quote(name)
        ))
    }

    /// `must validate all the schemas (allOf)`.
    pub(crate) fn all_of(name: &str, none_valid: bool) -> Self {
        let extra = if none_valid { ". None validated" } else { "" };
        OpenApiError::Plain(format!(
            "{} must validate all the schemas (allOf){extra}",
            quote(name)
        ))
    }

    /// `must not validate the schema (not)`.
    pub(crate) fn not(name: &str) -> Self {
        OpenApiError::Plain(format!(
            "{} must not validate the schema (not)",
            quote(name)
        ))
    }
}

/// `%q` of a path.
fn quote(s: &str) -> String {
    crdkit_apimachinery::gofmt::quote(s)
}

/// Appends `e` unless an error with the same message is there (Go's `Result.AddErrors`).
pub(crate) fn add(errors: &mut Vec<OpenApiError>, e: OpenApiError) {
    if !errors.iter().any(|x| x.message() == e.message()) {
        errors.push(e);
    }
}

/// `kubeOpenAPIResultToFieldErrors`: `base` is the path the validated value sits at (`<nil>` for
/// a whole object, `status` for the status subresource).
pub(crate) fn to_field_errors(
    base: &FieldPath,
    errors: Vec<OpenApiError>,
    out: &mut Vec<FieldError>,
) {
    for e in errors {
        match e {
            OpenApiError::Validation {
                code,
                name,
                value,
                valid,
                values,
                message,
            } => {
                let path = if name.is_empty() || name == "." {
                    base.clone()
                } else {
                    base.child(name.strip_prefix('.').unwrap_or(&name))
                };
                let value = value.unwrap_or_else(|| BadValue::from(""));
                out.push(match code {
                    Code::Required => FieldError::required(&path, ""),
                    Code::Enum => FieldError::not_supported(&path, value, &values),
                    Code::TooLong => FieldError::too_long(&path, valid),
                    Code::MaxItems | Code::TooManyProperties => {
                        let actual = match value {
                            BadValue::Int(i) => i,
                            _ => -1,
                        };
                        FieldError::too_many(&path, actual, valid)
                    }
                    Code::InvalidType => FieldError::type_invalid(&path, value, message),
                    Code::Other => FieldError::invalid(&path, value, message),
                });
            }
            OpenApiError::Plain(message) => out.push(FieldError::invalid(base, "", message)),
        }
    }
}
