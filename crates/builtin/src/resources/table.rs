//! The table of [`super::all`]: Kubernetes 1.35's resources with its default configuration,
//! by group (core first), version and name. The verbs, scopes, kinds and subresources are the
//! published OpenAPI's (checked by `examples/openapi_data.rs check`); see the module above for
//! the other sources.

use super::{Group, Gvk, Resource, Subresource};
use crate::names::NameRule;

const NAMESPACED: bool = true;
const CLUSTER: bool = false;

const STANDARD: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];
/// Namespaces: no `deletecollection`.
const NO_COLLECTION: &[&str] = &[
    "create", "delete", "get", "list", "patch", "update", "watch",
];
const CREATE: &[&str] = &["create"];
const GET: &[&str] = &["get"];
const UPDATE: &[&str] = &["update"];
const GET_LIST: &[&str] = &["get", "list"];
const GET_UPDATE: &[&str] = &["get", "patch", "update"];
/// `connect` with `GET` and `POST` (`exec`, `attach`, `portforward`).
const CONNECT: &[&str] = &["create", "get"];
/// `connect` with every method (`proxy`).
const PROXY: &[&str] = &["create", "delete", "get", "patch", "update"];

const ALL: &[&str] = &["all"];
const API_EXTENSIONS: &[&str] = &["api-extensions"];

const fn res(
    group: &'static str,
    version: &'static str,
    name: &'static str,
    kind: &'static str,
    namespaced: bool,
    verbs: &'static [&'static str],
) -> Resource {
    Resource {
        group,
        version,
        name,
        kind,
        namespaced,
        verbs,
        short_names: &[],
        categories: &[],
        subresources: &[],
        storage: Some(Gvk {
            group,
            version,
            kind,
        }),
        name_rule: NameRule::DnsSubdomain,
        deprecation: None,
    }
}

impl Resource {
    const fn short_names(mut self, names: &'static [&'static str]) -> Resource {
        self.short_names = names;
        self
    }

    const fn categories(mut self, categories: &'static [&'static str]) -> Resource {
        self.categories = categories;
        self
    }

    const fn subresources(mut self, subresources: &'static [Subresource]) -> Resource {
        self.subresources = subresources;
        self
    }

    const fn names(mut self, rule: NameRule) -> Resource {
        self.name_rule = rule;
        self
    }

    const fn not_stored(mut self) -> Resource {
        self.storage = None;
        self.name_rule = NameRule::NotStored;
        self
    }

    const fn stored_as(
        mut self,
        group: &'static str,
        version: &'static str,
        kind: &'static str,
    ) -> Resource {
        self.storage = Some(Gvk {
            group,
            version,
            kind,
        });
        self
    }

    const fn deprecated(mut self, warning: &'static str) -> Resource {
        self.deprecation = Some(warning);
        self
    }
}

const fn sub(
    name: &'static str,
    kind: &'static str,
    verbs: &'static [&'static str],
) -> Subresource {
    Subresource {
        name,
        group_version: None,
        kind,
        verbs,
        served: false,
    }
}

const fn served(
    name: &'static str,
    kind: &'static str,
    verbs: &'static [&'static str],
) -> Subresource {
    Subresource {
        served: true,
        ..sub(name, kind, verbs)
    }
}

impl Subresource {
    const fn of(mut self, group: &'static str, version: &'static str) -> Subresource {
        self.group_version = Some((group, version));
        self
    }
}

/// kube-aggregator's priorities: `/apis` lists groups by them, highest first; a group's
/// versions by their version priority (`autoscaling/v2` 30 before `v1` 15).
#[rustfmt::skip]
pub(super) const GROUPS: &[Group] = &[
    Group { name: "", versions: &["v1"], priority: 18000 },
    Group { name: "apiregistration.k8s.io", versions: &["v1"], priority: 18000 },
    Group { name: "apps", versions: &["v1"], priority: 17800 },
    Group { name: "events.k8s.io", versions: &["v1"], priority: 17750 },
    Group { name: "authentication.k8s.io", versions: &["v1"], priority: 17700 },
    Group { name: "authorization.k8s.io", versions: &["v1"], priority: 17600 },
    Group { name: "autoscaling", versions: &["v2", "v1"], priority: 17500 },
    Group { name: "batch", versions: &["v1"], priority: 17400 },
    Group { name: "certificates.k8s.io", versions: &["v1"], priority: 17300 },
    Group { name: "networking.k8s.io", versions: &["v1"], priority: 17200 },
    Group { name: "policy", versions: &["v1"], priority: 17100 },
    Group { name: "rbac.authorization.k8s.io", versions: &["v1"], priority: 17000 },
    Group { name: "storage.k8s.io", versions: &["v1"], priority: 16800 },
    Group { name: "admissionregistration.k8s.io", versions: &["v1"], priority: 16700 },
    Group { name: "apiextensions.k8s.io", versions: &["v1"], priority: 16700 },
    Group { name: "scheduling.k8s.io", versions: &["v1"], priority: 16600 },
    Group { name: "coordination.k8s.io", versions: &["v1"], priority: 16500 },
    Group { name: "node.k8s.io", versions: &["v1"], priority: 16300 },
    Group { name: "discovery.k8s.io", versions: &["v1"], priority: 16200 },
    Group { name: "flowcontrol.apiserver.k8s.io", versions: &["v1"], priority: 16100 },
    Group { name: "resource.k8s.io", versions: &["v1"], priority: 15900 },
];

#[rustfmt::skip]
pub(super) const RESOURCES: &[Resource] = &[
    res("", "v1", "bindings", "Binding", NAMESPACED, CREATE)
        .not_stored(),
    res("", "v1", "componentstatuses", "ComponentStatus", CLUSTER, GET_LIST)
        .short_names(&["cs"])
        .not_stored()
        .deprecated("v1 ComponentStatus is deprecated in v1.19+"),
    res("", "v1", "configmaps", "ConfigMap", NAMESPACED, STANDARD)
        .short_names(&["cm"]),
    res("", "v1", "endpoints", "Endpoints", NAMESPACED, STANDARD)
        .short_names(&["ep"])
        .deprecated("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"),
    res("", "v1", "events", "Event", NAMESPACED, STANDARD)
        .short_names(&["ev"]),
    res("", "v1", "limitranges", "LimitRange", NAMESPACED, STANDARD)
        .short_names(&["limits"]),
    res("", "v1", "namespaces", "Namespace", CLUSTER, NO_COLLECTION)
        .short_names(&["ns"])
        .names(NameRule::DnsLabel)
        .subresources(&[
            sub("finalize", "Namespace", UPDATE),
            served("status", "Namespace", GET_UPDATE),
        ]),
    res("", "v1", "nodes", "Node", CLUSTER, STANDARD)
        .short_names(&["no"])
        .subresources(&[
            sub("proxy", "NodeProxyOptions", PROXY),
            served("status", "Node", GET_UPDATE),
        ]),
    res("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", NAMESPACED, STANDARD)
        .short_names(&["pvc"])
        .names(NameRule::PathSegment)
        .subresources(&[
            served("status", "PersistentVolumeClaim", GET_UPDATE),
        ]),
    res("", "v1", "persistentvolumes", "PersistentVolume", CLUSTER, STANDARD)
        .short_names(&["pv"])
        .names(NameRule::PathSegment)
        .subresources(&[
            served("status", "PersistentVolume", GET_UPDATE),
        ]),
    res("", "v1", "pods", "Pod", NAMESPACED, STANDARD)
        .short_names(&["po"])
        .categories(ALL)
        .subresources(&[
            sub("attach", "PodAttachOptions", CONNECT),
            sub("binding", "Binding", CREATE),
            sub("ephemeralcontainers", "Pod", GET_UPDATE),
            sub("eviction", "Eviction", CREATE).of("policy", "v1"),
            sub("exec", "PodExecOptions", CONNECT),
            sub("log", "Pod", GET),
            sub("portforward", "PodPortForwardOptions", CONNECT),
            sub("proxy", "PodProxyOptions", PROXY),
            sub("resize", "Pod", GET_UPDATE),
            served("status", "Pod", GET_UPDATE),
        ]),
    res("", "v1", "podtemplates", "PodTemplate", NAMESPACED, STANDARD),
    res("", "v1", "replicationcontrollers", "ReplicationController", NAMESPACED, STANDARD)
        .short_names(&["rc"])
        .categories(ALL)
        .subresources(&[
            served("scale", "Scale", GET_UPDATE).of("autoscaling", "v1"),
            served("status", "ReplicationController", GET_UPDATE),
        ]),
    res("", "v1", "resourcequotas", "ResourceQuota", NAMESPACED, STANDARD)
        .short_names(&["quota"])
        .subresources(&[
            served("status", "ResourceQuota", GET_UPDATE),
        ]),
    res("", "v1", "secrets", "Secret", NAMESPACED, STANDARD),
    res("", "v1", "serviceaccounts", "ServiceAccount", NAMESPACED, STANDARD)
        .short_names(&["sa"])
        .subresources(&[
            sub("token", "TokenRequest", CREATE).of("authentication.k8s.io", "v1"),
        ]),
    res("", "v1", "services", "Service", NAMESPACED, STANDARD)
        .short_names(&["svc"])
        .categories(ALL)
        .names(NameRule::Dns1035Label)
        .subresources(&[
            sub("proxy", "ServiceProxyOptions", PROXY),
            served("status", "Service", GET_UPDATE),
        ]),
    res("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations", "MutatingWebhookConfiguration", CLUSTER, STANDARD)
        .categories(API_EXTENSIONS),
    res("admissionregistration.k8s.io", "v1", "validatingadmissionpolicies", "ValidatingAdmissionPolicy", CLUSTER, STANDARD)
        .categories(API_EXTENSIONS)
        .subresources(&[
            served("status", "ValidatingAdmissionPolicy", GET_UPDATE),
        ]),
    res("admissionregistration.k8s.io", "v1", "validatingadmissionpolicybindings", "ValidatingAdmissionPolicyBinding", CLUSTER, STANDARD)
        .categories(API_EXTENSIONS),
    res("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", "ValidatingWebhookConfiguration", CLUSTER, STANDARD)
        .categories(API_EXTENSIONS),
    res("apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition", CLUSTER, STANDARD)
        .short_names(&["crd", "crds"])
        .categories(API_EXTENSIONS)
        .names(NameRule::Custom)
        .subresources(&[
            served("status", "CustomResourceDefinition", GET_UPDATE),
        ]),
    res("apiregistration.k8s.io", "v1", "apiservices", "APIService", CLUSTER, STANDARD)
        .categories(API_EXTENSIONS)
        .names(NameRule::Custom)
        .subresources(&[
            served("status", "APIService", GET_UPDATE),
        ]),
    res("apps", "v1", "controllerrevisions", "ControllerRevision", NAMESPACED, STANDARD),
    res("apps", "v1", "daemonsets", "DaemonSet", NAMESPACED, STANDARD)
        .short_names(&["ds"])
        .categories(ALL)
        .subresources(&[
            served("status", "DaemonSet", GET_UPDATE),
        ]),
    res("apps", "v1", "deployments", "Deployment", NAMESPACED, STANDARD)
        .short_names(&["deploy"])
        .categories(ALL)
        .subresources(&[
            served("scale", "Scale", GET_UPDATE).of("autoscaling", "v1"),
            served("status", "Deployment", GET_UPDATE),
        ]),
    res("apps", "v1", "replicasets", "ReplicaSet", NAMESPACED, STANDARD)
        .short_names(&["rs"])
        .categories(ALL)
        .subresources(&[
            served("scale", "Scale", GET_UPDATE).of("autoscaling", "v1"),
            served("status", "ReplicaSet", GET_UPDATE),
        ]),
    // apps `ValidateStatefulSetName`: a DNS label (its Pods are named `<name>-<ordinal>`).
    res("apps", "v1", "statefulsets", "StatefulSet", NAMESPACED, STANDARD)
        .short_names(&["sts"])
        .names(NameRule::DnsLabel)
        .categories(ALL)
        .subresources(&[
            served("scale", "Scale", GET_UPDATE).of("autoscaling", "v1"),
            served("status", "StatefulSet", GET_UPDATE),
        ]),
    res("authentication.k8s.io", "v1", "selfsubjectreviews", "SelfSubjectReview", CLUSTER, CREATE)
        .not_stored(),
    res("authentication.k8s.io", "v1", "tokenreviews", "TokenReview", CLUSTER, CREATE)
        .not_stored(),
    res("authorization.k8s.io", "v1", "localsubjectaccessreviews", "LocalSubjectAccessReview", NAMESPACED, CREATE)
        .not_stored(),
    res("authorization.k8s.io", "v1", "selfsubjectaccessreviews", "SelfSubjectAccessReview", CLUSTER, CREATE)
        .not_stored(),
    res("authorization.k8s.io", "v1", "selfsubjectrulesreviews", "SelfSubjectRulesReview", CLUSTER, CREATE)
        .not_stored(),
    res("authorization.k8s.io", "v1", "subjectaccessreviews", "SubjectAccessReview", CLUSTER, CREATE)
        .not_stored(),
    res("autoscaling", "v1", "horizontalpodautoscalers", "HorizontalPodAutoscaler", NAMESPACED, STANDARD)
        .short_names(&["hpa"])
        .categories(ALL)
        .stored_as("autoscaling", "v2", "HorizontalPodAutoscaler")
        .subresources(&[
            served("status", "HorizontalPodAutoscaler", GET_UPDATE),
        ]),
    res("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", NAMESPACED, STANDARD)
        .short_names(&["hpa"])
        .categories(ALL)
        .stored_as("autoscaling", "v2", "HorizontalPodAutoscaler")
        .subresources(&[
            served("status", "HorizontalPodAutoscaler", GET_UPDATE),
        ]),
    res("batch", "v1", "cronjobs", "CronJob", NAMESPACED, STANDARD)
        .short_names(&["cj"])
        .categories(ALL)
        .names(NameRule::CronJob)
        .subresources(&[
            served("status", "CronJob", GET_UPDATE),
        ]),
    res("batch", "v1", "jobs", "Job", NAMESPACED, STANDARD)
        .categories(ALL)
        .subresources(&[
            served("status", "Job", GET_UPDATE),
        ]),
    res("certificates.k8s.io", "v1", "certificatesigningrequests", "CertificateSigningRequest", CLUSTER, STANDARD)
        .short_names(&["csr"])
        .names(NameRule::Any)
        .subresources(&[
            sub("approval", "CertificateSigningRequest", GET_UPDATE),
            served("status", "CertificateSigningRequest", GET_UPDATE),
        ]),
    res("coordination.k8s.io", "v1", "leases", "Lease", NAMESPACED, STANDARD),
    res("discovery.k8s.io", "v1", "endpointslices", "EndpointSlice", NAMESPACED, STANDARD),
    res("events.k8s.io", "v1", "events", "Event", NAMESPACED, STANDARD)
        .short_names(&["ev"])
        .stored_as("", "v1", "Event"),
    res("flowcontrol.apiserver.k8s.io", "v1", "flowschemas", "FlowSchema", CLUSTER, STANDARD)
        .subresources(&[
            served("status", "FlowSchema", GET_UPDATE),
        ]),
    res("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations", "PriorityLevelConfiguration", CLUSTER, STANDARD)
        .subresources(&[
            served("status", "PriorityLevelConfiguration", GET_UPDATE),
        ]),
    res("networking.k8s.io", "v1", "ingressclasses", "IngressClass", CLUSTER, STANDARD),
    res("networking.k8s.io", "v1", "ingresses", "Ingress", NAMESPACED, STANDARD)
        .short_names(&["ing"])
        .subresources(&[
            served("status", "Ingress", GET_UPDATE),
        ]),
    res("networking.k8s.io", "v1", "ipaddresses", "IPAddress", CLUSTER, STANDARD)
        .short_names(&["ip"])
        .names(NameRule::Custom),
    res("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", NAMESPACED, STANDARD)
        .short_names(&["netpol"]),
    res("networking.k8s.io", "v1", "servicecidrs", "ServiceCIDR", CLUSTER, STANDARD)
        .subresources(&[
            served("status", "ServiceCIDR", GET_UPDATE),
        ]),
    res("node.k8s.io", "v1", "runtimeclasses", "RuntimeClass", CLUSTER, STANDARD),
    res("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", NAMESPACED, STANDARD)
        .short_names(&["pdb"])
        .subresources(&[
            served("status", "PodDisruptionBudget", GET_UPDATE),
        ]),
    res("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding", CLUSTER, STANDARD)
        .names(NameRule::PathSegment),
    res("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", CLUSTER, STANDARD)
        .names(NameRule::PathSegment),
    res("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", NAMESPACED, STANDARD)
        .names(NameRule::PathSegment),
    res("rbac.authorization.k8s.io", "v1", "roles", "Role", NAMESPACED, STANDARD)
        .names(NameRule::PathSegment),
    res("resource.k8s.io", "v1", "deviceclasses", "DeviceClass", CLUSTER, STANDARD),
    res("resource.k8s.io", "v1", "resourceclaims", "ResourceClaim", NAMESPACED, STANDARD)
        .subresources(&[
            served("status", "ResourceClaim", GET_UPDATE),
        ]),
    res("resource.k8s.io", "v1", "resourceclaimtemplates", "ResourceClaimTemplate", NAMESPACED, STANDARD),
    res("resource.k8s.io", "v1", "resourceslices", "ResourceSlice", CLUSTER, STANDARD),
    res("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", CLUSTER, STANDARD)
        .short_names(&["pc"]),
    res("storage.k8s.io", "v1", "csidrivers", "CSIDriver", CLUSTER, STANDARD)
        .names(NameRule::Custom),
    res("storage.k8s.io", "v1", "csinodes", "CSINode", CLUSTER, STANDARD),
    res("storage.k8s.io", "v1", "csistoragecapacities", "CSIStorageCapacity", NAMESPACED, STANDARD),
    res("storage.k8s.io", "v1", "storageclasses", "StorageClass", CLUSTER, STANDARD)
        .short_names(&["sc"]),
    res("storage.k8s.io", "v1", "volumeattachments", "VolumeAttachment", CLUSTER, STANDARD)
        .subresources(&[
            served("status", "VolumeAttachment", GET_UPDATE),
        ]),
    res("storage.k8s.io", "v1", "volumeattributesclasses", "VolumeAttributesClass", CLUSTER, STANDARD)
        .short_names(&["vac"]),
];
