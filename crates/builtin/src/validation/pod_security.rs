//! Security contexts, of pods and of containers.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validatePodSpecSecurityContext`,
//! `validateSysctls`, `ValidateSecurityContext`, `validateSeccompProfileField`,
//! `ValidateAppArmorProfileField`). Windows options are not checked.

use serde_json::Value;

use super::net::range_error;
use super::read::{Obj, arr, bool_of, items, obj, opt_int, opt_str, str_of};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// A sysctl name: dot- or slash-separated segments (`SysctlContainSlashFmt`), at most 253.
pub(crate) fn sysctl_name(name: &str) -> bool {
    let seg = |s: &str| {
        let b = s.as_bytes();
        let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        !b.is_empty()
            && alnum(&b[0])
            && alnum(&b[b.len() - 1])
            && b.iter().all(|c| alnum(c) || *c == b'-' || *c == b'_')
    };
    name.len() <= 253 && name.split(['.', '/']).all(seg)
}

/// `validatePodSpecSecurityContext` (Windows options aside).
pub(crate) fn pod_security_context(
    spec: &Obj,
    sc: &Obj,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let scp = p.child("securityContext");
    let id_range = range_error(0, i64::from(i32::MAX));
    for k in ["fsGroup", "runAsUser", "runAsGroup"] {
        if let Some(id) = opt_int(sc, k)
            && !(0..=i64::from(i32::MAX)).contains(&id)
        {
            errs.push(FieldError::invalid(&scp.child(k), id, id_range.clone()));
        }
    }
    for (i, g) in arr(sc, "supplementalGroups").iter().enumerate() {
        let g = g.as_i64().unwrap_or(0);
        if !(0..=i64::from(i32::MAX)).contains(&g) {
            errs.push(FieldError::invalid(
                &scp.child("supplementalGroups").index(i),
                g,
                id_range.clone(),
            ));
        }
    }
    if bool_of(spec, "shareProcessNamespace") && bool_of(spec, "hostPID") {
        errs.push(FieldError::invalid(
            &scp.child("shareProcessNamespace"),
            true,
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    let sp = scp.child("sysctls");
    let mut seen: Vec<&str> = Vec::new();
    for (i, s) in items(sc, "sysctls") {
        let name = str_of(s, "name");
        let np = sp.index(i).child("name");
        if name.is_empty() {
            errs.push(FieldError::required(&np, ""));
        } else if !sysctl_name(name) {
            errs.push(FieldError::invalid(
                &np,
                name,
                "must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$",
            ));
        } else if seen.contains(&name) {
            errs.push(FieldError::duplicate(&np, name));
        }
        if bool_of(spec, "hostNetwork") && name.starts_with("net.") {
            errs.push(FieldError::invalid(
                &np,
                name,
                "may not be specified when 'hostNetwork' is true",
            ));
        } else if bool_of(spec, "hostIPC")
            && (name.starts_with("kernel.shm")
                || name.starts_with("kernel.msg")
                || name == "kernel.sem"
                || name.starts_with("fs.mqueue."))
        {
            errs.push(FieldError::invalid(
                &np,
                name,
                "may not be specified when 'hostIPC' is true",
            ));
        }
        seen.push(name);
    }
    if let Some(policy) = opt_str(sc, "fsGroupChangePolicy")
        && policy != "OnRootMismatch"
        && policy != "Always"
    {
        errs.push(FieldError::not_supported(
            &scp.child("fsGroupChangePolicy"),
            policy,
            &["Always", "OnRootMismatch"],
        ));
    }
    if let Some(s) = obj(sc, "seccompProfile") {
        seccomp_profile(s, &scp.child("seccompProfile"), errs);
    }
    if let Some(a) = obj(sc, "appArmorProfile") {
        app_armor_profile(a, &scp.child("appArmorProfile"), errs);
    }
    if let Some(policy) = opt_str(sc, "supplementalGroupsPolicy")
        && policy != "Merge"
        && policy != "Strict"
    {
        errs.push(FieldError::not_supported(
            &scp.child("supplementalGroupsPolicy"),
            policy,
            &["Merge", "Strict"],
        ));
    }
    if let Some(policy) = opt_str(sc, "seLinuxChangePolicy")
        && policy != "Recursive"
        && policy != "MountOption"
    {
        errs.push(FieldError::not_supported(
            &scp.child("seLinuxChangePolicy"),
            policy,
            &["MountOption", "Recursive"],
        ));
    }
}

/// `ValidateSecurityContext` of a container (Windows options are not checked).
pub(crate) fn container_security_context(
    sc: &Obj,
    host_users: bool,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    for k in ["runAsUser", "runAsGroup"] {
        if let Some(id) = opt_int(sc, k)
            && !(0..=i64::from(i32::MAX)).contains(&id)
        {
            errs.push(FieldError::invalid(
                &p.child(k),
                id,
                range_error(0, i64::from(i32::MAX)),
            ));
        }
    }
    if let Some(pm) = opt_str(sc, "procMount") {
        if pm != "Default" && pm != "Unmasked" {
            errs.push(FieldError::not_supported(
                &p.child("procMount"),
                pm,
                &["Default", "Unmasked"],
            ));
        }
        if host_users && pm == "Unmasked" {
            errs.push(FieldError::invalid(
                &p.child("procMount"),
                pm,
                "`hostUsers` must be false to use `Unmasked`",
            ));
        }
    }
    if let Some(sp) = obj(sc, "seccompProfile") {
        seccomp_profile(sp, &p.child("seccompProfile"), errs);
    }
    if sc.get("allowPrivilegeEscalation") == Some(&Value::Bool(false)) {
        let bad = || BadValue::Json(Value::Object(sc.clone()));
        if bool_of(sc, "privileged") {
            errs.push(FieldError::invalid(
                p,
                bad(),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        let adds_sys_admin = obj(sc, "capabilities")
            .is_some_and(|c| super::read::strs(c, "add").any(|a| a == "CAP_SYS_ADMIN"));
        if adds_sys_admin {
            errs.push(FieldError::invalid(
                p,
                bad(),
                "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
            ));
        }
    }
    if let Some(a) = obj(sc, "appArmorProfile") {
        app_armor_profile(a, &p.child("appArmorProfile"), errs);
    }
}

/// `validateSeccompProfileField`.
pub(crate) fn seccomp_profile(sp: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let t = str_of(sp, "type");
    match t {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errs.push(FieldError::required(
            &p.child("type"),
            "type is required when seccompProfile is set",
        )),
        other => errs.push(FieldError::not_supported(
            &p.child("type"),
            other,
            &["Localhost", "RuntimeDefault", "Unconfined"],
        )),
    }
    let local = opt_str(sp, "localhostProfile");
    if t == "Localhost" {
        match local {
            None => errs.push(FieldError::required(
                &p.child("localhostProfile"),
                "must be set when seccomp type is Localhost",
            )),
            Some(l) => {
                super::projections::local_descending_path(l, &p.child("localhostProfile"), errs);
            }
        }
    } else if local.is_some() {
        errs.push(FieldError::invalid(
            &p.child("localhostProfile"),
            BadValue::Json(Value::Object(sp.clone())),
            "can only be set when seccomp type is Localhost",
        ));
    }
}

/// `ValidateAppArmorProfileField`.
pub(crate) fn app_armor_profile(a: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let local = opt_str(a, "localhostProfile");
    match str_of(a, "type") {
        "Localhost" => match local {
            None => errs.push(FieldError::required(
                &p.child("localhostProfile"),
                "must be set when AppArmor type is Localhost",
            )),
            Some(l) => {
                if l.trim() != l {
                    errs.push(FieldError::invalid(
                        &p.child("localhostProfile"),
                        l,
                        "must not be padded with whitespace",
                    ));
                } else if l.is_empty() {
                    errs.push(FieldError::required(
                        &p.child("localhostProfile"),
                        "must be set when AppArmor type is Localhost",
                    ));
                }
                if l.len() > 4095 {
                    errs.push(FieldError::too_long(&p.child("localhostProfile"), 4095));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(l) = local {
                errs.push(FieldError::invalid(
                    &p.child("localhostProfile"),
                    l,
                    "can only be set when AppArmor type is Localhost",
                ));
            }
        }
        "" => errs.push(FieldError::required(
            &p.child("type"),
            "type is required when appArmorProfile is set",
        )),
        other => errs.push(FieldError::not_supported(
            &p.child("type"),
            other,
            &["Localhost", "RuntimeDefault", "Unconfined"],
        )),
    }
}
