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

use super::layout::diff;
use crate::Msg;
use crate::msg::str_eq;
use crate::resource::ResourceDecl;

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

const fn only(path: &str, version: &str) -> Msg {
    Msg::of(path).s(": in ").s(version).s(" only")
}
