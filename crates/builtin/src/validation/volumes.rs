//! A pod's volumes, and the mounts and devices that refer to them.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`ValidateVolumes`,
//! `validateVolumeSource`, the sources' `validate*VolumeSource`, `validateKeyToPath`,
//! `ValidateLocalNonReservedPath`, `ValidateVolumeMounts`, `ValidateVolumeDevices`,
//! `validateObjectFieldSelector` with `ConvertDownwardAPIFieldLabel`). Go's field names are
//! kept where they differ from the JSON ones (`downwarAPI`, `cephFS`, `persistentDisk`).
//! The legacy cloud sources are checked for their required fields only (not iSCSI's IQN
//! formats, Azure disk URIs, Quobyte registries or flex-volume option namespaces); cluster
//! trust bundle projections are counted but not checked.

use super::projections::{
    downward_api_file, file_mode, key_to_path, no_backsteps, projection_sources,
};
use std::collections::BTreeMap;

use super::read::{Obj, arr, is_set, items, obj, obj_or_empty, opt_str, str_of};
use super::resources;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;

/// Volume names and the source key each uses, for mounts and devices.
pub(crate) type Volumes = BTreeMap<String, &'static str>;

/// Each source: its JSON key, the name Go's "more than 1 volume type" error uses, and the
/// path its own checks use.
pub(crate) const SOURCES: &[(&str, &str, &str)] = &[
    ("emptyDir", "emptyDir", "emptyDir"),
    ("hostPath", "hostPath", "hostPath"),
    ("gitRepo", "gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk", "persistentDisk"),
    (
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        "awsElasticBlockStore",
    ),
    ("secret", "secret", "secret"),
    ("nfs", "nfs", "nfs"),
    ("iscsi", "iscsi", "iscsi"),
    ("glusterfs", "glusterfs", "glusterfs"),
    ("flocker", "flocker", "flocker"),
    (
        "persistentVolumeClaim",
        "persistentVolumeClaim",
        "persistentVolumeClaim",
    ),
    ("rbd", "rbd", "rbd"),
    ("cinder", "cinder", "cinder"),
    ("cephfs", "cephFS", "cephfs"),
    ("quobyte", "quobyte", "quobyte"),
    ("downwardAPI", "downwarAPI", "downwardAPI"),
    ("fc", "fc", "fc"),
    ("flexVolume", "flexVolume", "flexVolume"),
    ("configMap", "configMap", "configMap"),
    ("azureFile", "azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume", "vsphereVolume"),
    (
        "photonPersistentDisk",
        "photonPersistentDisk",
        "photonPersistentDisk",
    ),
    ("portworxVolume", "portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk", "azureDisk"),
    ("storageos", "storageos", "storageos"),
    ("projected", "projected", "projected"),
    ("scaleIO", "scaleIO", "scaleIO"),
    ("csi", "csi", "csi"),
    ("ephemeral", "ephemeral", "ephemeral"),
    ("image", "image", "image"),
];

/// Required string fields of the sources checked for nothing else.
pub(crate) const REQUIRED: &[(&str, &[&str])] = &[
    ("gcePersistentDisk", &["pdName"]),
    ("awsElasticBlockStore", &["volumeID"]),
    ("gitRepo", &["repository"]),
    ("glusterfs", &["endpoints", "path"]),
    ("cinder", &["volumeID"]),
    ("flexVolume", &["driver"]),
    ("azureFile", &["secretName", "shareName"]),
    ("vsphereVolume", &["volumePath"]),
    ("photonPersistentDisk", &["pdID"]),
    ("portworxVolume", &["volumeID"]),
    ("azureDisk", &["diskName", "diskURI"]),
    ("scaleIO", &["gateway", "system", "volumeName"]),
    ("storageos", &["volumeName"]),
    ("iscsi", &["targetPortal", "iqn"]),
    ("quobyte", &["registry", "volume"]),
];

/// `ValidateVolumes`: names are unique DNS labels, each volume has exactly one valid source.
/// `pod_name` is the Pod's name (ephemeral volumes' claim names), `None` for templates.
pub(crate) fn volumes(
    spec: &Obj,
    pod_name: Option<&str>,
    is_pod: bool,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) -> Volumes {
    let mut out = Volumes::new();
    let created: Vec<String> = match pod_name.filter(|n| !n.is_empty()) {
        Some(pod) => items(spec, "volumes")
            .filter(|(_, v)| is_set(v, "ephemeral"))
            .map(|(_, v)| format!("{pod}-{}", str_of(v, "name")))
            .collect(),
        None => Vec::new(),
    };
    for (i, v) in items(spec, "volumes") {
        let p = path.index(i);
        let name = str_of(v, "name");
        let mut el = Vec::new();
        let source = source(v, name, pod_name, is_pod, &p, &mut el);
        if name.is_empty() {
            el.push(FieldError::required(&p.child("name"), ""));
        } else {
            for msg in names::dns1123_label(name) {
                el.push(FieldError::invalid(&p.child("name"), name, msg));
            }
        }
        if out.contains_key(name) {
            el.push(FieldError::duplicate(&p.child("name"), name));
        }
        if el.is_empty() {
            out.insert(name.to_owned(), source.unwrap_or(""));
        } else {
            errs.append(&mut el);
        }
        if let Some(claim) = obj(v, "persistentVolumeClaim")
            && created.iter().any(|c| c == str_of(claim, "claimName"))
        {
            errs.push(FieldError::invalid(
                &p.child("persistentVolumeClaim").child("claimName"),
                str_of(claim, "claimName"),
                "must not reference a PVC that gets created for an ephemeral volume",
            ));
        }
    }
    out
}

/// `validateVolumeSource`: the first source set is checked, any other is forbidden.
pub(crate) fn source(
    v: &Obj,
    vol_name: &str,
    pod_name: Option<&str>,
    is_pod: bool,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) -> Option<&'static str> {
    let mut found = None;
    for &(key, forbidden_name, check_name) in SOURCES {
        let Some(s) = obj(v, key) else { continue };
        if found.is_some() {
            errs.push(FieldError::forbidden(
                &path.child(forbidden_name),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        found = Some(key);
        let at = Place {
            volume: path,
            source: &path.child(check_name),
        };
        check_source(key, s, vol_name, pod_name, is_pod, &at, errs);
    }
    if found.is_none() {
        errs.push(FieldError::required(path, "must specify a volume type"));
    }
    found
}

/// Where a source is: the volume's path and the source's own.
pub(crate) struct Place<'a> {
    volume: &'a FieldPath,
    source: &'a FieldPath,
}

pub(crate) fn check_source(
    key: &str,
    s: &Obj,
    vol_name: &str,
    pod_name: Option<&str>,
    is_pod: bool,
    at: &Place<'_>,
    errs: &mut Vec<FieldError>,
) {
    let p = at.source;
    if let Some((_, fields)) = REQUIRED.iter().find(|(k, _)| *k == key) {
        for f in *fields {
            if str_of(s, f).is_empty() {
                errs.push(FieldError::required(&p.child(f), ""));
            }
        }
    }
    match key {
        "emptyDir" => {
            if let Some(limit) = s.get("sizeLimit").filter(|v| !v.is_null())
                && resources::quantity(limit).is_ok_and(|q| q.sign() < 0)
            {
                errs.push(FieldError::forbidden(
                    &p.child("sizeLimit"),
                    "SizeLimit field must be a valid resource quantity",
                ));
            }
        }
        "hostPath" => {
            let hp = str_of(s, "path");
            if hp.is_empty() {
                errs.push(FieldError::required(&p.child("path"), ""));
                return;
            }
            no_backsteps(hp, &p.child("path"), errs);
            if let Some(t) = opt_str(s, "type") {
                const TYPES: [&str; 8] = [
                    "",
                    "BlockDevice",
                    "CharDevice",
                    "Directory",
                    "DirectoryOrCreate",
                    "File",
                    "FileOrCreate",
                    "Socket",
                ];
                if !TYPES.contains(&t) {
                    errs.push(FieldError::not_supported(&p.child("type"), t, &TYPES));
                }
            }
        }
        "secret" | "configMap" => {
            let name_key = if key == "secret" {
                "secretName"
            } else {
                "name"
            };
            if str_of(s, name_key).is_empty() {
                errs.push(FieldError::required(&p.child(name_key), ""));
            }
            file_mode(s, "defaultMode", p, errs);
            for (i, kp) in items(s, "items") {
                key_to_path(kp, &p.child("items").index(i), errs);
            }
        }
        "persistentVolumeClaim" if str_of(s, "claimName").is_empty() => {
            errs.push(FieldError::required(&p.child("claimName"), ""));
        }
        "nfs" => {
            for f in ["server", "path"] {
                if str_of(s, f).is_empty() {
                    errs.push(FieldError::required(&p.child(f), ""));
                }
            }
            if !str_of(s, "path").starts_with('/') {
                errs.push(FieldError::invalid(
                    &p.child("path"),
                    str_of(s, "path"),
                    "must be an absolute path",
                ));
            }
        }
        "rbd" | "cephfs" => {
            if arr(s, "monitors").is_empty() {
                errs.push(FieldError::required(&p.child("monitors"), ""));
            }
            if key == "rbd" && str_of(s, "image").is_empty() {
                errs.push(FieldError::required(&p.child("image"), ""));
            }
        }
        "downwardAPI" => {
            file_mode(s, "defaultMode", p, errs);
            for (_, f) in items(s, "items") {
                downward_api_file(f, p, errs);
            }
        }
        "projected" => {
            file_mode(s, "defaultMode", p, errs);
            projection_sources(s, p, errs);
        }
        "csi" => csi_driver(str_of(s, "driver"), &p.child("driver"), errs),
        "ephemeral" => match obj(s, "volumeClaimTemplate") {
            None => errs.push(FieldError::required(&p.child("volumeClaimTemplate"), "")),
            Some(t) => {
                let tp = p.child("volumeClaimTemplate");
                super::storage::template_meta(t, &tp.child("metadata"), errs);
                super::storage::claim_spec(obj_or_empty(t, "spec"), &tp.child("spec"), errs);
                if let Some(pod) = pod_name.filter(|n| !n.is_empty())
                    && !vol_name.is_empty()
                {
                    let pvc = format!("{pod}-{vol_name}");
                    for msg in names::dns1123_subdomain(&pvc) {
                        errs.push(FieldError::invalid(
                            &at.volume.child("name"),
                            vol_name,
                            format!("PVC name {pvc:?}: {msg}"),
                        ));
                    }
                }
            }
        },
        "image" => {
            if is_pod && str_of(s, "reference").is_empty() {
                errs.push(FieldError::required(&p.child("reference"), ""));
            }
            super::image::pull_policy(str_of(s, "pullPolicy"), &p.child("pullPolicy"), errs);
        }
        _ => {}
    }
}

/// `ValidateCSIDriverName`.
pub(crate) fn csi_driver(driver: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if driver.is_empty() {
        errs.push(FieldError::required(p, ""));
    }
    if driver.len() > 63 {
        errs.push(FieldError::too_long(p, 63));
    }
    for msg in names::dns1123_subdomain(&driver.to_lowercase()) {
        errs.push(FieldError::invalid(p, driver, msg));
    }
}
