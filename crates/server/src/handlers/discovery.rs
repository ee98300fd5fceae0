//! Discovery: aggregated (`apidiscovery.k8s.io/v2`, chosen by the `Accept` header and answered
//! with its exact `Content-Type`) and the legacy documents (`APIVersions`, `APIGroupList`,
//! `APIGroup`, `APIResourceList`).
//!
//! Mirrors apiserver `pkg/endpoints/discovery/aggregated` (the document shapes, `freshness`,
//! subresources with their `responseKind`), `discovery/{root,group,version}.go` and
//! `storageversionhash.go`, and apiextensions-apiserver
//! `pkg/apiserver/customresource_discovery_controller.go` (CRDs listed once established,
//! versions by priority, the preferred version first, groups of CRDs after the built-in ones).
//! The built-in groups, versions and resources are crdkit-builtin's catalog, in
//! kube-aggregator's order; every resource of it is listed, served or not (as on a cluster,
//! where `pods/log` needs a kubelet).

use std::collections::BTreeMap;
use std::sync::Arc;

use crdkit_builtin::resources;
use serde_json::{Value, json};

use crate::api::Api;
use crate::http::negotiate::{self, Output};
use crate::http::response::{self, Resp, content_type};
use crate::http::route::Route;
use crate::http::status::{ApiError, ApiResult};
use crate::registry::{ResourceInfo, Strategy, Subresources, version};

const VERBS: &[&str] = &[
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];
const SUB_VERBS: &[&str] = &["get", "patch", "update"];

/// A subresource of a served resource.
struct Sub {
    name: String,
    /// Group, version and kind of what it reads and writes.
    gvk: (String, String, String),
    verbs: Vec<&'static str>,
}

/// One served resource of a group-version.
struct Served {
    info: ResourceInfo,
    verbs: Vec<&'static str>,
    storage_hash: Option<String>,
    subresources: Vec<Sub>,
}

impl Served {
    /// A resource of a CRD, or of a strategy of this crate.
    fn of(info: ResourceInfo, subresources: &Subresources) -> Served {
        let mut subs = Vec::new();
        let own = (info.group.clone(), info.version.clone(), info.kind.clone());
        if subresources.status {
            subs.push(Sub {
                name: "status".to_owned(),
                gvk: own.clone(),
                verbs: SUB_VERBS.to_vec(),
            });
        }
        if subresources.scale.is_some() {
            subs.push(Sub {
                name: "scale".to_owned(),
                gvk: (
                    "autoscaling".to_owned(),
                    "v1".to_owned(),
                    "Scale".to_owned(),
                ),
                verbs: SUB_VERBS.to_vec(),
            });
        }
        Served {
            info,
            verbs: VERBS.to_vec(),
            storage_hash: None,
            subresources: subs,
        }
    }

    /// A resource of the built-in catalog.
    fn builtin(r: &resources::Resource, strategy: Option<&dyn Strategy>) -> Served {
        let info = match strategy {
            Some(s) => s.info().clone(),
            None => ResourceInfo {
                group: r.group.to_owned(),
                version: r.version.to_owned(),
                resource: r.name.to_owned(),
                singular: r.singular(),
                kind: r.kind.to_owned(),
                list_kind: format!("{}List", r.kind),
                namespaced: r.namespaced,
                short_names: r.short_names.iter().map(|s| (*s).to_owned()).collect(),
                categories: r.categories.iter().map(|s| (*s).to_owned()).collect(),
                prefix: String::new(),
            },
        };
        Served {
            info,
            verbs: r.verbs.to_vec(),
            storage_hash: r
                .storage
                .map(|s| storage_version_hash(s.group, s.version, s.kind)),
            subresources: r
                .subresources
                .iter()
                .map(|s| {
                    let (g, v) = s.group_version(r);
                    Sub {
                        name: s.name.to_owned(),
                        gvk: (g.to_owned(), v.to_owned(), s.kind.to_owned()),
                        verbs: s.verbs.to_vec(),
                    }
                })
                .collect(),
        }
    }
}

/// `StorageVersionHash`: the first 8 bytes of the SHA-256 of `group/version/kind`, in base64.
fn storage_version_hash(group: &str, version: &str, kind: &str) -> String {
    let d = ring::digest::digest(
        &ring::digest::SHA256,
        format!("{group}/{version}/{kind}").as_bytes(),
    );
    crdkit_apimachinery::gobase64::encode(&d.as_ref()[..8])
}

/// A group and its versions (highest priority first) with their resources.
type Group = (String, Vec<(String, Vec<Served>)>);

/// Every group with its versions (highest priority first) and their resources.
fn groups(api: &Api) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for g in resources::groups() {
        let mut versions = Vec::new();
        for v in g.versions {
            let mut res: Vec<Served> = resources::all()
                .iter()
                .filter(|r| r.group == g.name && r.version == *v)
                .map(|r| {
                    let own: Option<Arc<dyn Strategy>> = match (r.group, r.name) {
                        ("", "namespaces") => Some(Arc::clone(&api.namespaces) as _),
                        ("apiextensions.k8s.io", "customresourcedefinitions") => {
                            Some(Arc::clone(&api.crds) as _)
                        }
                        _ => None,
                    };
                    Served::builtin(r, own.as_deref())
                })
                .collect();
            res.sort_by(|a, b| a.info.resource.cmp(&b.info.resource));
            if !res.is_empty() {
                versions.push(((*v).to_owned(), res));
            }
        }
        if !versions.is_empty() {
            out.push((g.name.to_owned(), versions));
        }
    }
    let registry = api
        .registry
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut crd_groups: BTreeMap<String, BTreeMap<String, Vec<Served>>> = BTreeMap::new();
    for entry in registry.all().filter(|e| e.served()) {
        for v in entry.served_versions() {
            crd_groups
                .entry(entry.crd.spec.group.clone())
                .or_default()
                .entry(v.clone())
                .or_default()
                .push(Served::of(entry.info(&v), &entry.subresources(&v)));
        }
    }
    for (group, versions) in crd_groups {
        let mut vs: Vec<(String, Vec<Served>)> = versions.into_iter().collect();
        vs.sort_by(|a, b| version::compare(&b.0, &a.0));
        for (_, resources) in &mut vs {
            resources.sort_by(|a, b| a.info.resource.cmp(&b.info.resource));
        }
        out.push((group, vs));
    }
    out
}

fn gvk(group: &str, version: &str, kind: &str) -> Value {
    json!({"group": group, "version": version, "kind": kind})
}

fn aggregated_resource(s: &Served) -> Value {
    let i = &s.info;
    let subs: Vec<Value> = s
        .subresources
        .iter()
        .map(|sub| {
            let (g, v, k) = &sub.gvk;
            json!({"subresource": sub.name, "responseKind": gvk(g, v, k), "verbs": sub.verbs})
        })
        .collect();
    let mut r = json!({
        "resource": i.resource,
        "responseKind": gvk(&i.group, &i.version, &i.kind),
        "scope": if i.namespaced { "Namespaced" } else { "Cluster" },
        "singularResource": i.singular,
        "verbs": s.verbs,
    });
    if !i.short_names.is_empty() {
        r["shortNames"] = json!(i.short_names);
    }
    if !i.categories.is_empty() {
        r["categories"] = json!(i.categories);
    }
    if !subs.is_empty() {
        r["subresources"] = json!(subs);
    }
    r
}

fn aggregated(groups: &[Group], v: &str) -> Value {
    let items: Vec<Value> = groups
        .iter()
        .map(|(g, versions)| {
            let versions: Vec<Value> = versions
                .iter()
                .map(|(ver, res)| {
                    json!({"version": ver, "resources": res.iter().map(aggregated_resource).collect::<Vec<_>>(), "freshness": "Current"})
                })
                .collect();
            json!({"metadata": {"name": g, "creationTimestamp": null}, "versions": versions})
        })
        .collect();
    json!({"kind": "APIGroupDiscoveryList", "apiVersion": format!("apidiscovery.k8s.io/{v}"),
        "metadata": {}, "items": items})
}

fn resource_list(group: &str, version: &str, res: &[Served]) -> Value {
    let gv = if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    };
    let mut list = Vec::new();
    for s in res {
        let i = &s.info;
        let mut r = json!({"name": i.resource, "singularName": i.singular, "namespaced": i.namespaced,
            "kind": i.kind, "verbs": s.verbs});
        if !i.short_names.is_empty() {
            r["shortNames"] = json!(i.short_names);
        }
        if !i.categories.is_empty() {
            r["categories"] = json!(i.categories);
        }
        if let Some(h) = &s.storage_hash {
            r["storageVersionHash"] = json!(h);
        }
        list.push(r);
        for sub in &s.subresources {
            let (g, v, k) = &sub.gvk;
            let mut e = json!({"name": format!("{}/{}", i.resource, sub.name), "singularName": "",
                "namespaced": i.namespaced, "kind": k, "verbs": sub.verbs});
            if *g != i.group || *v != i.version {
                e["group"] = json!(g);
                e["version"] = json!(v);
            }
            list.push(e);
        }
    }
    json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": list})
}

fn api_group(group: &str, versions: &[(String, Vec<Served>)]) -> Value {
    let vs: Vec<Value> = versions
        .iter()
        .map(|(v, _)| json!({"groupVersion": format!("{group}/{v}"), "version": v}))
        .collect();
    let preferred = vs.first().cloned().unwrap_or(Value::Null);
    json!({"name": group, "versions": vs, "preferredVersion": preferred})
}
/// Answers a discovery path.
pub(super) fn serve(api: &Arc<Api>, route: &Route, accept: Option<&str>) -> ApiResult<Resp> {
    let groups = groups(api);
    let output = negotiate::output(accept)?;
    match route {
        Route::CoreVersions | Route::Groups => {
            let core = matches!(route, Route::CoreVersions);
            let selected: Vec<Group> = groups
                .into_iter()
                .filter(|(g, _)| g.is_empty() == core)
                .collect();
            if let Output::Discovery(v) = output {
                let ct = if v == "v2" {
                    content_type::DISCOVERY_V2
                } else {
                    content_type::DISCOVERY_V2BETA1
                };
                return Ok(response::json_as(200, &aggregated(&selected, v), ct));
            }
            let body = if core {
                json!({"kind": "APIVersions", "versions": ["v1"],
                    "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": ""}]})
            } else {
                let gs: Vec<Value> = selected.iter().map(|(g, vs)| api_group(g, vs)).collect();
                json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": gs})
            };
            Ok(response::json_as(200, &body, content_type::JSON))
        }
        Route::Group(g) => {
            let (_, vs) = groups
                .iter()
                .find(|(name, _)| name == g && !name.is_empty())
                .ok_or_else(ApiError::no_such_resource)?;
            let mut body = api_group(g, vs);
            body["kind"] = json!("APIGroup");
            body["apiVersion"] = json!("v1");
            Ok(response::json_as(200, &body, content_type::JSON))
        }
        Route::GroupVersion { group, version } => {
            let (_, vs) = groups
                .iter()
                .find(|(name, _)| name == group)
                .ok_or_else(ApiError::no_such_resource)?;
            let (_, res) = vs
                .iter()
                .find(|(v, _)| v == version)
                .ok_or_else(ApiError::no_such_resource)?;
            Ok(response::json_as(
                200,
                &resource_list(group, version, res),
                content_type::JSON,
            ))
        }
        _ => Err(ApiError::no_such_resource()),
    }
}
