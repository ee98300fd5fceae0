//! Services.
//!
//! Mirrors `SetDefaults_Service` of kubernetes `pkg/apis/core/v1/defaults.go` and the
//! predicate `ExternallyAccessible` (`pkg/api/v1/service/util.go`). Cluster IPs, IP
//! families and node ports are not defaults but allocations: see [`super::alloc`].

use serde_json::{Value, json};

use super::json::{Obj, default_ptr, default_str, ensure_obj, items_mut, obj_mut, str_of};
use crate::validation::externally_accessible;

/// `SetDefaults_Service`.
pub(crate) fn service(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    default_str(spec, "sessionAffinity", "None");
    match str_of(spec, "sessionAffinity") {
        "None" => {
            spec.remove("sessionAffinityConfig");
        }
        "ClientIP" => {
            let timeout = spec
                .get("sessionAffinityConfig")
                .and_then(|c| c.get("clientIP"))
                .and_then(|c| c.get("timeoutSeconds"))
                .is_some_and(|t| !t.is_null());
            if !timeout {
                // `DefaultClientIPServiceAffinitySeconds`: three hours.
                spec.insert(
                    "sessionAffinityConfig".to_owned(),
                    json!({"clientIP": {"timeoutSeconds": 10800}}),
                );
            }
        }
        _ => {}
    }
    default_str(spec, "type", "ClusterIP");
    for p in items_mut(spec, "ports") {
        default_str(p, "protocol", "TCP");
        let unset = match p.get("targetPort") {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.is_empty(),
            Some(Value::Number(n)) => n.as_i64() == Some(0),
            Some(_) => false,
        };
        if unset && let Some(port) = p.get("port").cloned() {
            p.insert("targetPort".to_owned(), port);
        }
    }
    if externally_accessible(spec) {
        default_str(spec, "externalTrafficPolicy", "Cluster");
    }
    if matches!(
        str_of(spec, "type"),
        "NodePort" | "LoadBalancer" | "ClusterIP"
    ) {
        default_ptr(spec, "internalTrafficPolicy", "Cluster");
    }
    if str_of(spec, "type") == "LoadBalancer" {
        default_ptr(spec, "allocateLoadBalancerNodePorts", true);
        let ingress = obj_mut(obj, "status")
            .and_then(|s| obj_mut(s, "loadBalancer"))
            .into_iter()
            .flat_map(|lb| items_mut(lb, "ingress"));
        for ing in ingress {
            if !super::json::str_empty(ing, "ip") {
                default_ptr(ing, "ipMode", "VIP");
            }
        }
    }
}
