//! Writes `crates/shape/src/k8s/generated.rs`: the `const` shapes of the k8s-openapi types that
//! CRDs embed (everything reachable from [`ROOTS`]), for each Kubernetes minor version that
//! k8s-openapi 0.29 supports, each impl behind k8s-openapi's `k8s_if_*` macros.
//!
//! ```text
//! cargo run -p crdkit-shape --example k8s_shapes -- \
//!     ~/.cargo/registry/src/*/k8s-openapi-0.29.0 crates/builtin/data/kubernetes-openapi.json \
//!     > crates/shape/src/k8s/generated.rs
//! ```
//!
//! Two sources, both generated from the OpenAPI Kubernetes publishes (Apache-2.0):
//! - k8s-openapi's sources (one module per minor version, from the release's published
//!   OpenAPI): which types and fields exist, serialized names, descriptions, types, formats and
//!   `required`;
//! - the published OpenAPI v3 documents as `crdgen validate` carries them
//!   (`crates/builtin/data`, 1.29–1.35): `x-kubernetes-list-type`, `-list-map-keys` and
//!   `-map-type` (k8s-openapi keeps one key of multi-key map lists and no struct map types) and
//!   the length and count bounds. For a minor version newer than that data, the newest version
//!   that has the definition and field gives them; a field it does not have takes k8s-openapi's
//!   merge strategy (marked in the output).
//!
//! Every difference between the two for 1.33–1.35 is printed on stderr.

mod emit;
mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use source::TypeSource;

/// Minor versions of k8s-openapi 0.29 (`v1_33` … `v1_37`).
const MINORS: std::ops::RangeInclusive<u32> = 33..=37;

/// The types CRDs embed: a pod template and everything in it, services, claims, references,
/// selectors, and the workload, job, disruption-budget, autoscaling, network-policy, ingress
/// and RBAC specs that operators' CRDs carry (prometheus-operator, Argo, Strimzi,
/// CloudNativePG, Crossplane providers).
const ROOTS: &[&str] = &[
    "api::core::v1::PodTemplateSpec",
    "api::core::v1::PodSpec",
    "api::core::v1::Container",
    "api::core::v1::EphemeralContainer",
    "api::core::v1::ResourceRequirements",
    "api::core::v1::EnvVar",
    "api::core::v1::EnvFromSource",
    "api::core::v1::Toleration",
    "api::core::v1::Affinity",
    "api::core::v1::Volume",
    "api::core::v1::VolumeMount",
    "api::core::v1::SecurityContext",
    "api::core::v1::PodSecurityContext",
    "api::core::v1::Probe",
    "api::core::v1::ServiceSpec",
    "api::core::v1::ServiceStatus",
    "api::core::v1::ServicePort",
    "api::core::v1::PersistentVolumeClaim",
    "api::core::v1::PersistentVolumeClaimSpec",
    "api::core::v1::PersistentVolumeClaimTemplate",
    "api::core::v1::ObjectReference",
    "api::core::v1::LocalObjectReference",
    "api::core::v1::TypedLocalObjectReference",
    "api::core::v1::TypedObjectReference",
    "api::core::v1::SecretReference",
    "api::core::v1::SecretKeySelector",
    "api::core::v1::ConfigMapKeySelector",
    "api::core::v1::TopologySpreadConstraint",
    "api::core::v1::NodeSelector",
    "api::core::v1::HostAlias",
    "api::core::v1::PodDNSConfig",
    "api::core::v1::Taint",
    "api::apps::v1::DeploymentSpec",
    "api::apps::v1::DeploymentStrategy",
    "api::apps::v1::StatefulSetSpec",
    "api::apps::v1::DaemonSetSpec",
    "api::batch::v1::JobSpec",
    "api::batch::v1::JobTemplateSpec",
    "api::batch::v1::CronJobSpec",
    "api::policy::v1::PodDisruptionBudgetSpec",
    "api::autoscaling::v2::HorizontalPodAutoscalerSpec",
    "api::autoscaling::v2::HorizontalPodAutoscalerBehavior",
    "api::networking::v1::NetworkPolicySpec",
    "api::networking::v1::IngressSpec",
    "api::rbac::v1::PolicyRule",
    "api::rbac::v1::Subject",
    "api::rbac::v1::RoleRef",
    "apimachinery::pkg::apis::meta::v1::LabelSelector",
    "apimachinery::pkg::apis::meta::v1::OwnerReference",
];

/// Types with hand-written shapes in `k8s/mod.rs` (or `meta.rs`): the closure stops there.
pub const HAND_WRITTEN: &[&str] = &[
    "apimachinery::pkg::util::intstr::IntOrString",
    "apimachinery::pkg::api::resource::Quantity",
    "apimachinery::pkg::apis::meta::v1::Time",
    "apimachinery::pkg::apis::meta::v1::MicroTime",
    "apimachinery::pkg::apis::meta::v1::ObjectMeta",
    "apimachinery::pkg::apis::meta::v1::Condition",
];

/// The published v3 data: definition name → schema, per minor version.
struct Published {
    by_minor: BTreeMap<u32, BTreeMap<String, Value>>,
}

impl Published {
    fn read(path: &Path) -> Result<Published, Box<dyn std::error::Error>> {
        let data: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
        let defs = data["definitions"].as_array().ok_or("no definitions")?;
        let mut by_minor = BTreeMap::new();
        for (v, ids) in data["versions"].as_object().ok_or("no versions")? {
            let minor: u32 = v.strip_prefix("1.").ok_or("version 1.N")?.parse()?;
            let mut m = BTreeMap::new();
            for id in ids.as_array().ok_or("ids")? {
                let d = &defs[usize::try_from(id.as_u64().ok_or("id")?)?];
                m.insert(d[0].as_str().ok_or("name")?.to_owned(), d[1].clone());
            }
            by_minor.insert(minor, m);
        }
        Ok(Published { by_minor })
    }

    /// The definition at `minor`, or at the newest earlier minor version that has it.
    fn definition(&self, def: &str, minor: u32) -> Option<(u32, &Value)> {
        self.by_minor
            .range(..=minor)
            .rev()
            .find_map(|(m, defs)| defs.get(def).map(|d| (*m, d)))
    }
}

/// A type's file in a k8s-openapi version module: `api::core::v1::PodSpec` → `api/core/v1/pod_spec.rs`.
fn file_of(root: &Path, minor: u32, path: &str) -> PathBuf {
    let mut parts: Vec<&str> = path.split("::").collect();
    let name = parts.pop().unwrap_or_default();
    let mut f = root.join(format!("src/v1_{minor}"));
    for p in parts {
        f.push(p);
    }
    f.push(format!("{}.rs", snake(name)));
    f
}

/// k8s-openapi's file names: `PodSpec` → `pod_spec`, `HTTPGetAction` → `http_get_action`.
fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(*c);
        }
    }
    out
}

/// One type at one minor version, with everything the emitter needs.
pub struct Resolved {
    pub path: String,
    pub source: TypeSource,
    /// Per field: the published v3 property (list and map types, bounds), when known.
    pub published: BTreeMap<String, Value>,
    /// The published definition itself (its `x-kubernetes-map-type`).
    pub published_def: Option<Value>,
    /// Fields whose list or map type comes from k8s-openapi (not in the published data).
    pub from_merge: BTreeSet<String>,
    /// `list::map` keys, resolved to serialized names.
    pub map_keys: BTreeMap<String, Vec<String>>,
    /// Required fields: as published where the published definition has the field (k8s-openapi
    /// makes non-optional Rust fields required, such as `LocalObjectReference.name`), else as
    /// k8s-openapi says.
    pub required: BTreeSet<String>,
    /// Published defaults of optional fields that are keys of a map list somewhere: the API
    /// server requires a key to be required or defaulted. Other defaults are left out.
    pub key_defaults: BTreeMap<String, Value>,
}

fn refs(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r.clone());
            }
            for v in m.values() {
                refs(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [k8s_openapi, data] = args.as_slice() else {
        return Err("arguments: K8S_OPENAPI_CRATE_DIR PUBLISHED_DATA_JSON".into());
    };
    print!("{}", generate(Path::new(k8s_openapi), Path::new(data))?);
    Ok(())
}

/// The source of `generated.rs` from k8s-openapi's crate directory and the published data;
/// the differences between the two go to stderr.
pub fn generate(root: &Path, data: &Path) -> Result<String, Box<dyn std::error::Error>> {
    let published = Published::read(data)?;
    let mut per_minor: BTreeMap<u32, Vec<Resolved>> = BTreeMap::new();
    let mut differences = 0usize;
    for minor in MINORS {
        let mut todo: Vec<String> = ROOTS.iter().map(|s| (*s).to_owned()).collect();
        let mut seen = BTreeSet::new();
        let mut types = Vec::new();
        while let Some(path) = todo.pop() {
            if !seen.insert(path.clone()) || HAND_WRITTEN.contains(&path.as_str()) {
                continue;
            }
            let file = file_of(root, minor, &path);
            let Ok(text) = std::fs::read_to_string(&file) else {
                // A type of a newer version (the root list is the union).
                if ROOTS.contains(&path.as_str()) {
                    continue;
                }
                return Err(
                    format!("{path} ({}) is referenced but missing", file.display()).into(),
                );
            };
            let source = source::parse(&text)
                .map_err(|e| format!("{}: {e}", file.display()))?
                .ok_or_else(|| {
                    format!("{} is not a struct k8s-openapi describes", file.display())
                })?;
            let mut rs = Vec::new();
            refs(&source.schema, &mut rs);
            todo.extend(rs);
            let mut map_keys = BTreeMap::new();
            for (field, m) in &source.merge {
                if let source::Merge::ListMap(keys) = m {
                    let item = item_ref(&source.schema, field)
                        .ok_or("list::map over a list without item type")?;
                    let item_text = std::fs::read_to_string(file_of(root, minor, &item))?;
                    map_keys.insert(field.clone(), source::resolve_keys(keys, &item_text));
                }
            }
            let (published_def, published_props, from_merge, required, diffs) =
                match_published(&published, &source, minor, &map_keys, &path);
            differences += diffs;
            types.push(Resolved {
                path,
                source,
                published: published_props,
                published_def,
                from_merge,
                map_keys,
                required,
                key_defaults: BTreeMap::new(),
            });
        }
        types.sort_by(|a, b| a.path.cmp(&b.path));
        key_defaults(&mut types);
        per_minor.insert(minor, types);
    }
    eprintln!("{differences} differences between k8s-openapi and the published v3 data");
    Ok(emit::file(&per_minor, MINORS))
}

/// Fills [`Resolved::key_defaults`]: the keys of every map list, on the item types.
fn key_defaults(types: &mut [Resolved]) {
    let mut wanted: Vec<(String, String)> = Vec::new();
    for t in types.iter() {
        for (field, publ) in &t.published {
            if publ["x-kubernetes-list-type"] != "map" {
                continue;
            }
            let Some(item) = item_ref(&t.source.schema, field) else {
                continue;
            };
            for k in publ["x-kubernetes-list-map-keys"]
                .as_array()
                .into_iter()
                .flatten()
            {
                wanted.push((item.clone(), k.as_str().unwrap_or_default().to_owned()));
            }
        }
    }
    for (item, key) in wanted {
        let Some(t) = types.iter_mut().find(|t| t.path == item) else {
            continue;
        };
        if t.required.contains(&key) {
            continue;
        }
        if let Some(d) = t.published.get(&key).and_then(|p| p.get("default")) {
            t.key_defaults.insert(key, d.clone());
        } else {
            eprintln!("{item}.{key}: a map-list key with neither `required` nor a default");
        }
    }
}

/// The Rust path of a list field's items.
fn item_ref(schema: &Value, field: &str) -> Option<String> {
    schema["properties"][field]["items"]["$ref"]
        .as_str()
        .map(str::to_owned)
}

type Matched = (
    Option<Value>,
    BTreeMap<String, Value>,
    BTreeSet<String>,
    BTreeSet<String>,
    usize,
);

/// The published properties of a type's fields, and how k8s-openapi differs from them.
fn match_published(
    published: &Published,
    source: &TypeSource,
    minor: u32,
    map_keys: &BTreeMap<String, Vec<String>>,
    path: &str,
) -> Matched {
    let mut props = BTreeMap::new();
    let mut from_merge = BTreeSet::new();
    let mut required = BTreeSet::new();
    let src_required = strs(&source.schema["required"]);
    let mut diffs = 0;
    let exact = published.by_minor.contains_key(&minor);
    let def = published.definition(&source.definition, minor);
    let fields: Vec<&String> = source.schema["properties"]
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    for f in fields {
        // The newest published definition that has this field.
        let found = published
            .by_minor
            .range(..=minor)
            .rev()
            .find_map(|(_, defs)| {
                let d = defs.get(&source.definition)?;
                Some((d, d["properties"].get(f.as_str())?))
            });
        let p = found.map(|(_, p)| p);
        let req = match found {
            Some((d, _)) => strs(&d["required"]).contains(f.as_str()),
            None => src_required.contains(f.as_str()),
        };
        if req {
            required.insert(f.clone());
        }
        match p {
            Some(p) => {
                props.insert(f.clone(), p.clone());
                if exact {
                    diffs += compare(
                        path,
                        f,
                        &source.schema["properties"][f],
                        p,
                        source.merge.get(f),
                        map_keys.get(f),
                        minor,
                    );
                }
            }
            None => {
                if exact {
                    eprintln!("1.{minor} {path}.{f}: not in the published data");
                    diffs += 1;
                }
                if source.merge.contains_key(f) {
                    from_merge.insert(f.clone());
                }
            }
        }
    }
    if exact {
        let req_src: BTreeSet<&str> = strs(&source.schema["required"]);
        let req_pub: BTreeSet<&str> = def.map(|(_, d)| strs(&d["required"])).unwrap_or_default();
        if req_src != req_pub {
            eprintln!(
                "1.{minor} {path}: required {req_src:?} (k8s-openapi) vs {req_pub:?} (published)"
            );
            diffs += 1;
        }
    }
    (
        def.map(|(_, d)| d.clone()),
        props,
        from_merge,
        required,
        diffs,
    )
}

fn strs(v: &Value) -> BTreeSet<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn compare(
    path: &str,
    field: &str,
    src: &Value,
    publ: &Value,
    merge: Option<&source::Merge>,
    keys: Option<&Vec<String>>,
    minor: u32,
) -> usize {
    use source::Merge;
    let mut n = 0;
    let mut report = |what: String| {
        eprintln!("1.{minor} {path}.{field}: {what}");
        n += 1;
    };
    let list_type = publ["x-kubernetes-list-type"].as_str();
    let want = match (merge, keys) {
        (Some(Merge::ListAtomic), _) => Some("atomic"),
        (Some(Merge::ListSet), _) => Some("set"),
        (Some(Merge::ListMap(_)), _) => Some("map"),
        _ => None,
    };
    if list_type != want {
        report(format!(
            "list type {want:?} (k8s-openapi) vs {list_type:?} (published)"
        ));
    }
    let pub_keys: Vec<&str> = publ["x-kubernetes-list-map-keys"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let src_keys: Vec<&str> = keys
        .map(|k| k.iter().map(String::as_str).collect())
        .unwrap_or_default();
    if pub_keys != src_keys {
        report(format!(
            "list map keys {src_keys:?} (k8s-openapi) vs {pub_keys:?} (published)"
        ));
    }
    if src["format"] != publ["format"] && publ.get("allOf").is_none() {
        report(format!("format {} vs {}", src["format"], publ["format"]));
    }
    n
}
