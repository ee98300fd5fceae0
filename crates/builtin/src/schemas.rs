//! The published schemas of Kubernetes' built-in kinds as structural schemas, per minor version
//! (1.29 to 1.35), for validating objects offline as kubectl-validate does (`crdgen validate`).
//!
//! Why these schemas: the API server publishes its own OpenAPI v3 documents
//! (`/openapi/v3/apis/<group>/<version>`, kubernetes `api/openapi-spec/v3/`); they are the ground
//! truth of what a server of that minor version serves, and what kubectl-validate validates
//! against. They are carried as data (`data/kubernetes-openapi.json`, written by
//! `examples/openapi_data.rs`): what validation reads of every definition (descriptions and patch
//! strategies are in [`crate::openapi`]'s overlay), each definition stored once across minor
//! versions, ~0.6 MB for 1.29 to 1.35, read only when an object of a built-in kind is met.
//! The other route, k8s-openapi's `schemars` impls through the derive's adapter, costs ~60 s of
//! compile time, covers one minor version per build (a cargo feature), and describes the Rust
//! types rather than what the server publishes; this costs nothing to build.
//!
//! Validation is structural: the object against its published schema (types, required fields,
//! enums, formats, list types, unknown fields), through the same pipeline as custom objects
//! (apiextensions-apiserver's `customresource` strategy, as kubectl-validate runs it). The
//! validation each kind has in Go (`pkg/apis/core/validation`: name rules per kind, port ranges,
//! cross-field rules) is not part of the published schema.
//!
//! What the published documents need before they validate like the API server decodes (the Go
//! types' own JSON decoding, which the schemas do not express; kubectl-validate adjusts the same
//! definitions):
//! - `$ref`, and `allOf: [{$ref}]` (how OpenAPI v3 puts a description or default beside a
//!   reference), are inlined; the referring schema's `default`, `type`, `nullable` and extensions
//!   win. A recursive reference (only `JSONSchemaProps`, inside `CustomResourceDefinition`, whose
//!   objects `crdgen` checks as CRDs) keeps its subtree unchecked.
//! - `IntOrString` is `x-kubernetes-int-or-string`, as the structural schemas of CRDs say it.
//! - Types whose Go decoding accepts `null` (`Time`, `MicroTime`, `Duration`, `Quantity`,
//!   `RawExtension`, the apiextensions `JSON` types) are nullable: `creationTimestamp: null`, as
//!   `kubectl create --dry-run -o yaml` writes it, is valid; `default: {}` beside a reference to
//!   them (an artefact of the generator) is dropped.
//! - `format: byte` also accepts the empty string, as Go's `[]byte` decoding does (an empty value
//!   of a `Secret`'s `data`).
//!
//! ```
//! use crdkit_builtin::schemas::{Catalog, KubernetesVersion};
//!
//! let catalog = Catalog::new(KubernetesVersion::parse("1.35").unwrap());
//! let schema = catalog.schema("apps/v1", "Deployment").unwrap().unwrap();
//! assert!(schema.properties.contains_key("spec"));
//! assert!(catalog.schema("example.com/v1", "CronTab").is_none());
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use crdkit_schema::Structural;
use crdkit_schema::props::JsonSchemaProps;

/// The published schemas, one definition per line (see the module docs).
const DATA: &str = include_str!("../data/kubernetes-openapi.json");

/// `x-kubernetes-int-or-string` in the structural schemas of CRDs.
const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

/// Definitions whose Go type decodes `null` (a custom `UnmarshalJSON`).
const NULLABLE: &[&str] = &[
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
    "io.k8s.apimachinery.pkg.api.resource.Quantity",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
];

/// A minor version of Kubernetes (`1.35`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubernetesVersion {
    /// `1`.
    pub major: u32,
    /// `35`.
    pub minor: u32,
}

impl fmt::Display for KubernetesVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl KubernetesVersion {
    /// Reads `1.35`, `v1.35` or `1.35.2` (the patch release does not change schemas).
    ///
    /// # Errors
    /// When the text is not such a version, or no schemas of that minor version are carried.
    pub fn parse(s: &str) -> Result<KubernetesVersion, String> {
        let t = s.strip_prefix('v').unwrap_or(s);
        let mut parts = t.split('.');
        let num = |p: Option<&str>| p.and_then(|p| p.parse::<u32>().ok());
        let (Some(major), Some(minor)) = (num(parts.next()), num(parts.next())) else {
            return Err(format!(
                "`{s}` is not a Kubernetes version (MAJOR.MINOR, e.g. 1.35)"
            ));
        };
        if parts.next().is_some_and(|p| p.parse::<u32>().is_err()) || parts.next().is_some() {
            return Err(format!(
                "`{s}` is not a Kubernetes version (MAJOR.MINOR, e.g. 1.35)"
            ));
        }
        let v = KubernetesVersion { major, minor };
        let carried = Self::carried();
        if carried.contains(&v) {
            Ok(v)
        } else {
            let list: Vec<String> = carried.iter().map(ToString::to_string).collect();
            Err(format!(
                "no schemas of Kubernetes {v} are carried (known: {})",
                list.join(", ")
            ))
        }
    }

    /// The minor versions whose schemas are carried, oldest first.
    #[must_use]
    pub fn carried() -> Vec<KubernetesVersion> {
        let mut v: Vec<KubernetesVersion> = data()
            .versions
            .keys()
            .filter_map(|k| {
                let (a, b) = k.split_once('.')?;
                Some(KubernetesVersion {
                    major: a.parse().ok()?,
                    minor: b.parse().ok()?,
                })
            })
            .collect();
        v.sort();
        v
    }

    /// The newest version carried, the default of `--kubernetes-version`.
    #[must_use]
    pub fn newest() -> KubernetesVersion {
        Self::carried()
            .last()
            .copied()
            .unwrap_or(KubernetesVersion { major: 1, minor: 0 })
    }
}

/// The data, parsed on first use.
struct Data {
    /// `"1.35"` → indices into `definitions`.
    versions: HashMap<String, Vec<usize>>,
    /// `(name, schema)`.
    definitions: Vec<(String, Value)>,
}

fn data() -> &'static Data {
    static DATA_PARSED: OnceLock<Data> = OnceLock::new();
    DATA_PARSED.get_or_init(|| {
        // The data is part of the program; a parse failure is caught by the tests.
        let mut raw: Value = serde_json::from_str(DATA).unwrap_or(Value::Null);
        let versions = raw
            .get("versions")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(v, ids)| {
                let ids = ids.as_array().into_iter().flatten();
                let ids = ids.filter_map(|i| usize::try_from(i.as_u64()?).ok());
                (v.clone(), ids.collect())
            })
            .collect();
        let definitions = match raw.get_mut("definitions").map(Value::take) {
            Some(Value::Array(defs)) => defs
                .into_iter()
                .filter_map(|d| match d {
                    Value::Array(mut pair) if pair.len() == 2 => {
                        let schema = pair.pop()?;
                        Some((pair.pop()?.as_str()?.to_owned(), schema))
                    }
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        Data {
            versions,
            definitions,
        }
    })
}

/// The carried definitions of a minor version (`"1.35"`) as `(name, schema)`: what validation
/// reads of each ([`crate::openapi`] adds the descriptions and patch strategies).
pub(crate) fn carried_definitions(
    version: &str,
) -> impl Iterator<Item = (&'static str, &'static Value)> {
    let d = data();
    d.versions
        .get(version)
        .into_iter()
        .flatten()
        .filter_map(|&i| d.definitions.get(i))
        .map(|(name, schema)| (name.as_str(), schema))
}

/// The built-in kinds of one Kubernetes minor version.
#[derive(Debug)]
pub struct Catalog {
    definitions: HashMap<&'static str, &'static Value>,
    /// `(group, version, kind)` → definition name.
    kinds: HashMap<(String, String, String), &'static str>,
}

impl Catalog {
    /// The catalog of `version` (one of [`KubernetesVersion::carried`]; empty otherwise).
    #[must_use]
    pub fn new(version: KubernetesVersion) -> Catalog {
        let d = data();
        let mut definitions = HashMap::new();
        let mut kinds = HashMap::new();
        for &i in d.versions.get(&version.to_string()).into_iter().flatten() {
            let Some((name, schema)) = d.definitions.get(i) else {
                continue;
            };
            definitions.insert(name.as_str(), schema);
            let gvks = schema
                .get("x-kubernetes-group-version-kind")
                .and_then(Value::as_array);
            for gvk in gvks.into_iter().flatten() {
                let s = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                // `DeleteOptions`, `WatchEvent` and friends name every group version; a kind
                // named by two definitions keeps the first in name order (none in the data).
                kinds
                    .entry((s("group"), s("version"), s("kind")))
                    .and_modify(|n: &mut &'static str| {
                        if name.as_str() < *n {
                            *n = name.as_str();
                        }
                    })
                    .or_insert(name.as_str());
            }
        }
        Catalog { definitions, kinds }
    }

    /// Whether `apiVersion`/`kind` is a built-in kind of this version.
    #[must_use]
    pub fn has(&self, api_version: &str, kind: &str) -> bool {
        self.definition_of(api_version, kind).is_some()
    }

    /// Every `(group, version, kind)` of this version that has a schema, in no particular order.
    pub fn kinds(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.kinds
            .keys()
            .map(|(g, v, k)| (g.as_str(), v.as_str(), k.as_str()))
    }

    fn definition_of(&self, api_version: &str, kind: &str) -> Option<&'static str> {
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        self.kinds
            .get(&(group.to_owned(), version.to_owned(), kind.to_owned()))
            .copied()
    }

    /// The structural schema of `apiVersion`/`kind`, references inlined; `None` when the kind is
    /// not built in.
    ///
    /// # Errors
    /// When the published schema does not convert (a broken data file).
    #[must_use]
    pub fn schema(&self, api_version: &str, kind: &str) -> Option<Result<Structural, String>> {
        let name = self.definition_of(api_version, kind)?;
        let root = self.definitions.get(name)?;
        let mut stack = vec![name];
        let mut resolved = self.resolve(root, &mut stack);
        if let Value::Object(m) = &mut resolved {
            m.remove("x-kubernetes-group-version-kind");
        }
        Some(
            serde_json::from_value::<JsonSchemaProps>(resolved)
                .map_err(|e| format!("the schema of {kind} does not decode: {e}"))
                .and_then(|p| {
                    Structural::from_props(&p)
                        .map_err(|e| format!("the schema of {kind} does not convert: {e}"))
                }),
        )
    }

    /// `schema` with every reference inlined; `stack` holds the definitions being inlined.
    fn resolve(&self, schema: &Value, stack: &mut Vec<&'static str>) -> Value {
        let Value::Object(map) = schema else {
            return schema.clone();
        };
        if let Some(name) = reference(map) {
            return match self.definitions.get_key_value(name) {
                Some((&name, _)) => self.inline(map, name, stack),
                // A dangling reference (none in the data): anything goes there.
                None => json!({"x-kubernetes-preserve-unknown-fields": true}),
            };
        }
        let mut out = Map::new();
        for (k, v) in map {
            let v = match k.as_str() {
                "properties" => Value::Object(
                    v.as_object()
                        .into_iter()
                        .flatten()
                        .map(|(p, s)| (p.clone(), self.resolve(s, stack)))
                        .collect(),
                ),
                "items" | "not" => self.resolve(v, stack),
                "additionalProperties" if v.is_object() => self.resolve(v, stack),
                "allOf" | "anyOf" | "oneOf" => Value::Array(
                    v.as_array()
                        .into_iter()
                        .flatten()
                        .map(|s| self.resolve(s, stack))
                        .collect(),
                ),
                _ => v.clone(),
            };
            out.insert(k.clone(), v);
        }
        accept_empty_bytes(&mut out);
        Value::Object(out)
    }

    /// The definition `name`, in place of `at` (which refers to it).
    fn inline(
        &self,
        at: &Map<String, Value>,
        name: &'static str,
        stack: &mut Vec<&'static str>,
    ) -> Value {
        let special = name == INT_OR_STRING || NULLABLE.contains(&name);
        let mut out = if name == INT_OR_STRING {
            json!({"x-kubernetes-int-or-string": true})
        } else if stack.contains(&name) {
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
        } else if let Some(def) = self.definitions.get(name) {
            stack.push(name);
            let v = self.resolve(def, stack);
            stack.pop();
            v
        } else {
            Value::Null
        };
        let Value::Object(out_map) = &mut out else {
            return out;
        };
        out_map.remove("x-kubernetes-group-version-kind");
        if NULLABLE.contains(&name) {
            out_map.insert("nullable".to_owned(), Value::Bool(true));
        }
        for (k, v) in at {
            match k.as_str() {
                "$ref" => {}
                // The `allOf` that held the reference.
                "allOf" if !at.contains_key("$ref") => {}
                "default" if special && v.as_object().is_some_and(Map::is_empty) => {}
                "nullable" => {
                    if v.as_bool() == Some(true) {
                        out_map.insert(k.clone(), v.clone());
                    }
                }
                _ => {
                    out_map.insert(k.clone(), v.clone());
                }
            }
        }
        out
    }
}

/// The definition a schema refers to: `$ref`, or `allOf` holding a single `$ref`.
fn reference(map: &Map<String, Value>) -> Option<&str> {
    let r = match (map.get("$ref"), map.get("allOf")) {
        (Some(r), _) => r,
        (None, Some(Value::Array(all))) if all.len() == 1 => all[0].get("$ref")?,
        _ => return None,
    };
    r.as_str()?.rsplit('/').next()
}

/// `type: string, format: byte` also accepts `""`: the format moves into
/// `allOf: [{anyOf: [{format: byte}, {maxLength: 0}]}]`.
fn accept_empty_bytes(map: &mut Map<String, Value>) {
    if map.get("format").and_then(Value::as_str) != Some("byte")
        || map.get("type").and_then(Value::as_str) != Some("string")
    {
        return;
    }
    map.remove("format");
    let branch = json!({"anyOf": [{"format": "byte"}, {"maxLength": 0}]});
    match map.get_mut("allOf") {
        Some(Value::Array(all)) => all.push(branch),
        _ => {
            map.insert("allOf".to_owned(), json!([branch]));
        }
    }
}
