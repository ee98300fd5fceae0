//! Mirrors `crates/cel-check/src/types.rs` in `const fn`s.
//!
//! CEL types in a fixed arena, for the `const` checker: the counterpart of
//! [`crdkit_cel_check::types::Type`] (cel-go `common/types/types.go`, `checker/format.go`).
//!
//! Types are never changed once allocated; an id is a `u16`. The simple types have fixed ids.
//! A schema object is a [`NodeRef`] with a name: its fields are looked up in the schema when
//! selected, and its name (`selfType0.spec.items.@idx`) is a chain in a name arena, so types
//! compare as cel-go's do, by name.

use super::schema::{self, Layout, NodeRef};
use crate::Msg;
use crate::msg::str_eq;
use crdkit_cel_check::types::TypeSpec;

/// A type id.
pub type TyId = u16;
/// No type.
pub const NONE: TyId = u16::MAX;

/// The fixed id of `dyn`.
pub const DYN: TyId = 0;
/// The fixed id of the error type (`!error!`).
pub const ERROR: TyId = 1;
/// The fixed id of `null_type`.
pub const NULL: TyId = 2;
/// The fixed id of `bool`.
pub const BOOL: TyId = 3;
/// The fixed id of `int`.
pub const INT: TyId = 4;
/// The fixed id of `uint`.
pub const UINT: TyId = 5;
/// The fixed id of `double`.
pub const DOUBLE: TyId = 6;
/// The fixed id of `string`.
pub const STRING: TyId = 7;
/// The fixed id of `bytes`.
pub const BYTES: TyId = 8;
/// The fixed id of `google.protobuf.Duration`.
pub const DURATION: TyId = 9;
/// The fixed id of `google.protobuf.Timestamp`.
pub const TIMESTAMP: TyId = 10;
const FIRST_FREE: usize = 11;

/// Capacity of the type arena.
pub const MAX_TYPES: usize = 4096;
/// Capacity of the name arena.
pub const MAX_NAMES: usize = 256;
pub use super::ast::MAX_VARS;
/// Capacity of the substitution trail.
const MAX_TRAIL: usize = 1024;

/// The name of `self`'s type, as the run-time rule compilation names it by default.
pub use crdkit_cel_check::rule::SELF_TYPE_NAME;

/// A type.
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    /// `dyn`: known only at run time.
    Dyn,
    /// The type of an expression that failed to check (`!error!`).
    Error,
    /// `null_type`.
    Null,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `google.protobuf.Duration`.
    Duration,
    /// `google.protobuf.Timestamp`.
    Timestamp,
    /// `list(T)`.
    List(TyId),
    /// `map(K, V)`.
    Map(TyId, TyId),
    /// `type(T)`, or `type` with [`NONE`].
    Type(TyId),
    /// An abstract type with at most one parameter ([`NONE`] for none): `optional_type(T)`,
    /// `net.IP`.
    Opaque(&'static str, TyId),
    /// A schema object: its node and its name (an id in the name arena).
    Object(NodeRef, u16),
    /// A library object type the type provider does not know (`kubernetes.Quantity`).
    LibObject(&'static str),
    /// A checker type variable, `_var<n>`.
    Var(u16),
    /// A type parameter by name (the `A` of the type ident `list`).
    Named(&'static str),
}

/// cel-go `types.Kind`, for comparisons: the run-time checker's `crdkit_cel_check::types::Kind`
/// (`Ty::Object` and `Ty::LibObject` are objects, `Ty::Var` and `Ty::Named` type parameters).
// No intra-doc links on this re-export: rustdoc 1.95 panics resolving them here.
pub use crdkit_cel_check::types::Kind as TKind;

/// The arenas: types, object names, and the type variables' substitutions with a trail to
/// undo failed assignability tests.
pub struct Types {
    /// The types by id; ids below `len` are allocated.
    pub ty: [Ty; MAX_TYPES],
    /// The number of allocated type ids.
    pub len: usize,
    /// `(parent, segment)`; the root (`selfType0`) has parent [`NONE`].
    pub names: [(u16, &'static str); MAX_NAMES],
    /// The number of allocated names.
    pub names_len: usize,
    /// The substitution of each variable ([`NONE`] when unbound).
    pub subs: [TyId; MAX_VARS],
    /// The number of type variables created.
    pub vars: usize,
    /// Substitutions of named parameters.
    pub named: [(&'static str, TyId); 8],
    /// The number of named parameters bound.
    pub named_len: usize,
    /// `(variable or named slot, old value)`; named slots are `0x8000 | index`.
    trail: [(u16, TyId); MAX_TRAIL],
    trail_len: usize,
    /// Set when an arena is full: the check cannot be trusted.
    pub overflow: bool,
}

impl Types {
    /// Arenas holding only the simple types and the name `selfType0`.
    #[must_use]
    pub const fn new() -> Types {
        let mut ty = [Ty::Dyn; MAX_TYPES];
        ty[ERROR as usize] = Ty::Error;
        ty[NULL as usize] = Ty::Null;
        ty[BOOL as usize] = Ty::Bool;
        ty[INT as usize] = Ty::Int;
        ty[UINT as usize] = Ty::Uint;
        ty[DOUBLE as usize] = Ty::Double;
        ty[STRING as usize] = Ty::String;
        ty[BYTES as usize] = Ty::Bytes;
        ty[DURATION as usize] = Ty::Duration;
        ty[TIMESTAMP as usize] = Ty::Timestamp;
        let mut names = [(NONE, ""); MAX_NAMES];
        names[0] = (NONE, SELF_TYPE_NAME);
        Types {
            ty,
            len: FIRST_FREE,
            names,
            names_len: 1,
            subs: [NONE; MAX_VARS],
            vars: 0,
            named: [("", NONE); 8],
            named_len: 0,
            trail: [(0, NONE); MAX_TRAIL],
            trail_len: 0,
            overflow: false,
        }
    }

    /// The type with id `t`.
    #[must_use]
    pub const fn get(&self, t: TyId) -> Ty {
        self.ty[t as usize]
    }

    /// Adds a type (simple types get their fixed id).
    pub const fn add(&mut self, t: Ty) -> TyId {
        match t {
            Ty::Dyn => return DYN,
            Ty::Error => return ERROR,
            Ty::Null => return NULL,
            Ty::Bool => return BOOL,
            Ty::Int => return INT,
            Ty::Uint => return UINT,
            Ty::Double => return DOUBLE,
            Ty::String => return STRING,
            Ty::Bytes => return BYTES,
            Ty::Duration => return DURATION,
            Ty::Timestamp => return TIMESTAMP,
            _ => {}
        }
        if self.len >= MAX_TYPES {
            self.overflow = true;
            return DYN;
        }
        self.ty[self.len] = t;
        self.len += 1;
        (self.len - 1) as TyId
    }

    /// `list(e)`.
    pub const fn list(&mut self, e: TyId) -> TyId {
        self.add(Ty::List(e))
    }

    /// `map(k, v)`.
    pub const fn map(&mut self, k: TyId, v: TyId) -> TyId {
        self.add(Ty::Map(k, v))
    }

    /// `optional_type(t)`.
    pub const fn optional(&mut self, t: TyId) -> TyId {
        self.add(Ty::Opaque(OPTIONAL_TYPE, t))
    }

    /// A fresh type variable.
    pub const fn new_var(&mut self) -> TyId {
        if self.vars >= MAX_VARS {
            self.overflow = true;
            return DYN;
        }
        self.vars += 1;
        self.add(Ty::Var((self.vars - 1) as u16))
    }

    /// A name `parent.seg`.
    pub const fn child_name(&mut self, parent: u16, seg: &'static str) -> u16 {
        if self.names_len >= MAX_NAMES {
            self.overflow = true;
            return 0;
        }
        self.names[self.names_len] = (parent, seg);
        self.names_len += 1;
        (self.names_len - 1) as u16
    }

    /// The type of a schema node named `name`; [`ERROR`] if CEL does not see it.
    pub const fn of_node(&mut self, n: NodeRef, name: u16) -> TyId {
        match schema::layout(n) {
            Layout::None => ERROR,
            Layout::Dyn => DYN,
            Layout::Bool => BOOL,
            Layout::Int => INT,
            Layout::Double => DOUBLE,
            Layout::String => STRING,
            Layout::Bytes => BYTES,
            Layout::Duration => DURATION,
            Layout::Timestamp => TIMESTAMP,
            Layout::List(items) => {
                let n = self.child_name(name, "@idx");
                let e = self.of_node(items, n);
                self.list(e)
            }
            Layout::Map(values) => {
                let n = self.child_name(name, "@elem");
                let v = self.of_node(values, n);
                self.map(STRING, v)
            }
            Layout::Object => self.add(Ty::Object(n, name)),
        }
    }

    /// A type of the overload table, its parameters replaced by `params` (name → variable).
    pub const fn of_spec(&mut self, s: &TypeSpec, params: &[(&'static str, TyId)]) -> TyId {
        match *s {
            TypeSpec::Dyn => DYN,
            TypeSpec::Null => NULL,
            TypeSpec::Bool => BOOL,
            TypeSpec::Int => INT,
            TypeSpec::Uint => UINT,
            TypeSpec::Double => DOUBLE,
            TypeSpec::String => STRING,
            TypeSpec::Bytes => BYTES,
            TypeSpec::Duration => DURATION,
            TypeSpec::Timestamp => TIMESTAMP,
            TypeSpec::List(e) => {
                let e = self.of_spec(e, params);
                self.list(e)
            }
            TypeSpec::Map(k, v) => {
                let k = self.of_spec(k, params);
                let v = self.of_spec(v, params);
                self.map(k, v)
            }
            TypeSpec::TypeOf(t) => {
                let t = self.of_spec(t, params);
                self.add(Ty::Type(t))
            }
            TypeSpec::Type => self.add(Ty::Type(NONE)),
            TypeSpec::Param(n) => {
                let mut i = 0;
                while i < params.len() {
                    if str_eq(params[i].0, n) {
                        return params[i].1;
                    }
                    i += 1;
                }
                self.add(Ty::Named(n))
            }
            TypeSpec::Opaque(n, ps) => {
                let p = if ps.is_empty() {
                    NONE
                } else {
                    self.of_spec(&ps[0], params)
                };
                self.add(Ty::Opaque(n, p))
            }
            TypeSpec::Object(n) => self.add(Ty::LibObject(n)),
        }
    }

    /// cel-go `Kind()`.
    #[must_use]
    pub const fn kind(&self, t: TyId) -> TKind {
        match self.get(t) {
            Ty::Dyn => TKind::Dyn,
            Ty::Error => TKind::Error,
            Ty::Null => TKind::Null,
            Ty::Bool => TKind::Bool,
            Ty::Int => TKind::Int,
            Ty::Uint => TKind::Uint,
            Ty::Double => TKind::Double,
            Ty::String => TKind::String,
            Ty::Bytes => TKind::Bytes,
            Ty::Duration => TKind::Duration,
            Ty::Timestamp => TKind::Timestamp,
            Ty::List(_) => TKind::List,
            Ty::Map(..) => TKind::Map,
            Ty::Type(_) => TKind::Type,
            Ty::Opaque(..) => TKind::Opaque,
            Ty::Object(..) | Ty::LibObject(_) => TKind::Object,
            Ty::Var(_) | Ty::Named(_) => TKind::Param,
        }
    }

    /// The type parameters (up to two).
    #[must_use]
    pub const fn params(&self, t: TyId) -> (TyId, TyId) {
        match self.get(t) {
            Ty::List(e) => (e, NONE),
            Ty::Map(k, v) => (k, v),
            Ty::Type(p) | Ty::Opaque(_, p) => (p, NONE),
            _ => (NONE, NONE),
        }
    }

    /// How many type parameters `t` has (0 to 2).
    #[must_use]
    pub const fn param_count(&self, t: TyId) -> usize {
        let (a, b) = self.params(t);
        (a != NONE) as usize + (b != NONE) as usize
    }

    /// cel-go `TypeName()` of a type without a name chain (everything but schema objects and
    /// variables).
    #[must_use]
    pub const fn simple_name(&self, t: TyId) -> &'static str {
        match self.get(t) {
            Ty::Dyn => "dyn",
            Ty::Error => "error",
            Ty::Null => "null_type",
            Ty::Bool => "bool",
            Ty::Int => "int",
            Ty::Uint => "uint",
            Ty::Double => "double",
            Ty::String => "string",
            Ty::Bytes => "bytes",
            Ty::Duration => "google.protobuf.Duration",
            Ty::Timestamp => "google.protobuf.Timestamp",
            Ty::List(_) => "list",
            Ty::Map(..) => "map",
            Ty::Type(_) => "type",
            Ty::Opaque(n, _) | Ty::LibObject(n) | Ty::Named(n) => n,
            Ty::Object(..) | Ty::Var(_) => "",
        }
    }

    /// Whether two names of the name arena are the same text.
    const fn same_chain(&self, a: u16, b: u16) -> bool {
        let (mut a, mut b) = (a, b);
        loop {
            if a == b {
                return true;
            }
            if a == NONE || b == NONE {
                return false;
            }
            let (pa, sa) = self.names[a as usize];
            let (pb, sb) = self.names[b as usize];
            if !str_eq(sa, sb) {
                return false;
            }
            a = pa;
            b = pb;
        }
    }

    /// `a.TypeName() == b.TypeName()`.
    #[must_use]
    pub const fn same_name(&self, a: TyId, b: TyId) -> bool {
        match (self.get(a), self.get(b)) {
            (Ty::Object(_, x), Ty::Object(_, y)) => self.same_chain(x, y),
            (Ty::Var(x), Ty::Var(y)) => x == y,
            (Ty::Object(..), _) | (_, Ty::Object(..)) | (Ty::Var(_), _) | (_, Ty::Var(_)) => false,
            _ => str_eq(self.simple_name(a), self.simple_name(b)),
        }
    }

    /// cel-go `IsExactType` (`exact`) or `IsEquivalentType`.
    #[must_use]
    pub const fn is_type(&self, a: TyId, b: TyId, exact: bool) -> bool {
        let ka = self.kind(a);
        if !matches_kind(ka, self.kind(b)) {
            return false;
        }
        if self.param_count(a) != self.param_count(b) {
            return false;
        }
        if (exact || !matches!(ka, TKind::Param)) && !self.same_name(a, b) {
            return false;
        }
        let (a1, a2) = self.params(a);
        let (b1, b2) = self.params(b);
        (a1 == NONE || self.is_type(a1, b1, exact)) && (a2 == NONE || self.is_type(a2, b2, exact))
    }

    /// cel-go `Type.IsAssignableType(from)`.
    #[must_use]
    pub const fn is_assignable_type(&self, to: TyId, from: TyId) -> bool {
        if matches!(self.kind(to), TKind::Dyn | TKind::Param) {
            return true;
        }
        if !matches_kind(self.kind(to), self.kind(from)) || !self.same_name(to, from) {
            return false;
        }
        if self.param_count(to) != self.param_count(from) {
            return false;
        }
        let (a1, a2) = self.params(to);
        let (b1, b2) = self.params(from);
        (a1 == NONE || self.is_assignable_type(a1, b1))
            && (a2 == NONE || self.is_assignable_type(a2, b2))
    }

    /// Whether `t` is `optional_type(T)`.
    #[must_use]
    pub const fn is_optional(&self, t: TyId) -> bool {
        match self.get(t) {
            Ty::Opaque(n, p) => p != NONE && str_eq(n, OPTIONAL_TYPE),
            _ => false,
        }
    }

    /// cel-go `FormatCELType`.
    #[must_use]
    pub const fn fmt(&self, m: Msg, t: TyId) -> Msg {
        let name = match self.get(t) {
            Ty::Error => return m.s("!error!"),
            Ty::Null => return m.s("null"),
            Ty::Duration => return m.s("duration"),
            Ty::Timestamp => return m.s("timestamp"),
            Ty::Var(n) => return m.s("_var").int(n as i128),
            Ty::Object(_, name) => return self.fmt_chain(m, name),
            _ => self.simple_name(t),
        };
        let (a, b) = self.params(t);
        if a == NONE {
            return m.s(name);
        }
        let mut m = self.fmt(m.s(name).s("("), a);
        if b != NONE {
            m = self.fmt(m.s(", "), b);
        }
        m.s(")")
    }

    /// cel-go `TypeName()`: the name chain of objects, `google.protobuf.Duration`, `list`.
    #[must_use]
    pub const fn fmt_name(&self, m: Msg, t: TyId) -> Msg {
        match self.get(t) {
            Ty::Object(_, name) => self.fmt_chain(m, name),
            Ty::Var(n) => m.s("_var").int(n as i128),
            _ => m.s(self.simple_name(t)),
        }
    }

    const fn fmt_chain(&self, m: Msg, name: u16) -> Msg {
        let (parent, seg) = self.names[name as usize];
        if parent == NONE {
            m.s(seg)
        } else {
            self.fmt_chain(m, parent).s(".").s(seg)
        }
    }

    /// Marks the trail, to undo the substitutions made after it.
    #[must_use]
    pub const fn mark(&self) -> usize {
        self.trail_len
    }

    /// Undoes the substitutions made since `mark`.
    pub const fn undo(&mut self, mark: usize) {
        while self.trail_len > mark {
            self.trail_len -= 1;
            let (slot, old) = self.trail[self.trail_len];
            if slot & 0x8000 != 0 {
                self.named[(slot & 0x7fff) as usize].1 = old;
            } else {
                self.subs[slot as usize] = old;
            }
        }
    }

    /// The substitution of a type parameter.
    #[must_use]
    pub const fn find(&self, t: TyId) -> TyId {
        match self.get(t) {
            Ty::Var(v) => self.subs[v as usize],
            Ty::Named(n) => {
                let mut i = 0;
                while i < self.named_len {
                    if str_eq(self.named[i].0, n) {
                        return self.named[i].1;
                    }
                    i += 1;
                }
                NONE
            }
            _ => NONE,
        }
    }

    /// Binds a type parameter.
    pub const fn bind(&mut self, param: TyId, to: TyId) {
        let slot = match self.get(param) {
            Ty::Var(v) => v,
            Ty::Named(n) => {
                let mut i = 0;
                while i < self.named_len {
                    if str_eq(self.named[i].0, n) {
                        break;
                    }
                    i += 1;
                }
                if i == self.named_len {
                    if i >= self.named.len() {
                        self.overflow = true;
                        return;
                    }
                    self.named[i] = (n, NONE);
                    self.named_len += 1;
                }
                0x8000 | i as u16
            }
            _ => return,
        };
        if self.trail_len >= MAX_TRAIL {
            self.overflow = true;
            return;
        }
        let old = if slot & 0x8000 != 0 {
            self.named[(slot & 0x7fff) as usize].1
        } else {
            self.subs[slot as usize]
        };
        self.trail[self.trail_len] = (slot, old);
        self.trail_len += 1;
        if slot & 0x8000 != 0 {
            self.named[(slot & 0x7fff) as usize].1 = to;
        } else {
            self.subs[slot as usize] = to;
        }
    }
}

impl Default for Types {
    fn default() -> Self {
        Types::new()
    }
}

/// The name cel-go gives the optional type.
pub const OPTIONAL_TYPE: &str = "optional_type";

/// `a == b`, usable in `const fn`s.
#[must_use]
pub const fn matches_kind(a: TKind, b: TKind) -> bool {
    a as u8 == b as u8
}
