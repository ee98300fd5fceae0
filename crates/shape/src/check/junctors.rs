//! `all_of(..)`, `any_of(..)`, `one_of(..)` and `not(..)` against the shape they restrict, as
//! apiextensions' structural schema checks read them (`pkg/apiserver/schema/validation.go`,
//! `validateNestedValueValidation` and the completeness check of `complete.go`): a field, the
//! items or the values a branch names are specified outside the junctors too, and a branch
//! sets no `type` but in the int-or-string pattern
//! `anyOf: [{type: integer}, {type: string}]`.
//!
//! Which keywords a branch may hold at all is decided by the attribute's syntax (the macro
//! accepts value validations only).

use super::R;
use super::kinds::{find_field, kind_name};
use crate::json::JsonOf;
use crate::msg::str_eq;
use crate::{Json, Kind, Msg, Shape};

/// Checks the junctors of `s`; `field` names it in messages.
///
/// # Errors
/// The first branch naming a field, items or values the shape does not have, or setting a
/// `type` outside the int-or-string pattern.
pub const fn check_junctors(s: &Shape, field: &str) -> R {
    let j = &s.junctors;
    let int_or_string = matches!(s.kind, Kind::IntOrString) && is_int_or_string(j.any_of);
    if let Err(e) = branches(j.all_of, s, field, false) {
        return Err(e);
    }
    if let Err(e) = branches(j.any_of, s, field, int_or_string) {
        return Err(e);
    }
    if let Err(e) = branches(j.one_of, s, field, false) {
        return Err(e);
    }
    match j.not {
        Some(b) => branch(b, s, field, false),
        None => Ok(()),
    }
}

/// `[{type: integer}, {type: string}]`
const fn is_int_or_string(any_of: &[Json]) -> bool {
    any_of.len() == 2 && only_type(&any_of[0], "integer") && only_type(&any_of[1], "string")
}

const fn only_type(b: &Json, ty: &str) -> bool {
    match b {
        JsonOf::Object([(key, JsonOf::Str(t))]) => str_eq(key, "type") && str_eq(t, ty),
        _ => false,
    }
}

const fn branches(list: &[Json], s: &Shape, field: &str, typed: bool) -> R {
    let mut i = 0;
    while i < list.len() {
        if let Err(e) = branch(&list[i], s, field, typed) {
            return Err(e);
        }
        i += 1;
    }
    Ok(())
}

/// One branch against the shape it restricts; `typed`: a `type` is allowed (int-or-string).
const fn branch(b: &Json, s: &Shape, field: &str, typed: bool) -> R {
    let JsonOf::Object(entries) = b else {
        return Ok(());
    };
    // What the shape cannot tell (any JSON, run-time schemas, enum layouts) is left to
    // `crd()` and the API server.
    let opaque = matches!(s.kind, Kind::Any | Kind::Dynamic(_) | Kind::Enum(_)) && !s.object;
    let mut i = 0;
    while i < entries.len() {
        let (key, v) = entries[i];
        let r = if str_eq(key, "type") {
            if typed {
                Ok(())
            } else {
                Err(Msg::of("a junctor of `")
                    .s(field)
                    .s("` sets `type`, which structural schemas allow only in x-kubernetes-int-or-string's `any_of(type = \"integer\", type = \"string\")`"))
            }
        } else if str_eq(key, "properties") {
            properties(v, s, field, opaque)
        } else if str_eq(key, "items") {
            match s.kind {
                Kind::Array(items) => branch(&v, items, field, false),
                _ if opaque => Ok(()),
                _ => Err(unspecified(field, "items", s)),
            }
        } else if str_eq(key, "additionalProperties") {
            match s.kind {
                Kind::Map(values) => branch(&v, values, field, false),
                _ if opaque => Ok(()),
                _ => Err(unspecified(field, "values", s)),
            }
        } else if str_eq(key, "allOf") || str_eq(key, "anyOf") || str_eq(key, "oneOf") {
            match v {
                JsonOf::Array(list) => branches(list, s, field, false),
                _ => Ok(()),
            }
        } else if str_eq(key, "not") {
            branch(&v, s, field, false)
        } else {
            Ok(())
        };
        if let Err(e) = r {
            return Err(e);
        }
        i += 1;
    }
    Ok(())
}

const fn properties(v: JsonOf<'static>, s: &Shape, field: &str, opaque: bool) -> R {
    let JsonOf::Object(props) = v else {
        return Ok(());
    };
    let mut i = 0;
    while i < props.len() {
        let (name, sub) = props[i];
        let r = match s.kind {
            Kind::Struct(fields) => match find_field(fields, name) {
                Some(f) => branch(&sub, f.shape, field, false),
                None => Err(Msg::of("a junctor of `")
                    .s(field)
                    .s("` restricts the field \"")
                    .s(name)
                    .s("\", which ")
                    .s(if s.name.is_empty() { "the type" } else { s.name })
                    .s(" does not have: structural schemas specify every field of a junctor outside it too")),
            },
            _ if opaque => Ok(()),
            _ => Err(unspecified(field, "fields", s)),
        };
        if let Err(e) = r {
            return Err(e);
        }
        i += 1;
    }
    Ok(())
}

const fn unspecified(field: &str, what: &str, s: &Shape) -> Msg {
    Msg::of("a junctor of `")
        .s(field)
        .s("` restricts ")
        .s(what)
        .s(", but `")
        .s(field)
        .s("` is ")
        .s(kind_name(&s.kind))
}
