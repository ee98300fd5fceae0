//! JSON paths through the type graph: printer columns, `scale` and selectable fields resolve
//! step by step through the shapes, as the derive parsed them, and lead to a value of the type
//! the column or subresource needs.

use super::R;
use super::kinds::{find_field, is_string_enum, is_stringish, kind_name};
use crate::msg::str_eq;
use crate::{Enum, Kind, Msg, Repr, Shape, VariantKind};

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
