//! Persistent volume claims and volumes, alone and as templates (StatefulSets, ephemeral
//! volumes).
//!
//! Mirrors kubernetes `pkg/apis/core/v1/defaults.go` (`SetDefaults_PersistentVolumeClaim`,
//! `SetDefaults_PersistentVolumeClaimSpec`, `SetDefaults_PersistentVolume`).

use super::json::{Obj, default_ptr, default_str, ensure_obj, obj_mut};
use super::quantities;

/// A claim: its spec, and `status.phase` `Pending` (also on StatefulSet claim templates).
pub(crate) fn claim(obj: &mut Obj) {
    if let Some(spec) = obj_mut(obj, "spec") {
        claim_spec(spec);
    }
    if let Some(status) = ensure_obj(obj, "status") {
        default_str(status, "phase", "Pending");
        quantities::resource_list(status, "capacity");
    }
}

/// `SetDefaults_PersistentVolumeClaimSpec`: `volumeMode: Filesystem`, resources rounded.
pub(crate) fn claim_spec(spec: &mut Obj) {
    default_ptr(spec, "volumeMode", "Filesystem");
    if let Some(res) = obj_mut(spec, "resources") {
        quantities::requirements(res);
    }
}

/// `SetDefaults_PersistentVolume`: `Pending`, `Retain`, `Filesystem`.
pub(crate) fn volume(obj: &mut Obj) {
    if let Some(spec) = obj_mut(obj, "spec") {
        default_str(spec, "persistentVolumeReclaimPolicy", "Retain");
        default_ptr(spec, "volumeMode", "Filesystem");
        quantities::resource_list(spec, "capacity");
    }
    if let Some(status) = ensure_obj(obj, "status") {
        default_str(status, "phase", "Pending");
    }
}
