//! The other kinds operators create: Secrets, Namespaces, Endpoints and EndpointSlices,
//! NetworkPolicies, IngressClasses, HorizontalPodAutoscalers, RBAC bindings, LimitRanges.
//!
//! Mirrors kubernetes `pkg/apis/core/v1/defaults.go` (`SetDefaults_Secret`, `_Namespace`,
//! `_NamespaceStatus`, `_Endpoints`, `_LimitRangeItem`), `pkg/apis/discovery/v1/defaults.go`,
//! `pkg/apis/networking/v1/defaults.go`, `pkg/apis/autoscaling/v1` and `v2/defaults.go`,
//! `pkg/apis/rbac/v1/defaults.go`. ConfigMaps, ServiceAccounts, Ingresses, PodDisruptionBudgets,
//! Leases and Events have no defaults in these versions.

use serde_json::{Value, json};

use super::json::{
    Obj, default_ptr, default_str, ensure_obj, is_empty, is_nil, items_mut, obj_mut, str_of,
};

/// `SetDefaults_Secret`: `type: Opaque`.
pub(crate) fn secret(obj: &mut Obj) {
    default_str(obj, "type", "Opaque");
}

/// `SetDefaults_Namespace` (the `kubernetes.io/metadata.name` label, when the name is known)
/// and `SetDefaults_NamespaceStatus` (`Active`).
pub(crate) fn namespace(obj: &mut Obj) {
    let name = obj
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if !name.is_empty()
        && let Some(labels) = ensure_obj(obj, "metadata").and_then(|m| ensure_obj(m, "labels"))
    {
        labels.insert("kubernetes.io/metadata.name".to_owned(), Value::from(name));
    }
    if let Some(status) = ensure_obj(obj, "status") {
        default_str(status, "phase", "Active");
    }
}

/// `SetDefaults_Endpoints`: ports are TCP.
pub(crate) fn endpoints(obj: &mut Obj) {
    for subset in items_mut(obj, "subsets") {
        for p in items_mut(subset, "ports") {
            default_str(p, "protocol", "TCP");
        }
    }
}

/// discovery/v1 `SetDefaults_EndpointPort`: an empty name and TCP.
pub(crate) fn endpoint_slice(obj: &mut Obj) {
    for p in items_mut(obj, "ports") {
        default_ptr(p, "name", "");
        default_ptr(p, "protocol", "TCP");
    }
}

/// `SetDefaults_NetworkPolicy` (`Ingress`, plus `Egress` when egress rules are given) and
/// `SetDefaults_NetworkPolicyPort` (TCP).
pub(crate) fn network_policy(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    for dir in ["ingress", "egress"] {
        for rule in items_mut(spec, dir) {
            for p in items_mut(rule, "ports") {
                default_ptr(p, "protocol", "TCP");
            }
        }
    }
    if is_empty(spec, "policyTypes") {
        let mut types = vec![Value::from("Ingress")];
        if !is_empty(spec, "egress") {
            types.push(Value::from("Egress"));
        }
        spec.insert("policyTypes".to_owned(), Value::Array(types));
    }
}

/// `SetDefaults_IngressClass`: parameters are cluster-scoped unless said otherwise.
pub(crate) fn ingress_class(obj: &mut Obj) {
    if let Some(p) = obj_mut(obj, "spec").and_then(|s| obj_mut(s, "parameters")) {
        default_ptr(p, "scope", "Cluster");
    }
}

/// autoscaling/v1 `SetDefaults_HorizontalPodAutoscaler`: one replica at least. The 80% CPU
/// target v1 clients read back comes from the conversion to the stored v2
/// ([`crate::conversion::autoscaling`]).
pub(crate) fn hpa_v1(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    default_ptr(spec, "minReplicas", 1);
}

/// autoscaling/v2 `SetDefaults_HorizontalPodAutoscaler`: one replica at least, an 80% CPU
/// utilization target when no metric is given, and the scaling rules completed when
/// `behavior` is given.
pub(crate) fn hpa_v2(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    default_ptr(spec, "minReplicas", 1);
    if is_empty(spec, "metrics") {
        spec.insert(
            "metrics".to_owned(),
            json!([{"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": 80}}}]),
        );
    }
    for m in items_mut(spec, "metrics") {
        for source in [
            "resource",
            "containerResource",
            "pods",
            "object",
            "external",
        ] {
            if let Some(target) = obj_mut(m, source).and_then(|s| obj_mut(s, "target")) {
                super::quantities::canonical(target, "value");
                super::quantities::canonical(target, "averageValue");
            }
        }
    }
    if let Some(behavior) = obj_mut(spec, "behavior") {
        let up = json!({"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
            {"type": "Pods", "value": 4, "periodSeconds": 15},
            {"type": "Percent", "value": 100, "periodSeconds": 15}]});
        // No default stabilization window downwards: the controller's flag decides.
        let down = json!({"selectPolicy": "Max", "policies": [
            {"type": "Percent", "value": 100, "periodSeconds": 15}]});
        scaling_rules(behavior, "scaleUp", up);
        scaling_rules(behavior, "scaleDown", down);
    }
}

/// `GenerateHPAScale{Up,Down}Rules`: the defaults, overridden by every field that is set.
fn scaling_rules(behavior: &mut Obj, key: &str, defaults: Value) {
    let Value::Object(mut rules) = defaults else {
        return;
    };
    if let Some(Value::Object(given)) = behavior.get(key) {
        for (k, v) in given {
            if !v.is_null() {
                rules.insert(k.clone(), v.clone());
            }
        }
        super::quantities::canonical(&mut rules, "tolerance");
    }
    behavior.insert(key.to_owned(), Value::Object(rules));
}

/// rbac/v1 `SetDefaults_RoleBinding`/`_ClusterRoleBinding` (the role's group) and
/// `SetDefaults_Subject` (users and groups are RBAC's, service accounts the core group's).
pub(crate) fn role_binding(obj: &mut Obj) {
    if let Some(role) = obj_mut(obj, "roleRef") {
        default_str(role, "apiGroup", "rbac.authorization.k8s.io");
    }
    for s in items_mut(obj, "subjects") {
        if super::json::str_empty(s, "apiGroup") {
            match str_of(s, "kind") {
                // Go sets "" on an `omitempty` field: nothing is written.
                "ServiceAccount" => {
                    s.remove("apiGroup");
                }
                "User" | "Group" => {
                    s.insert(
                        "apiGroup".to_owned(),
                        Value::from("rbac.authorization.k8s.io"),
                    );
                }
                _ => {}
            }
        }
    }
}

/// `SetDefaults_LimitRangeItem`: for containers, the default limit falls back to the max and
/// the default request to the default limit, then to the min.
pub(crate) fn limit_range(obj: &mut Obj) {
    let Some(spec) = obj_mut(obj, "spec") else {
        return;
    };
    for item in items_mut(spec, "limits") {
        if str_of(item, "type") != "Container" {
            continue;
        }
        let take = |item: &Obj, k: &str| match item.get(k) {
            Some(Value::Object(m)) => m.clone(),
            _ => Obj::new(),
        };
        let (max, min) = (take(item, "max"), take(item, "min"));
        let mut default = take(item, "default");
        for (k, v) in max {
            default.entry(k).or_insert(v);
        }
        let mut request = take(item, "defaultRequest");
        for (k, v) in default.iter().chain(min.iter()) {
            request.entry(k.clone()).or_insert_with(|| v.clone());
        }
        if !default.is_empty() || !is_nil(item, "default") {
            item.insert("default".to_owned(), Value::Object(default));
        }
        if !request.is_empty() || !is_nil(item, "defaultRequest") {
            item.insert("defaultRequest".to_owned(), Value::Object(request));
        }
        for k in [
            "max",
            "min",
            "default",
            "defaultRequest",
            "maxLimitRequestRatio",
        ] {
            super::quantities::resource_list(item, k);
        }
    }
}
