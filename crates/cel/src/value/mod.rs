//! CEL values: mirrors cel-go `common/types` (one variant per `ref.Val` kind) and the
//! Kubernetes opaque types of apiserver `pkg/cel` (`ip.go`, `cidr.go`, `url.go`, `quantity.go`,
//! `semver.go`, `format.go`).
//!
//! A value borrows for `'a` what it can: strings of the program's literals and of the JSON
//! object under validation are not copied, and objects, maps and lists read from JSON are lazy
//! views ([`JsonObject`], [`JsonList`]) that convert a field or element only when it is selected,
//! as apiserver `pkg/cel/common/valuesunstructured.go` does. Values built during evaluation are
//! shared through [`Arc`], so a compiled [`Program`](crate::eval::Program) is `Send + Sync`.
//!
//! ```
//! use crdkit_cel::value::Value;
//! let v = Value::from("abc");
//! assert_eq!(v.type_name(), "string");
//! ```
//!
//! The model is the layer below both the evaluator ([`crate::eval`]) and the function libraries
//! ([`crate::library`]): what a value is and what every value can do, whoever calls it.
//! Bottom to top: [`error`](EvalError) (cel-go `types.Err`), `time`, `map`, `list` (structure
//! and list-type keys), `convert`, `base64`, `strfmt`, `json` (lazy views of JSON), `equal`
//! (equality, ordering, membership), `format` (`%v` and JSON), and `ext` (the Kubernetes opaque
//! types).

use std::fmt;
use std::sync::Arc;

pub(crate) mod convert;
pub(crate) mod equal;
mod error;
pub mod ext;
pub(crate) mod format;
pub mod json;
pub(crate) mod list;
pub(crate) mod map;
pub(crate) mod strfmt;
pub mod time;

pub use error::{COST_LIMIT_MESSAGE, EvalError, EvalErrorKind, EvalResult};
pub use ext::ExtValue;
pub use json::{JsonList, JsonObject};
pub use map::{MapKey, OwnedMap};
pub use time::{Duration, Timestamp};

/// A CEL value.
#[derive(Clone, Debug)]
pub enum Value<'a> {
    /// `null` (cel-go `types.Null`).
    Null,
    /// A `bool` (cel-go `types.Bool`).
    Bool(bool),
    /// An `int`: signed 64-bit, arithmetic checked for overflow (cel-go `types.Int`).
    Int(i64),
    /// A `uint`: unsigned 64-bit, arithmetic checked for overflow (cel-go `types.Uint`).
    Uint(u64),
    /// A `double`: IEEE 754 64-bit (cel-go `types.Double`).
    Double(f64),
    /// A `string` of Unicode text (cel-go `types.String`).
    String(Str<'a>),
    /// A `bytes` sequence (cel-go `types.Bytes`).
    Bytes(Bytes<'a>),
    /// A `google.protobuf.Duration` (cel-go `types.Duration`).
    Duration(Duration),
    /// A `google.protobuf.Timestamp` (cel-go `types.Timestamp`).
    Timestamp(Timestamp),
    /// A `list` (cel-go `traits.Lister`), with its `x-kubernetes-list-type` semantics.
    List(List<'a>),
    /// A `map` (cel-go `traits.Mapper`); objects of the input read through their schema are
    /// maps too.
    Map(Map<'a>),
    /// `optional.of(v)` / `optional.none()`.
    Optional(Option<Arc<Value<'a>>>),
    /// A type value such as `int` or `type(x)`; the name is cel-go's `TypeName()`.
    Type(Type),
    /// Kubernetes opaque values: IP, CIDR, URL, Quantity, Semver, Format.
    Ext(Arc<ExtValue>),
    /// Data under `x-kubernetes-preserve-unknown-fields` without a CEL type: only equality
    /// (apiserver `unknownPreserved`).
    Unknown(&'a serde_json::Value),
}

/// A string, borrowed from the program or the object, or built during evaluation.
#[derive(Clone, Debug)]
pub enum Str<'a> {
    /// Text of a program literal or of the JSON input, not copied.
    Borrowed(&'a str),
    /// Text built during evaluation or converted from an owned `String`.
    Shared(Arc<str>),
}

/// A byte sequence, borrowed or built during evaluation.
#[derive(Clone, Debug)]
pub enum Bytes<'a> {
    /// Bytes of a program literal, not copied.
    Borrowed(&'a [u8]),
    /// Bytes built during evaluation.
    Shared(Arc<[u8]>),
}

/// `x-kubernetes-list-type` semantics carried by a list value: equality ignores order for
/// `set` and `map`, and `+` merges (apiserver `unstructuredSetList`, `unstructuredMapList`).
#[derive(Clone, Debug, PartialEq)]
pub enum ListKind {
    /// `atomic` or no list type: ordered equality, `+` concatenates.
    Plain,
    /// `set`: equality ignores order, `+` appends only the elements not already present.
    Set,
    /// `map` with these key property names (`x-kubernetes-list-map-keys`, escaped as CEL
    /// field names): equality ignores order, and `+` replaces the elements of the left list
    /// whose keys the right one has, in place, and appends the rest.
    MapList(Arc<[String]>),
}

/// A list: built during evaluation, or a view of a JSON array.
#[derive(Clone, Debug)]
pub enum List<'a> {
    /// Elements built during evaluation. The kind is `Plain` except for `+` on a `set` or
    /// `map` list, whose result keeps the left operand's kind.
    Owned(Arc<Vec<Value<'a>>>, ListKind),
    /// A JSON array of the input; elements are converted when read, and the list type comes
    /// from the array's schema.
    Json(JsonList<'a>),
}

/// A map: built during evaluation, or a view of a JSON object (an object with properties, a
/// map with `additionalProperties`, or an object without an accessible schema).
#[derive(Clone, Debug)]
pub enum Map<'a> {
    /// Entries built during evaluation (map literals, library results).
    Owned(Arc<OwnedMap<'a>>),
    /// A JSON object of the input; values are converted when selected.
    Json(JsonObject<'a>),
}

/// A type value; the string is the name cel-go prints (`int`, `google.protobuf.Timestamp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Type(pub &'static str);

impl Type {
    /// `null_type`, the type of `null` (cel-go `types.NullType`).
    pub const NULL: Type = Type("null_type");
    /// `bool` (cel-go `types.BoolType`).
    pub const BOOL: Type = Type("bool");
    /// `int` (cel-go `types.IntType`).
    pub const INT: Type = Type("int");
    /// `uint` (cel-go `types.UintType`).
    pub const UINT: Type = Type("uint");
    /// `double` (cel-go `types.DoubleType`).
    pub const DOUBLE: Type = Type("double");
    /// `string` (cel-go `types.StringType`).
    pub const STRING: Type = Type("string");
    /// `bytes` (cel-go `types.BytesType`).
    pub const BYTES: Type = Type("bytes");
    /// `google.protobuf.Duration`, the type of durations (cel-go `types.DurationType`).
    pub const DURATION: Type = Type("google.protobuf.Duration");
    /// `google.protobuf.Timestamp`, the type of timestamps (cel-go `types.TimestampType`).
    pub const TIMESTAMP: Type = Type("google.protobuf.Timestamp");
    /// `list`, the type of every list whatever its element type (cel-go `types.ListType`).
    pub const LIST: Type = Type("list");
    /// `map`, the type of every map whatever its key and value types (cel-go `types.MapType`).
    pub const MAP: Type = Type("map");
    /// `type`, the type of type values such as `int` (cel-go `types.TypeType`).
    pub const TYPE: Type = Type("type");
    /// `optional_type`, the type of `optional.of(v)` and `optional.none()` (cel-go
    /// `types.OptionalType`).
    pub const OPTIONAL: Type = Type("optional_type");
    /// `unknown`, the type of [`Value::Unknown`] (cel-go `types.UnknownType`, as apiserver's
    /// `unknownPreserved` reports it); no identifier names it.
    pub const UNKNOWN: Type = Type("unknown");

    /// The type named by an identifier of the standard environment, as cel-go resolves it.
    #[must_use]
    pub fn by_name(name: &str) -> Option<Type> {
        Some(match name {
            "null_type" => Type::NULL,
            "bool" => Type::BOOL,
            "int" => Type::INT,
            "uint" => Type::UINT,
            "double" => Type::DOUBLE,
            "string" => Type::STRING,
            "bytes" => Type::BYTES,
            "list" => Type::LIST,
            "map" => Type::MAP,
            "type" => Type::TYPE,
            "google.protobuf.Duration" => Type::DURATION,
            "google.protobuf.Timestamp" => Type::TIMESTAMP,
            "optional_type" => Type::OPTIONAL,
            _ => return ext::type_by_name(name),
        })
    }
}

impl<'a> Value<'a> {
    /// The type of the value, as `type(v)` returns it.
    #[must_use]
    pub fn type_of(&self) -> Type {
        match self {
            Value::Null => Type::NULL,
            Value::Bool(_) => Type::BOOL,
            Value::Int(_) => Type::INT,
            Value::Uint(_) => Type::UINT,
            Value::Double(_) => Type::DOUBLE,
            Value::String(_) => Type::STRING,
            Value::Bytes(_) => Type::BYTES,
            Value::Duration(_) => Type::DURATION,
            Value::Timestamp(_) => Type::TIMESTAMP,
            Value::List(_) => Type::LIST,
            Value::Map(_) => Type::MAP,
            Value::Optional(_) => Type::OPTIONAL,
            Value::Type(_) => Type::TYPE,
            Value::Ext(e) => e.type_of(),
            Value::Unknown(_) => Type::UNKNOWN,
        }
    }

    /// cel-go's `TypeName()` of the value, used in `no such overload: f(int, string)`.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        self.type_of().0
    }

    /// The Go type `%T` prints for the value (used by a few cel-go messages).
    #[must_use]
    pub fn go_type_name(&self) -> &'static str {
        match self {
            Value::Null => "types.Null",
            Value::Bool(_) => "types.Bool",
            Value::Int(_) => "types.Int",
            Value::Uint(_) => "types.Uint",
            Value::Double(_) => "types.Double",
            Value::String(_) => "types.String",
            Value::Bytes(_) => "types.Bytes",
            Value::Duration(_) => "types.Duration",
            Value::Timestamp(_) => "types.Timestamp",
            Value::List(_) => "traits.Lister",
            Value::Map(_) => "traits.Mapper",
            Value::Optional(_) => "*types.Optional",
            Value::Type(_) => "*types.Type",
            Value::Ext(_) => "ref.Val",
            Value::Unknown(_) => "*common.unknownPreserved",
        }
    }

    /// Clones, with the scalar cases inlined (the derived `clone` is an out-of-line match).
    #[inline]
    #[must_use]
    pub fn fast_clone(&self) -> Value<'a> {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(*b),
            Value::Int(i) => Value::Int(*i),
            Value::Uint(u) => Value::Uint(*u),
            Value::Double(d) => Value::Double(*d),
            Value::String(Str::Borrowed(s)) => Value::String(Str::Borrowed(s)),
            Value::Map(Map::Json(j)) => Value::Map(Map::Json(*j)),
            other => other.clone(),
        }
    }

    /// A string value that owns its text.
    #[must_use]
    pub fn string(s: impl Into<Arc<str>>) -> Value<'a> {
        Value::String(Str::Shared(s.into()))
    }

    /// A bytes value that owns its data.
    #[must_use]
    pub fn bytes(b: impl Into<Arc<[u8]>>) -> Value<'a> {
        Value::Bytes(Bytes::Shared(b.into()))
    }

    /// A plain list.
    #[must_use]
    pub fn list(items: Vec<Value<'a>>) -> Value<'a> {
        Value::List(List::Owned(Arc::new(items), ListKind::Plain))
    }

    /// `optional.of(v)`.
    #[must_use]
    pub fn optional_of(v: Value<'a>) -> Value<'a> {
        Value::Optional(Some(Arc::new(v)))
    }

    /// `optional.none()`.
    #[must_use]
    pub const fn optional_none() -> Value<'a> {
        Value::Optional(None)
    }

    /// The string, if this is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The bool, if this is one.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Plain JSON without a schema: `null`, `bool`, `string`, a list, a map with string keys,
    /// and numbers as written: `int` when integral and within `i64`, else `uint` when within
    /// `u64`, else `double` (`1.0` is a `double`). Strings are borrowed. To read JSON as the
    /// API server reads objects (formats, `x-kubernetes-int-or-string`, list types, escaped
    /// property names), bind it with its schema:
    /// [`Activation::bind_json`](crate::eval::Activation::bind_json).
    ///
    /// ```
    /// use crdkit_cel::value::Value;
    ///
    /// let json = serde_json::json!({"n": 1, "big": 18446744073709551615u64, "x": 1.0, "tags": ["a"]});
    /// let v = Value::from_json(&json);
    /// assert_eq!(v.to_json(), json);
    /// assert_eq!(Value::from_json(&json["n"]).type_name(), "int");
    /// assert_eq!(Value::from_json(&json["big"]).type_name(), "uint");
    /// assert_eq!(Value::from_json(&json["x"]).type_name(), "double");
    /// ```
    #[must_use]
    pub fn from_json(json: &'a serde_json::Value) -> Value<'a> {
        use serde_json::Value as J;
        match json {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Value::Int(i),
                (None, Some(u)) => Value::Uint(u),
                _ => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => Value::String(Str::Borrowed(s)),
            J::Array(items) => Value::list(items.iter().map(Value::from_json).collect()),
            J::Object(members) => {
                let mut map = OwnedMap::new();
                for (k, v) in members {
                    // Keys are distinct strings: inserting cannot fail.
                    let _ = map.insert(Value::String(Str::Borrowed(k)), Value::from_json(v));
                }
                Value::Map(Map::Owned(Arc::new(map)))
            }
        }
    }

    /// Converts to plain JSON (for tests and messages); views are materialised.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        format::to_json(self)
    }
}

impl<'a> Str<'a> {
    /// The text, borrowed or shared alike.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Str::Borrowed(s) => s,
            Str::Shared(s) => s,
        }
    }
}

impl std::ops::Deref for Str<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<'a> Bytes<'a> {
    /// The bytes, borrowed or shared alike.
    #[must_use]
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(b) => b,
            Bytes::Shared(b) => b,
        }
    }
}

impl std::ops::Deref for Bytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(s: &'a str) -> Self {
        Value::String(Str::Borrowed(s))
    }
}

impl From<String> for Value<'_> {
    fn from(s: String) -> Self {
        Value::string(s)
    }
}

impl From<i64> for Value<'_> {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}

impl From<u64> for Value<'_> {
    fn from(u: u64) -> Self {
        Value::Uint(u)
    }
}

impl From<f64> for Value<'_> {
    fn from(d: f64) -> Self {
        Value::Double(d)
    }
}

impl From<i32> for Value<'_> {
    fn from(i: i32) -> Self {
        Value::Int(i64::from(i))
    }
}

impl From<u32> for Value<'_> {
    fn from(u: u32) -> Self {
        Value::Uint(u64::from(u))
    }
}

impl<'a, T: Into<Value<'a>>> From<Vec<T>> for Value<'a> {
    /// A plain list of the converted elements.
    fn from(items: Vec<T>) -> Self {
        Value::list(items.into_iter().map(Into::into).collect())
    }
}

impl<'a> From<&'a serde_json::Value> for Value<'a> {
    /// [`Value::from_json`].
    fn from(json: &'a serde_json::Value) -> Self {
        Value::from_json(json)
    }
}

impl From<bool> for Value<'_> {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl PartialEq for Value<'_> {
    /// CEL equality (`==`), with heterogeneous numeric equality; errors compare unequal.
    fn eq(&self, other: &Self) -> bool {
        matches!(equal::equals(self, other), Ok(true))
    }
}

impl fmt::Display for Value<'_> {
    /// Go's `%v` of the cel-go value, as error messages print it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        format::write_go(self, f)
    }
}
