//! The volume printers: persistent volumes and claims, `storage.k8s.io` (printers.go
//! `printPersistentVolume` ... `printCSIStorageCapacity`).

use serde_json::{Value, json};

use super::format::{age_cell, at, len_at, list_at, name_cell, quantity, str_at};
use super::{AGE, Column, Description::Field, Description::Text, NAME};
use super::{Printer, col};

const PV_SPEC: &str = "io.k8s.api.core.v1.PersistentVolumeSpec";
const PV_STATUS: &str = "io.k8s.api.core.v1.PersistentVolumeStatus";
const PVC_SPEC: &str = "io.k8s.api.core.v1.PersistentVolumeClaimSpec";
const PVC_STATUS: &str = "io.k8s.api.core.v1.PersistentVolumeClaimStatus";
const STORAGE_CLASS: &str = "io.k8s.api.storage.v1.StorageClass";
const CSI_DRIVER_SPEC: &str = "io.k8s.api.storage.v1.CSIDriverSpec";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("", "PersistentVolume", &PERSISTENT_VOLUME),
    ("", "PersistentVolumeClaim", &PERSISTENT_VOLUME_CLAIM),
    ("storage.k8s.io", "StorageClass", &STORAGE_CLASS_PRINTER),
    (
        "storage.k8s.io",
        "VolumeAttributesClass",
        &VOLUME_ATTRIBUTES_CLASS,
    ),
    ("storage.k8s.io", "VolumeAttachment", &VOLUME_ATTACHMENT),
    ("storage.k8s.io", "CSINode", &CSI_NODE),
    ("storage.k8s.io", "CSIDriver", &CSI_DRIVER),
    (
        "storage.k8s.io",
        "CSIStorageCapacity",
        &CSI_STORAGE_CAPACITY,
    ),
];

/// `helper.GetAccessModesAsString`: `RWO`, `ROX`, `RWX`, `RWOP` in that order, each once.
fn access_modes(modes: &[Value]) -> String {
    let has = |m: &str| modes.iter().any(|v| v.as_str() == Some(m));
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(m, _)| has(m))
    .map(|(_, s)| *s)
    .collect::<Vec<_>>()
    .join(",")
}

/// `GetPersistentVolume(Claim)Class`: the beta annotation, else `spec.storageClassName`.
fn storage_class(obj: &Value) -> String {
    match at(
        obj,
        &[
            "metadata",
            "annotations",
            "volume.beta.kubernetes.io/storage-class",
        ],
    )
    .as_str()
    {
        Some(class) => class.to_owned(),
        None => str_at(obj, &["spec", "storageClassName"]).to_owned(),
    }
}

fn or_unset(v: &Value) -> String {
    v.as_str()
        .map_or_else(|| "<unset>".to_owned(), str::to_owned)
}

/// The phase, `Terminating` once deletion started.
fn phase(obj: &Value) -> String {
    if at(obj, &["metadata", "deletionTimestamp"]).is_null() {
        str_at(obj, &["status", "phase"]).to_owned()
    } else {
        "Terminating".to_owned()
    }
}

static PERSISTENT_VOLUME: Printer = Printer {
    columns: &[
        NAME,
        col("Capacity", "string", Field(PV_SPEC, "capacity")),
        col("Access Modes", "string", Field(PV_SPEC, "accessModes")),
        col(
            "Reclaim Policy",
            "string",
            Field(PV_SPEC, "persistentVolumeReclaimPolicy"),
        ),
        col("Status", "string", Field(PV_STATUS, "phase")),
        col("Claim", "string", Field(PV_SPEC, "claimRef")),
        col("StorageClass", "string", Text("StorageClass of the pv")),
        col(
            "VolumeAttributesClass",
            "string",
            Text("VolumeAttributesClass of the pv"),
        ),
        col("Reason", "string", Field(PV_STATUS, "reason")),
        AGE,
        col("VolumeMode", "string", Field(PV_SPEC, "volumeMode")).wide(),
    ],
    print: |obj, now| {
        let claim = at(obj, &["spec", "claimRef"]);
        let claim = if claim.is_null() {
            String::new()
        } else {
            format!(
                "{}/{}",
                str_at(claim, &["namespace"]),
                str_at(claim, &["name"])
            )
        };
        vec![
            name_cell(obj),
            json!(quantity(at(obj, &["spec", "capacity", "storage"]))),
            json!(access_modes(list_at(obj, &["spec", "accessModes"]))),
            json!(str_at(obj, &["spec", "persistentVolumeReclaimPolicy"])),
            json!(phase(obj)),
            json!(claim),
            json!(storage_class(obj)),
            json!(or_unset(at(obj, &["spec", "volumeAttributesClassName"]))),
            json!(str_at(obj, &["status", "reason"])),
            age_cell(obj, now),
            json!(or_unset(at(obj, &["spec", "volumeMode"]))),
        ]
        .into()
    },
};

static PERSISTENT_VOLUME_CLAIM: Printer = Printer {
    columns: &[
        NAME,
        col("Status", "string", Field(PVC_STATUS, "phase")),
        col("Volume", "string", Field(PVC_SPEC, "volumeName")),
        col("Capacity", "string", Field(PVC_STATUS, "capacity")),
        col("Access Modes", "string", Field(PVC_STATUS, "accessModes")),
        col("StorageClass", "string", Text("StorageClass of the pvc")),
        col(
            "VolumeAttributesClass",
            "string",
            Text("VolumeAttributesClass of the pvc"),
        ),
        AGE,
        col("VolumeMode", "string", Field(PVC_SPEC, "volumeMode")).wide(),
    ],
    print: |obj, now| {
        let volume = str_at(obj, &["spec", "volumeName"]);
        // Capacity and modes are the bound volume's: none before binding.
        let (capacity, modes) = if volume.is_empty() {
            (String::new(), String::new())
        } else {
            (
                quantity(at(obj, &["status", "capacity", "storage"])),
                access_modes(list_at(obj, &["status", "accessModes"])),
            )
        };
        vec![
            name_cell(obj),
            json!(phase(obj)),
            json!(volume),
            json!(capacity),
            json!(modes),
            json!(storage_class(obj)),
            json!(or_unset(at(obj, &["spec", "volumeAttributesClassName"]))),
            age_cell(obj, now),
            json!(or_unset(at(obj, &["spec", "volumeMode"]))),
        ]
        .into()
    },
};

static STORAGE_CLASS_PRINTER: Printer = Printer {
    columns: &[
        NAME,
        col("Provisioner", "string", Field(STORAGE_CLASS, "provisioner")),
        col(
            "ReclaimPolicy",
            "string",
            Field(STORAGE_CLASS, "reclaimPolicy"),
        ),
        col(
            "VolumeBindingMode",
            "string",
            Field(STORAGE_CLASS, "volumeBindingMode"),
        ),
        col(
            "AllowVolumeExpansion",
            "string",
            Field(STORAGE_CLASS, "allowVolumeExpansion"),
        ),
        AGE,
    ],
    print: |obj, now| {
        // `storageutil.IsDefaultAnnotation`: the GA or the beta annotation.
        let default = [
            "storageclass.kubernetes.io/is-default-class",
            "storageclass.beta.kubernetes.io/is-default-class",
        ]
        .iter()
        .any(|a| at(obj, &["metadata", "annotations", a]).as_str() == Some("true"));
        let mut n = str_at(obj, &["metadata", "name"]).to_owned();
        if default {
            n.push_str(" (default)");
        }
        vec![
            json!(n),
            json!(str_at(obj, &["provisioner"])),
            json!(at(obj, &["reclaimPolicy"]).as_str().unwrap_or("Delete")),
            json!(
                at(obj, &["volumeBindingMode"])
                    .as_str()
                    .unwrap_or("Immediate")
            ),
            json!(
                at(obj, &["allowVolumeExpansion"])
                    .as_bool()
                    .unwrap_or(false)
            ),
            age_cell(obj, now),
        ]
        .into()
    },
};

static VOLUME_ATTRIBUTES_CLASS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "DriverName",
            "string",
            Field("io.k8s.api.storage.v1.VolumeAttributesClass", "driverName"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(str_at(obj, &["driverName"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static VOLUME_ATTACHMENT: Printer = Printer {
    columns: &[
        NAME,
        Column {
            format: "name",
            ..col(
                "Attacher",
                "string",
                Field("io.k8s.api.storage.v1.VolumeAttachmentSpec", "attacher"),
            )
        },
        col(
            "PV",
            "string",
            Field(
                "io.k8s.api.storage.v1.VolumeAttachmentSource",
                "persistentVolumeName",
            ),
        ),
        col(
            "Node",
            "string",
            Field("io.k8s.api.storage.v1.VolumeAttachmentSpec", "nodeName"),
        ),
        col(
            "Attached",
            "boolean",
            Field("io.k8s.api.storage.v1.VolumeAttachmentStatus", "attached"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(str_at(obj, &["spec", "attacher"])),
            json!(str_at(obj, &["spec", "source", "persistentVolumeName"])),
            json!(str_at(obj, &["spec", "nodeName"])),
            json!(at(obj, &["status", "attached"]).as_bool().unwrap_or(false)),
            age_cell(obj, now),
        ]
        .into()
    },
};

static CSI_NODE: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Drivers",
            "integer",
            Text("Drivers indicates the number of CSI drivers registered on the node"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(len_at(obj, &["spec", "drivers"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static CSI_DRIVER: Printer = Printer {
    columns: &[
        NAME,
        col(
            "AttachRequired",
            "boolean",
            Field(CSI_DRIVER_SPEC, "attachRequired"),
        ),
        col(
            "PodInfoOnMount",
            "boolean",
            Field(CSI_DRIVER_SPEC, "podInfoOnMount"),
        ),
        col(
            "StorageCapacity",
            "boolean",
            Field(CSI_DRIVER_SPEC, "storageCapacity"),
        ),
        col(
            "TokenRequests",
            "string",
            Field(CSI_DRIVER_SPEC, "tokenRequests"),
        ),
        col(
            "RequiresRepublish",
            "boolean",
            Field(CSI_DRIVER_SPEC, "requiresRepublish"),
        ),
        col(
            "Modes",
            "string",
            Field(CSI_DRIVER_SPEC, "volumeLifecycleModes"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let flag =
            |k: &str, default: bool| json!(at(obj, &["spec", k]).as_bool().unwrap_or(default));
        let tokens = match at(obj, &["spec", "tokenRequests"]).as_array() {
            Some(list) => list
                .iter()
                .map(|t| str_at(t, &["audience"]))
                .collect::<Vec<_>>()
                .join(","),
            None => "<unset>".to_owned(),
        };
        let modes: Vec<&str> = list_at(obj, &["spec", "volumeLifecycleModes"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let modes = if modes.is_empty() {
            "<none>".to_owned()
        } else {
            modes.join(",")
        };
        vec![
            name_cell(obj),
            flag("attachRequired", true),
            flag("podInfoOnMount", false),
            flag("storageCapacity", false),
            json!(tokens),
            flag("requiresRepublish", false),
            json!(modes),
            age_cell(obj, now),
        ]
        .into()
    },
};

static CSI_STORAGE_CAPACITY: Printer = Printer {
    columns: &[
        NAME,
        col(
            "StorageClassName",
            "string",
            Field(
                "io.k8s.api.storage.v1.CSIStorageCapacity",
                "storageClassName",
            ),
        ),
        col(
            "Capacity",
            "string",
            Field("io.k8s.api.storage.v1.CSIStorageCapacity", "capacity"),
        ),
    ],
    print: |obj, _| {
        let capacity = at(obj, &["capacity"]);
        let capacity = if capacity.is_null() {
            "<unset>".to_owned()
        } else {
            quantity(capacity)
        };
        vec![
            name_cell(obj),
            json!(str_at(obj, &["storageClassName"])),
            json!(capacity),
        ]
        .into()
    },
};
