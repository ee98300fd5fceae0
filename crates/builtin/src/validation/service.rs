//! Services.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`ValidateService`,
//! `validateServicePort`, `ValidateServiceClusterIPsRelatedFields`,
//! `validateServiceExternalTrafficPolicy`, `validateServiceInternalTrafficFieldsValue`,
//! `validateServiceTrafficDistribution`, `validateLoadBalancerClassField`,
//! `ValidateServiceUpdate` with `validateUpgradeDowngradeClusterIPs` and `...IPFamilies`) and the
//! predicates of `pkg/api/service/util.go`. Source ranges are checked with the sloppy CIDR
//! parser only (not for canonical form).

use serde_json::Value;

use super::meta::{self, NameRule, labels, qualified_name};
use super::net::{parse, port_num, port_num_or_name, protocol, valid_ip};
use super::read::{
    Obj, arr, int_of, is_set, items, obj, obj_or_empty, opt_int, opt_str, str_of, strs,
};
use super::service_ips::{cluster_ips_related_fields, is_headless, upgrade_downgrade};
use super::service_lb::{load_balancer_class, needs_health_check, source_ranges, traffic_policies};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

/// `ValidateNonSpecialIP`, for external IPs.
pub(crate) fn non_special_ip(ip: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let Some((b, v4)) = parse(ip) else {
        errs.push(FieldError::invalid(p, ip, "must be a valid IP address"));
        return;
    };
    let unspecified = if v4 {
        b[12..] == [0, 0, 0, 0]
    } else {
        b.iter().all(|x| *x == 0)
    };
    let loopback = if v4 {
        b[12] == 127
    } else {
        b[..15].iter().all(|x| *x == 0) && b[15] == 1
    };
    let link_local = if v4 {
        b[12] == 169 && b[13] == 254
    } else {
        b[0] == 0xfe && b[1] & 0xc0 == 0x80
    };
    let ll_multicast = if v4 {
        b[12] == 224 && b[13] == 0 && b[14] == 0
    } else {
        b[0] == 0xff && b[1] & 0x0f == 0x02
    };
    if unspecified {
        errs.push(FieldError::invalid(
            p,
            ip,
            format!("may not be unspecified ({ip})"),
        ));
    }
    if loopback {
        errs.push(FieldError::invalid(
            p,
            ip,
            "may not be in the loopback range (127.0.0.0/8, ::1/128)",
        ));
    }
    if link_local {
        errs.push(FieldError::invalid(
            p,
            ip,
            "may not be in the link-local range (169.254.0.0/16, fe80::/10)",
        ));
    }
    if ll_multicast {
        errs.push(FieldError::invalid(
            p,
            ip,
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
        ));
    }
}

/// `validateServicePort`.
pub(crate) fn service_port(
    port: &Obj,
    require_name: bool,
    seen: &mut Vec<String>,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let name = str_of(port, "name");
    if require_name && name.is_empty() {
        errs.push(FieldError::required(&p.child("name"), ""));
    } else if !name.is_empty() {
        for msg in names::dns1123_label(name) {
            errs.push(FieldError::invalid(&p.child("name"), name, msg));
        }
        if seen.iter().any(|s| s == name) {
            errs.push(FieldError::duplicate(&p.child("name"), name));
        } else {
            seen.push(name.to_owned());
        }
    }
    let n = int_of(port, "port");
    if let Some(msg) = port_num(n) {
        errs.push(FieldError::invalid(&p.child("port"), n, msg));
    }
    protocol(str_of(port, "protocol"), &p.child("protocol"), errs);
    port_num_or_name(port.get("targetPort"), &p.child("targetPort"), errs);
    if let Some(ap) = opt_str(port, "appProtocol") {
        qualified_name(ap, &p.child("appProtocol"), errs);
    }
}

/// `ValidateService`.
pub(crate) fn service(svc: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(svc, true, NameRule::Dns1035Label, errs);
    let mp = FieldPath::new("metadata");
    let ann = obj(obj_or_empty(svc, "metadata"), "annotations");
    let get = |k: &str| ann.and_then(|a| a.get(k)).and_then(Value::as_str);
    const HINTS: &str = "service.kubernetes.io/topology-aware-hints";
    const MODE: &str = "service.kubernetes.io/topology-mode";
    if let (Some(hints), Some(mode)) = (get(HINTS), get(MODE))
        && hints != mode
    {
        errs.push(FieldError::invalid(
            &mp.child("annotations").key(MODE),
            mode,
            format!("must match annotations[{HINTS}] when both are specified"),
        ));
    }
    let spec = obj_or_empty(svc, "spec");
    let sp = FieldPath::new("spec");
    let kind = str_of(spec, "type");
    let headless = is_headless(spec);
    if arr(spec, "ports").is_empty() && !headless && kind != "ExternalName" {
        errs.push(FieldError::required(&sp.child("ports"), ""));
    }
    match kind {
        "LoadBalancer" | "NodePort" if headless => errs.push(FieldError::invalid(
            &sp.child("clusterIPs").index(0),
            "None",
            format!("may not be set to 'None' for {kind} services"),
        )),
        "ExternalName" => {
            for (k, what) in [("clusterIPs", "clusterIPs"), ("ipFamilies", "ipFamilies")] {
                if !arr(spec, k).is_empty() {
                    errs.push(FieldError::forbidden(
                        &sp.child(what),
                        "may not be set for ExternalName services",
                    ));
                }
            }
            if is_set(spec, "ipFamilyPolicy") {
                errs.push(FieldError::forbidden(
                    &sp.child("ipFamilyPolicy"),
                    "may not be set for ExternalName services",
                ));
            }
            let cname = str_of(spec, "externalName");
            let cname = cname.strip_suffix('.').unwrap_or(cname);
            if cname.is_empty() {
                errs.push(FieldError::required(&sp.child("externalName"), ""));
            } else {
                for msg in names::dns1123_subdomain(cname) {
                    errs.push(FieldError::invalid(&sp.child("externalName"), cname, msg));
                }
            }
        }
        _ => {}
    }
    let ports: Vec<(usize, &Obj)> = items(spec, "ports").collect();
    let mut names_seen = Vec::new();
    for (i, port) in &ports {
        service_port(
            port,
            ports.len() > 1,
            &mut names_seen,
            &sp.child("ports").index(*i),
            errs,
        );
    }
    if is_set(spec, "selector") {
        labels(spec, "selector", &sp.child("selector"), errs);
    }
    match str_of(spec, "sessionAffinity") {
        "" => errs.push(FieldError::required(&sp.child("sessionAffinity"), "")),
        "ClientIP" => client_ip_config(spec, &sp.child("sessionAffinityConfig"), errs),
        "None" => {
            if is_set(spec, "sessionAffinityConfig") {
                errs.push(FieldError::forbidden(
                    &sp.child("sessionAffinityConfig"),
                    "must not be set when session affinity is None",
                ));
            }
        }
        other => errs.push(FieldError::not_supported(
            &sp.child("sessionAffinity"),
            other,
            &["ClientIP", "None"],
        )),
    }
    errs.extend(cluster_ips_related_fields(spec));
    for (i, ip) in strs(spec, "externalIPs").enumerate() {
        let p = sp.child("externalIPs").index(i);
        let before = errs.len();
        valid_ip(&p, ip, errs);
        if errs.len() == before {
            non_special_ip(ip, &p, errs);
        }
    }
    match kind {
        "" => errs.push(FieldError::required(&sp.child("type"), "")),
        "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName" => {}
        other => errs.push(FieldError::not_supported(
            &sp.child("type"),
            other,
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        )),
    }
    if kind == "ClusterIP" {
        for (i, port) in &ports {
            if int_of(port, "nodePort") != 0 {
                errs.push(FieldError::forbidden(
                    &sp.child("ports").index(*i).child("nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports: Vec<(&str, i64)> = Vec::new();
    for (i, port) in &ports {
        let np = int_of(port, "nodePort");
        if np == 0 {
            continue;
        }
        let key = (str_of(port, "protocol"), np);
        if node_ports.contains(&key) {
            errs.push(FieldError::duplicate(
                &sp.child("ports").index(*i).child("nodePort"),
                np,
            ));
        }
        node_ports.push(key);
    }
    let mut keys: Vec<(&str, i64)> = Vec::new();
    for (i, port) in &ports {
        let key = (str_of(port, "protocol"), int_of(port, "port"));
        if keys.contains(&key) {
            // Go prints the internal ServicePort it used as the key.
            let raw = format!(
                "{{\"Name\":\"\",\"Protocol\":{},\"AppProtocol\":null,\"Port\":{},\"TargetPort\":0,\"NodePort\":0}}",
                crdkit_apimachinery::gofmt::json(&Value::from(key.0)),
                key.1
            );
            errs.push(FieldError::duplicate(
                &sp.child("ports").index(*i),
                BadValue::Raw(raw),
            ));
        }
        keys.push(key);
    }
    source_ranges(svc, spec, kind, errs);
    if is_set(spec, "allocateLoadBalancerNodePorts") && kind != "LoadBalancer" {
        errs.push(FieldError::forbidden(
            &sp.child("allocateLoadBalancerNodePorts"),
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if kind == "LoadBalancer" && !is_set(spec, "allocateLoadBalancerNodePorts") {
        errs.push(FieldError::required(
            &FieldPath::new("allocateLoadBalancerNodePorts"),
            "",
        ));
    }
    load_balancer_class(spec, None, errs);
    traffic_policies(spec, errs);
}

/// `validateClientIPAffinityConfig`.
pub(crate) fn client_ip_config(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    const WHEN: &str = "when session affinity type is ClientIP";
    let Some(cfg) = obj(spec, "sessionAffinityConfig") else {
        errs.push(FieldError::required(p, WHEN));
        return;
    };
    let Some(client) = obj(cfg, "clientIP") else {
        errs.push(FieldError::required(&p.child("clientIP"), WHEN));
        return;
    };
    let tp = p.child("clientIP").child("timeoutSeconds");
    match opt_int(client, "timeoutSeconds") {
        None => errs.push(FieldError::required(&tp, WHEN)),
        Some(t) if t <= 0 || t > 86400 => errs.push(FieldError::invalid(
            &tp,
            t,
            "must be greater than 0 and less than 86400",
        )),
        Some(_) => {}
    }
}

/// `ValidateServiceUpdate`.
pub(crate) fn service_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    let (ns, os) = (obj_or_empty(new, "spec"), obj_or_empty(old, "spec"));
    upgrade_downgrade(ns, os, errs);
    load_balancer_class(ns, Some(os), errs);
    if needs_health_check(os)
        && needs_health_check(ns)
        && int_of(ns, "healthCheckNodePort") != int_of(os, "healthCheckNodePort")
    {
        errs.push(FieldError::forbidden(
            &FieldPath::new("spec").child("healthCheckNodePort"),
            "field is immutable",
        ));
    }
    service(new, errs);
}
