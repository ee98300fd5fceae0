//! `check RELEASE SWAGGER`: the committed data and the resource table against the published v2
//! document.
//!
//! - the overlay file is what `docs` writes from it;
//! - every v2 definition is what the library publishes (`openapi::v2_definition` of the grafted
//!   v3 definition): the structure, the words and the v3 → v2 rules together;
//! - every resource of a served group-version in its paths is in `resources::all()` with the
//!   same kind, scope, verbs and subresources (kinds, group-versions, verbs), and nothing else is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crdkit_builtin::{openapi, resources};

use crate::docs::{self, group_version_of};

/// A resource or subresource as the paths describe it.
#[derive(Debug, Default, PartialEq, Eq)]
struct FromPaths {
    kind: String,
    group_version: (String, String),
    namespaced: bool,
    verbs: BTreeSet<String>,
}

/// Discovery's verb for an operation (apiserver `installer.go`): a `connect` gives its HTTP
/// method's verb (`head` and `options` none).
fn verb(method: &str, action: &str) -> Option<&'static str> {
    Some(match (action, method) {
        ("get", _) | ("connect", "get") => "get",
        ("list", _) => "list",
        ("post", _) | ("connect", "post") => "create",
        ("put", _) | ("connect", "put") => "update",
        ("patch", _) | ("connect", "patch") => "patch",
        ("delete", _) | ("connect", "delete") => "delete",
        ("deletecollection", _) => "deletecollection",
        ("watch" | "watchlist", _) => "watch",
        _ => return None,
    })
}

/// `(group/version, resource, subresource)` → what the paths say, for GA group-versions.
fn from_paths(swagger: &Value) -> BTreeMap<(String, String, String), FromPaths> {
    let mut out: BTreeMap<(String, String, String), FromPaths> = BTreeMap::new();
    for (path, item) in swagger["paths"].as_object().into_iter().flatten() {
        let gv = group_version_of(path);
        let version = gv.rsplit('/').next().unwrap_or("");
        // GA versions only (`v1`, `v2`): the others are off by default.
        let ga = version
            .strip_prefix('v')
            .is_some_and(|n| n.parse::<u32>().is_ok());
        if gv.is_empty() || !ga {
            continue;
        }
        let mut segs: Vec<&str> = path
            .split('/')
            .skip(if gv.contains('/') { 4 } else { 3 })
            .collect();
        if segs.first() == Some(&"watch") {
            segs.remove(0);
        }
        let namespaced = segs.first() == Some(&"namespaces") && segs.get(1) == Some(&"{namespace}");
        if namespaced {
            segs.drain(..2);
        }
        let (resource, sub) = match segs.as_slice() {
            [r] | [r, "{name}"] if !r.is_empty() => ((*r).to_owned(), String::new()),
            [r, "{name}", s] | [r, "{name}", s, "{path}"] => ((*r).to_owned(), (*s).to_owned()),
            _ => continue,
        };
        let entry = out.entry((gv.clone(), resource, sub.clone())).or_default();
        // `/api/v1/namespaces/{name}` reads as namespaced by its shape; Namespaces are not.
        entry.namespaced |= namespaced;
        for (method, op) in item.as_object().into_iter().flatten() {
            let action = op["x-kubernetes-action"].as_str().unwrap_or("");
            if let Some(v) = verb(method, action) {
                entry.verbs.insert(v.to_owned());
            }
            let gvk = &op["x-kubernetes-group-version-kind"];
            if let Some(kind) = gvk["kind"].as_str() {
                if entry.kind.is_empty() || (action != "list" && sub.is_empty()) {
                    entry.kind = kind.to_owned();
                }
                let g = gvk["group"].as_str().unwrap_or("").to_owned();
                let v = gvk["version"].as_str().unwrap_or("").to_owned();
                entry.group_version = (g, v);
            }
        }
    }
    out
}

/// The connect subresources whose kinds k8s-pb's copy rewrites to their resource's kind.
fn connect_kind(resource: &str, sub: &str) -> Option<&'static str> {
    Some(match (resource, sub) {
        ("pods", "attach") => "PodAttachOptions",
        ("pods", "exec") => "PodExecOptions",
        ("pods", "portforward") => "PodPortForwardOptions",
        ("pods", "proxy") => "PodProxyOptions",
        ("nodes", "proxy") => "NodeProxyOptions",
        ("services", "proxy") => "ServiceProxyOptions",
        _ => return None,
    })
}

fn check_resources(swagger: &Value, problems: &mut Vec<String>) {
    let paths = from_paths(swagger);
    let mut seen = BTreeSet::new();
    for r in resources::all() {
        let gv = r.api_version();
        let key = (gv.clone(), r.name.to_owned(), String::new());
        seen.insert(key.clone());
        let Some(p) = paths.get(&key) else {
            problems.push(format!("{gv} {}: not in the paths", r.name));
            continue;
        };
        let namespaced = p.namespaced && r.name != "namespaces";
        let verbs: BTreeSet<String> = r.verbs.iter().map(|v| (*v).to_owned()).collect();
        if p.kind != r.kind || namespaced != r.namespaced || p.verbs != verbs {
            problems.push(format!("{gv} {}: the paths say {p:?}", r.name));
        }
        for s in r.subresources {
            let key = (gv.clone(), r.name.to_owned(), s.name.to_owned());
            seen.insert(key.clone());
            let Some(p) = paths.get(&key) else {
                problems.push(format!("{gv} {}/{}: not in the paths", r.name, s.name));
                continue;
            };
            let kind = connect_kind(r.name, s.name).unwrap_or(&p.kind);
            let (g, v) = s.group_version(r);
            let verbs: BTreeSet<String> = s.verbs.iter().map(|v| (*v).to_owned()).collect();
            if kind != s.kind
                || (g, v) != (p.group_version.0.as_str(), p.group_version.1.as_str())
                || p.verbs != verbs
            {
                problems.push(format!("{gv} {}/{}: the paths say {p:?}", r.name, s.name));
            }
        }
    }
    let served: BTreeSet<String> = resources::groups()
        .iter()
        .flat_map(|g| {
            g.versions.iter().map(|v| {
                if g.name.is_empty() {
                    (*v).to_owned()
                } else {
                    format!("{}/{v}", g.name)
                }
            })
        })
        .collect();
    for key in paths.keys() {
        if served.contains(&key.0) && !seen.contains(key) {
            problems.push(format!("{key:?}: in the paths, not in the table"));
        }
    }
}

/// The differences; empty when everything agrees.
pub fn run(release: &str, swagger_path: &Path, crate_dir: &Path) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    let rebuilt = docs::build(release, swagger_path, &crate_dir.join(crate::STRUCTURE))?;
    let committed =
        std::fs::read_to_string(crate_dir.join(crate::DOCS)).map_err(|e| e.to_string())?;
    if rebuilt != committed {
        problems.push(format!("{}: stale, run `docs`", crate::DOCS));
    }
    let text = std::fs::read_to_string(swagger_path).map_err(|e| e.to_string())?;
    let swagger: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut equal = 0;
    for (name, v2) in swagger["definitions"].as_object().ok_or("no definitions")? {
        match openapi::definition(name) {
            Some(v3) if openapi::v2_definition(name, &v3) == *v2 => equal += 1,
            Some(_) => problems.push(format!("{name}: its v2 form differs from swagger.json")),
            None => problems.push(format!("{name}: not published")),
        }
    }
    eprintln!("{equal} definitions equal to their v2 form in swagger.json");
    check_resources(&swagger, &mut problems);
    Ok(problems)
}
