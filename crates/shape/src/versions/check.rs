//! Compile-time checks between the versions of a kind, as `const fn`s: the derive emits
//! `const _: () = match check(..) { Ok(()) => (), Err(e) => panic!("{}", e.as_str()) };`
//! spanned at the version the check is about.
//!
//! The API server checks part of this when the CRD is created (one storage version, unique
//! version names: apiextensions validation.go `validateCustomResourceDefinitionSpec`); that the
//! versions share group, names and scope holds by construction of a CRD, but Rust types written
//! per version can disagree. The versioning page asks for the `None` strategy only between
//! versions whose schemas are the same: [`check_same_schema`] compares what the API server
//! prunes and type-checks (types, formats, fields, `required`, `nullable`, enum layouts),
//! not descriptions, defaults or value validations.

use crate::check::{find_field, kind_name};
use crate::msg::str_eq;
use crate::resource::ResourceDecl;
use crate::{Field, Kind, Msg, Repr, Shape, VariantKind};

type R = Result<(), Msg>;

const fn disagree(first: &ResourceDecl, other: &ResourceDecl, what: &str) -> Msg {
    Msg::of("version ")
        .s(other.version)
        .s(" disagrees with ")
        .s(first.version)
        .s(" on ")
        .s(what)
}

const fn strings(m: Msg, list: &[&str]) -> Msg {
    let mut m = m.s("[");
    let mut i = 0;
    while i < list.len() {
        if i > 0 {
            m = m.s(", ");
        }
        m = m.s(list[i]);
        i += 1;
    }
    m.s("]")
}

const fn same_strings(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !str_eq(a[i], b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const SHARED: &str = "; the versions of a kind share its group, names and scope";

/// `other` against the first version: the same group, kind, plural, singular, list kind,
/// short names, categories and scope.
///
/// # Errors
/// The first disagreement: `version v1 disagrees with v1beta1 on the group: "b.com" instead of
/// "a.com"; ..`.
pub const fn check_same_resource(first: &ResourceDecl, other: &ResourceDecl) -> R {
    let pairs: [(&str, &str, &str); 5] = [
        ("the group", first.group, other.group),
        ("the kind", first.kind, other.kind),
        ("the plural", first.plural, other.plural),
        ("the singular", first.singular, other.singular),
        ("the list kind", first.list_kind, other.list_kind),
    ];
    let mut i = 0;
    while i < pairs.len() {
        let (what, a, b) = pairs[i];
        if !str_eq(a, b) {
            return Err(disagree(first, other, what)
                .s(": \"")
                .s(b)
                .s("\" instead of \"")
                .s(a)
                .s("\"")
                .s(SHARED));
        }
        i += 1;
    }
    let lists: [(&str, &[&str], &[&str]); 2] = [
        ("the short names", first.short_names, other.short_names),
        ("the categories", first.categories, other.categories),
    ];
    let mut i = 0;
    while i < lists.len() {
        let (what, a, b) = lists[i];
        if !same_strings(a, b) {
            let m = strings(disagree(first, other, what).s(": "), b).s(" instead of ");
            return Err(strings(m, a).s(SHARED));
        }
        i += 1;
    }
    if first.namespaced != other.namespaced {
        return Err(disagree(first, other, "the scope: ")
            .s(scope(other.namespaced))
            .s(" instead of ")
            .s(scope(first.namespaced))
            .s(SHARED));
    }
    Ok(())
}

/// Two versions of a declaration have different names.
///
/// # Errors
/// `version v1 is listed twice`.
pub const fn check_distinct(a: &ResourceDecl, b: &ResourceDecl) -> R {
    if str_eq(a.version, b.version) {
        Err(Msg::of("version ")
            .s(b.version)
            .s(" is listed twice: a CRD lists each version once"))
    } else {
        Ok(())
    }
}

/// The `None` strategy between two versions: their objects must read the same in both, as the
/// API server changes only `apiVersion`.
///
/// # Errors
/// Where the schemas first differ: `conversion strategy None, but the schemas of v1beta1 and
/// v1 differ at .spec.port: a string in v1beta1, an integer in v1; ..`.
pub const fn check_same_schema(a: &ResourceDecl, b: &ResourceDecl) -> R {
    let found = if a.flatten != b.flatten {
        Some(
            Msg::of(": the spec's fields are at the root in ")
                .s(if a.flatten { a.version } else { b.version })
                .s(" and under .spec in ")
                .s(if a.flatten { b.version } else { a.version }),
        )
    } else if a.spec_required != b.spec_required {
        Some(
            Msg::of(".spec: required in ")
                .s(if a.spec_required {
                    a.version
                } else {
                    b.version
                })
                .s(" only"),
        )
    } else {
        match diff(a.spec, b.spec, a.version, b.version) {
            Some(m) if a.flatten => Some(m),
            Some(m) => Some(Msg::of(".spec").s(m.as_str())),
            None => match (a.status, b.status) {
                (None, None) => None,
                (Some(s), Some(t)) => match diff(s, t, a.version, b.version) {
                    Some(m) => Some(Msg::of(".status").s(m.as_str())),
                    None => None,
                },
                (Some(_), None) => Some(only(".status", a.version)),
                (None, Some(_)) => Some(only(".status", b.version)),
            },
        }
    };
    match found {
        None => Ok(()),
        Some(m) => {
            let at = m.as_str();
            let mut msg = Msg::of("conversion strategy None, but the schemas of ")
                .s(a.version)
                .s(" and ")
                .s(b.version)
                .s(" differ at ");
            msg = if at.as_bytes()[0] == b':' {
                msg.s("the root").s(at)
            } else {
                msg.s(at)
            };
            Err(msg.s("; with None the API server only changes apiVersion: declare a webhook conversion, `#[versions(webhook(..))]`, and convert between the versions' types"))
        }
    }
}

const fn scope(namespaced: bool) -> &'static str {
    if namespaced { "Namespaced" } else { "Cluster" }
}

const fn format_name(f: Option<&'static str>) -> &'static str {
    match f {
        Some(f) => f,
        None => "none",
    }
}

const fn only(path: &str, version: &str) -> Msg {
    Msg::of(path).s(": in ").s(version).s(" only")
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
const fn diff(a: &Shape, b: &Shape, an: &str, bn: &str) -> Option<Msg> {
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
