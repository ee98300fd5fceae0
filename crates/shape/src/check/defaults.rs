//! Defaults against the schema they default, as the API server validates them when the CRD is
//! created (apiextensions `validation.go` `validateDefaults`: pruned, then validated as a
//! value). Literal defaults are checked at compile time ([`check_default`]; their patterns by
//! the macro), the values of default functions when the CRD is built
//! ([`check_default_value`], the same rules plus patterns).

use super::R;
use super::kinds::{find_field, is_string_enum, kind_name};
use crate::msg::str_eq;
use crate::{Enum, Field, JsonOf, Kind, Msg, Repr, Shape, VariantKind};
use serde_json::Value;

/// Whether `v` has the JSON type that `kind` accepts.
pub(super) const fn check_value_type(v: &JsonOf<'_>, kind: &Kind, nullable: bool) -> R {
    let ok = match (v, kind) {
        (JsonOf::Null, _) => nullable || matches!(kind, Kind::Any),
        (_, Kind::Any | Kind::Dynamic(_)) => true,
        (_, Kind::Enum(e)) if matches!(e.repr, Repr::Untagged) => untagged_accepts(v, e),
        (JsonOf::Bool(_), Kind::Boolean) => true,
        (JsonOf::Int(_) | JsonOf::UInt(_), Kind::Integer | Kind::Number | Kind::IntOrString) => {
            true
        }
        (JsonOf::Float(f), Kind::Integer) => *f == (*f as i64) as f64,
        (JsonOf::Float(_), Kind::Number) => true,
        (JsonOf::Str(_), Kind::String | Kind::IntOrString) => true,
        (JsonOf::Str(_), Kind::Enum(_)) => is_string_enum(kind),
        (JsonOf::Array(_), Kind::Array(_)) => true,
        (JsonOf::Object(_), Kind::Map(_) | Kind::Struct(_)) => true,
        (JsonOf::Object(_), Kind::Enum(_)) => !is_string_enum(kind),
        _ => false,
    };
    if ok {
        Ok(())
    } else if matches!(v, JsonOf::Null) {
        Err(Msg::of("null is not allowed: the field is not nullable"))
    } else if let Kind::Enum(Enum {
        repr: Repr::Untagged,
        ..
    }) = kind
    {
        Err(Msg::of(v.type_name()).s(" given, but no variant of the untagged enum reads one"))
    } else {
        Err(Msg::of(v.type_name())
            .s(" given, but the field is ")
            .s(kind_name(kind)))
    }
}

/// Whether a variant of an untagged enum reads a value of `v`'s JSON type (serde tries each).
const fn untagged_accepts(v: &JsonOf<'_>, e: &Enum) -> bool {
    let mut i = 0;
    while i < e.variants.len() {
        let ok = match e.variants[i].kind {
            VariantKind::Unit => matches!(v, JsonOf::Null),
            VariantKind::Struct(_) => matches!(v, JsonOf::Object(_)),
            VariantKind::Newtype(s) => check_value_type(v, &s.kind, s.nullable).is_ok(),
        };
        if ok {
            return true;
        }
        i += 1;
    }
    false
}

/// Validates a literal default against the shape it defaults, as the API server validates
/// defaults when the CRD is created (patterns and formats are checked by the macro).
///
/// # Errors
/// The first violation, with its path below the field.
pub const fn check_default(v: &JsonOf<'_>, s: &Shape) -> R {
    if let Err(e) = check_value_type(v, &s.kind, s.nullable) {
        return Err(e);
    }
    if matches!(v, JsonOf::Null) {
        return Ok(());
    }
    if !s.enum_values.is_empty() {
        let mut i = 0;
        let mut found = false;
        while i < s.enum_values.len() {
            found |= s.enum_values[i].equals(v);
            i += 1;
        }
        if !found {
            return Err(Msg::of("not one of the `enum` values"));
        }
    }
    if let Kind::Enum(e) = s.kind
        && is_string_enum(&s.kind)
        && let JsonOf::Str(name) = v
    {
        let mut i = 0;
        while i < e.variants.len() {
            if str_eq(e.variants[i].name, name) {
                return Ok(());
            }
            i += 1;
        }
        return Err(Msg::of("\"").s(name).s("\" is not a variant"));
    }
    if let Some(n) = v.as_f64() {
        if let Some(min) = s.minimum
            && (n < min || s.exclusive_minimum && n == min)
        {
            return Err(Msg::of("should be greater than ")
                .s(if s.exclusive_minimum {
                    ""
                } else {
                    "or equal to "
                })
                .num(min));
        }
        if let Some(max) = s.maximum
            && (n > max || s.exclusive_maximum && n == max)
        {
            return Err(Msg::of("should be less than ")
                .s(if s.exclusive_maximum {
                    ""
                } else {
                    "or equal to "
                })
                .num(max));
        }
        if let Some(m) = s.multiple_of {
            let q = n / m;
            if q != (q as i64) as f64 {
                return Err(Msg::of("should be a multiple of ").num(m));
            }
        }
    }
    match v {
        JsonOf::Str(st) => {
            let n = char_count(st);
            if let Some(min) = s.min_length
                && n < min
            {
                return Err(Msg::of("should be at least ")
                    .int(min as i128)
                    .s(" chars long"));
            }
            if let Some(max) = s.max_length
                && n > max
            {
                return Err(Msg::of("may not be longer than ").int(max as i128));
            }
            Ok(())
        }
        JsonOf::Array(items) => {
            if let Some(min) = s.min_items
                && (items.len() as u64) < min
            {
                return Err(Msg::of("should have at least ")
                    .int(min as i128)
                    .s(" items"));
            }
            if let Some(max) = s.max_items
                && items.len() as u64 > max
            {
                return Err(Msg::of("should have at most ").int(max as i128).s(" items"));
            }
            if let Kind::Array(item) = s.kind {
                let mut i = 0;
                while i < items.len() {
                    if let Err(e) = check_default(&items[i], item) {
                        return Err(Msg::of("[").int(i as i128).s("]: ").s(e.as_str()));
                    }
                    i += 1;
                }
            }
            Ok(())
        }
        JsonOf::Object(entries) => {
            if let Some(min) = s.min_properties
                && (entries.len() as u64) < min
            {
                return Err(Msg::of("should have at least ")
                    .int(min as i128)
                    .s(" properties"));
            }
            if let Some(max) = s.max_properties
                && entries.len() as u64 > max
            {
                return Err(Msg::of("should have at most ")
                    .int(max as i128)
                    .s(" properties"));
            }
            match s.kind {
                Kind::Map(value) => {
                    let mut i = 0;
                    while i < entries.len() {
                        if let Err(e) = check_default(&entries[i].1, value) {
                            return Err(Msg::of("[").s(entries[i].0).s("]: ").s(e.as_str()));
                        }
                        i += 1;
                    }
                    Ok(())
                }
                Kind::Struct(fields) => {
                    check_struct_default(entries, fields, s.preserve_unknown_fields)
                }
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

const fn check_struct_default(
    entries: &[(&str, JsonOf<'_>)],
    fields: &'static [Field],
    preserve: bool,
) -> R {
    let mut i = 0;
    while i < entries.len() {
        let (k, v) = &entries[i];
        match find_field(fields, k) {
            Some(f) => {
                if let Err(e) = check_default(v, f.shape) {
                    return Err(Msg::of(".").s(k).s(": ").s(e.as_str()));
                }
            }
            None => {
                if !preserve {
                    return Err(Msg::of("unknown field \"")
                        .s(k)
                        .s("\" (defaults must not contain fields that pruning drops)"));
                }
            }
        }
        i += 1;
    }
    check_required_present(entries, fields)
}

const fn check_required_present(entries: &[(&str, JsonOf<'_>)], fields: &'static [Field]) -> R {
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        if f.flatten {
            if let Kind::Struct(inner) = f.shape.kind
                && f.required
                && let Err(e) = check_required_present(entries, inner)
            {
                return Err(e);
            }
        } else if f.required && f.shape.default.is_none() {
            let mut found = false;
            let mut j = 0;
            while j < entries.len() {
                found |= str_eq(entries[j].0, f.name);
                j += 1;
            }
            if !found {
                return Err(Msg::of(".").s(f.name).s(": Required value"));
            }
        }
        i += 1;
    }
    Ok(())
}

const fn char_count(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] & 0xC0 != 0x80 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// Checks a default computed when the CRD is built (a `default = path` function, a serde
/// default) against the shape it defaults: [`check_default`]'s rules, then the patterns of the
/// strings it holds.
///
/// # Errors
/// The first violation, with its path below the field, in [`check_default`]'s words.
pub fn check_default_value(v: &Value, s: &Shape) -> Result<(), String> {
    match crate::json::with_json(v, |j| check_default(j, s).map_err(|m| m.to_string())) {
        None => Err("nested too deeply".to_owned()),
        Some(Err(e)) => Err(e),
        Some(Ok(())) => check_patterns(v, s, &mut String::new()),
    }
}

/// The strings of `v` against the `pattern` of their node (Go's regexp syntax, matched
/// without a regex engine; what the matcher cannot decide is left to the API server).
fn check_patterns(v: &Value, s: &Shape, at: &mut String) -> Result<(), String> {
    match (v, &s.kind) {
        (Value::String(text), _) => match s.pattern {
            Some(p) if crdkit_apimachinery::regexp::is_match(p, text) == Ok(Some(false)) => {
                let prefix = if at.is_empty() {
                    String::new()
                } else {
                    format!("{at}: ")
                };
                Err(format!("{prefix}\"{text}\" should match '{p}'"))
            }
            _ => Ok(()),
        },
        (Value::Array(items), Kind::Array(item)) => {
            items.iter().enumerate().try_for_each(|(i, v)| {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                let r = check_patterns(v, item, at);
                at.truncate(len);
                r
            })
        }
        (Value::Object(entries), Kind::Map(value)) => entries.iter().try_for_each(|(k, v)| {
            let len = at.len();
            at.push_str(&format!("[{k}]"));
            let r = check_patterns(v, value, at);
            at.truncate(len);
            r
        }),
        (Value::Object(entries), Kind::Struct(fields)) => entries.iter().try_for_each(|(k, v)| {
            let Some(f) = find_field(fields, k) else {
                return Ok(());
            };
            let len = at.len();
            at.push('.');
            at.push_str(k);
            let r = check_patterns(v, f.shape, at);
            at.truncate(len);
            r
        }),
        _ => Ok(()),
    }
}
