//! Checks on shapes that run in `const fn`, so the derive can fail the build with them.
//!
//! Each check returns `Err(Msg)`; the derive emits `const _: () = match check(..) { Ok(()) => (),
//! Err(e) => panic!("{}", e.as_str()) };` spanned at the attribute that asked for it. The same
//! functions run at run time, where they are plain functions.
//!
//! What is checked here is what needs the other types' shapes: whether a keyword fits the kind of
//! the field's type, literal defaults against the field's schema, the layout of enums, flattened
//! fields, and JSON paths through the type graph. What needs only the attribute's own tokens
//! (names, regexes, CEL syntax) is checked in the macro.

use super::msg::str_eq;
use super::{DefaultValue, Enum, Field, Json, Kind, Msg, Repr, Rules, Shape, VariantKind};
use crdkit_schema::ListType;

type R = Result<(), Msg>;

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

const fn is_stringish(k: &Kind) -> bool {
    matches!(
        k,
        Kind::String | Kind::IntOrString | Kind::Any | Kind::Dynamic(_)
    ) || is_string_enum(k)
}

const fn is_numeric(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Integer | Kind::Number | Kind::IntOrString | Kind::Any | Kind::Dynamic(_)
    )
}

const fn is_objectish(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Struct(_) | Kind::Map(_) | Kind::Any | Kind::Dynamic(_)
    ) || matches!(k, Kind::Enum(_)) && !is_string_enum(k)
}

const fn is_string_enum(k: &Kind) -> bool {
    match k {
        Kind::Enum(e) => matches!(e.repr, Repr::External) && all_unit(e),
        _ => false,
    }
}

const fn all_unit(e: &Enum) -> bool {
    let mut i = 0;
    while i < e.variants.len() {
        if !matches!(e.variants[i].kind, VariantKind::Unit) {
            return false;
        }
        i += 1;
    }
    true
}

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
        Some(super::DefaultValue::Value(v)) => match check_default(&v, s) {
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

/// Whether `v` has the JSON type that `kind` accepts.
const fn check_value_type(v: &Json, kind: &Kind, nullable: bool) -> R {
    let ok = match (v, kind) {
        (Json::Null, _) => nullable || matches!(kind, Kind::Any),
        (_, Kind::Any | Kind::Dynamic(_)) => true,
        (_, Kind::Enum(e)) if matches!(e.repr, Repr::Untagged) => untagged_accepts(v, e),
        (Json::Bool(_), Kind::Boolean) => true,
        (Json::Int(_) | Json::UInt(_), Kind::Integer | Kind::Number | Kind::IntOrString) => true,
        (Json::Float(f), Kind::Integer) => *f == (*f as i64) as f64,
        (Json::Float(_), Kind::Number) => true,
        (Json::Str(_), Kind::String | Kind::IntOrString) => true,
        (Json::Str(_), Kind::Enum(_)) => is_string_enum(kind),
        (Json::Array(_), Kind::Array(_)) => true,
        (Json::Object(_), Kind::Map(_) | Kind::Struct(_)) => true,
        (Json::Object(_), Kind::Enum(_)) => !is_string_enum(kind),
        _ => false,
    };
    if ok {
        Ok(())
    } else if matches!(v, Json::Null) {
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
const fn untagged_accepts(v: &Json, e: &Enum) -> bool {
    let mut i = 0;
    while i < e.variants.len() {
        let ok = match e.variants[i].kind {
            VariantKind::Unit => matches!(v, Json::Null),
            VariantKind::Struct(_) => matches!(v, Json::Object(_)),
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
pub const fn check_default(v: &Json, s: &Shape) -> R {
    if let Err(e) = check_value_type(v, &s.kind, s.nullable) {
        return Err(e);
    }
    if matches!(v, Json::Null) {
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
        && let Json::Str(name) = v
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
        Json::Str(st) => {
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
        Json::Array(items) => {
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
        Json::Object(entries) => {
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
    entries: &[(&str, Json)],
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

const fn check_required_present(entries: &[(&str, Json)], fields: &'static [Field]) -> R {
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

/// The structural checks of a type's own node: enum layouts and flattened fields.
///
/// # Errors
/// When serde's representation of the type has no structural schema.
pub const fn check_type(s: &Shape) -> R {
    match s.kind {
        Kind::Enum(e) => check_enum(e, s.name),
        Kind::Struct(fields) => check_struct(fields),
        _ => Ok(()),
    }
}

const fn check_struct(fields: &'static [Field]) -> R {
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        if f.flatten && !is_objectish(&f.shape.kind) {
            return Err(Msg::of("`#[serde(flatten)]` field `")
                .s(f.ident)
                .s("` is ")
                .s(kind_name(&f.shape.kind))
                .s(", but only structs, maps and enums of objects can be flattened"));
        }
        if !f.flatten {
            let mut j = i + 1;
            while j < fields.len() {
                if !fields[j].flatten && str_eq(fields[j].name, f.name) {
                    return Err(Msg::of("fields `")
                        .s(f.ident)
                        .s("` and `")
                        .s(fields[j].ident)
                        .s("` are both serialized as \"")
                        .s(f.name)
                        .s("\""));
                }
                j += 1;
            }
        }
        i += 1;
    }
    Ok(())
}

/// Why an externally tagged enum mixing unit and data variants has no structural schema.
#[must_use]
pub const fn mixed_external_message(name: &str, unit: &str) -> Msg {
    Msg::of("enum `")
        .s(name)
        .s("` mixes unit variants (`")
        .s(unit)
        .s("`) with data variants, so serde writes it as a string or an object, which no structural schema allows; write the unit variants with braces (`")
        .s(unit)
        .s(" {}`) or tag the enum (`#[serde(tag = \"type\")]`)")
}

/// Why the payloads of an untagged enum (`content: None`) or of an adjacently tagged enum's
/// `content` field have no common structural schema.
#[must_use]
pub const fn union_message(name: &str, content: Option<&str>, types: &str) -> Msg {
    let m = match content {
        None => Msg::of("the variants of untagged enum `").s(name).s("`"),
        Some(c) => Msg::of("the payloads of adjacently tagged enum `")
            .s(name)
            .s("` (its `")
            .s(c)
            .s("` field)"),
    };
    m.s(" serialize to ")
        .s(types)
        .s(" values, which no structural schema allows together (only integer and string combine, as int-or-string); make the variants agree, or hold a `serde_json::Value`")
}

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
const fn same_shape(a: &Shape, b: &Shape) -> bool {
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

/// The fields a variant's payload adds to the merged object (`None`: it adds no fields).
const fn payload_fields(kind: &VariantKind) -> Option<&'static [Field]> {
    match kind {
        VariantKind::Struct(fields) => Some(fields),
        VariantKind::Newtype(Shape {
            kind: Kind::Struct(fields),
            ..
        }) => Some(fields),
        _ => None,
    }
}

/// Tagged and untagged enums merge their variants' fields into one object: a field that two
/// variants both define must have one schema.
const fn check_merged_fields(e: &Enum, name: &str) -> R {
    let mut i = 0;
    while i < e.variants.len() {
        if let Some(a) = payload_fields(&e.variants[i].kind) {
            let mut j = i + 1;
            while j < e.variants.len() {
                if let Some(b) = payload_fields(&e.variants[j].kind)
                    && let Err(field) = fields_agree(a, b)
                {
                    return Err(Msg::of("variants `")
                        .s(e.variants[i].name)
                        .s("` and `")
                        .s(e.variants[j].name)
                        .s("` of enum `")
                        .s(name)
                        .s("` define field \"")
                        .s(field)
                        .s("\" with different schemas, and serde merges the variants into one object; give both the same type and keywords, or rename one"));
                }
                j += 1;
            }
        }
        i += 1;
    }
    Ok(())
}

/// `Err(name)` of the first field (flattened ones included) that `a` and `b` define differently.
const fn fields_agree(a: &'static [Field], b: &'static [Field]) -> Result<(), &'static str> {
    let mut i = 0;
    while i < a.len() {
        let f = &a[i];
        if f.flatten {
            if let Kind::Struct(inner) = f.shape.kind
                && let Err(n) = fields_agree(inner, b)
            {
                return Err(n);
            }
        } else if let Some(g) = find_field(b, f.name)
            && !same_shape(f.shape, g.shape)
        {
            return Err(f.name);
        }
        i += 1;
    }
    Ok(())
}

const fn check_enum(e: &Enum, name: &str) -> R {
    if e.variants.is_empty() {
        return Err(Msg::of("enum `")
            .s(name)
            .s("` has no variants, so no value is valid"));
    }
    let unit = all_unit(e);
    // Tagged and untagged layouts merge the payloads into one object: a rule written on a
    // payload type would be checked against the merged value of every variant, so it has no
    // place there. (External enums keep each payload as its own property, rules included.)
    if !matches!(e.repr, Repr::External) {
        let mut i = 0;
        while i < e.variants.len() {
            if let VariantKind::Newtype(s) = e.variants[i].kind
                && !s.rules.is_empty()
            {
                return Err(Msg::of("variant `")
                    .s(e.variants[i].name)
                    .s("` of enum `")
                    .s(name)
                    .s("` holds `")
                    .s(s.name)
                    .s("`, whose `validation` rules would apply to every variant once serde merges the payloads; put the rule on the enum and test the variant (e.g. `self.type != '")
                    .s(e.variants[i].name)
                    .s("' || ...`), or use an externally tagged enum"));
            }
            i += 1;
        }
    }
    match e.repr {
        Repr::External => {
            if unit {
                return Ok(());
            }
            let mut i = 0;
            while i < e.variants.len() {
                if matches!(e.variants[i].kind, VariantKind::Unit) {
                    return Err(mixed_external_message(name, e.variants[i].name));
                }
                i += 1;
            }
            Ok(())
        }
        Repr::Internal { .. } => {
            let mut i = 0;
            while i < e.variants.len() {
                if let VariantKind::Newtype(s) = e.variants[i].kind
                    && !matches!(
                        s.kind,
                        Kind::Struct(_) | Kind::Map(_) | Kind::Any | Kind::Dynamic(_)
                    )
                {
                    return Err(Msg::of("variant `")
                        .s(e.variants[i].name)
                        .s("` of internally tagged enum `")
                        .s(name)
                        .s("` holds ")
                        .s(kind_name(&s.kind))
                        .s(", but serde can only add the tag to structs: use a struct variant (`")
                        .s(e.variants[i].name)
                        .s(" { value: .. }`) or `#[serde(tag = .., content = ..)]`"));
                }
                i += 1;
            }
            check_merged_fields(e, name)
        }
        Repr::Adjacent { content, .. } => match check_union(e, name, Some(content)) {
            Ok(()) => check_merged_fields(e, name),
            Err(m) => Err(m),
        },
        Repr::Untagged => {
            if unit {
                return Err(Msg::of("untagged enum `").s(name).s("` has only unit variants, which serde writes as null: drop `#[serde(untagged)]` to get a string enum"));
            }
            match check_union(e, name, None) {
                Ok(()) => check_merged_fields(e, name),
                Err(m) => Err(m),
            }
        }
    }
}

/// The JSON type a payload serializes to, for union checks.
const fn payload_type(kind: &VariantKind) -> &'static str {
    match kind {
        VariantKind::Unit => "null",
        VariantKind::Struct(_) => "object",
        VariantKind::Newtype(s) => match s.kind {
            Kind::Boolean => "boolean",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::IntOrString => "int-or-string",
            Kind::Array(_) => "array",
            Kind::Map(_) | Kind::Struct(_) => "object",
            Kind::Enum(_) => {
                if is_string_enum(&s.kind) {
                    "string"
                } else {
                    "object"
                }
            }
            Kind::Any | Kind::Dynamic(_) => "any",
        },
    }
}

const fn compatible(a: &str, b: &str) -> bool {
    str_eq(a, b)
        || str_eq(a, "any")
        || str_eq(b, "any")
        || str_eq(a, "null")
        || str_eq(b, "null")
        || pair(a, b, "integer", "number")
        || pair(a, b, "integer", "string")
        || pair(a, b, "int-or-string", "integer")
        || pair(a, b, "int-or-string", "string")
}

const fn pair(a: &str, b: &str, x: &str, y: &str) -> bool {
    str_eq(a, x) && str_eq(b, y) || str_eq(a, y) && str_eq(b, x)
}

/// The payloads must share one structural type; `content` names the payload field of an
/// adjacently tagged enum, where unit variants have no payload at all.
const fn check_union(e: &Enum, name: &str, content: Option<&str>) -> R {
    let skip_unit = content.is_some();
    let mut i = 0;
    while i < e.variants.len() {
        let a = &e.variants[i].kind;
        let mut j = i + 1;
        while j < e.variants.len() {
            let b = &e.variants[j].kind;
            let (ta, tb) = (payload_type(a), payload_type(b));
            let skip =
                skip_unit && (matches!(a, VariantKind::Unit) || matches!(b, VariantKind::Unit));
            // integer + string + number cannot all three combine.
            if !skip && !compatible(ta, tb) {
                return Err(union_message(name, content, join(ta, tb).as_str()));
            }
            j += 1;
        }
        i += 1;
    }
    Ok(())
}

const fn join(a: &str, b: &str) -> Msg {
    Msg::of(a).s(" and ").s(b)
}

/// One step of a JSON path through the type graph.
#[derive(Clone, Copy, Debug)]
pub enum Seg {
    /// `.name` or `['name']`
    Field(&'static str),
    /// `[0]`, `[*]` or a filter `[?(..)]`: an element of a list.
    Elem,
}

/// What a path must lead to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Any value: the path need only resolve (printer columns without a `type`, filter paths).
    Anything,
    /// Printer column `type: integer` (and `scale` replica paths).
    Integer,
    /// Printer column `type: number`.
    Number,
    /// Printer column `type: boolean`.
    Boolean,
    /// Printer column `type: string`, `labelSelectorPath`.
    String,
    /// Printer column `type: date`.
    Date,
    /// Selectable fields: a string, boolean or integer.
    Selectable,
}

/// Follows `segs` from `root`.
///
/// # Errors
/// When a step does not exist in the schema, or the end is not what `expect` asks for.
pub const fn resolve_path(root: &Shape, segs: &[Seg], expect: Expect) -> R {
    let mut cur = root;
    let mut i = 0;
    while i < segs.len() {
        match step(cur, &segs[i]) {
            Step::Next(s) => cur = s,
            Step::Unknown => return Ok(()),
            Step::Missing => {
                return Err(match segs[i] {
                    Seg::Field(name) => Msg::of("does not resolve: ")
                        .s(if cur.name.is_empty() {
                            "the object"
                        } else {
                            cur.name
                        })
                        .s(" has no field \"")
                        .s(name)
                        .s("\""),
                    Seg::Elem => Msg::of("does not resolve: indexes ")
                        .s(kind_name(&cur.kind))
                        .s(", which is not a list"),
                });
            }
        }
        i += 1;
    }
    let k = &cur.kind;
    let ok = match expect {
        Expect::Anything => true,
        Expect::Integer => matches!(k, Kind::Integer | Kind::Any | Kind::Dynamic(_)),
        Expect::Number => matches!(
            k,
            Kind::Integer | Kind::Number | Kind::Any | Kind::Dynamic(_)
        ),
        Expect::Boolean => matches!(k, Kind::Boolean | Kind::Any | Kind::Dynamic(_)),
        Expect::String => !matches!(k, Kind::Array(_) | Kind::Map(_) | Kind::Struct(_)),
        Expect::Date => is_stringish(k),
        Expect::Selectable => {
            matches!(k, Kind::String | Kind::Boolean | Kind::Integer) || is_string_enum(k)
        }
    };
    if ok {
        Ok(())
    } else {
        Err(Msg::of("leads to ").s(kind_name(k)).s(match expect {
            Expect::Integer => ", but an integer is needed",
            Expect::Number => ", but a number is needed",
            Expect::Boolean => ", but a boolean is needed",
            Expect::String => ", but a scalar is needed",
            Expect::Date => ", but a date (a string) is needed",
            Expect::Selectable => ", but selectable fields must be strings, booleans or integers",
            Expect::Anything => "",
        }))
    }
}

/// The printer column type for the value at `segs`: `integer`, `number`, `boolean`, `date`
/// (strings with format `date-time` or `date`) or `string`.
#[must_use]
pub const fn column_type(root: &Shape, segs: &[Seg]) -> &'static str {
    let mut cur = root;
    let mut i = 0;
    while i < segs.len() {
        match step(cur, &segs[i]) {
            Step::Next(s) => cur = s,
            Step::Unknown | Step::Missing => return "string",
        }
        i += 1;
    }
    match cur.kind {
        Kind::Integer => "integer",
        Kind::Number => "number",
        Kind::Boolean => "boolean",
        Kind::String => match cur.format {
            Some(f) if str_eq(f, "date-time") || str_eq(f, "date") => "date",
            _ => "string",
        },
        _ => "string",
    }
}

enum Step {
    Next(&'static Shape),
    Missing,
    /// The schema says nothing below here (`serde_json::Value`, run-time schemas).
    Unknown,
}

const fn step(cur: &Shape, seg: &Seg) -> Step {
    match (seg, &cur.kind) {
        (_, Kind::Any | Kind::Dynamic(_)) => Step::Unknown,
        (Seg::Elem, Kind::Array(items)) => Step::Next(items),
        (Seg::Field(_), Kind::Map(v)) => Step::Next(v),
        (Seg::Field(name), Kind::Struct(fields)) => match find_field(fields, name) {
            Some(f) => Step::Next(f.shape),
            None => {
                if cur.preserve_unknown_fields {
                    Step::Unknown
                } else {
                    Step::Missing
                }
            }
        },
        (Seg::Field(name), Kind::Enum(e)) => enum_step(e, name),
        _ => Step::Missing,
    }
}

const STRING: Shape = Shape::string();

const fn enum_step(e: &Enum, name: &str) -> Step {
    let mut i = 0;
    while i < e.variants.len() {
        let v = &e.variants[i];
        match e.repr {
            Repr::External => {
                if str_eq(v.name, name) {
                    return match v.kind {
                        VariantKind::Newtype(s) => Step::Next(s),
                        _ => Step::Unknown,
                    };
                }
            }
            Repr::Internal { tag } | Repr::Adjacent { tag, .. } if str_eq(tag, name) => {
                return Step::Next(&STRING);
            }
            Repr::Adjacent { content, .. } => {
                if str_eq(content, name) {
                    return Step::Unknown;
                }
            }
            Repr::Internal { .. } | Repr::Untagged => {
                let found = match v.kind {
                    VariantKind::Struct(fields) => find_field(fields, name),
                    VariantKind::Newtype(Shape {
                        kind: Kind::Struct(fields),
                        ..
                    }) => find_field(fields, name),
                    _ => None,
                };
                if let Some(f) = found {
                    return Step::Next(f.shape);
                }
            }
        }
        i += 1;
    }
    Step::Missing
}
