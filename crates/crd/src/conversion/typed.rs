//! Conversions between Rust types, one per version, through `From`/`TryFrom`.
//!
//! The Go counterparts are controller-runtime's hub and spokes (`conversion.Hub`,
//! `Convertible`) and conversion-gen's functions between neighbouring versions. Here each
//! version names a serde type and each pair of types with `TryFrom` both ways is an edge; an
//! object is converted along the shortest chain of edges, so both shapes work: neighbours
//! (`v1 <-> v2 <-> v3`) and a hub (`v1 <-> v2`, `v3 <-> v2`).
//!
//! ```
//! use crdkit_crd::conversion::{Conversions, Typed};
//! # use serde::{Deserialize, Serialize};
//! #[derive(Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! struct V1beta1 { host_port: String }
//! #[derive(Serialize, Deserialize)]
//! struct V1 { host: String, port: String }
//! impl TryFrom<V1beta1> for V1 {
//!     type Error = String;
//!     fn try_from(o: V1beta1) -> Result<V1, String> {
//!         let (host, port) = o.host_port.split_once(':').ok_or("no port")?;
//!         Ok(V1 { host: host.into(), port: port.into() })
//!     }
//! }
//! impl From<V1> for V1beta1 {
//!     fn from(o: V1) -> V1beta1 { V1beta1 { host_port: format!("{}:{}", o.host, o.port) } }
//! }
//! let crontab = Typed::new("CronTab")
//!     .version::<V1beta1>("example.com/v1beta1")
//!     .version::<V1>("example.com/v1")
//!     .convert::<V1beta1, V1>()
//!     .build()
//!     .unwrap();
//! let conversions = Conversions::new().typed(crontab);
//! let obj = serde_json::json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
//!     "metadata": {"name": "a"}, "hostPort": "localhost:1234"});
//! let v1 = conversions.convert(obj, "example.com/v1").unwrap();
//! assert_eq!(v1["host"], "localhost");
//! assert_eq!(v1["apiVersion"], "example.com/v1");
//! ```

use std::any::{Any, TypeId};
use std::collections::VecDeque;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{ConversionError, Convert, group_of};

type Boxed = Box<dyn Any + Send>;
type Decode = fn(Value) -> Result<Boxed, String>;
type Encode = fn(Boxed) -> Result<Value, String>;
type Hop = fn(Boxed) -> Result<Boxed, String>;

struct Version {
    api_version: String,
    type_id: TypeId,
    type_name: &'static str,
    decode: Decode,
    encode: Encode,
}

/// A builder of [`TypedConverter`]: the versions of one kind, each a serde type, and the
/// `TryFrom` conversions between them.
pub struct Typed {
    kind: String,
    versions: Vec<Version>,
    edges: Vec<(usize, usize, Hop)>,
    errors: Vec<BuildError>,
}

/// Why [`Typed::build`] refused the versions and conversions it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// `.version::<A>("example.com/v1").version::<B>("example.com/v1")`
    DuplicateVersion(String),
    /// `.version::<A>("example.com/v1").version::<A>("example.com/v2")`
    DuplicateType(&'static str),
    /// `.version::<A>("v1")`: not `<group>/<version>`.
    BadApiVersion(String),
    /// `.version::<A>("a.com/v1").version::<B>("b.com/v1")`: one kind has one group.
    GroupsDiffer(String, String),
    /// `.convert::<A, B>()` with `B` never given a version.
    UnknownType(&'static str),
    /// No chain of conversions leads from the first version to the second.
    Unreachable(String, String),
    /// `.build()` without any version.
    NoVersions,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::DuplicateVersion(v) => write!(f, "version {v} is given twice"),
            BuildError::DuplicateType(t) => write!(f, "type {t} is given two versions"),
            BuildError::BadApiVersion(v) => {
                write!(f, "apiVersion {v:?} is not of the form <group>/<version>")
            }
            BuildError::GroupsDiffer(a, b) => {
                write!(f, "versions of one kind must share a group: {a} and {b}")
            }
            BuildError::UnknownType(t) => {
                write!(f, "type {t} has no version: call .version::<{t}>(..) first")
            }
            BuildError::Unreachable(a, b) => write!(f, "no conversion leads from {a} to {b}"),
            BuildError::NoVersions => f.write_str("no versions given"),
        }
    }
}

impl std::error::Error for BuildError {}

fn decode<T: DeserializeOwned + Send + 'static>(v: Value) -> Result<Boxed, String> {
    serde_json::from_value::<T>(v)
        .map(|t| Box::new(t) as Boxed)
        .map_err(|e| e.to_string())
}

fn encode<T: Serialize + 'static>(b: Boxed) -> Result<Value, String> {
    let t = b
        .downcast::<T>()
        .map_err(|_| format!("internal error: not a {}", std::any::type_name::<T>()))?;
    serde_json::to_value(&*t).map_err(|e| e.to_string())
}

fn hop<A, B>(a: Boxed) -> Result<Boxed, String>
where
    A: Send + 'static,
    B: TryFrom<A> + Send + 'static,
    B::Error: fmt::Display,
{
    let a = a
        .downcast::<A>()
        .map_err(|_| format!("internal error: not a {}", std::any::type_name::<A>()))?;
    B::try_from(*a)
        .map(|b| Box::new(b) as Boxed)
        .map_err(|e| e.to_string())
}

impl Typed {
    /// The versions of `kind` (`CronTab`).
    #[must_use]
    pub fn new(kind: impl Into<String>) -> Typed {
        Typed {
            kind: kind.into(),
            versions: Vec::new(),
            edges: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// `T` is the object at `api_version` (`example.com/v1`; a derived root's `API_VERSION`).
    /// `T` may be the whole object or only its fields besides `apiVersion`, `kind` and
    /// `metadata`: what it leaves out is filled in from the original object.
    #[must_use]
    pub fn version<T>(mut self, api_version: &str) -> Typed
    where
        T: Serialize + DeserializeOwned + Send + 'static,
    {
        let type_name = std::any::type_name::<T>();
        if !api_version.contains('/') || api_version.starts_with('/') || api_version.ends_with('/')
        {
            self.errors
                .push(BuildError::BadApiVersion(api_version.to_owned()));
        } else if self.versions.iter().any(|v| v.api_version == api_version) {
            self.errors
                .push(BuildError::DuplicateVersion(api_version.to_owned()));
        } else if self.versions.iter().any(|v| v.type_id == TypeId::of::<T>()) {
            self.errors.push(BuildError::DuplicateType(type_name));
        } else {
            self.versions.push(Version {
                api_version: api_version.to_owned(),
                type_id: TypeId::of::<T>(),
                type_name,
                decode: decode::<T>,
                encode: encode::<T>,
            });
        }
        self
    }

    /// `A <-> B`: both directions, through `TryFrom` (which `From` implies).
    #[must_use]
    pub fn convert<A, B>(self) -> Typed
    where
        A: TryFrom<B> + Send + 'static,
        B: TryFrom<A> + Send + 'static,
        <A as TryFrom<B>>::Error: fmt::Display,
        <B as TryFrom<A>>::Error: fmt::Display,
    {
        self.convert_one_way::<A, B>().convert_one_way::<B, A>()
    }

    /// `A -> B` only; [`Typed::build`] still requires every version to reach every other.
    #[must_use]
    pub fn convert_one_way<A, B>(mut self) -> Typed
    where
        A: Send + 'static,
        B: TryFrom<A> + Send + 'static,
        B::Error: fmt::Display,
    {
        let find = |id: TypeId| self.versions.iter().position(|v| v.type_id == id);
        match (find(TypeId::of::<A>()), find(TypeId::of::<B>())) {
            (Some(a), Some(b)) => self.edges.push((a, b, hop::<A, B>)),
            (None, _) => self
                .errors
                .push(BuildError::UnknownType(std::any::type_name::<A>())),
            (_, None) => self
                .errors
                .push(BuildError::UnknownType(std::any::type_name::<B>())),
        }
        self
    }

    /// Checks the versions (one group, each once) and that every version reaches every other.
    ///
    /// # Errors
    /// The first [`BuildError`] found.
    pub fn build(self) -> Result<TypedConverter, BuildError> {
        if let Some(e) = self.errors.into_iter().next() {
            return Err(e);
        }
        let first = self.versions.first().ok_or(BuildError::NoVersions)?;
        let group = group_of(&first.api_version).to_owned();
        for v in &self.versions[1..] {
            if group_of(&v.api_version) != group {
                return Err(BuildError::GroupsDiffer(
                    first.api_version.clone(),
                    v.api_version.clone(),
                ));
            }
        }
        let n = self.versions.len();
        // next[from][to]: the edge to take first on a shortest chain, by breadth-first search.
        let mut next = vec![vec![None; n]; n];
        for (from, row) in next.iter_mut().enumerate() {
            let mut queue = VecDeque::from([from]);
            let mut first_edge: Vec<Option<usize>> = vec![None; n];
            let mut seen = vec![false; n];
            seen[from] = true;
            while let Some(at) = queue.pop_front() {
                for (e, &(a, b, _)) in self.edges.iter().enumerate() {
                    if a == at && !seen[b] {
                        seen[b] = true;
                        first_edge[b] = if at == from { Some(e) } else { first_edge[at] };
                        queue.push_back(b);
                    }
                }
            }
            if let Some(to) = (0..n).find(|&to| to != from && first_edge[to].is_none()) {
                return Err(BuildError::Unreachable(
                    self.versions[from].api_version.clone(),
                    self.versions[to].api_version.clone(),
                ));
            }
            *row = first_edge;
        }
        Ok(TypedConverter {
            group,
            kind: self.kind,
            versions: self.versions,
            edges: self.edges,
            next,
        })
    }
}

/// The versions of one kind and the conversions between them, checked; a [`Convert`].
pub struct TypedConverter {
    group: String,
    kind: String,
    versions: Vec<Version>,
    edges: Vec<(usize, usize, Hop)>,
    next: Vec<Vec<Option<usize>>>,
}

impl fmt::Debug for TypedConverter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let versions: Vec<(&str, &str)> = self
            .versions
            .iter()
            .map(|v| (v.api_version.as_str(), v.type_name))
            .collect();
        f.debug_struct("TypedConverter")
            .field("kind", &self.kind)
            .field("versions", &versions)
            .finish_non_exhaustive()
    }
}

impl TypedConverter {
    /// The group of every version.
    #[must_use]
    pub fn group(&self) -> &str {
        &self.group
    }

    /// The kind converted.
    #[must_use]
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The apiVersions, in the order given.
    pub fn api_versions(&self) -> impl Iterator<Item = &str> {
        self.versions.iter().map(|v| v.api_version.as_str())
    }

    fn index(&self, api_version: &str) -> Result<usize, ConversionError> {
        self.versions
            .iter()
            .position(|v| v.api_version == api_version)
            .ok_or_else(|| ConversionError::UnknownVersion(api_version.to_owned()))
    }
}

impl Convert for TypedConverter {
    fn convert(&self, object: Value, desired_api_version: &str) -> Result<Value, ConversionError> {
        let from_version = object
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let mut at = self.index(&from_version)?;
        let to = self.index(desired_api_version)?;
        let version = &self.versions[at];
        let mut value = (version.decode)(object).map_err(|message| ConversionError::Decode {
            api_version: from_version.clone(),
            kind: self.kind.clone(),
            message,
        })?;
        while at != to {
            let Some(edge) = self.next[at][to] else {
                // `build` made sure every version reaches every other.
                return Err(ConversionError::UnknownVersion(
                    desired_api_version.to_owned(),
                ));
            };
            let (_, b, f) = self.edges[edge];
            value = f(value).map_err(ConversionError::Failed)?;
            at = b;
        }
        (self.versions[to].encode)(value).map_err(ConversionError::Failed)
    }
}
