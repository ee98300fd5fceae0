//! CEL types as the checker sees them: cel-go `common/types/types.go` (`Type`, its kinds,
//! `IsExactType`, `IsEquivalentType`, `IsAssignableType`, `TypeName`) and the printer
//! `checker/format.go` (`FormatCELType`), which produces the type text of every checker error.
//!
//! Two representations: [`Type`], owned and built while checking, and [`TypeSpec`], a
//! `const`-constructible description used by the overload table in [`crate::env`] (so a
//! `const fn` checker can read the very same table). [`Type::from_spec`] instantiates a spec.
//!
//! Differences from cel-go: protobuf wrapper types (`wrapper(int)`), `google.protobuf.Any` and
//! enums are not modelled; Kubernetes objects are JSON and never produce them.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A CEL type. `PartialEq` is cel-go's `IsExactType` (objects compare by name).
///
/// `Display` prints it as the checker's messages do:
///
/// ```
/// use crdkit_cel_check::types::Type;
///
/// let t = Type::map(Type::String, Type::list(Type::optional(Type::Timestamp)));
/// assert_eq!(t.to_string(), "map(string, list(optional_type(timestamp)))");
/// assert_eq!(t.type_name(), "map");
/// assert_eq!(Type::Duration.type_name(), "google.protobuf.Duration");
/// ```
#[derive(Clone, Debug)]
pub enum Type {
    /// `dyn`: a value whose type is known only at run time (`x-kubernetes-int-or-string`,
    /// `dyn(x)`).
    Dyn,
    /// The type of an expression that failed to check (`!error!`).
    Error,
    /// `null_type`, printed `null`: the type of `null`.
    Null,
    /// `bool` (`type: boolean`).
    Bool,
    /// `int`, 64-bit signed (`type: integer`).
    Int,
    /// `uint`, 64-bit unsigned; no schema produces it, only `1u` and `uint(x)`.
    Uint,
    /// `double` (`type: number`).
    Double,
    /// `string` (`type: string` without a format CEL maps).
    String,
    /// `bytes` (`format: byte`, the base64-decoded value).
    Bytes,
    /// `google.protobuf.Duration`, printed `duration` (`format: duration`, `duration('1h')`).
    Duration,
    /// `google.protobuf.Timestamp`, printed `timestamp` (`format: date` and `date-time`,
    /// `timestamp('2024-01-01T00:00:00Z')`).
    Timestamp,
    /// `list(T)` (`type: array`, whatever its `x-kubernetes-list-type`).
    List(Box<Type>),
    /// `map(K, V)` (objects with `additionalProperties`, always `map(string, T)`).
    Map(Box<Type>, Box<Type>),
    /// `type` (no parameter) or `type(T)`.
    Type(Option<Box<Type>>),
    /// An abstract type: `optional_type(T)`, `net.IP`, `net.CIDR`.
    Opaque(Arc<str>, Vec<Type>),
    /// A message-like object: a schema object (`selfType0.spec`) or a library object type
    /// (`kubernetes.Quantity`).
    Object(Arc<ObjectType>),
    /// A type parameter (`A`, or a checker variable `_var0`).
    Param(Arc<str>),
}

/// An object type and its fields (already escaped as CEL sees them).
#[derive(Clone, Debug, Default)]
pub struct ObjectType {
    /// The type name: the schema node's path (`selfType0.spec`) or the library's name
    /// (`kubernetes.URL`).
    pub name: String,
    /// The fields CEL sees, by escaped name.
    pub fields: BTreeMap<String, Type>,
    /// Whether the type provider knows the type. A field selection on an unknown object type
    /// reports `unexpected failed resolution of '<name>'` (only test environments build them).
    pub known: bool,
}

/// The name cel-go gives the optional type.
pub const OPTIONAL_TYPE: &str = "optional_type";

impl Type {
    /// `optional_type(t)`.
    #[must_use]
    pub fn optional(t: Type) -> Type {
        Type::Opaque(OPTIONAL_TYPE.into(), vec![t])
    }

    /// `list(t)`.
    #[must_use]
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }

    /// `map(k, v)`.
    #[must_use]
    pub fn map(k: Type, v: Type) -> Type {
        Type::Map(Box::new(k), Box::new(v))
    }

    /// The type parameter `name` (`A`), bound afresh at each call of a generic overload.
    #[must_use]
    pub fn param(name: &str) -> Type {
        Type::Param(name.into())
    }

    /// A known object type without fields (the library types such as `kubernetes.URL`).
    #[must_use]
    pub fn opaque_object(name: &str) -> Type {
        Type::Object(Arc::new(ObjectType {
            name: name.to_string(),
            fields: BTreeMap::new(),
            known: true,
        }))
    }

    /// cel-go `Type.TypeName()`: the runtime name (`google.protobuf.Duration` for durations).
    #[must_use]
    pub fn type_name(&self) -> &str {
        match self {
            Type::Dyn => "dyn",
            Type::Error => "error",
            Type::Null => "null_type",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Uint => "uint",
            Type::Double => "double",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Duration => "google.protobuf.Duration",
            Type::Timestamp => "google.protobuf.Timestamp",
            Type::List(_) => "list",
            Type::Map(..) => "map",
            Type::Type(_) => "type",
            Type::Opaque(n, _) | Type::Param(n) => n,
            Type::Object(o) => &o.name,
        }
    }

    /// The type parameters (`list(A)` has one, `map(K, V)` two).
    #[must_use]
    pub fn parameters(&self) -> Vec<&Type> {
        match self {
            Type::List(e) => vec![e],
            Type::Map(k, v) => vec![k, v],
            Type::Type(Some(t)) => vec![t],
            Type::Opaque(_, ps) => ps.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// A discriminant for kind comparisons (cel-go `Kind()`).
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Type::Dyn => Kind::Dyn,
            Type::Error => Kind::Error,
            Type::Null => Kind::Null,
            Type::Bool => Kind::Bool,
            Type::Int => Kind::Int,
            Type::Uint => Kind::Uint,
            Type::Double => Kind::Double,
            Type::String => Kind::String,
            Type::Bytes => Kind::Bytes,
            Type::Duration => Kind::Duration,
            Type::Timestamp => Kind::Timestamp,
            Type::List(_) => Kind::List,
            Type::Map(..) => Kind::Map,
            Type::Type(_) => Kind::Type,
            Type::Opaque(..) => Kind::Opaque,
            Type::Object(_) => Kind::Object,
            Type::Param(_) => Kind::Param,
        }
    }

    /// `optional_type(T)`.
    #[must_use]
    pub fn is_optional(&self) -> bool {
        matches!(self, Type::Opaque(n, _) if &**n == OPTIONAL_TYPE)
    }

    /// cel-go `IsExactType` (`exact = true`) or `IsEquivalentType` (type parameter names ignored).
    #[must_use]
    pub fn is_type(&self, other: &Type, exact: bool) -> bool {
        if self.kind() != other.kind() {
            return false;
        }
        let (a, b) = (self.parameters(), other.parameters());
        if a.len() != b.len() {
            return false;
        }
        if (exact || self.kind() != Kind::Param) && self.type_name() != other.type_name() {
            return false;
        }
        a.iter().zip(b).all(|(x, y)| x.is_type(y, exact))
    }

    /// cel-go `Type.IsAssignableType(from)` (the default implementation; no nullable wrappers).
    #[must_use]
    pub fn is_assignable_type(&self, from: &Type) -> bool {
        if matches!(self, Type::Dyn | Type::Param(_)) {
            return true;
        }
        if self.kind() != from.kind() || self.type_name() != from.type_name() {
            return false;
        }
        let (a, b) = (self.parameters(), from.parameters());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_assignable_type(y))
    }

    /// Collects the names of the type parameters this type mentions, in order of appearance.
    pub fn collect_params(&self, out: &mut Vec<String>) {
        if let Type::Param(n) = self
            && !out.iter().any(|o| **o == **n)
        {
            out.push(n.to_string());
        }
        self.parameters().iter().for_each(|p| p.collect_params(out));
    }

    /// Instantiates a table type.
    #[must_use]
    pub fn from_spec(spec: &TypeSpec) -> Type {
        match *spec {
            TypeSpec::Dyn => Type::Dyn,
            TypeSpec::Null => Type::Null,
            TypeSpec::Bool => Type::Bool,
            TypeSpec::Int => Type::Int,
            TypeSpec::Uint => Type::Uint,
            TypeSpec::Double => Type::Double,
            TypeSpec::String => Type::String,
            TypeSpec::Bytes => Type::Bytes,
            TypeSpec::Duration => Type::Duration,
            TypeSpec::Timestamp => Type::Timestamp,
            TypeSpec::List(e) => Type::list(Type::from_spec(e)),
            TypeSpec::Map(k, v) => Type::map(Type::from_spec(k), Type::from_spec(v)),
            TypeSpec::TypeOf(t) => Type::Type(Some(Box::new(Type::from_spec(t)))),
            TypeSpec::Type => Type::Type(None),
            TypeSpec::Param(n) => Type::param(n),
            TypeSpec::Opaque(n, ps) => {
                Type::Opaque(n.into(), ps.iter().map(Type::from_spec).collect())
            }
            // Library object types are not registered with the type provider, so selecting a
            // field reports `unexpected failed resolution of 'kubernetes.Quantity'` as in Go.
            TypeSpec::Object(n) => Type::Object(Arc::new(ObjectType {
                name: n.to_string(),
                fields: BTreeMap::new(),
                known: false,
            })),
        }
    }
}

impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        self.is_type(other, true)
    }
}

/// cel-go `types.Kind`, for comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// [`Type::Dyn`].
    Dyn,
    /// [`Type::Error`].
    Error,
    /// [`Type::Null`].
    Null,
    /// [`Type::Bool`].
    Bool,
    /// [`Type::Int`].
    Int,
    /// [`Type::Uint`].
    Uint,
    /// [`Type::Double`].
    Double,
    /// [`Type::String`].
    String,
    /// [`Type::Bytes`].
    Bytes,
    /// [`Type::Duration`].
    Duration,
    /// [`Type::Timestamp`].
    Timestamp,
    /// [`Type::List`], any element type.
    List,
    /// [`Type::Map`], any key and value types.
    Map,
    /// [`Type::Type`], with or without a parameter.
    Type,
    /// [`Type::Opaque`], any name and parameters.
    Opaque,
    /// [`Type::Object`], any object type.
    Object,
    /// [`Type::Param`], any type parameter.
    Param,
}

/// cel-go `FormatCELType`: `list(int)`, `map(string, dyn)`, `optional_type(int)`, `timestamp`,
/// `selfType0.spec`, `!error!`.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Type::Error => "!error!",
            Type::Null => "null",
            Type::Duration => "duration",
            Type::Timestamp => "timestamp",
            Type::Param(n) => return f.write_str(n),
            Type::Opaque(n, ps) if &**n == "function" && !ps.is_empty() => {
                write!(f, "(")?;
                for (i, p) in ps[1..].iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{p}")?;
                }
                return write!(f, ") -> {}", ps[0]);
            }
            other => other.type_name(),
        };
        let ps = self.parameters();
        if ps.is_empty() {
            return f.write_str(name);
        }
        write!(f, "{}(", self.type_name())?;
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str(")")
    }
}

/// A type in the `const` overload table. `Param("A")` is a type parameter; every overload
/// whose signature mentions one is generic in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeSpec {
    /// [`Type::Dyn`].
    Dyn,
    /// [`Type::Null`].
    Null,
    /// [`Type::Bool`].
    Bool,
    /// [`Type::Int`].
    Int,
    /// [`Type::Uint`].
    Uint,
    /// [`Type::Double`].
    Double,
    /// [`Type::String`].
    String,
    /// [`Type::Bytes`].
    Bytes,
    /// [`Type::Duration`].
    Duration,
    /// [`Type::Timestamp`].
    Timestamp,
    /// `list(T)`.
    List(&'static TypeSpec),
    /// `map(K, V)`.
    Map(&'static TypeSpec, &'static TypeSpec),
    /// `type(T)` (the result of `type(x)`).
    TypeOf(&'static TypeSpec),
    /// `type` without a parameter (the type of the identifier `type`).
    Type,
    /// A type parameter (`A`, `K`, `V`): the same name binds the same type across one signature.
    Param(&'static str),
    /// An abstract type with parameters: `Opaque("optional_type", &[Param("V")])`, `Opaque("net.IP", &[])`.
    Opaque(&'static str, &'static [TypeSpec]),
    /// A library object type without fields: `Object("kubernetes.Quantity")`.
    Object(&'static str),
}

impl TypeSpec {
    /// Collects the names of the type parameters this type mentions, in order of appearance.
    pub fn collect_params(&self, out: &mut Vec<&'static str>) {
        match *self {
            TypeSpec::Param(n) if !out.contains(&n) => out.push(n),
            TypeSpec::List(e) | TypeSpec::TypeOf(e) => e.collect_params(out),
            TypeSpec::Map(k, v) => {
                k.collect_params(out);
                v.collect_params(out);
            }
            TypeSpec::Opaque(_, ps) => ps.iter().for_each(|p| p.collect_params(out)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_cel_go() {
        let t = Type::map(Type::String, Type::list(Type::optional(Type::Timestamp)));
        assert_eq!(t.to_string(), "map(string, list(optional_type(timestamp)))");
        assert_eq!(Type::Type(None).to_string(), "type");
        assert_eq!(
            Type::Type(Some(Box::new(Type::Duration))).to_string(),
            "type(duration)"
        );
        assert_eq!(Type::Error.to_string(), "!error!");
        assert_eq!(Type::Opaque("net.IP".into(), vec![]).to_string(), "net.IP");
        assert!(Type::list(Type::param("A")).is_type(&Type::list(Type::param("B")), false));
        assert!(!Type::list(Type::param("A")).is_type(&Type::list(Type::param("B")), true));
    }
}
