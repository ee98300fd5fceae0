//! [`Schema`] for std types and `serde_json::Value`, and, under their features, for the types
//! of the crates that fields commonly hold (`chrono`, `jiff`, `url`, `uuid`, kube-core's
//! `Duration`): each the JSON that its `Serialize` writes, with the `format` the API server
//! validates where one fits (`date-time`, `date`, `uri`, `uuid`).
//!
//! The widest Rust type maps to the bare JSON type (`i64` → `type: integer`, `f64` →
//! `type: number`); narrower ones add what Kubernetes' own types carry (`i32` → `format: int32`,
//! `f32` → `format: float`, unsigned → `minimum: 0`).

#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "jiff")]
mod jiff;
#[cfg(feature = "kube-core")]
mod kube;
#[cfg(feature = "url")]
mod url;
#[cfg(feature = "uuid")]
mod uuid;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use super::{Field, Kind, Schema, Shape};
use crdkit_schema::ListType;

macro_rules! scalar {
    ($($ty:ty => $shape:expr;)*) => {
        $(impl Schema for $ty {
            const SHAPE: Shape = $shape.named(stringify!($ty));
        })*
    };
}

scalar! {
    bool => Shape::boolean();
    i8 => Shape::integer().format("int32").minimum(-128.0).maximum(127.0);
    i16 => Shape::integer().format("int32").minimum(-32768.0).maximum(32767.0);
    i32 => Shape::integer().format("int32");
    i64 => Shape::integer();
    isize => Shape::integer();
    u8 => Shape::integer().format("int32").minimum(0.0).maximum(255.0);
    u16 => Shape::integer().format("int32").minimum(0.0).maximum(65535.0);
    u32 => Shape::integer().minimum(0.0).maximum(4_294_967_295.0);
    u64 => Shape::integer().minimum(0.0);
    usize => Shape::integer().minimum(0.0);
    std::num::NonZeroU32 => Shape::integer().minimum(1.0).maximum(4_294_967_295.0);
    std::num::NonZeroU64 => Shape::integer().minimum(1.0);
    f32 => Shape::number().format("float");
    f64 => Shape::number();
    String => Shape::string();
    str => Shape::string();
    char => Shape::string().length(Some(1), Some(1));
    std::net::IpAddr => Shape::string();
    std::net::Ipv4Addr => Shape::string().format("ipv4");
    std::net::Ipv6Addr => Shape::string().format("ipv6");
    // `127.0.0.1:80`, `[::1]:80`: no format of the API server fits.
    std::net::SocketAddr => Shape::string();
    std::net::SocketAddrV4 => Shape::string();
    std::net::SocketAddrV6 => Shape::string();
    std::path::PathBuf => Shape::string();
    serde_json::Value => Shape::any();
}

/// serde writes `{"secs": 5, "nanos": 0}`.
impl Schema for std::time::Duration {
    const SHAPE: Shape = Shape::new(Kind::Struct(&[
        Field {
            name: "secs",
            ident: "secs",
            shape: &u64::SHAPE,
            required: true,
            flatten: false,
        },
        Field {
            name: "nanos",
            ident: "nanos",
            shape: &NANOS,
            required: true,
            flatten: false,
        },
    ]))
    .named("Duration");
}

/// serde writes `{"secs_since_epoch": .., "nanos_since_epoch": ..}`.
impl Schema for std::time::SystemTime {
    const SHAPE: Shape = Shape::new(Kind::Struct(&[
        Field {
            name: "secs_since_epoch",
            ident: "secs_since_epoch",
            shape: &u64::SHAPE,
            required: true,
            flatten: false,
        },
        Field {
            name: "nanos_since_epoch",
            ident: "nanos_since_epoch",
            shape: &NANOS,
            required: true,
            flatten: false,
        },
    ]))
    .named("SystemTime");
}

/// The nanoseconds of a second.
const NANOS: Shape = Shape::integer()
    .minimum(0.0)
    .maximum(999_999_999.0)
    .named("u32");

impl Schema for serde_json::Map<String, serde_json::Value> {
    const SHAPE: Shape = {
        let mut s = Shape::new(Kind::Map(&serde_json::Value::SHAPE)).named("Map<String, Value>");
        s.preserve_unknown_fields = false;
        s
    };
}

impl<T: Schema> Schema for Option<T> {
    const SHAPE: Shape = Shape {
        nullable: true,
        optional: true,
        ..T::SHAPE
    };
}

macro_rules! transparent {
    ($($ty:ty),*) => {
        $(impl<T: Schema + ?Sized> Schema for $ty {
            const SHAPE: Shape = T::SHAPE;
        })*
    };
}
transparent!(Box<T>, std::rc::Rc<T>, std::sync::Arc<T>);

impl<T: Schema + ?Sized> Schema for &T {
    const SHAPE: Shape = T::SHAPE;
}

impl<T: Schema + ToOwned + ?Sized> Schema for std::borrow::Cow<'_, T> {
    const SHAPE: Shape = T::SHAPE;
}

macro_rules! seq {
    ($($ty:ident),*) => {
        $(impl<T: Schema> Schema for $ty<T> {
            const SHAPE: Shape = Shape::new(Kind::Array(&T::SHAPE)).named(stringify!($ty));
        })*
    };
}
seq!(Vec, VecDeque);

impl<T: Schema> Schema for [T] {
    const SHAPE: Shape = Shape::new(Kind::Array(&T::SHAPE)).named("slice");
}

impl<T: Schema, const N: usize> Schema for [T; N] {
    const SHAPE: Shape = {
        let mut s = Shape::new(Kind::Array(&T::SHAPE)).named("array");
        s.min_items = Some(N as u64);
        s.max_items = Some(N as u64);
        s
    };
}

macro_rules! set {
    ($($ty:ident),*) => {
        $(impl<T: Schema, S> Schema for $ty<T, S> {
            const SHAPE: Shape = {
                let mut s = Shape::new(Kind::Array(&T::SHAPE)).named(stringify!($ty));
                s.list_type = Some(ListType::Set);
                s
            };
        })*
    };
}
set!(HashSet);

impl<T: Schema> Schema for BTreeSet<T> {
    const SHAPE: Shape = {
        let mut s = Shape::new(Kind::Array(&T::SHAPE)).named("BTreeSet");
        s.list_type = Some(ListType::Set);
        s
    };
}

/// Types that serde writes as JSON object keys.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a map key in a structural schema",
    note = "JSON object keys are strings: use `String`, an integer, or a unit-only enum that derives `crdkit::Schema`"
)]
pub trait MapKey {}

impl MapKey for String {}
impl MapKey for &str {}
impl MapKey for std::borrow::Cow<'_, str> {}
impl MapKey for char {}
impl MapKey for bool {}
macro_rules! int_keys { ($($t:ty),*) => { $(impl MapKey for $t {})* }; }
int_keys!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl<K: MapKey, V: Schema> Schema for BTreeMap<K, V> {
    const SHAPE: Shape = Shape::new(Kind::Map(&V::SHAPE)).named("BTreeMap");
}

impl<K: MapKey, V: Schema, S> Schema for HashMap<K, V, S> {
    const SHAPE: Shape = Shape::new(Kind::Map(&V::SHAPE)).named("HashMap");
}
