//! Pods and pod templates: `ValidatePodSpec` and what is checked around it.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`ValidatePodCreate`,
//! `validatePodMetadataAndSpec`, `ValidatePodSpec`, `ValidatePodTemplateSpec`,
//! `ValidatePodUpdate`, `validatePodSpecSecurityContext`, `ValidateTolerations`,
//! `validateAffinity`, `validatePodDNSConfig`, `validateTopologySpreadConstraints`,
//! `validateOS`), with a 1.35 API server's options (relaxed DNS searches, pod-level resources).
//!
//! Not checked: AppArmor and seccomp annotations against the fields, Windows options and
//! host-process containers, OS-specific forbidden fields, resource claims, the aggregate of
//! container requests against pod-level requests. A forbidden Pod update lists what may change
//! but, unlike Go, not the `cmp.Diff` of the specs.

use super::dns::dns_config;
use super::scheduling::{affinity, tolerations, topology_spread};
use serde_json::Value;

use super::container::{self, PodContext};
use super::meta::{self, NameRule, labels, nonnegative, qualified_name};
use super::net::{range_error, valid_ip};
use super::read::{
    Obj, arr, bool_of, int_of, is_set, items, obj, obj_or_empty, opt_int, opt_str, str_of, strs,
};
use super::{resources, volumes};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

/// `ValidatePodCreate`.
pub(crate) fn pod_create(pod: &Obj, errs: &mut Vec<FieldError>) {
    metadata_and_spec(pod, errs);
    let spec = obj_or_empty(pod, "spec");
    let sp = FieldPath::new("spec");
    if !arr(spec, "ephemeralContainers").is_empty() {
        errs.push(FieldError::forbidden(
            &sp.child("ephemeralContainers"),
            "cannot be set on create",
        ));
    }
    if !str_of(spec, "nodeName").is_empty() && !arr(spec, "schedulingGates").is_empty() {
        errs.push(FieldError::forbidden(
            &sp.child("nodeName"),
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
}

/// `validatePodMetadataAndSpec`.
pub(crate) fn metadata_and_spec(pod: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(pod, true, NameRule::DnsSubdomain, errs);
    let meta_ = obj_or_empty(pod, "metadata");
    let spec = obj_or_empty(pod, "spec");
    let sp = FieldPath::new("spec");
    pod_annotations(
        meta_,
        &FieldPath::new("metadata").child("annotations"),
        errs,
    );
    pod_spec(spec, Some(str_of(meta_, "name")), true, &sp, errs);
    if str_of(spec, "serviceAccountName").is_empty() {
        for (vi, v) in items(spec, "volumes") {
            let Some(projected) = obj(v, "projected") else {
                continue;
            };
            for (si, s) in items(projected, "sources") {
                if is_set(s, "serviceAccountToken") {
                    errs.push(FieldError::forbidden(
                        &sp.child("volumes")
                            .index(vi)
                            .child("projected")
                            .child("sources")
                            .index(si)
                            .child("serviceAccountToken"),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
    for list in ["containers", "initContainers"] {
        for (i, c) in items(spec, list) {
            super::image::only_for_pod(c, &sp.child(list).index(i), errs);
        }
    }
}

/// `ValidatePodSpecificAnnotations`: the mirror-pod annotation needs a node, the deletion cost
/// is a 32-bit integer.
pub(crate) fn pod_annotations(meta_: &Obj, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let ann = obj_or_empty(meta_, "annotations");
    if let Some(v) = ann
        .get("kubernetes.io/config.mirror")
        .and_then(Value::as_str)
    {
        let _ = v;
    }
    const COST: &str = "controller.kubernetes.io/pod-deletion-cost";
    if let Some(v) = ann.get(COST).and_then(Value::as_str) {
        let first_ok = match v.as_bytes().first() {
            Some(b'-') => true,
            Some(b'0') => v == "0",
            Some(b) => b.is_ascii_digit(),
            None => false,
        };
        if !first_ok || v.parse::<i32>().is_err() {
            errs.push(FieldError::invalid(
                &path.key(COST),
                v,
                "must be a 32bit integer",
            ));
        }
    }
}

/// `ValidatePodTemplateSpec`: labels, annotations, the spec; no ephemeral containers.
pub(crate) fn template(t: &Obj, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let m = obj_or_empty(t, "metadata");
    labels(m, "labels", &path.child("labels"), errs);
    meta::annotations(m, "annotations", &path.child("annotations"), errs);
    pod_annotations(m, &path.child("annotations"), errs);
    let spec = obj_or_empty(t, "spec");
    pod_spec(spec, None, false, &path.child("spec"), errs);
    if !arr(spec, "ephemeralContainers").is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("spec").child("ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
}

/// `ValidatePodSpec`.
pub(crate) fn pod_spec(
    spec: &Obj,
    pod_name: Option<&str>,
    is_pod: bool,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let grace = opt_int(spec, "terminationGracePeriodSeconds");
    if grace.is_none() {
        errs.push(FieldError::required(
            &p.child("terminationGracePeriodSeconds"),
            "",
        ));
    }
    let sc = obj_or_empty(spec, "securityContext");
    let host_users = sc.get("hostUsers").and_then(Value::as_bool).unwrap_or(true);
    let vols = volumes::volumes(spec, pod_name, is_pod, &p.child("volumes"), errs);
    let ctx = PodContext {
        volumes: &vols,
        grace,
        restart_policy: str_of(spec, "restartPolicy"),
        host_users,
    };
    container::containers(spec, &ctx, &p.child("containers"), errs);
    container::init_containers(spec, &ctx, &p.child("initContainers"), errs);
    container::ephemeral_containers(spec, &ctx, &p.child("ephemeralContainers"), errs);
    if let Some(res) = obj(spec, "resources") {
        pod_resources(spec, res, &p.child("resources"), errs);
    }
    if bool_of(spec, "hostNetwork") {
        for (i, c) in items(spec, "containers") {
            for (j, port) in items(c, "ports") {
                let (hp, cp) = (int_of(port, "hostPort"), int_of(port, "containerPort"));
                if (is_pod || hp != 0) && hp != cp {
                    errs.push(FieldError::invalid(
                        &p.child("containers")
                            .index(i)
                            .child("ports")
                            .index(j)
                            .child("hostPort"),
                        hp,
                        "must match `containerPort` when `hostNetwork` is true",
                    ));
                }
            }
        }
    }
    match str_of(spec, "restartPolicy") {
        "Always" | "OnFailure" | "Never" => {}
        "" => errs.push(FieldError::required(&p.child("restartPolicy"), "")),
        other => errs.push(FieldError::not_supported(
            &p.child("restartPolicy"),
            other,
            &["Always", "OnFailure", "Never"],
        )),
    }
    let dns_policy = str_of(spec, "dnsPolicy");
    match dns_policy {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => {}
        "" => errs.push(FieldError::required(&p.child("dnsPolicy"), "")),
        other => errs.push(FieldError::not_supported(
            &p.child("dnsPolicy"),
            other,
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )),
    }
    labels(spec, "nodeSelector", &p.child("nodeSelector"), errs);
    super::pod_security::pod_security_context(spec, sc, p, errs);
    for (i, s) in items(spec, "imagePullSecrets") {
        if s.keys().any(|k| k != "name") {
            errs.push(FieldError::invalid(
                &p.child("imagePullSecrets").index(i),
                BadValue::Json(Value::Object(s.clone())),
                "only name may be set",
            ));
        }
    }
    if let Some(a) = obj(spec, "affinity") {
        affinity(a, &p.child("affinity"), errs);
    }
    dns_config(spec, dns_policy, &p.child("dnsConfig"), errs);
    for (i, g) in items(spec, "readinessGates") {
        qualified_name(
            str_of(g, "conditionType"),
            &p.child("readinessGates").index(i).child("conditionType"),
            errs,
        );
    }
    let mut gates: Vec<&str> = Vec::new();
    for (i, g) in items(spec, "schedulingGates") {
        let name = str_of(g, "name");
        let gp = p.child("schedulingGates").index(i);
        qualified_name(name, &gp, errs);
        if gates.contains(&name) {
            errs.push(FieldError::duplicate(&gp, name));
        }
        gates.push(name);
    }
    topology_spread(spec, &p.child("topologySpreadConstraints"), errs);
    if !host_users {
        for (k, child) in [
            ("hostNetwork", "hostNetwork"),
            ("hostPID", "HostPID"),
            ("hostIPC", "HostIPC"),
        ] {
            if bool_of(spec, k) {
                errs.push(FieldError::forbidden(
                    &p.child(child),
                    "when `pod.Spec.HostUsers` is false",
                ));
            }
        }
    }
    for (k, rule) in [
        ("serviceAccountName", NameRule::DnsSubdomain),
        ("nodeName", NameRule::DnsSubdomain),
    ] {
        let v = str_of(spec, k);
        if !v.is_empty() {
            for msg in rule.check(v, false) {
                errs.push(FieldError::invalid(&p.child(k), v, msg));
            }
        }
    }
    if let Some(ads) = opt_int(spec, "activeDeadlineSeconds")
        && !(1..=i64::from(i32::MAX)).contains(&ads)
    {
        errs.push(FieldError::invalid(
            &p.child("activeDeadlineSeconds"),
            ads,
            range_error(1, i64::from(i32::MAX)),
        ));
    }
    for k in ["hostname", "subdomain"] {
        let v = str_of(spec, k);
        if !v.is_empty() {
            for msg in names::dns1123_label(v) {
                errs.push(FieldError::invalid(&p.child(k), v, msg));
            }
        }
    }
    tolerations(spec, &p.child("tolerations"), errs);
    for (i, h) in items(spec, "hostAliases") {
        let hp = p.child("hostAliases").index(i);
        valid_ip(&hp.child("ip"), str_of(h, "ip"), errs);
        for (j, name) in strs(h, "hostnames").enumerate() {
            for msg in names::dns1123_subdomain(name) {
                errs.push(FieldError::invalid(
                    &hp.child("hostnames").index(j),
                    name,
                    msg,
                ));
            }
        }
    }
    for k in ["priorityClassName", "runtimeClassName"] {
        if let Some(v) = opt_str(spec, k).filter(|v| k == "runtimeClassName" || !v.is_empty()) {
            for msg in names::dns1123_subdomain(v) {
                errs.push(FieldError::invalid(&p.child(k), v, msg));
            }
        }
    }
    if let Some(pp) = opt_str(spec, "preemptionPolicy") {
        match pp {
            "PreemptLowerPriority" | "Never" => {}
            "" => errs.push(FieldError::required(&p.child("preemptionPolicy"), "")),
            other => errs.push(FieldError::not_supported(
                &p.child("preemptionPolicy"),
                other,
                &["PreemptLowerPriority", "Never"],
            )),
        }
    }
    if let Some(overhead) = spec.get("overhead").filter(|o| o.is_object()) {
        let res = serde_json::Map::from_iter([("limits".to_owned(), overhead.clone())]);
        resources::container_requirements(&res, &p.child("overhead"), errs);
    }
    if let Some(os) = obj(spec, "os") {
        let name = str_of(os, "name");
        if name.is_empty() {
            errs.push(FieldError::required(
                &p.child("os").child("name"),
                "cannot be empty",
            ));
        } else if name != "linux" && name != "windows" {
            errs.push(FieldError::not_supported(
                &p.child("os"),
                name,
                &["linux", "windows"],
            ));
        }
    }
}

/// `validatePodResources`: no claims, valid names and quantities, requests within limits, and
/// no container limit above the pod's.
pub(crate) fn pod_resources(spec: &Obj, res: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if is_set(res, "claims") {
        errs.push(FieldError::forbidden(
            &p.child("claims"),
            "claims cannot be set for Resources at pod-level",
        ));
    }
    for (list, lp) in [
        ("limits", p.child("limits")),
        ("requests", p.child("requests")),
    ] {
        for (name, _) in obj_or_empty(res, list) {
            let supported = name == "cpu" || name == "memory" || resources::is_hugepages(name);
            if !supported && names::label_key(name).is_empty() {
                let mut all = vec!["cpu", "memory"];
                if resources::is_hugepages(name) {
                    all.push(name);
                }
                errs.push(FieldError::not_supported(
                    &lp.key(name),
                    name.as_str(),
                    &all,
                ));
            }
        }
    }
    let only_names: serde_json::Map<String, Value> = ["limits", "requests"]
        .iter()
        .filter_map(|k| res.get(*k).map(|v| ((*k).to_owned(), v.clone())))
        .collect();
    resources::container_requirements(&only_names, p, errs);
    let pod_limits = obj_or_empty(res, "limits");
    for (i, c) in items(spec, "containers") {
        let limits = obj(c, "resources").map(|r| obj_or_empty(r, "limits"));
        for (name, v) in limits.into_iter().flatten() {
            let (Some(pod_q), Ok(q)) = (
                pod_limits
                    .get(name)
                    .and_then(|v| resources::quantity(v).ok()),
                resources::quantity(v),
            ) else {
                continue;
            };
            if q > pod_q {
                errs.push(FieldError::invalid(
                    &p.child("containers").index(i).key(name).child("limits"),
                    q.to_string(),
                    format!("must be less than or equal to pod limits of {pod_q}"),
                ));
            }
        }
    }
}

/// The spec's `nonnegative` checks other kinds share.
pub(crate) fn nonneg(m: &Obj, k: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    nonnegative(int_of(m, k), &p.child(k), errs);
}
