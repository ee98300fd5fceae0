//! A container's volume mounts and devices.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`ValidateVolumeMounts`,
//! `validateMountPropagation`, `validateMountRecursiveReadOnly`, `ValidateVolumeDevices`).

use super::projections::local_descending_path;
use super::volumes::Volumes;

use super::read::{Obj, bool_of, items, obj, opt_str, str_of};
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// `ValidateVolumeMounts` and `ValidateVolumeDevices` of one container.
pub(crate) fn mounts(c: &Obj, volumes: &Volumes, path: &FieldPath, errs: &mut Vec<FieldError>) {
    let devices: Vec<(&str, &str)> = items(c, "volumeDevices")
        .map(|(_, d)| (str_of(d, "name"), str_of(d, "devicePath")))
        .collect();
    let mounts_list: Vec<(&str, &str)> = items(c, "volumeMounts")
        .map(|(_, m)| (str_of(m, "name"), str_of(m, "mountPath")))
        .collect();
    let privileged = obj(c, "securityContext").is_some_and(|s| bool_of(s, "privileged"));
    let mp = path.child("volumeMounts");
    let mut points: Vec<&str> = Vec::new();
    for (i, m) in items(c, "volumeMounts") {
        let ip = mp.index(i);
        let (name, mount_path) = (str_of(m, "name"), str_of(m, "mountPath"));
        if name.is_empty() {
            errs.push(FieldError::required(&ip.child("name"), ""));
        }
        if !volumes.contains_key(name) {
            errs.push(FieldError::not_found(&ip.child("name"), name));
        }
        if mount_path.is_empty() {
            errs.push(FieldError::required(&ip.child("mountPath"), ""));
        }
        if points.contains(&mount_path) {
            errs.push(FieldError::invalid(
                &ip.child("mountPath"),
                mount_path,
                "must be unique",
            ));
        }
        points.push(mount_path);
        if devices.iter().any(|(n, _)| *n == name) {
            errs.push(FieldError::invalid(
                &ip.child("name"),
                name,
                "must not already exist in volumeDevices",
            ));
        }
        if devices.iter().any(|(_, d)| *d == mount_path) {
            errs.push(FieldError::invalid(
                &ip.child("mountPath"),
                mount_path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        let (sub, sub_expr) = (str_of(m, "subPath"), str_of(m, "subPathExpr"));
        if volumes.get(name) == Some(&"image") {
            if !sub.is_empty() {
                errs.push(FieldError::invalid(
                    &ip.child("subPath"),
                    sub,
                    "not allowed in image volume sources",
                ));
            }
            if !sub_expr.is_empty() {
                errs.push(FieldError::invalid(
                    &ip.child("subPathExpr"),
                    sub_expr,
                    "not allowed in image volume sources",
                ));
            }
        }
        // Go checks both sub-paths under the list's path, not the item's.
        if !sub.is_empty() {
            local_descending_path(sub, &mp.child("subPath"), errs);
        }
        if !sub_expr.is_empty() {
            if !sub.is_empty() {
                errs.push(FieldError::invalid(
                    &ip.child("subPathExpr"),
                    sub_expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            local_descending_path(sub_expr, &mp.child("subPathExpr"), errs);
        }
        if let Some(prop) = opt_str(m, "mountPropagation") {
            let supported = ["Bidirectional", "HostToContainer", "None"];
            if !supported.contains(&prop) {
                errs.push(FieldError::not_supported(
                    &mp.child("mountPropagation"),
                    prop,
                    &supported,
                ));
            }
            if prop == "Bidirectional" && !privileged {
                errs.push(FieldError::forbidden(
                    &mp.child("mountPropagation"),
                    "Bidirectional mount propagation is available only to privileged containers",
                ));
            }
        }
        if let Some(rro) = opt_str(m, "recursiveReadOnly") {
            let rp = mp.child("recursiveReadOnly");
            match rro {
                "Disabled" => {}
                "Enabled" | "IfPossible" => {
                    if !bool_of(m, "readOnly") {
                        errs.push(FieldError::forbidden(
                            &rp,
                            "may only be specified when readOnly is true",
                        ));
                    }
                    if opt_str(m, "mountPropagation").is_some_and(|p| p != "None") {
                        errs.push(FieldError::forbidden(
                            &rp,
                            "may only be specified when mountPropagation is None or not specified",
                        ));
                    }
                }
                other => errs.push(FieldError::not_supported(
                    &rp,
                    other,
                    &["Disabled", "Enabled", "IfPossible"],
                )),
            }
        }
    }
    let dp = path.child("volumeDevices");
    let (mut dev_paths, mut dev_names): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    for (i, (name, dev_path)) in devices.iter().enumerate() {
        let ip = dp.index(i);
        let source = volumes.get(*name);
        if name.is_empty() {
            errs.push(FieldError::required(&ip.child("name"), ""));
        }
        if dev_names.contains(name) {
            errs.push(FieldError::invalid(
                &ip.child("name"),
                *name,
                "must be unique",
            ));
        }
        match source {
            Some(s) if *s != "persistentVolumeClaim" && *s != "ephemeral" => errs.push(FieldError::invalid(
                &ip.child("name"),
                *name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            )),
            Some(_) => {}
            None => errs.push(FieldError::not_found(&ip.child("name"), *name)),
        }
        if dev_path.is_empty() {
            errs.push(FieldError::required(&ip.child("devicePath"), ""));
        }
        if dev_paths.contains(dev_path) {
            errs.push(FieldError::invalid(
                &ip.child("devicePath"),
                *dev_path,
                "must be unique",
            ));
        }
        if !dev_path.is_empty() && dev_path.split('/').any(|e| e == "..") {
            errs.push(FieldError::invalid(
                &ip.child("devicePath"),
                *dev_path,
                "can not contain backsteps ('..')",
            ));
        } else {
            dev_paths.push(dev_path);
        }
        if mounts_list.iter().any(|(n, _)| n == name) {
            errs.push(FieldError::invalid(
                &ip.child("name"),
                *name,
                "must not already exist in volumeMounts",
            ));
        }
        if mounts_list.iter().any(|(_, m)| m == dev_path) {
            errs.push(FieldError::invalid(
                &ip.child("devicePath"),
                *dev_path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            dev_names.push(name);
        }
    }
}
