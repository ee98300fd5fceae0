//! serde's layouts that have a structural schema: enums in their four representations (no
//! mix of unit and data variants outside a tag, payloads of one JSON type, merged fields of one
//! schema), flattened fields that are objects, no two fields under one name. `build` lays them
//! out the same way at run time.

use super::R;
use super::equality::same_shape;
use super::kinds::{all_unit, find_field, is_objectish, is_string_enum, kind_name};
use crate::msg::str_eq;
use crate::{Enum, Field, Kind, Msg, Repr, Shape, VariantKind};

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
