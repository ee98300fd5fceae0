//! What a Service exposes outside the cluster: load balancer source ranges and classes, the
//! external and internal traffic policies, the health check node port, traffic distribution.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (the source range part of
//! `ValidateService`, `validateLoadBalancerClassField`, `validateServiceExternalTrafficPolicy`,
//! `validateServiceInternalTrafficFieldsValue`, `validateServiceTrafficDistribution`) and the
//! predicates of `pkg/api/service/util.go`. Source ranges are checked with the sloppy CIDR parser
//! only (not for canonical form).

use serde_json::Value;

use super::meta::qualified_name;
use super::net::port_num;
use super::read::{Obj, arr, int_of, obj, obj_or_empty, opt_str, str_of, strs};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::goparse::parse_cidr_sloppy;

/// `ExternallyAccessible`: load balancers, node ports, and cluster IPs with external IPs.
#[must_use]
pub fn externally_accessible(spec: &Obj) -> bool {
    match str_of(spec, "type") {
        "LoadBalancer" | "NodePort" => true,
        "ClusterIP" => !arr(spec, "externalIPs").is_empty(),
        _ => false,
    }
}

/// `NeedsHealthCheck`: a load balancer with a `Local` external traffic policy.
#[must_use]
pub fn needs_health_check(spec: &Obj) -> bool {
    str_of(spec, "type") == "LoadBalancer" && str_of(spec, "externalTrafficPolicy") == "Local"
}

/// `loadBalancerSourceRanges` and the legacy source range annotation: CIDRs, load balancers only.
pub(crate) fn source_ranges(svc: &Obj, spec: &Obj, kind: &str, errs: &mut Vec<FieldError>) {
    const CIDR: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
    const LB_ONLY: &str = "may only be used when `type` is 'LoadBalancer'";
    let ranges: Vec<&str> = strs(spec, "loadBalancerSourceRanges").collect();
    if !ranges.is_empty() {
        let p = FieldPath::new("spec").child("LoadBalancerSourceRanges");
        if kind != "LoadBalancer" {
            errs.push(FieldError::forbidden(&p, LB_ONLY));
        }
        for (i, r) in ranges.iter().enumerate() {
            let r = r.trim();
            if !parse_cidr_sloppy(r) {
                errs.push(FieldError::invalid(&p.index(i), r, CIDR));
            }
        }
        return;
    }
    const KEY: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";
    let Some(val) = obj(obj_or_empty(svc, "metadata"), "annotations")
        .and_then(|a| a.get(KEY))
        .and_then(Value::as_str)
    else {
        return;
    };
    let p = FieldPath::new("metadata").child("annotations").key(KEY);
    if kind != "LoadBalancer" {
        errs.push(FieldError::forbidden(&p, LB_ONLY));
    }
    let val = val.trim();
    if !val.is_empty() {
        for r in val.split(',') {
            let r = r.trim();
            if !parse_cidr_sloppy(r) {
                errs.push(FieldError::invalid(&p, r, CIDR));
            }
        }
    }
}

/// `validateLoadBalancerClassField` (`old`: the stored spec on update).
pub(crate) fn load_balancer_class(spec: &Obj, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    let p = FieldPath::new("spec").child("loadBalancerClass");
    let class = spec.get("loadBalancerClass").filter(|v| !v.is_null());
    let lb = str_of(spec, "type") == "LoadBalancer";
    if let Some(o) = old
        && lb
        && str_of(o, "type") == "LoadBalancer"
        && class != o.get("loadBalancerClass").filter(|v| !v.is_null())
    {
        errs.push(FieldError::invalid(
            &p,
            BadValue::Json(class.cloned().unwrap_or(Value::Null)),
            "may not change once set",
        ));
    }
    if old.is_some() {
        return;
    }
    match (lb, class) {
        (true, Some(c)) => qualified_name(c.as_str().unwrap_or(""), &p, errs),
        (false, Some(_)) => errs.push(FieldError::forbidden(
            &p,
            "may only be used when `type` is 'LoadBalancer'",
        )),
        _ => {}
    }
}

/// External and internal traffic policies, the health check node port, the traffic
/// distribution.
pub(crate) fn traffic_policies(spec: &Obj, errs: &mut Vec<FieldError>) {
    let sp = FieldPath::new("spec");
    let etp = str_of(spec, "externalTrafficPolicy");
    if !externally_accessible(spec) {
        if !etp.is_empty() {
            errs.push(FieldError::invalid(
                &sp.child("externalTrafficPolicy"),
                etp,
                "may only be set for externally-accessible services",
            ));
        }
    } else if etp.is_empty() {
        errs.push(FieldError::required(&sp.child("externalTrafficPolicy"), ""));
    } else if etp != "Cluster" && etp != "Local" {
        errs.push(FieldError::not_supported(
            &sp.child("externalTrafficPolicy"),
            etp,
            &["Cluster", "Local"],
        ));
    }
    let hc = int_of(spec, "healthCheckNodePort");
    if !needs_health_check(spec) {
        if hc != 0 {
            errs.push(FieldError::invalid(
                &sp.child("healthCheckNodePort"),
                hc,
                "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            ));
        }
    } else if hc == 0 {
        errs.push(FieldError::required(&sp.child("healthCheckNodePort"), ""));
    } else if let Some(msg) = port_num(hc) {
        errs.push(FieldError::invalid(
            &sp.child("healthCheckNodePort"),
            hc,
            msg,
        ));
    }
    match opt_str(spec, "internalTrafficPolicy") {
        None if matches!(
            str_of(spec, "type"),
            "NodePort" | "LoadBalancer" | "ClusterIP"
        ) =>
        {
            errs.push(FieldError::required(&sp.child("internalTrafficPolicy"), ""));
        }
        Some(itp) if itp != "Cluster" && itp != "Local" => {
            errs.push(FieldError::not_supported(
                &sp.child("internalTrafficPolicy"),
                itp,
                &["Cluster", "Local"],
            ));
        }
        _ => {}
    }
    if let Some(td) = opt_str(spec, "trafficDistribution")
        && !matches!(td, "PreferClose" | "PreferSameNode" | "PreferSameZone")
    {
        errs.push(FieldError::not_supported(
            &sp.child("trafficDistribution"),
            td,
            &["PreferClose", "PreferSameNode", "PreferSameZone"],
        ));
    }
}
