//! The vocabulary the checks share: a shape's kind in words, the kinds of JSON value a kind
//! accepts, and a struct's fields by serialized name (through flattened structs).

use crate::msg::str_eq;
use crate::{Enum, Field, Kind, Repr, VariantKind};

/// The kind of a shape in words, for messages.
#[must_use]
pub const fn kind_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Any => "any JSON value",
        Kind::Boolean => "a boolean",
        Kind::Integer => "an integer",
        Kind::Number => "a number",
        Kind::String => "a string",
        Kind::IntOrString => "an int-or-string",
        Kind::Array(_) => "a list",
        Kind::Map(_) => "a map",
        Kind::Struct(_) => "a struct",
        Kind::Enum(_) => "an enum",
        Kind::Dynamic(_) => "a run-time schema",
    }
}

pub(super) const fn is_stringish(k: &Kind) -> bool {
    matches!(
        k,
        Kind::String | Kind::IntOrString | Kind::Any | Kind::Dynamic(_)
    ) || is_string_enum(k)
}

pub(super) const fn is_numeric(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Integer | Kind::Number | Kind::IntOrString | Kind::Any | Kind::Dynamic(_)
    )
}

pub(super) const fn is_objectish(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Struct(_) | Kind::Map(_) | Kind::Any | Kind::Dynamic(_)
    ) || matches!(k, Kind::Enum(_)) && !is_string_enum(k)
}

pub(super) const fn is_string_enum(k: &Kind) -> bool {
    match k {
        Kind::Enum(e) => matches!(e.repr, Repr::External) && all_unit(e),
        _ => false,
    }
}

pub(super) const fn all_unit(e: &Enum) -> bool {
    let mut i = 0;
    while i < e.variants.len() {
        if !matches!(e.variants[i].kind, VariantKind::Unit) {
            return false;
        }
        i += 1;
    }
    true
}

/// The field serialized as `name`, looking through flattened structs.
#[must_use]
pub const fn find_field(fields: &'static [Field], name: &str) -> Option<&'static Field> {
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        if f.flatten {
            if let Kind::Struct(inner) = f.shape.kind
                && let Some(found) = find_field(inner, name)
            {
                return Some(found);
            }
        } else if str_eq(f.name, name) {
            return Some(f);
        }
        i += 1;
    }
    None
}
