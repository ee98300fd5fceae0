//! The OpenAPI Kubernetes 1.35 publishes for its built-in kinds, with descriptions (which
//! `kubectl explain` prints) and patch strategies and merge keys (which strategic merge patch
//! reads): the `components.schemas` of each group-version's v3 document
//! (`/openapi/v3/apis/<group>/<version>`) and the `definitions` of `/openapi/v2`.
//!
//! How the data is made (`examples/openapi_data.rs`, from upstream files kept outside git):
//! - the structure of every definition (types, formats, references, `required`, list types, map
//!   keys, defaults, enums, group-version-kinds) is the API server's own v3 documents of 1.35
//!   (`api/openapi-spec/v3/*.json`), as [`crate::schemas`] carries them for validation;
//! - the words (descriptions, `x-kubernetes-patch-strategy`, `-patch-merge-key`, `-unions`) are
//!   those of the published v2 document of v1.35.4 (`api/openapi-spec/swagger.json`), put back
//!   at the same places: the two are generated from the same Go definitions, and the generator
//!   checks that every v2 definition is what [`v2_definition`] makes of the grafted v3 one;
//! - which definitions a group-version's document holds: the definitions its paths refer to in
//!   `swagger.json` (kinds, lists, `DeleteOptions`, `Status`, `WatchEvent`, `Patch`,
//!   `APIResourceList`, subresource kinds such as `autoscaling/v1` `Scale`), and everything
//!   those refer to.
//!
//! What differs from the real documents: the paths are not carried (a server builds them from
//! [`crate::resources`] with the same route builder as for CRDs), and a patch release's
//! descriptions are v1.35.4's.
//!
//! Everything is lazy: a definition's words are parsed when the first document that needs them
//! is built, and each document once.
//!
//! ```
//! use crdkit_builtin::openapi;
//!
//! let apps = openapi::components("apps", "v1").unwrap();
//! let containers = &apps["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
//! assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
//! assert!(containers["description"].as_str().unwrap().starts_with("List of containers"));
//! assert!(apps.contains_key("io.k8s.api.autoscaling.v1.Scale"));
//!
//! let v2 = openapi::definitions_v2();
//! assert_eq!(
//!     v2["io.k8s.api.apps.v1.Deployment"]["properties"]["metadata"]["$ref"],
//!     "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
//! );
//! ```

mod overlay;
mod v2;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::resources;

pub use v2::definition as v2_definition;

/// The minor version whose documents these are.
pub const KUBERNETES_VERSION: &str = "1.35";

/// `#/components/schemas/` of v3 references.
const V3_PREFIX: &str = "#/components/schemas/";

/// The structure of every 1.35 definition, by name.
fn structure() -> &'static HashMap<&'static str, &'static Value> {
    static STRUCTURE: OnceLock<HashMap<&'static str, &'static Value>> = OnceLock::new();
    STRUCTURE.get_or_init(|| crate::schemas::carried_definitions(KUBERNETES_VERSION).collect())
}

/// The release the words were taken from (`1.35.4`).
#[must_use]
pub fn release() -> &'static str {
    overlay::overlay().header["kubernetes"]
        .as_str()
        .unwrap_or(KUBERNETES_VERSION)
}

/// The definition `name` in its v3 form, with its descriptions; `None` when 1.35 publishes no
/// such definition.
#[must_use]
pub fn definition(name: &str) -> Option<Value> {
    let o = overlay::overlay();
    match structure().get(name) {
        Some(s) => Some(overlay::graft(s, o.words(name).as_ref())),
        // Discovery and version kinds are only in v2 (`/apis`, `/version` are not in a group).
        None => o.header["v2Only"].get(name).cloned(),
    }
}

/// The group-versions that have a document (every one 1.35 can serve, alpha and beta ones
/// included; [`resources`] says which are on by default), as `(group, version)`.
#[must_use]
pub fn group_versions() -> Vec<(&'static str, &'static str)> {
    roots()
        .keys()
        .filter_map(|gv| {
            if gv.is_empty() {
                None
            } else {
                Some(gv.rsplit_once('/').unwrap_or(("", gv.as_str())))
            }
        })
        .collect()
}

/// `apps/v1` → the definitions its paths refer to; `""` for the paths outside group-versions
/// (`/api/`, `/apis/`, `/version/`).
fn roots() -> &'static BTreeMap<String, Vec<String>> {
    static ROOTS: OnceLock<BTreeMap<String, Vec<String>>> = OnceLock::new();
    ROOTS.get_or_init(|| {
        let header = &overlay::overlay().header;
        let roots = header["roots"].as_object().into_iter().flatten();
        roots
            .map(|(gv, names)| {
                let names = names.as_array().into_iter().flatten();
                let names = names.filter_map(Value::as_str).map(str::to_owned);
                (gv.clone(), names.collect())
            })
            .collect()
    })
}

fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// The definitions `from` refers to, and those they refer to, with their words.
fn closure<'a>(from: impl IntoIterator<Item = &'a str>) -> Map<String, Value> {
    let mut out = Map::new();
    let mut todo: Vec<String> = from.into_iter().map(str::to_owned).collect();
    while let Some(name) = todo.pop() {
        if out.contains_key(&name) {
            continue;
        }
        let Some(schema) = definition(&name) else {
            continue;
        };
        let mut refs = BTreeSet::new();
        references(&schema, &mut refs);
        todo.extend(refs.into_iter().filter(|r| !out.contains_key(r)));
        out.insert(name, schema);
    }
    out
}

fn references(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => {
                        if let Some(name) = r.strip_prefix(V3_PREFIX) {
                            out.insert(name.to_owned());
                        }
                    }
                    // A property named `$ref` (in `JSONSchemaProps`) is a schema, not a reference.
                    _ => references(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}

/// The `components.schemas` of the v3 document of `group`/`version`, built on first use;
/// `None` for a group-version 1.35 does not have.
#[must_use]
pub fn components(group: &str, version: &str) -> Option<&'static Map<String, Value>> {
    static DOCUMENTS: OnceLock<HashMap<String, OnceLock<Map<String, Value>>>> = OnceLock::new();
    let documents = DOCUMENTS.get_or_init(|| {
        let gvs = roots().keys().filter(|gv| !gv.is_empty());
        gvs.map(|gv| (gv.clone(), OnceLock::new())).collect()
    });
    let gv = api_version(group, version);
    let cell = documents.get(&gv)?;
    Some(cell.get_or_init(|| closure(roots()[&gv].iter().map(String::as_str))))
}

/// The `definitions` of `/openapi/v2` for the group-versions served by default
/// ([`resources::groups`]) and the paths outside them, in v2 form, built on first use.
#[must_use]
pub fn definitions_v2() -> &'static Map<String, Value> {
    static V2: OnceLock<Map<String, Value>> = OnceLock::new();
    V2.get_or_init(|| {
        let served = resources::groups()
            .iter()
            .flat_map(|g| g.versions.iter().map(|v| api_version(g.name, v)));
        let mut from: Vec<&str> = Vec::new();
        for gv in served.chain([String::new()]) {
            if let Some(names) = roots().get(&gv) {
                from.extend(names.iter().map(String::as_str));
            }
        }
        closure(from)
            .into_iter()
            .map(|(name, schema)| {
                let v2 = v2::definition(&name, &schema);
                (name, v2)
            })
            .collect()
    })
}

/// The name of the definition of `group`/`version` `kind` (`io.k8s.api.apps.v1.Deployment`),
/// found by its `x-kubernetes-group-version-kind`.
#[must_use]
pub fn definition_name(group: &str, version: &str, kind: &str) -> Option<&'static str> {
    static BY_GVK: OnceLock<HashMap<(String, String, String), &'static str>> = OnceLock::new();
    let by_gvk = BY_GVK.get_or_init(|| {
        let mut out = HashMap::new();
        for (name, schema) in structure() {
            let gvks = schema.get("x-kubernetes-group-version-kind");
            let gvks = gvks.and_then(Value::as_array).into_iter().flatten();
            for gvk in gvks {
                let s = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                let key = (s("group"), s("version"), s("kind"));
                // `DeleteOptions` and `WatchEvent` name every group-version; kinds name one.
                let entry = out.entry(key).or_insert(*name);
                if name < entry {
                    *entry = name;
                }
            }
        }
        out
    });
    by_gvk
        .get(&(group.to_owned(), version.to_owned(), kind.to_owned()))
        .copied()
}

/// The names of the definitions that have words (for the generator's checks).
#[doc(hidden)]
#[must_use]
pub fn names_with_words() -> Vec<&'static str> {
    let mut names: Vec<&str> = overlay::overlay().names().collect();
    names.sort_unstable();
    names
}

/// The structure of a definition, without words (for the generator's checks).
#[doc(hidden)]
#[must_use]
pub fn structure_of(name: &str) -> Option<&'static Value> {
    structure().get(name).copied()
}
