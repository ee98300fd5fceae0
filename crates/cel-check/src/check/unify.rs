//! Type assignability and substitution: cel-go `checker/types.go` and `checker/mapping.go`.
//!
//! A [`Mapping`] binds type parameters (keyed by their printed name, as cel-go keys them) to
//! types. Every assignability test works on a copy that is kept only when the test succeeds.

use std::collections::BTreeMap;

use crate::types::{Kind, Type};

/// Type-parameter substitutions (cel-go `mapping`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Mapping(BTreeMap<String, Type>);

impl Mapping {
    pub(crate) fn add(&mut self, from: &Type, to: Type) {
        self.0.insert(from.to_string(), to);
    }

    fn find(&self, from: &Type) -> Option<&Type> {
        self.0.get(&from.to_string())
    }
}

/// `dyn` (cel-go also counts `google.protobuf.Any`, which Kubernetes never produces).
pub(crate) fn is_dyn(t: &Type) -> bool {
    matches!(t, Type::Dyn)
}

pub(crate) fn is_dyn_or_error(t: &Type) -> bool {
    matches!(t, Type::Dyn | Type::Error)
}

/// The parameter of `optional_type(T)`, or the type itself.
pub(crate) fn maybe_unwrap_optional(t: &Type) -> (Type, bool) {
    match t {
        Type::Opaque(_, ps) if t.is_optional() => (ps[0].clone(), true),
        _ => (t.clone(), false),
    }
}

fn is_equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    let (k1, k2) = (t1.kind(), t2.kind());
    if is_dyn(t1) || k1 == Kind::Param {
        return true;
    }
    if is_dyn(t2) || k2 == Kind::Param {
        return false;
    }
    if k1 != k2 {
        return false;
    }
    match (t1, t2) {
        (Type::Opaque(n1, p1), Type::Opaque(n2, p2)) => {
            n1 == n2
                && p1.len() == p2.len()
                && p1
                    .iter()
                    .zip(p2)
                    .all(|(a, b)| is_equal_or_less_specific(a, b))
        }
        (Type::List(a), Type::List(b)) => is_equal_or_less_specific(a, b),
        (Type::Map(k1, v1), Type::Map(k2, v2)) => {
            is_equal_or_less_specific(k1, k2) && is_equal_or_less_specific(v1, v2)
        }
        (Type::Type(_), Type::Type(_)) => true,
        _ => t1 == t2,
    }
}

/// The more general of two assignable types.
pub(crate) fn most_general(t1: &Type, t2: &Type) -> Type {
    if is_equal_or_less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

fn internal_is_assignable(m: &mut Mapping, t1: &Type, t2: &Type) -> bool {
    let (k1, k2) = (t1.kind(), t2.kind());
    if k2 == Kind::Param {
        let (valid, has_sub) = is_valid_type_substitution(m, t1, t2);
        if valid {
            return true;
        }
        if has_sub {
            return false;
        }
    }
    if k1 == Kind::Param {
        return is_valid_type_substitution(m, t2, t1).0;
    }
    if is_dyn_or_error(t1) || is_dyn_or_error(t2) {
        return true;
    }
    if k1 == Kind::Null {
        return is_assignable_null(t2);
    }
    if k2 == Kind::Null {
        return is_assignable_null(t1);
    }
    match k1 {
        Kind::Bool
        | Kind::Bytes
        | Kind::Double
        | Kind::Int
        | Kind::String
        | Kind::Uint
        | Kind::Duration
        | Kind::Timestamp
        | Kind::Object => t2.is_assignable_type(t1),
        Kind::Type => k2 == Kind::Type,
        Kind::Opaque | Kind::List | Kind::Map => {
            k1 == k2
                && t1.type_name() == t2.type_name()
                && internal_is_assignable_list(m, &t1.parameters(), &t2.parameters())
        }
        _ => false,
    }
}

fn is_valid_type_substitution(m: &mut Mapping, t1: &Type, t2: &Type) -> (bool, bool) {
    if t1.kind() == t2.kind() && t1 == t2 {
        return (true, true);
    }
    if let Some(t2_sub) = m.find(t2).cloned() {
        if t1.kind() == t2_sub.kind() && *t1 == t2_sub {
            return (true, true);
        }
        if internal_is_assignable(m, t1, &t2_sub) {
            let t2_new = most_general(t1, &t2_sub);
            if not_referenced_in(m, t2, &t2_new) {
                m.add(t2, t2_new);
            }
            return (true, true);
        }
        return (false, true);
    }
    if not_referenced_in(m, t2, t1) {
        m.add(t2, t1.clone());
        return (true, false);
    }
    (false, false)
}

fn internal_is_assignable_list(m: &mut Mapping, l1: &[&Type], l2: &[&Type]) -> bool {
    l1.len() == l2.len()
        && l1
            .iter()
            .zip(l2)
            .all(|(a, b)| internal_is_assignable(m, a, b))
}

fn is_assignable_null(t: &Type) -> bool {
    // Legacy nullable kinds, or a type null can be assigned to (dyn, a parameter, null).
    matches!(
        t.kind(),
        Kind::Opaque | Kind::Object | Kind::Duration | Kind::Timestamp
    ) || t.is_assignable_type(&Type::Null)
}

/// cel-go `isAssignable`: the updated mapping if `t2` can be assigned to `t1`.
pub(crate) fn is_assignable(m: &Mapping, t1: &Type, t2: &Type) -> Option<Mapping> {
    let mut copy = m.clone();
    internal_is_assignable(&mut copy, t1, t2).then_some(copy)
}

/// cel-go `isAssignableList`.
pub(crate) fn is_assignable_list(m: &Mapping, l1: &[Type], l2: &[Type]) -> Option<Mapping> {
    let mut copy = m.clone();
    let (a, b): (Vec<&Type>, Vec<&Type>) = (l1.iter().collect(), l2.iter().collect());
    internal_is_assignable_list(&mut copy, &a, &b).then_some(copy)
}

fn not_referenced_in(m: &Mapping, t: &Type, within: &Type) -> bool {
    if t == within {
        return false;
    }
    match within.kind() {
        Kind::Param => match m.find(within) {
            None => true,
            Some(sub) => not_referenced_in(m, t, sub),
        },
        Kind::Opaque | Kind::List | Kind::Map | Kind::Type => within
            .parameters()
            .iter()
            .all(|p| not_referenced_in(m, t, p)),
        _ => true,
    }
}

/// cel-go `substitute`: applies the mapping; with `param_to_dyn`, unbound parameters become
/// `dyn`.
pub(crate) fn substitute(m: &Mapping, t: &Type, param_to_dyn: bool) -> Type {
    if let Some(sub) = m.find(t) {
        return substitute(m, &sub.clone(), param_to_dyn);
    }
    let s = |x: &Type| substitute(m, x, param_to_dyn);
    match t {
        Type::Param(_) if param_to_dyn => Type::Dyn,
        Type::Opaque(n, ps) => Type::Opaque(n.clone(), ps.iter().map(s).collect()),
        Type::List(e) => Type::list(s(e)),
        Type::Map(k, v) => Type::map(s(k), s(v)),
        Type::Type(Some(p)) => Type::Type(Some(Box::new(s(p)))),
        _ => t.clone(),
    }
}
