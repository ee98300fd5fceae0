//! `typeValidator.Validate`: whether a value's JSON kind is one of the node's types, with Go's
//! format and number conversions.
//!
//! Mirrors kube-openapi `pkg/validation/validate/type.go`.

use super::{At, OpenApi};
use crate::compiled::Node;
use crate::compiled::errors::OpenApiError;
use crate::compiled::number::is_json_integer;
use crdkit_schema::Type;

/// The JSON kind of a non-null value, as the type validator sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Bool,
    String,
    Int,
    Float(f64),
    Array,
    Object,
}

impl OpenApi {
    /// Whether a value of `kind` passes the type check.
    #[inline]
    pub(crate) fn type_passes(n: &Node, kind: Kind) -> bool {
        type_ok(n, kind) || OpenApi::new().type_check_slow(n, kind, &At::ROOT) == 1
    }

    /// `typeValidator.Validate` when the type does not simply match; 1 if it passes, else 0.
    // The conditions keep the shape of Go's, to be compared line by line.
    #[allow(clippy::nonminimal_bool)]
    #[cold]
    pub(super) fn type_check_slow(&mut self, n: &Node, kind: Kind, at: &At) -> usize {
        let (sch, fmt, float) = match kind {
            Kind::Bool => ("boolean", "", None),
            Kind::String => ("string", "", None),
            Kind::Int => ("integer", "int64", None),
            Kind::Float(f) => ("number", "float64", Some(f)),
            Kind::Array => ("array", "", None),
            Kind::Object => ("object", "", None),
        };
        let contains = |t: &str| Type::parse(t).is_some_and(|t| n.has_type(t));
        let float_int = float.is_some_and(is_json_integer) && n.has_type(Type::Integer);
        let int_float = sch == "integer" && n.has_type(Type::Number);
        let str_or_slice = matches!(kind, Kind::String | Kind::Array);
        let fmt_name = n.format_name.as_str();
        if !str_or_slice
            && !fmt_name.is_empty()
            && !(contains(sch) || fmt == fmt_name || float_int || int_float)
        {
            self.push(OpenApiError::invalid_type(&at.render(), fmt_name, fmt));
            return 0;
        }
        if !(n.has_type(Type::Number) || n.has_type(Type::Integer))
            && !fmt_name.is_empty()
            && str_or_slice
        {
            return 1;
        }
        if !(contains(sch) || float_int || int_float) {
            self.push(OpenApiError::invalid_type(&at.render(), &n.type_names, sch));
            return 0;
        }
        1
    }
}

/// Whether a value of `kind` simply has one of the node's types (the common case, which needs
/// none of Go's format and number conversions).
#[inline]
pub(super) fn type_ok(n: &Node, kind: Kind) -> bool {
    match kind {
        Kind::Bool => n.has_type(Type::Boolean),
        Kind::String => n.has_type(Type::String),
        Kind::Int => n.has_type(Type::Integer) || n.has_type(Type::Number),
        Kind::Float(f) => {
            n.has_type(Type::Number) || n.has_type(Type::Integer) && is_json_integer(f)
        }
        Kind::Array => n.has_type(Type::Array),
        Kind::Object => n.has_type(Type::Object),
    }
}
