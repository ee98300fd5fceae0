//! What updates do to the allocated fields before allocation (`normalizeClusterIPs`,
//! `patchAllocatedValues`) and after a type change (`dropTypeDependentFields`).

use serde_json::{Value, json};

use super::super::json::{Obj, ensure_obj, obj_mut, str_of};
use super::node_ports::node_ports;
use crate::validation::{externally_accessible, needs_health_check};

/// `isMatchingPreferDualStackClusterIPFields`: an unchanged PreferDualStack Service is not
/// upgraded or downgraded behind its back.
pub(super) fn matching_prefer_dual_stack(spec: &Obj, old: Option<&Obj>) -> bool {
    let Some(o) = old else { return false };
    let prefer =
        |s: &Obj| s.get("ipFamilyPolicy").and_then(Value::as_str) == Some("PreferDualStack");
    spec.get("ipFamilyPolicy").is_some_and(|p| !p.is_null())
        && str_of(spec, "type") == str_of(o, "type")
        && matches!(
            str_of(spec, "type"),
            "ClusterIP" | "NodePort" | "LoadBalancer"
        )
        && prefer(spec)
        && (o.get("ipFamilyPolicy").is_none_or(Value::is_null) || prefer(o))
        && spec.get("clusterIPs") == o.get("clusterIPs")
        && spec.get("ipFamilies") == o.get("ipFamilies")
}

/// `normalizeClusterIPs`: keeps `clusterIP` and `clusterIPs` in step for clients that set only
/// the first.
pub(super) fn normalize_cluster_ips(spec: &mut Obj, old: Option<&Obj>) {
    let ip = str_of(spec, "clusterIP").to_owned();
    let ips_empty = super::super::json::is_empty(spec, "clusterIPs");
    let Some(o) = old else {
        if !ip.is_empty() && ips_empty {
            spec.insert("clusterIPs".to_owned(), json!([ip]));
        }
        return;
    };
    let old_ip = str_of(o, "clusterIP");
    if !super::super::json::is_empty(o, "clusterIPs") && ips_empty && old_ip == ip {
        spec.insert("clusterIPs".to_owned(), o["clusterIPs"].clone());
    }
    if old_ip != ip {
        let same = spec.get("clusterIPs") == o.get("clusterIPs");
        if !old_ip.is_empty() && ip.is_empty() && same {
            spec.remove("clusterIPs");
        }
        if !ip.is_empty() && same {
            spec.insert("clusterIPs".to_owned(), json!([ip]));
        }
    }
}

/// `patchAllocatedValues`: an update that leaves allocated values out keeps them.
pub(super) fn patch_allocated_values(spec: &mut Obj, old: &Obj) {
    let needs_ip = |s: &Obj| str_of(s, "type") != "ExternalName";
    if needs_ip(old) && needs_ip(spec) {
        if str_of(spec, "clusterIP").is_empty()
            && let Some(ip) = old.get("clusterIP")
        {
            spec.insert("clusterIP".to_owned(), ip.clone());
        }
        if super::super::json::is_empty(spec, "clusterIPs")
            && !super::super::json::is_empty(old, "clusterIPs")
        {
            spec.insert("clusterIPs".to_owned(), old["clusterIPs"].clone());
        }
    }
    let needs_np = |s: &Obj| matches!(str_of(s, "type"), "NodePort" | "LoadBalancer");
    if needs_np(old) && needs_np(spec) {
        let ports_of = |s: &Obj| -> Vec<(String, i64)> {
            s.get("ports")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|p| {
                    let name = p
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    (name, p.get("nodePort").and_then(Value::as_i64).unwrap_or(0))
                })
                .collect()
        };
        let (old_ports, new_ports) = (ports_of(old), ports_of(spec));
        let used: Vec<i64> = old_ports
            .iter()
            .map(|(_, n)| *n)
            .filter(|n| new_ports.iter().any(|(_, m)| m == n))
            .collect();
        if let Some(list) = spec.get_mut("ports").and_then(Value::as_array_mut) {
            for p in list.iter_mut().filter_map(Value::as_object_mut) {
                if p.get("nodePort").and_then(Value::as_i64).unwrap_or(0) != 0 {
                    continue;
                }
                let name = p.get("name").and_then(Value::as_str).unwrap_or("");
                if let Some((_, n)) = old_ports.iter().rev().find(|(m, _)| m == name)
                    && *n != 0
                    && !used.contains(n)
                {
                    p.insert("nodePort".to_owned(), Value::from(*n));
                }
            }
        }
    }
    if needs_health_check(old)
        && needs_health_check(spec)
        && spec
            .get("healthCheckNodePort")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            == 0
        && let Some(hc) = old.get("healthCheckNodePort")
    {
        spec.insert("healthCheckNodePort".to_owned(), hc.clone());
    }
}

/// `dropTypeDependentFields` of the Service strategy's `PrepareForUpdate`: values a type change
/// no longer needs are wiped when the user left them as they were.
pub(crate) fn drop_type_dependent_fields(new: &mut Obj, old: &Obj) {
    let Some(os) = old.get("spec").and_then(Value::as_object).cloned() else {
        return;
    };
    let Some(spec) = obj_mut(new, "spec") else {
        return;
    };
    let needs_ip = |s: &Obj| str_of(s, "type") != "ExternalName";
    if needs_ip(&os) && !needs_ip(spec) {
        if spec.get("clusterIPs") == os.get("clusterIPs")
            && spec.get("clusterIP") == os.get("clusterIP")
        {
            spec.remove("clusterIP");
            spec.remove("clusterIPs");
        }
        for k in ["ipFamilies", "ipFamilyPolicy"] {
            if spec.get(k) == os.get(k) {
                spec.remove(k);
            }
        }
    }
    let needs_np = |s: &Obj| matches!(str_of(s, "type"), "NodePort" | "LoadBalancer");
    if needs_np(&os)
        && !needs_np(spec)
        && node_ports(spec) == node_ports(&os)
        && let Some(list) = spec.get_mut("ports").and_then(Value::as_array_mut)
    {
        for p in list.iter_mut().filter_map(Value::as_object_mut) {
            p.remove("nodePort");
        }
    }
    if needs_health_check(&os)
        && !needs_health_check(spec)
        && spec.get("healthCheckNodePort") == os.get("healthCheckNodePort")
    {
        spec.remove("healthCheckNodePort");
    }
    let lb = |s: &Obj| str_of(s, "type") == "LoadBalancer";
    if lb(&os) && !lb(spec) {
        for k in ["allocateLoadBalancerNodePorts", "loadBalancerClass"] {
            if spec.get(k) == os.get(k) {
                spec.remove(k);
            }
        }
    }
    if externally_accessible(&os)
        && !externally_accessible(spec)
        && spec.get("externalTrafficPolicy") == os.get("externalTrafficPolicy")
    {
        spec.remove("externalTrafficPolicy");
    }
    if str_of(spec, "type") != "LoadBalancer"
        && let Some(status) = ensure_obj(new, "status")
    {
        status.insert("loadBalancer".to_owned(), json!({}));
    }
}
