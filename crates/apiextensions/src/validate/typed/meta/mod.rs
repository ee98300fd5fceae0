//! The root's `apiVersion`, `kind` and `metadata`, checked as they stream by.
//!
//! `metadata` gets the rules of [`validate_root_meta`] field by field, without building it: names,
//! labels and annotations are read as borrowed strings; the rarer fields (timestamps, owner
//! references, finalizers, ...) are converted to JSON one by one and decoded as
//! [`get_object_meta`](crate::objectmeta::get_object_meta) does. Anything else (a repeated field,
//! a key or value of an unexpected shape) falls back to converting the whole `metadata`.

use serde::ser::{self, Serialize};
use serde_json::{Map, Value};

use super::Invalid;
use crate::objectmeta::decode_field;
use crate::validate::meta::object::{self, NameRule};
use crate::validate::meta::validate_root_meta;
use crate::walk::trail::LazyPath;
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// Whether `value` serializes to the string `expected`.
pub(super) fn str_equals<T: Serialize + ?Sized>(
    value: &T,
    expected: &str,
) -> Result<bool, Invalid> {
    let mut equal = false;
    match value.serialize(StrProbe(|s: Option<&str>| equal = s == Some(expected))) {
        Ok(()) => Ok(equal),
        Err(_) => {
            let v = serde_json::to_value(value).map_err(|_| Invalid)?;
            Ok(v.as_str() == Some(expected))
        }
    }
}

/// Whether the root's `metadata` passes [`validate_root_meta`]; [`Invalid`] when it cannot be
/// converted to JSON.
pub(super) fn root_metadata_passes<T: Serialize + ?Sized>(
    value: &T,
    namespaced: Option<bool>,
) -> Result<bool, Invalid> {
    let path = || FieldPath::new("metadata");
    let mut m = MetaState {
        namespaced,
        path: LazyPath::new(&path),
        errs: Vec::new(),
        seen: 0,
        name: false,
        generated_name_ok: None,
        namespace: false,
    };
    match value.serialize(MetaSer(&mut m)) {
        Ok(()) => Ok(m.finish()),
        Err(Stop::Invalid) => Ok(false),
        Err(Stop::Unusual) => {
            let v = serde_json::to_value(value).map_err(|_| Invalid)?;
            let mut obj = Map::new();
            obj.insert("metadata".into(), v);
            let mut errs = Vec::new();
            validate_root_meta(&Value::Object(obj), namespaced, &mut errs);
            Ok(errs.is_empty())
        }
    }
}

/// Why streaming stopped: the value fails, or it takes a shape this module leaves to the JSON.
#[derive(Debug)]
enum Stop {
    Invalid,
    Unusual,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
impl std::error::Error for Stop {}
impl ser::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop::Unusual
    }
}

/// The fields of `metadata` seen so far and the errors found.
struct MetaState<'p> {
    namespaced: Option<bool>,
    path: LazyPath<'p>,
    errs: Vec<FieldError>,
    /// The known fields seen (a repeated one is left to the JSON, which keeps the last).
    seen: u32,
    name: bool,
    /// Whether the name made up from `generateName` passes, when it is set.
    generated_name_ok: Option<bool>,
    namespace: bool,
}

const FIELDS: [&str; 15] = [
    "annotations",
    "creationTimestamp",
    "deletionGracePeriodSeconds",
    "deletionTimestamp",
    "finalizers",
    "generateName",
    "generation",
    "labels",
    "managedFields",
    "name",
    "namespace",
    "ownerReferences",
    "resourceVersion",
    "selfLink",
    "uid",
];

impl MetaState<'_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Stop> {
        let Some(i) = FIELDS.iter().position(|f| *f == key) else {
            // Unknown fields are dropped, but must convert.
            serde_json::to_value(value).map_err(|_| Stop::Invalid)?;
            return Ok(());
        };
        if self.seen & (1 << i) != 0 {
            return Err(Stop::Unusual);
        }
        self.seen |= 1 << i;
        match key {
            "name" | "generateName" | "namespace" | "uid" | "resourceVersion" | "selfLink" => {
                if value
                    .serialize(StrProbe(|s: Option<&str>| self.string(key, s)))
                    .is_ok()
                {
                    return Ok(());
                }
                if let Some(Value::String(s)) = decoded(key, value)? {
                    self.string(key, Some(&s));
                }
            }
            "labels" | "annotations" => {
                let mut size = 0;
                let annotations = key == "annotations";
                let streamed = value.serialize(MapProbe(|k: &str, v: &str| {
                    self.entry(annotations, k, v, &mut size);
                }));
                match streamed {
                    Ok(()) => {}
                    Err(Stop::Invalid) => return Err(Stop::Invalid),
                    Err(Stop::Unusual) => {
                        size = 0;
                        if let Some(Value::Object(m)) = decoded(key, value)? {
                            for (k, v) in &m {
                                self.entry(annotations, k, v.as_str().unwrap_or(""), &mut size);
                            }
                        }
                    }
                }
                if annotations {
                    object::annotations_size(size, &self.path, &mut self.errs);
                }
            }
            _ => match (key, decoded(key, value)?) {
                ("generation", g) => {
                    object::generation(g.and_then(|g| g.as_i64()), &self.path, &mut self.errs);
                }
                ("finalizers", Some(Value::Array(list))) => {
                    object::finalizers(&list, &self.path, &mut self.errs);
                }
                ("ownerReferences", Some(Value::Array(refs))) => {
                    object::owner_references(&refs, &self.path, &mut self.errs);
                }
                _ => {}
            },
        }
        Ok(())
    }

    /// A string field (`None`: null); empty ones are left out by decoding.
    fn string(&mut self, key: &str, s: Option<&str>) {
        let s = s.unwrap_or("");
        if s.is_empty() {
            return;
        }
        let (path, errs) = (&self.path, &mut self.errs);
        match key {
            "name" => {
                self.name = true;
                object::name(NameRule::DnsSubdomain, s, path, errs);
            }
            "generateName" => {
                object::generate_name(NameRule::DnsSubdomain, s, path, errs);
                let mut generated = Vec::new();
                object::name(
                    NameRule::DnsSubdomain,
                    &format!("{s}xxxxx"),
                    path,
                    &mut generated,
                );
                self.generated_name_ok = Some(generated.is_empty());
            }
            "namespace" => {
                self.namespace = true;
                object::namespace(self.namespaced, s, path, errs);
            }
            _ => {}
        }
    }

    fn entry(&mut self, annotations: bool, k: &str, v: &str, size: &mut usize) {
        if annotations {
            object::annotation_key(k, &self.path, &mut self.errs);
            *size += k.len() + v.len();
        } else {
            object::label(k, v, &self.path, &mut self.errs);
        }
    }

    /// The checks that need every field: the name (or the one made up from `generateName`) and
    /// a required namespace.
    fn finish(mut self) -> bool {
        if !self.name {
            match self.generated_name_ok {
                Some(ok) => {
                    if !ok {
                        return false;
                    }
                }
                None => return false,
            }
        }
        if !self.namespace {
            object::namespace(self.namespaced, "", &self.path, &mut self.errs);
        }
        self.errs.is_empty()
    }
}

/// Field `key` converted to JSON and decoded alone.
fn decoded<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<Option<Value>, Stop> {
    let v = serde_json::to_value(value).map_err(|_| Stop::Invalid)?;
    decode_field(key, &v).map_err(|_| Stop::Invalid)
}

/// Passes a string (or `None` for null) to a callback; other values are [`Stop::Unusual`].
struct StrProbe<F>(F);

/// Passes each entry of a map of strings (a null value as `""`) to a callback; a null map is
/// empty, anything else is [`Stop::Unusual`].
struct MapProbe<F>(F);

/// `metadata` itself.
struct MetaSer<'m, 'p>(&'m mut MetaState<'p>);

/// The fields of `metadata`.
struct MetaFields<'m, 'p> {
    state: &'m mut MetaState<'p>,
    key: Option<String>,
}

/// The entries of labels or annotations.
struct MapEntries<F> {
    each: F,
    key: Option<String>,
}

/// The `Serializer` methods that stop with [`Stop::Unusual`].
macro_rules! unusual {
    ($($f:ident($($t:ty),*) -> $r:ty;)*) => {$(
        fn $f(self, $(_: $t),*) -> Result<$r, Stop> {
            Err(Stop::Unusual)
        }
    )*};
}

/// The `Serializer` methods that no probe accepts.
macro_rules! rest_unusual {
    () => {
        unusual! {
            serialize_bool(bool) -> ();
            serialize_i8(i8) -> ();
            serialize_i16(i16) -> ();
            serialize_i32(i32) -> ();
            serialize_i64(i64) -> ();
            serialize_u8(u8) -> ();
            serialize_u16(u16) -> ();
            serialize_u32(u32) -> ();
            serialize_u64(u64) -> ();
            serialize_f32(f32) -> ();
            serialize_f64(f64) -> ();
            serialize_bytes(&[u8]) -> ();
            serialize_seq(Option<usize>) -> Self::SerializeSeq;
            serialize_tuple(usize) -> Self::SerializeTuple;
            serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Stop> {
            Err(Stop::Unusual)
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            value: &T,
        ) -> Result<(), Stop> {
            value.serialize(self)
        }
    };
}

mod probes;
