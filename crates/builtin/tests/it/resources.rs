//! The resource table: consistent with itself, with the published schemas and with what a
//! 1.35 cluster shows (`kubectl api-resources`).

use std::collections::{BTreeMap, BTreeSet};

use crdkit_builtin::names::NameRule;
use crdkit_builtin::openapi;
use crdkit_builtin::resources::{self, Resource};

fn find(group: &str, version: &str, name: &str) -> &'static Resource {
    resources::find(group, version, name).unwrap_or_else(|| panic!("{group}/{version} {name}"))
}

#[test]
fn every_group_version_is_served_and_every_resource_is_in_one() {
    let groups: BTreeSet<(&str, &str)> = resources::groups()
        .iter()
        .flat_map(|g| g.versions.iter().map(move |v| (g.name, *v)))
        .collect();
    let used: BTreeSet<(&str, &str)> = resources::all()
        .iter()
        .map(|r| (r.group, r.version))
        .collect();
    assert_eq!(groups, used);
    // No beta or alpha version is on by default in 1.35 (instance.go).
    assert!(
        used.iter()
            .all(|(_, v)| !v.contains("alpha") && !v.contains("beta"))
    );
    assert_eq!(resources::all().len(), 66);
    // Sorted as discovery lists them.
    let keys: Vec<_> = resources::all()
        .iter()
        .map(|r| (r.group, r.version, r.name))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(keys, sorted);
}

#[test]
fn groups_in_discovery_order_with_preferred_versions() {
    let names: Vec<&str> = resources::groups().iter().map(|g| g.name).collect();
    assert_eq!(
        names[..6],
        [
            "",
            "apiregistration.k8s.io",
            "apps",
            "events.k8s.io",
            "authentication.k8s.io",
            "authorization.k8s.io"
        ]
    );
    let priorities: Vec<u32> = resources::groups().iter().map(|g| g.priority).collect();
    assert!(
        priorities.windows(2).all(|w| w[0] >= w[1]),
        "{priorities:?}"
    );
    assert_eq!(resources::preferred_version("autoscaling"), Some("v2"));
    assert_eq!(resources::preferred_version(""), Some("v1"));
    assert_eq!(resources::preferred_version("extensions"), None);
}

#[test]
fn kinds_have_their_published_definitions() {
    for r in resources::all() {
        let name = openapi::definition_name(r.group, r.version, r.kind);
        assert!(name.is_some(), "{} {}", r.api_version(), r.kind);
        for s in r.subresources {
            let (g, v) = s.group_version(r);
            assert!(
                openapi::definition_name(g, v, s.kind).is_some() || s.kind.ends_with("Options"),
                "{}/{} {g}/{v} {}",
                r.name,
                s.name,
                s.kind
            );
        }
        if let Some(storage) = r.storage {
            assert!(
                resources::by_kind(storage.group, storage.version, storage.kind).is_some(),
                "{storage:?}"
            );
        }
    }
}

/// `kubectl api-resources` of a 1.35 cluster: name, short names, namespaced, kind.
#[test]
fn short_names_and_scopes_as_kubectl_lists_them() {
    let cases = [
        ("", "v1", "configmaps", &["cm"][..], true, "ConfigMap"),
        ("", "v1", "endpoints", &["ep"], true, "Endpoints"),
        ("", "v1", "events", &["ev"], true, "Event"),
        ("", "v1", "limitranges", &["limits"], true, "LimitRange"),
        ("", "v1", "namespaces", &["ns"], false, "Namespace"),
        ("", "v1", "nodes", &["no"], false, "Node"),
        (
            "",
            "v1",
            "persistentvolumeclaims",
            &["pvc"],
            true,
            "PersistentVolumeClaim",
        ),
        (
            "",
            "v1",
            "persistentvolumes",
            &["pv"],
            false,
            "PersistentVolume",
        ),
        ("", "v1", "pods", &["po"], true, "Pod"),
        (
            "",
            "v1",
            "replicationcontrollers",
            &["rc"],
            true,
            "ReplicationController",
        ),
        (
            "",
            "v1",
            "resourcequotas",
            &["quota"],
            true,
            "ResourceQuota",
        ),
        ("", "v1", "secrets", &[], true, "Secret"),
        ("", "v1", "serviceaccounts", &["sa"], true, "ServiceAccount"),
        ("", "v1", "services", &["svc"], true, "Service"),
        (
            "apiextensions.k8s.io",
            "v1",
            "customresourcedefinitions",
            &["crd", "crds"],
            false,
            "CustomResourceDefinition",
        ),
        ("apps", "v1", "daemonsets", &["ds"], true, "DaemonSet"),
        ("apps", "v1", "deployments", &["deploy"], true, "Deployment"),
        ("apps", "v1", "replicasets", &["rs"], true, "ReplicaSet"),
        ("apps", "v1", "statefulsets", &["sts"], true, "StatefulSet"),
        (
            "autoscaling",
            "v2",
            "horizontalpodautoscalers",
            &["hpa"],
            true,
            "HorizontalPodAutoscaler",
        ),
        ("batch", "v1", "cronjobs", &["cj"], true, "CronJob"),
        ("batch", "v1", "jobs", &[], true, "Job"),
        (
            "certificates.k8s.io",
            "v1",
            "certificatesigningrequests",
            &["csr"],
            false,
            "CertificateSigningRequest",
        ),
        ("coordination.k8s.io", "v1", "leases", &[], true, "Lease"),
        ("events.k8s.io", "v1", "events", &["ev"], true, "Event"),
        (
            "networking.k8s.io",
            "v1",
            "ingresses",
            &["ing"],
            true,
            "Ingress",
        ),
        (
            "networking.k8s.io",
            "v1",
            "networkpolicies",
            &["netpol"],
            true,
            "NetworkPolicy",
        ),
        (
            "policy",
            "v1",
            "poddisruptionbudgets",
            &["pdb"],
            true,
            "PodDisruptionBudget",
        ),
        (
            "rbac.authorization.k8s.io",
            "v1",
            "clusterroles",
            &[],
            false,
            "ClusterRole",
        ),
        (
            "rbac.authorization.k8s.io",
            "v1",
            "rolebindings",
            &[],
            true,
            "RoleBinding",
        ),
        (
            "scheduling.k8s.io",
            "v1",
            "priorityclasses",
            &["pc"],
            false,
            "PriorityClass",
        ),
        (
            "storage.k8s.io",
            "v1",
            "storageclasses",
            &["sc"],
            false,
            "StorageClass",
        ),
        (
            "authorization.k8s.io",
            "v1",
            "selfsubjectaccessreviews",
            &[],
            false,
            "SelfSubjectAccessReview",
        ),
        (
            "authorization.k8s.io",
            "v1",
            "localsubjectaccessreviews",
            &[],
            true,
            "LocalSubjectAccessReview",
        ),
    ];
    for (group, version, name, short, namespaced, kind) in cases {
        let r = find(group, version, name);
        assert_eq!(
            (r.short_names, r.namespaced, r.kind),
            (short, namespaced, kind),
            "{name}"
        );
        assert_eq!(r.singular(), kind.to_ascii_lowercase());
    }
}

#[test]
fn verbs_and_subresources() {
    let pods = find("", "v1", "pods");
    assert_eq!(
        pods.verbs,
        [
            "create",
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "update",
            "watch"
        ]
    );
    let subs: Vec<(&str, &str, &[&str], bool)> = pods
        .subresources
        .iter()
        .map(|s| (s.name, s.kind, s.verbs, s.served))
        .collect();
    assert_eq!(
        subs[4],
        ("exec", "PodExecOptions", &["create", "get"][..], false)
    );
    assert_eq!(subs[5], ("log", "Pod", &["get"][..], false));
    assert_eq!(
        subs[9],
        ("status", "Pod", &["get", "patch", "update"][..], true)
    );
    let token = find("", "v1", "serviceaccounts")
        .subresource("token")
        .unwrap();
    assert_eq!((token.kind, token.verbs), ("TokenRequest", &["create"][..]));
    assert_eq!(
        token.group_version(find("", "v1", "serviceaccounts")),
        ("authentication.k8s.io", "v1")
    );
    for name in ["deployments", "replicasets", "statefulsets"] {
        let r = find("apps", "v1", name);
        let scale = r.subresource("scale").unwrap();
        assert_eq!(scale.group_version(r), ("autoscaling", "v1"));
        assert!(scale.served && r.subresource("status").unwrap().served);
    }
    assert!(!find("", "v1", "namespaces").supports("deletecollection"));
    assert_eq!(find("", "v1", "componentstatuses").verbs, ["get", "list"]);
    assert_eq!(
        find("authorization.k8s.io", "v1", "selfsubjectaccessreviews").verbs,
        ["create"]
    );
    // Every status subresource is served, and nothing that needs a node or a kubelet is.
    for r in resources::all() {
        for s in r.subresources {
            assert_eq!(
                s.served,
                matches!(s.name, "status" | "scale"),
                "{}/{}",
                r.name,
                s.name
            );
        }
    }
}

#[test]
fn categories_and_kubectl_name_resolution() {
    let all: Vec<String> = resources::resolve("all")
        .iter()
        .map(|r| format!("{}.{}", r.name, r.group))
        .collect();
    // `kubectl get all` on a 1.35 cluster, in its order.
    assert_eq!(
        all,
        [
            "pods.",
            "replicationcontrollers.",
            "services.",
            "daemonsets.apps",
            "deployments.apps",
            "replicasets.apps",
            "statefulsets.apps",
            "horizontalpodautoscalers.autoscaling",
            "cronjobs.batch",
            "jobs.batch"
        ]
    );
    let api_extensions: BTreeSet<&str> = resources::resolve("api-extensions")
        .iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(api_extensions.len(), 6);
    assert!(api_extensions.contains("customresourcedefinitions"));
    // Short and singular names; `ev` is both Events, core first.
    assert_eq!(resources::resolve("deploy")[0].name, "deployments");
    assert_eq!(resources::resolve("deployment")[0].name, "deployments");
    let ev: Vec<&str> = resources::resolve("ev").iter().map(|r| r.group).collect();
    assert_eq!(ev, ["", "events.k8s.io"]);
    // Only preferred versions: `hpa` is autoscaling/v2.
    let hpa = resources::resolve("hpa");
    assert_eq!((hpa.len(), hpa[0].version), (1, "v2"));
    assert!(resources::resolve("nope").is_empty());
    // Short names are unique among preferred versions, but for the two Events.
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for r in resources::all() {
        for s in r.short_names {
            *seen.entry(s).or_default() += 1;
        }
    }
    assert!(
        seen.iter()
            .all(|(s, n)| *n == 1 || *s == "ev" || *s == "hpa"),
        "{seen:?}"
    );
}

#[test]
fn storage_versions_name_rules_and_deprecations() {
    let ev = find("events.k8s.io", "v1", "events");
    assert_eq!(ev.storage.map(|g| (g.group, g.version)), Some(("", "v1")));
    let hpa = find("autoscaling", "v1", "horizontalpodautoscalers");
    assert_eq!(hpa.storage.map(|g| g.version), Some("v2"));
    assert_eq!(find("", "v1", "bindings").storage, None);
    assert_eq!(find("", "v1", "services").name_rule, NameRule::Dns1035Label);
    assert_eq!(find("", "v1", "namespaces").name_rule, NameRule::DnsLabel);
    assert_eq!(
        find("rbac.authorization.k8s.io", "v1", "clusterroles").name_rule,
        NameRule::PathSegment
    );
    assert_eq!(find("batch", "v1", "cronjobs").name_rule, NameRule::CronJob);
    assert_eq!(find("", "v1", "secrets").name_rule, NameRule::DnsSubdomain);
    assert_eq!(
        find("", "v1", "endpoints").deprecation,
        Some("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice")
    );
}
