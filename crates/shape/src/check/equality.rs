//! Whether two shapes emit the same schema (descriptions aside): what a field defined by two
//! variants of a merged enum must satisfy.

use crate::msg::str_eq;
use crate::{DefaultValue, Field, Kind, Repr, Rules, Shape, VariantKind};

const fn opt_str_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => str_eq(a, b),
        _ => false,
    }
}

const fn opt_f64_eq(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

const fn opt_u64_eq(a: Option<u64>, b: Option<u64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

const fn rules_eq(a: &Rules, b: &Rules) -> bool {
    if a.own.len() != b.own.len() {
        return false;
    }
    let mut i = 0;
    while i < a.own.len() {
        let (x, y) = (&a.own[i], &b.own[i]);
        if !str_eq(x.rule, y.rule)
            || !opt_str_eq(x.message, y.message)
            || !opt_str_eq(x.message_expression, y.message_expression)
            || !opt_str_eq(x.reason, y.reason)
            || !opt_str_eq(x.field_path, y.field_path)
            || x.optional_old_self != y.optional_old_self
        {
            return false;
        }
        i += 1;
    }
    match (a.inherited, b.inherited) {
        (None, None) => true,
        (Some(x), Some(y)) => rules_eq(x, y),
        _ => false,
    }
}

const fn fields_eq(a: &[Field], b: &[Field]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !str_eq(a[i].name, b[i].name)
            || a[i].required != b[i].required
            || a[i].flatten != b[i].flatten
            || !same_shape(a[i].shape, b[i].shape)
        {
            return false;
        }
        i += 1;
    }
    true
}

const fn kinds_eq(a: &Kind, b: &Kind) -> bool {
    match (a, b) {
        (Kind::Any, Kind::Any)
        | (Kind::Boolean, Kind::Boolean)
        | (Kind::Integer, Kind::Integer)
        | (Kind::Number, Kind::Number)
        | (Kind::String, Kind::String)
        | (Kind::IntOrString, Kind::IntOrString)
        // Known only when the CRD is built, which compares them then.
        | (Kind::Dynamic(_), Kind::Dynamic(_)) => true,
        (Kind::Array(x), Kind::Array(y)) | (Kind::Map(x), Kind::Map(y)) => same_shape(x, y),
        (Kind::Struct(x), Kind::Struct(y)) => fields_eq(x, y),
        (Kind::Enum(x), Kind::Enum(y)) => {
            if x.variants.len() != y.variants.len() || !repr_eq(&x.repr, &y.repr) {
                return false;
            }
            let mut i = 0;
            while i < x.variants.len() {
                let (v, w) = (&x.variants[i], &y.variants[i]);
                let same = str_eq(v.name, w.name)
                    && match (v.kind, w.kind) {
                        (VariantKind::Unit, VariantKind::Unit) => true,
                        (VariantKind::Newtype(p), VariantKind::Newtype(q)) => same_shape(p, q),
                        (VariantKind::Struct(p), VariantKind::Struct(q)) => fields_eq(p, q),
                        _ => false,
                    };
                if !same {
                    return false;
                }
                i += 1;
            }
            true
        }
        _ => false,
    }
}

const fn repr_eq(a: &Repr, b: &Repr) -> bool {
    match (a, b) {
        (Repr::External, Repr::External) | (Repr::Untagged, Repr::Untagged) => true,
        (Repr::Internal { tag: x }, Repr::Internal { tag: y }) => str_eq(x, y),
        (Repr::Adjacent { tag: x, content: c }, Repr::Adjacent { tag: y, content: d }) => {
            str_eq(x, y) && str_eq(c, d)
        }
        _ => false,
    }
}

/// Whether two shapes emit the same schema (descriptions aside), as the builder requires of a
/// field that several variants of a merged enum define.
pub(super) const fn same_shape(a: &Shape, b: &Shape) -> bool {
    if !kinds_eq(&a.kind, &b.kind)
        || !opt_str_eq(a.format, b.format)
        || !opt_str_eq(a.title, b.title)
        || a.nullable != b.nullable
        || !opt_f64_eq(a.minimum, b.minimum)
        || a.exclusive_minimum != b.exclusive_minimum
        || !opt_f64_eq(a.maximum, b.maximum)
        || a.exclusive_maximum != b.exclusive_maximum
        || !opt_f64_eq(a.multiple_of, b.multiple_of)
        || !opt_u64_eq(a.min_length, b.min_length)
        || !opt_u64_eq(a.max_length, b.max_length)
        || !opt_str_eq(a.pattern, b.pattern)
        || !opt_u64_eq(a.min_items, b.min_items)
        || !opt_u64_eq(a.max_items, b.max_items)
        || !opt_u64_eq(a.min_properties, b.min_properties)
        || !opt_u64_eq(a.max_properties, b.max_properties)
        || a.preserve_unknown_fields != b.preserve_unknown_fields
        || a.embedded_resource != b.embedded_resource
        || a.enum_values.len() != b.enum_values.len()
        || a.list_map_keys.len() != b.list_map_keys.len()
        || !rules_eq(&a.rules, &b.rules)
    {
        return false;
    }
    match (a.list_type, b.list_type) {
        (None, None) => {}
        (Some(x), Some(y)) if x as u8 == y as u8 => {}
        _ => return false,
    }
    match (a.map_type, b.map_type) {
        (None, None) => {}
        (Some(x), Some(y)) if x as u8 == y as u8 => {}
        _ => return false,
    }
    let mut i = 0;
    while i < a.enum_values.len() {
        if !a.enum_values[i].equals(&b.enum_values[i]) {
            return false;
        }
        i += 1;
    }
    let mut i = 0;
    while i < a.list_map_keys.len() {
        if !str_eq(a.list_map_keys[i], b.list_map_keys[i]) {
            return false;
        }
        i += 1;
    }
    match (&a.default, &b.default) {
        (None, None) | (Some(DefaultValue::Fn(_)), Some(DefaultValue::Fn(_))) => true,
        (Some(DefaultValue::Value(x)), Some(DefaultValue::Value(y))) => x.equals(y),
        _ => false,
    }
}
