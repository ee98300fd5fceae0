//! Keywords against the kind they apply to: `max_length` on a string, `max_items` on a list,
//! `list_map_keys` naming required scalar fields of the items, bounds in order (apiextensions
//! `validation.go`'s checks of one schema node, plus those the API server leaves to the
//! values).

use super::R;
use super::defaults::{check_default, check_value_type};
use super::kinds::{find_field, is_numeric, is_objectish, is_string_enum, is_stringish, kind_name};
use crate::msg::str_eq;
use crate::{DefaultValue, Kind, Msg, Shape};
use crdkit_schema::ListType;

const fn misfit(field: &str, kw: &str, kind: &Kind, wants: &str) -> Msg {
    Msg::of("`")
        .s(kw)
        .s("` applies to ")
        .s(wants)
        .s(", but `")
        .s(field)
        .s("` is ")
        .s(kind_name(kind))
}

/// Whether the keywords on `s` fit its kind: `max_length` on a string, `max_items` on a list...
/// `field` names the field in messages.
///
/// # Errors
/// The first keyword that does not fit, with the fix.
pub const fn check_keywords(s: &Shape, field: &str) -> R {
    let k = &s.kind;
    let array_hint = matches!(k, Kind::Array(_));
    if (s.min_length.is_some() || s.max_length.is_some() || s.pattern.is_some()) && !is_stringish(k)
    {
        let kw = if s.pattern.is_some() {
            "pattern"
        } else if s.max_length.is_some() {
            "max_length"
        } else {
            "min_length"
        };
        let m = misfit(field, kw, k, "strings");
        return Err(if array_hint {
            m.s("; to restrict the items, write `items(")
                .s(kw)
                .s(" = ..)`")
        } else {
            m
        });
    }
    if (s.minimum.is_some() || s.maximum.is_some() || s.multiple_of.is_some()) && !is_numeric(k) {
        let kw = if s.minimum.is_some() {
            "minimum"
        } else if s.maximum.is_some() {
            "maximum"
        } else {
            "multiple_of"
        };
        let m = misfit(field, kw, k, "numbers");
        return Err(if array_hint {
            m.s("; to restrict the items, write `items(")
                .s(kw)
                .s(" = ..)`")
        } else {
            m
        });
    }
    if let Some(f) = s.format {
        let int = str_eq(f, "int32") || str_eq(f, "int64");
        let num = str_eq(f, "float") || str_eq(f, "double");
        let fits = match k {
            Kind::Integer => int,
            Kind::Number => num,
            Kind::String => !int && !num,
            Kind::IntOrString | Kind::Any | Kind::Dynamic(_) => true,
            _ => is_string_enum(k) && !int && !num,
        };
        if !fits {
            return Err(Msg::of("`format = \"")
                .s(f)
                .s("\"` does not fit `")
                .s(field)
                .s("`, which is ")
                .s(kind_name(k)));
        }
    }
    if s.exclusive_minimum && s.minimum.is_none() {
        return Err(Msg::of("`exclusive_minimum` on `")
            .s(field)
            .s("` needs `minimum`"));
    }
    if s.exclusive_maximum && s.maximum.is_none() {
        return Err(Msg::of("`exclusive_maximum` on `")
            .s(field)
            .s("` needs `maximum`"));
    }
    if let Some(m) = s.multiple_of
        && m <= 0.0
    {
        return Err(Msg::of("`multiple_of` on `")
            .s(field)
            .s("` must be greater than 0"));
    }
    if let (Some(lo), Some(hi)) = (s.minimum, s.maximum)
        && lo > hi
    {
        return Err(Msg::of("`minimum` ")
            .num(lo)
            .s(" of `")
            .s(field)
            .s("` is greater than its `maximum` ")
            .num(hi));
    }
    if let (Some(lo), Some(hi)) = (s.min_length, s.max_length)
        && lo > hi
    {
        return Err(Msg::of("`min_length` of `")
            .s(field)
            .s("` is greater than its `max_length`"));
    }
    if (s.min_items.is_some() || s.max_items.is_some())
        && !matches!(k, Kind::Array(_) | Kind::Any | Kind::Dynamic(_))
    {
        return Err(misfit(
            field,
            if s.max_items.is_some() {
                "max_items"
            } else {
                "min_items"
            },
            k,
            "lists",
        ));
    }
    if let (Some(lo), Some(hi)) = (s.min_items, s.max_items)
        && lo > hi
    {
        return Err(Msg::of("`min_items` of `")
            .s(field)
            .s("` is greater than its `max_items`"));
    }
    if (s.min_properties.is_some() || s.max_properties.is_some()) && !is_objectish(k) {
        return Err(misfit(
            field,
            if s.max_properties.is_some() {
                "max_properties"
            } else {
                "min_properties"
            },
            k,
            "maps and structs",
        ));
    }
    if let (Some(lo), Some(hi)) = (s.min_properties, s.max_properties)
        && lo > hi
    {
        return Err(Msg::of("`min_properties` of `")
            .s(field)
            .s("` is greater than its `max_properties`"));
    }
    if s.list_type.is_some() && !matches!(k, Kind::Array(_) | Kind::Dynamic(_)) {
        return Err(misfit(field, "list_type", k, "lists"));
    }
    if !s.list_map_keys.is_empty() && !matches!(s.list_type, Some(ListType::Map)) {
        return Err(Msg::of("`list_map_keys` on `")
            .s(field)
            .s("` requires `list_type = \"map\"`"));
    }
    if let Kind::Array(items) = k
        && let Err(e) = check_list_type(s, items, field)
    {
        return Err(e);
    }
    if s.map_type.is_some() && !is_objectish(k) {
        return Err(misfit(field, "map_type", k, "maps and structs"));
    }
    if s.embedded_resource
        && !matches!(
            k,
            Kind::Struct(_) | Kind::Map(_) | Kind::Any | Kind::Dynamic(_)
        )
    {
        return Err(misfit(field, "embedded_resource", k, "objects"));
    }
    if s.object && !matches!(k, Kind::Any | Kind::Dynamic(_)) {
        return Err(misfit(field, "type = \"object\"", k, "`serde_json::Value`"));
    }
    if let Err(e) = super::junctors::check_junctors(s, field) {
        return Err(e);
    }
    if !s.enum_values.is_empty() {
        let mut i = 0;
        while i < s.enum_values.len() {
            if let Err(e) = check_value_type(&s.enum_values[i], &s.kind, s.nullable) {
                return Err(Msg::of("`enum` value of `").s(field).s("`: ").s(e.as_str()));
            }
            i += 1;
        }
    }
    match s.default {
        Some(DefaultValue::Value(v)) => match check_default(&v, s) {
            Ok(()) => Ok(()),
            Err(e) => Err(Msg::of("invalid `default` for `")
                .s(field)
                .s("`: ")
                .s(e.as_str())),
        },
        _ => Ok(()),
    }
}

const fn check_list_type(s: &Shape, items: &Shape, field: &str) -> R {
    match s.list_type {
        Some(ListType::Set) => {
            if matches!(items.kind, Kind::Struct(_) | Kind::Map(_) | Kind::Array(_))
                && !matches!(items.map_type, Some(crdkit_schema::MapType::Atomic))
                && !matches!(items.kind, Kind::Array(_))
                || matches!(items.kind, Kind::Array(i) if !matches!(i.kind, Kind::Boolean | Kind::Integer | Kind::Number | Kind::String))
            {
                return Err(Msg::of("`list_type = \"set\"` on `")
                    .s(field)
                    .s("` needs scalar items (or items with `map_type = \"atomic\"`): use `list_type = \"map\"` with `list_map_keys` for lists of structs"));
            }
            Ok(())
        }
        Some(ListType::Map) => {
            let Kind::Struct(fields) = items.kind else {
                if matches!(items.kind, Kind::Dynamic(_) | Kind::Any) {
                    return Ok(());
                }
                return Err(Msg::of("`list_type = \"map\"` on `")
                    .s(field)
                    .s("` needs items that are structs, but they are ")
                    .s(kind_name(&items.kind)));
            };
            if s.list_map_keys.is_empty() {
                return Err(Msg::of("`list_type = \"map\"` on `")
                    .s(field)
                    .s("` needs `list_map_keys(..)` naming the key fields of the items"));
            }
            let mut i = 0;
            while i < s.list_map_keys.len() {
                let key = s.list_map_keys[i];
                match find_field(fields, key) {
                    None => {
                        return Err(Msg::of("`list_map_keys` of `")
                            .s(field)
                            .s("` names \"")
                            .s(key)
                            .s("\", which is not a field of the items"));
                    }
                    Some(f) => {
                        if !matches!(
                            f.shape.kind,
                            Kind::String | Kind::Integer | Kind::Number | Kind::Boolean
                        ) && !is_string_enum(&f.shape.kind)
                        {
                            return Err(Msg::of("list map key \"")
                                .s(key)
                                .s("\" of `")
                                .s(field)
                                .s("` must be a scalar, but it is ")
                                .s(kind_name(&f.shape.kind)));
                        }
                        if !f.required && f.shape.default.is_none() {
                            return Err(Msg::of("list map key \"")
                                .s(key)
                                .s("\" of `")
                                .s(field)
                                .s("` must be required or have a default: make the field non-optional or give it `#[crd(default = ..)]`"));
                        }
                    }
                }
                i += 1;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `items(..)` needs a list, `values(..)` a map.
///
/// # Errors
/// When the field's type is neither.
pub const fn check_inner(s: &Shape, which: &str, field: &str) -> R {
    let ok = if str_eq(which, "items") {
        matches!(s.kind, Kind::Array(_))
    } else {
        matches!(s.kind, Kind::Map(_))
    };
    if ok {
        Ok(())
    } else {
        Err(Msg::of("`")
            .s(which)
            .s("(..)` applies to ")
            .s(if str_eq(which, "items") {
                "lists"
            } else {
                "maps"
            })
            .s(", but `")
            .s(field)
            .s("` is ")
            .s(kind_name(&s.kind)))
    }
}

/// A kind-dependent `length(..)` (garde's, validator's) needs a kind known at compile time.
///
/// # Errors
/// When the field's schema is known only at run time (`#[crd(schemars)]`) or is any value.
pub const fn check_length(s: &Shape, field: &str) -> R {
    if matches!(s.kind, Kind::Dynamic(_) | Kind::Any) {
        return Err(Msg::of("`length(..)` of a validation attribute on `")
            .s(field)
            .s("` bounds strings, lists or maps, but `")
            .s(field)
            .s("` is ")
            .s(kind_name(&s.kind))
            .s(": write `min_length`, `min_items` or `min_properties` (and `max_..`) in `#[crd(..)]`"));
    }
    Ok(())
}
