//! Discovery: aggregated (`apidiscovery.k8s.io/v2`, chosen by the `Accept` header and answered
//! with its exact `Content-Type`) and the legacy documents (`APIVersions`, `APIGroupList`,
//! `APIGroup`, `APIResourceList`).
//!
//! Mirrors apiserver `pkg/endpoints/discovery/aggregated` (the document shapes, `freshness`,
//! subresources with their `responseKind`) and `discovery/{root,group,version}.go`, and
//! apiextensions-apiserver `pkg/apiserver/customresource_discovery_controller.go` (CRDs listed
//! once established, versions by priority, the preferred version first, groups of CRDs after
//! the built-in ones).

use std::collections::BTreeMap;
use std::sync::Arc;

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

/// One served resource of a group-version.
struct Served {
    info: ResourceInfo,
    subresources: Subresources,
}

/// A group and its versions (highest priority first) with their resources.
type Group = (String, Vec<(String, Vec<Served>)>);

/// Every group with its versions (highest priority first) and their resources.
fn groups(api: &Api) -> Vec<Group> {
    let builtin = |s: &dyn Strategy| Served {
        info: s.info().clone(),
        subresources: s.subresources(),
    };
    let mut out = vec![
        (
            String::new(),
            vec![("v1".to_owned(), vec![builtin(&*api.namespaces)])],
        ),
        (
            "apiextensions.k8s.io".to_owned(),
            vec![("v1".to_owned(), vec![builtin(&*api.crds)])],
        ),
    ];
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
                .push(Served {
                    info: entry.info(&v),
                    subresources: entry.subresources(&v),
                });
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
    let mut subs = Vec::new();
    if s.subresources.status {
        subs.push(json!({"subresource": "status", "responseKind": gvk(&i.group, &i.version, &i.kind), "verbs": SUB_VERBS}));
    }
    if s.subresources.scale.is_some() {
        subs.push(json!({"subresource": "scale", "responseKind": gvk("autoscaling", "v1", "Scale"), "verbs": SUB_VERBS}));
    }
    let mut r = json!({
        "resource": i.resource,
        "responseKind": gvk(&i.group, &i.version, &i.kind),
        "scope": if i.namespaced { "Namespaced" } else { "Cluster" },
        "singularResource": i.singular,
        "verbs": VERBS,
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
            "kind": i.kind, "verbs": VERBS});
        if !i.short_names.is_empty() {
            r["shortNames"] = json!(i.short_names);
        }
        if !i.categories.is_empty() {
            r["categories"] = json!(i.categories);
        }
        list.push(r);
        if s.subresources.status {
            list.push(
                json!({"name": format!("{}/status", i.resource), "singularName": "",
                "namespaced": i.namespaced, "kind": i.kind, "verbs": SUB_VERBS}),
            );
        }
        if s.subresources.scale.is_some() {
            list.push(json!({"name": format!("{}/scale", i.resource), "singularName": "",
                "namespaced": i.namespaced, "group": "autoscaling", "version": "v1", "kind": "Scale",
                "verbs": SUB_VERBS}));
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
