//! Mirrors `crates/cel-check/src/check/unify.rs` in `const fn`s.
//!
//! Assignability and substitution over the type arena: the counterpart of
//! [`crdkit_cel_check::check`]'s `unify.rs` (cel-go `checker/types.go`, `checker/mapping.go`).
//! A failed test undoes its substitutions through the trail, as the run-time checker keeps a
//! copy of the mapping only when the test succeeds.

use super::types::{DYN, NONE, NULL, TKind, Ty, TyId, Types, matches_kind};
use crate::msg::str_eq;

impl Types {
    /// Whether `t` is `dyn`.
    #[must_use]
    pub const fn is_dyn(&self, t: TyId) -> bool {
        matches!(self.kind(t), TKind::Dyn)
    }

    /// Whether `t` is `dyn` or the error type (cel-go `isDynOrError`).
    #[must_use]
    pub const fn is_dyn_or_error(&self, t: TyId) -> bool {
        matches!(self.kind(t), TKind::Dyn | TKind::Error)
    }

    /// The parameter of `optional_type(T)`, or the type itself.
    #[must_use]
    pub const fn unwrap_optional(&self, t: TyId) -> (TyId, bool) {
        if self.is_optional(t) {
            (self.params(t).0, true)
        } else {
            (t, false)
        }
    }

    /// cel-go `IsExactType`: the same type, type parameters compared by name.
    #[must_use]
    pub const fn exact(&self, a: TyId, b: TyId) -> bool {
        self.is_type(a, b, true)
    }

    const fn equal_or_less_specific(&self, t1: TyId, t2: TyId) -> bool {
        let (k1, k2) = (self.kind(t1), self.kind(t2));
        if matches!(k1, TKind::Dyn | TKind::Param) {
            return true;
        }
        if matches!(k2, TKind::Dyn | TKind::Param) {
            return false;
        }
        if !matches_kind(k1, k2) {
            return false;
        }
        match (self.get(t1), self.get(t2)) {
            (Ty::Opaque(n1, p1), Ty::Opaque(n2, p2)) => {
                str_eq(n1, n2)
                    && (p1 == NONE) == (p2 == NONE)
                    && (p1 == NONE || self.equal_or_less_specific(p1, p2))
            }
            (Ty::List(a), Ty::List(b)) => self.equal_or_less_specific(a, b),
            (Ty::Map(k1, v1), Ty::Map(k2, v2)) => {
                self.equal_or_less_specific(k1, k2) && self.equal_or_less_specific(v1, v2)
            }
            (Ty::Type(_), Ty::Type(_)) => true,
            _ => self.exact(t1, t2),
        }
    }

    /// The more general of two assignable types.
    #[must_use]
    pub const fn most_general(&self, t1: TyId, t2: TyId) -> TyId {
        if self.equal_or_less_specific(t1, t2) {
            t1
        } else {
            t2
        }
    }

    const fn internal_is_assignable(&mut self, t1: TyId, t2: TyId) -> bool {
        let (k1, k2) = (self.kind(t1), self.kind(t2));
        if matches!(k2, TKind::Param) {
            let (valid, has_sub) = self.valid_substitution(t1, t2);
            if valid {
                return true;
            }
            if has_sub {
                return false;
            }
        }
        if matches!(k1, TKind::Param) {
            return self.valid_substitution(t2, t1).0;
        }
        if self.is_dyn_or_error(t1) || self.is_dyn_or_error(t2) {
            return true;
        }
        if matches!(k1, TKind::Null) {
            return self.assignable_null(t2);
        }
        if matches!(k2, TKind::Null) {
            return self.assignable_null(t1);
        }
        match k1 {
            TKind::Bool
            | TKind::Bytes
            | TKind::Double
            | TKind::Int
            | TKind::String
            | TKind::Uint
            | TKind::Duration
            | TKind::Timestamp
            | TKind::Object => self.is_assignable_type(t2, t1),
            TKind::Type => matches!(k2, TKind::Type),
            TKind::Opaque | TKind::List | TKind::Map => {
                if !matches_kind(k1, k2) || !self.same_name(t1, t2) {
                    return false;
                }
                if self.param_count(t1) != self.param_count(t2) {
                    return false;
                }
                let (a1, a2) = self.params(t1);
                let (b1, b2) = self.params(t2);
                (a1 == NONE || self.internal_is_assignable(a1, b1))
                    && (a2 == NONE || self.internal_is_assignable(a2, b2))
            }
            _ => false,
        }
    }

    /// cel-go `isValidTypeSubstitution`: (valid, has a substitution).
    const fn valid_substitution(&mut self, t1: TyId, t2: TyId) -> (bool, bool) {
        if matches_kind(self.kind(t1), self.kind(t2)) && self.exact(t1, t2) {
            return (true, true);
        }
        let sub = self.find(t2);
        if sub != NONE {
            if matches_kind(self.kind(t1), self.kind(sub)) && self.exact(t1, sub) {
                return (true, true);
            }
            if self.internal_is_assignable(t1, sub) {
                let new = self.most_general(t1, sub);
                if self.not_referenced_in(t2, new) {
                    self.bind(t2, new);
                }
                return (true, true);
            }
            return (false, true);
        }
        if self.not_referenced_in(t2, t1) {
            self.bind(t2, t1);
            return (true, false);
        }
        (false, false)
    }

    const fn assignable_null(&self, t: TyId) -> bool {
        matches!(
            self.kind(t),
            TKind::Opaque | TKind::Object | TKind::Duration | TKind::Timestamp
        ) || self.is_assignable_type(t, NULL)
    }

    const fn not_referenced_in(&self, t: TyId, within: TyId) -> bool {
        if self.exact(t, within) {
            return false;
        }
        match self.kind(within) {
            TKind::Param => {
                let sub = self.find(within);
                sub == NONE || self.not_referenced_in(t, sub)
            }
            TKind::Opaque | TKind::List | TKind::Map | TKind::Type => {
                let (a, b) = self.params(within);
                (a == NONE || self.not_referenced_in(t, a))
                    && (b == NONE || self.not_referenced_in(t, b))
            }
            _ => true,
        }
    }

    /// cel-go `isAssignable`: whether `t2` is assignable to `t1`, keeping the substitutions
    /// only when it is.
    pub const fn is_assignable(&mut self, t1: TyId, t2: TyId) -> bool {
        let mark = self.mark();
        let ok = self.internal_is_assignable(t1, t2);
        if !ok {
            self.undo(mark);
        }
        ok
    }

    /// cel-go `isAssignableList`.
    pub const fn is_assignable_list(&mut self, l1: &[TyId], l2: &[TyId]) -> bool {
        if l1.len() != l2.len() {
            return false;
        }
        let mark = self.mark();
        let mut i = 0;
        while i < l1.len() {
            if !self.internal_is_assignable(l1[i], l2[i]) {
                self.undo(mark);
                return false;
            }
            i += 1;
        }
        true
    }

    /// cel-go `substitute`: applies the substitutions; with `param_to_dyn`, unbound
    /// parameters become `dyn`.
    pub const fn substitute(&mut self, t: TyId, param_to_dyn: bool) -> TyId {
        let sub = self.find(t);
        if sub != NONE {
            return self.substitute(sub, param_to_dyn);
        }
        match self.get(t) {
            Ty::Var(_) | Ty::Named(_) if param_to_dyn => DYN,
            Ty::Opaque(n, p) if p != NONE => {
                let q = self.substitute(p, param_to_dyn);
                if q == p {
                    t
                } else {
                    self.add(Ty::Opaque(n, q))
                }
            }
            Ty::List(e) => {
                let f = self.substitute(e, param_to_dyn);
                if f == e { t } else { self.list(f) }
            }
            Ty::Map(k, v) => {
                let k2 = self.substitute(k, param_to_dyn);
                let v2 = self.substitute(v, param_to_dyn);
                if k2 == k && v2 == v {
                    t
                } else {
                    self.map(k2, v2)
                }
            }
            Ty::Type(p) if p != NONE => {
                let q = self.substitute(p, param_to_dyn);
                if q == p { t } else { self.add(Ty::Type(q)) }
            }
            _ => t,
        }
    }
}
