//! The layout of a shape as the API server sees it for the `None` strategy: types, formats,
//! fields (through flattened structs), `required`, `nullable`, enum layouts; not descriptions,
//! defaults or value validations. The first difference is reported as
//! `<path below the shapes>: <what differs>`.

use crate::check::{find_field, kind_name};
use crate::msg::str_eq;
use crate::{Field, Kind, Msg, Repr, Shape, VariantKind};

const fn format_name(f: Option<&'static str>) -> &'static str {
    match f {
        Some(f) => f,
        None => "none",
    }
}

const fn same_tag(a: &Kind, b: &Kind) -> bool {
    matches!(
        (a, b),
        (Kind::Any, Kind::Any)
            | (Kind::Boolean, Kind::Boolean)
            | (Kind::Integer, Kind::Integer)
            | (Kind::Number, Kind::Number)
            | (Kind::String, Kind::String)
            | (Kind::IntOrString, Kind::IntOrString)
            | (Kind::Array(_), Kind::Array(_))
            | (Kind::Map(_), Kind::Map(_))
            | (Kind::Struct(_), Kind::Struct(_))
            | (Kind::Enum(_), Kind::Enum(_))
            | (Kind::Dynamic(_), Kind::Dynamic(_))
    )
}

const fn opt_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => str_eq(a, b),
        _ => false,
    }
}

const fn flag(a: bool, b: bool, an: &str, bn: &str, what: &str) -> Option<Msg> {
    if a == b {
        None
    } else {
        Some(
            Msg::of(": ")
                .s(what)
                .s(" in ")
                .s(if a { an } else { bn })
                .s(" only"),
        )
    }
}

/// The first difference between two shapes as `<path below them>: <what differs>`.
pub(super) const fn diff(a: &Shape, b: &Shape, an: &str, bn: &str) -> Option<Msg> {
    if !same_tag(&a.kind, &b.kind) {
        return Some(
            Msg::of(": ")
                .s(kind_name(&a.kind))
                .s(" in ")
                .s(an)
                .s(", ")
                .s(kind_name(&b.kind))
                .s(" in ")
                .s(bn),
        );
    }
    if !opt_eq(a.format, b.format) {
        return Some(
            Msg::of(": format ")
                .s(format_name(a.format))
                .s(" in ")
                .s(an)
                .s(", ")
                .s(format_name(b.format))
                .s(" in ")
                .s(bn),
        );
    }
    let flags = [
        (a.nullable, b.nullable, "nullable"),
        (
            a.preserve_unknown_fields,
            b.preserve_unknown_fields,
            "unknown fields kept",
        ),
        (
            a.embedded_resource,
            b.embedded_resource,
            "an embedded resource",
        ),
        (a.object_meta, b.object_meta, "object metadata"),
    ];
    let mut i = 0;
    while i < flags.len() {
        if let Some(m) = flag(flags[i].0, flags[i].1, an, bn, flags[i].2) {
            return Some(m);
        }
        i += 1;
    }
    match (&a.kind, &b.kind) {
        (Kind::Array(x), Kind::Array(y)) => prefixed("[*]", diff(x, y, an, bn)),
        (Kind::Map(x), Kind::Map(y)) => prefixed(".*", diff(x, y, an, bn)),
        (Kind::Struct(x), Kind::Struct(y)) => match fields_diff(x, y, an, bn) {
            Some(m) => Some(m),
            None => fields_missing(y, x, bn),
        },
        (Kind::Enum(x), Kind::Enum(y)) => {
            if !same_repr(&x.repr, &y.repr) {
                return Some(
                    Msg::of(": the enum is tagged differently in ")
                        .s(an)
                        .s(" and ")
                        .s(bn),
                );
            }
            match variants_diff(x.variants, y.variants, an, bn) {
                Some(m) => Some(m),
                None => variants_missing(y.variants, x.variants, bn),
            }
        }
        _ => None,
    }
}

const fn prefixed(segment: &str, inner: Option<Msg>) -> Option<Msg> {
    match inner {
        Some(m) => Some(Msg::of(segment).s(m.as_str())),
        None => None,
    }
}

const fn same_repr(a: &Repr, b: &Repr) -> bool {
    match (a, b) {
        (Repr::External, Repr::External) | (Repr::Untagged, Repr::Untagged) => true,
        (Repr::Internal { tag: x }, Repr::Internal { tag: y }) => str_eq(x, y),
        (Repr::Adjacent { tag: x, content: c }, Repr::Adjacent { tag: y, content: d }) => {
            str_eq(x, y) && str_eq(c, d)
        }
        _ => false,
    }
}

/// Each field of `a` (through flattened structs) in `b`, the same.
const fn fields_diff(a: &'static [Field], b: &'static [Field], an: &str, bn: &str) -> Option<Msg> {
    let mut i = 0;
    while i < a.len() {
        let f = &a[i];
        i += 1;
        if f.flatten {
            if let Kind::Struct(inner) = f.shape.kind
                && let Some(m) = fields_diff(inner, b, an, bn)
            {
                return Some(m);
            }
            continue;
        }
        let Some(g) = find_field(b, f.name) else {
            return Some(Msg::of(".").s(f.name).s(": in ").s(an).s(" only"));
        };
        if f.required != g.required {
            return Some(
                Msg::of(".")
                    .s(f.name)
                    .s(": required in ")
                    .s(if f.required { an } else { bn })
                    .s(" only"),
            );
        }
        if let Some(m) = diff(f.shape, g.shape, an, bn) {
            return Some(Msg::of(".").s(f.name).s(m.as_str()));
        }
    }
    None
}

/// A field of `b` (through flattened structs) that `a` lacks.
const fn fields_missing(b: &'static [Field], a: &'static [Field], bn: &str) -> Option<Msg> {
    let mut i = 0;
    while i < b.len() {
        let f = &b[i];
        i += 1;
        if f.flatten {
            if let Kind::Struct(inner) = f.shape.kind
                && let Some(m) = fields_missing(inner, a, bn)
            {
                return Some(m);
            }
            continue;
        }
        if find_field(a, f.name).is_none() {
            return Some(Msg::of(".").s(f.name).s(": in ").s(bn).s(" only"));
        }
    }
    None
}

const fn variants_diff(
    a: &'static [crate::Variant],
    b: &'static [crate::Variant],
    an: &str,
    bn: &str,
) -> Option<Msg> {
    let mut i = 0;
    while i < a.len() {
        let v = &a[i];
        i += 1;
        let mut j = 0;
        let mut found = None;
        while j < b.len() {
            if str_eq(b[j].name, v.name) {
                found = Some(&b[j]);
            }
            j += 1;
        }
        let Some(w) = found else {
            return Some(Msg::of(": variant ").s(v.name).s(" in ").s(an).s(" only"));
        };
        let inner = match (v.kind, w.kind) {
            (VariantKind::Unit, VariantKind::Unit) => None,
            (VariantKind::Newtype(x), VariantKind::Newtype(y)) => diff(x, y, an, bn),
            (VariantKind::Struct(x), VariantKind::Struct(y)) => match fields_diff(x, y, an, bn) {
                Some(m) => Some(m),
                None => fields_missing(y, x, bn),
            },
            _ => Some(Msg::of(": the payloads differ")),
        };
        if let Some(m) = inner {
            return Some(Msg::of("(").s(v.name).s(")").s(m.as_str()));
        }
    }
    None
}

const fn variants_missing(
    b: &'static [crate::Variant],
    a: &'static [crate::Variant],
    bn: &str,
) -> Option<Msg> {
    let mut i = 0;
    while i < b.len() {
        let mut j = 0;
        let mut found = false;
        while j < a.len() {
            found |= str_eq(a[j].name, b[i].name);
            j += 1;
        }
        if !found {
            return Some(
                Msg::of(": variant ")
                    .s(b[i].name)
                    .s(" in ")
                    .s(bn)
                    .s(" only"),
            );
        }
        i += 1;
    }
    None
}
