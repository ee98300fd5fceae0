//! Containers: names, images, ports, environment, probes, lifecycle handlers, pull and resize
//! policies, resources, security contexts.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validateContainers`,
//! `validateInitContainers`, `validateEphemeralContainers`, `validateContainerCommon`,
//! `validateContainerPorts`, `ValidateEnv` with the relaxed names of Kubernetes 1.35,
//! `ValidateEnvFrom`, the probes', handlers' and `ValidateSecurityContext`), with the pod
//! validation options of a 1.35 API server (sidecars, sleep of 0 seconds, resize policies on
//! sidecars allowed). Privileged containers are allowed (`--allow-privileged`, as envtest
//! and kind run the API server).

use serde_json::Value;

use super::env::{env, env_from};
use super::image::{only_for_pod, pull_policy};
use super::mounts::mounts;
use super::net::{port_name, port_num, protocol};
use super::pod_security::container_security_context;
use super::probes::handlers_and_probes;
use super::read::{Obj, int_of, is_set, items, obj, opt_str, str_of};
use super::resources;
use super::volumes::Volumes;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;

/// What the containers of a pod spec share.
pub(crate) struct PodContext<'a> {
    pub(crate) volumes: &'a Volumes,
    /// `terminationGracePeriodSeconds`, for sleep handlers.
    pub(crate) grace: Option<i64>,
    pub(crate) restart_policy: &'a str,
    /// `spec.securityContext.hostUsers` (true unless false).
    pub(crate) host_users: bool,
}

/// Fields the ephemeral containers may set (`allowedEphemeralContainerFields`).
pub(crate) const EPHEMERAL_FORBIDDEN: [&str; 6] = [
    "ports",
    "resources",
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
];

/// `validateContainers`.
pub(crate) fn containers(
    spec: &Obj,
    ctx: &PodContext<'_>,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    if spec
        .get("containers")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty)
    {
        errs.push(FieldError::required(path, ""));
        return;
    }
    let mut names_seen: Vec<&str> = Vec::new();
    for (i, c) in items(spec, "containers") {
        let p = path.index(i);
        common(c, ctx, &p, errs);
        let name = str_of(c, "name");
        if names_seen.contains(&name) {
            errs.push(FieldError::duplicate(&p.child("name"), name));
        } else {
            names_seen.push(name);
        }
        handlers_and_probes(c, ctx.grace, &p, errs);
        if is_set(c, "restartPolicy") {
            errs.push(FieldError::forbidden(
                &p.child("restartPolicy"),
                "may not be set for non-init containers",
            ));
        }
    }
    host_port_conflicts(items(spec, "containers"), path, errs);
}

/// `validateInitContainers`.
pub(crate) fn init_containers(
    spec: &Obj,
    ctx: &PodContext<'_>,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let mut names_seen: Vec<&str> = items(spec, "containers")
        .map(|(_, c)| str_of(c, "name"))
        .collect();
    for (i, c) in items(spec, "initContainers") {
        let p = path.index(i);
        common(c, ctx, &p, errs);
        let mut restart_always = false;
        if let Some(rp) = opt_str(c, "restartPolicy") {
            if rp != "Always" {
                errs.push(FieldError::not_supported(
                    &p.child("restartPolicy"),
                    rp,
                    &["Always"],
                ));
            }
            restart_always = rp == "Always";
        }
        let name = str_of(c, "name");
        if names_seen.contains(&name) {
            errs.push(FieldError::duplicate(&p.child("name"), name));
        } else if !name.is_empty() {
            names_seen.push(name);
        }
        host_port_conflicts(std::iter::once((i, c)), path, errs);
        if restart_always {
            handlers_and_probes(c, ctx.grace, &p, errs);
        } else {
            for k in [
                "lifecycle",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
            ] {
                if is_set(c, k) {
                    errs.push(FieldError::forbidden(
                        &p.child(k),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
    }
}

/// `validateEphemeralContainers`.
pub(crate) fn ephemeral_containers(
    spec: &Obj,
    ctx: &PodContext<'_>,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let others: Vec<&str> = ["containers", "initContainers"]
        .iter()
        .flat_map(|l| items(spec, l).map(|(_, c)| str_of(c, "name")))
        .collect();
    let mut all = others.clone();
    for (i, c) in items(spec, "ephemeralContainers") {
        let p = path.index(i);
        common(c, ctx, &p, errs);
        only_for_pod(c, &p, errs);
        let name = str_of(c, "name");
        if all.contains(&name) {
            errs.push(FieldError::duplicate(&p.child("name"), name));
        } else {
            all.push(name);
        }
        let target = str_of(c, "targetContainerName");
        if !target.is_empty() && !others.contains(&target) {
            errs.push(FieldError::not_found(
                &p.child("targetContainerName"),
                target,
            ));
        }
        for k in EPHEMERAL_FORBIDDEN {
            let set = match c.get(k) {
                Some(Value::Object(o)) => !o.is_empty(),
                Some(Value::Array(a)) => !a.is_empty(),
                Some(v) => !v.is_null(),
                None => false,
            };
            if set {
                errs.push(FieldError::forbidden(
                    &p.child(k),
                    "cannot be set for an Ephemeral Container",
                ));
            }
        }
        for (j, vm) in items(c, "volumeMounts") {
            for k in ["subPath", "subPathExpr"] {
                if !str_of(vm, k).is_empty() {
                    errs.push(FieldError::forbidden(
                        &p.child("volumeMounts").index(j).child(k),
                        "cannot be set for an Ephemeral Container",
                    ));
                }
            }
        }
    }
}

/// `validateContainerCommon`.
pub(crate) fn common(c: &Obj, ctx: &PodContext<'_>, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let name = str_of(c, "name");
    if name.is_empty() {
        errs.push(FieldError::required(&p.child("name"), ""));
    } else {
        for msg in names::dns1123_label(name) {
            errs.push(FieldError::invalid(&p.child("name"), name, msg));
        }
    }
    if str_of(c, "image").is_empty() {
        errs.push(FieldError::required(&p.child("image"), ""));
    }
    match str_of(c, "terminationMessagePolicy") {
        "File" | "FallbackToLogsOnError" => {}
        "" => errs.push(FieldError::required(
            &p.child("terminationMessagePolicy"),
            "",
        )),
        other => errs.push(FieldError::not_supported(
            &p.child("terminationMessagePolicy"),
            other,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    ports(c, &p.child("ports"), errs);
    env(c, &p.child("env"), errs);
    env_from(c, &p.child("envFrom"), errs);
    mounts(c, ctx.volumes, p, errs);
    pull_policy(
        str_of(c, "imagePullPolicy"),
        &p.child("imagePullPolicy"),
        errs,
    );
    if let Some(res) = obj(c, "resources") {
        resources::container_requirements(res, &p.child("resources"), errs);
    }
    resize_policy(c, ctx.restart_policy, &p.child("resizePolicy"), errs);
    if let Some(sc) = obj(c, "securityContext") {
        container_security_context(sc, ctx.host_users, &p.child("securityContext"), errs);
    }
}

/// `validateContainerPorts`.
pub(crate) fn ports(c: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let mut names_seen: Vec<&str> = Vec::new();
    for (i, port) in items(c, "ports") {
        let ip = p.index(i);
        let name = str_of(port, "name");
        if !name.is_empty() {
            let msgs = port_name(name);
            if !msgs.is_empty() {
                for msg in msgs {
                    errs.push(FieldError::invalid(&ip.child("name"), name, msg));
                }
            } else if names_seen.contains(&name) {
                errs.push(FieldError::duplicate(&ip.child("name"), name));
            } else {
                names_seen.push(name);
            }
        }
        let cp = int_of(port, "containerPort");
        if cp == 0 {
            errs.push(FieldError::required(&ip.child("containerPort"), ""));
        } else if let Some(msg) = port_num(cp) {
            errs.push(FieldError::invalid(&ip.child("containerPort"), cp, msg));
        }
        let hp = int_of(port, "hostPort");
        if hp != 0
            && let Some(msg) = port_num(hp)
        {
            errs.push(FieldError::invalid(&ip.child("hostPort"), hp, msg));
        }
        protocol(str_of(port, "protocol"), &ip.child("protocol"), errs);
    }
}

/// `AccumulateUniqueHostPorts`: one host port per protocol and host IP.
pub(crate) fn host_port_conflicts<'a>(
    list: impl Iterator<Item = (usize, &'a Obj)>,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let mut seen: Vec<String> = Vec::new();
    for (ci, c) in list {
        for (pi, port) in items(c, "ports") {
            let hp = int_of(port, "hostPort");
            if hp == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{hp}",
                str_of(port, "protocol"),
                str_of(port, "hostIP")
            );
            if seen.contains(&key) {
                errs.push(FieldError::duplicate(
                    &path.index(ci).child("ports").index(pi).child("hostPort"),
                    key,
                ));
            } else {
                seen.push(key);
            }
        }
    }
}

/// `validateResizePolicy`.
pub(crate) fn resize_policy(c: &Obj, pod_restart: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, policy) in items(c, "resizePolicy") {
        let (name, restart) = (
            str_of(policy, "resourceName"),
            str_of(policy, "restartPolicy"),
        );
        if seen.contains(&name) {
            errs.push(FieldError::duplicate(&p.index(i), name));
        }
        seen.push(name);
        match name {
            "cpu" | "memory" => {}
            "" => errs.push(FieldError::required(p, "")),
            other => errs.push(FieldError::not_supported(p, other, &["cpu", "memory"])),
        }
        match restart {
            "NotRequired" | "RestartContainer" => {}
            "" => errs.push(FieldError::required(p, "")),
            other => errs.push(FieldError::not_supported(
                p,
                other,
                &["NotRequired", "RestartContainer"],
            )),
        }
        if pod_restart == "Never" && restart != "NotRequired" {
            errs.push(FieldError::invalid(
                p,
                restart,
                "must be 'NotRequired' when `restartPolicy` is 'Never'",
            ));
        }
    }
}
