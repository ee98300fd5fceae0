//! The `apps` printers: deployments, replica sets, stateful sets, daemon sets, controller
//! revisions (printers.go `printDeployment` ... `printControllerRevision`).

use serde_json::json;

use super::format::{
    age_cell, at, format_label_selector, int_at, label_selector, labels, list_at, name_cell,
    str_at, template_cells,
};
use super::{AGE, CONTAINERS, Description::Field, Description::Text, IMAGES, NAME};
use super::{Printer, col};

const RS_SPEC: &str = "io.k8s.api.apps.v1.ReplicaSetSpec";
const RS_STATUS: &str = "io.k8s.api.apps.v1.ReplicaSetStatus";
const DS_STATUS: &str = "io.k8s.api.apps.v1.DaemonSetStatus";
const DEPLOY_STATUS: &str = "io.k8s.api.apps.v1.DeploymentStatus";
pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("apps", "Deployment", &DEPLOYMENT),
    ("apps", "ReplicaSet", &REPLICA_SET),
    ("apps", "StatefulSet", &STATEFUL_SET),
    ("apps", "DaemonSet", &DAEMON_SET),
    ("apps", "ControllerRevision", &CONTROLLER_REVISION),
];
static DEPLOYMENT: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Ready",
            "string",
            Text("Number of the pod with ready state"),
        ),
        col(
            "Up-to-date",
            "string",
            Field(DEPLOY_STATUS, "updatedReplicas"),
        ),
        col(
            "Available",
            "string",
            Field(DEPLOY_STATUS, "availableReplicas"),
        ),
        AGE,
        CONTAINERS,
        IMAGES,
        col(
            "Selector",
            "string",
            Field("io.k8s.api.apps.v1.DeploymentSpec", "selector"),
        )
        .wide(),
    ],
    print: |obj, now| {
        let ready = format!(
            "{}/{}",
            int_at(obj, &["status", "readyReplicas"]),
            int_at(obj, &["spec", "replicas"])
        );
        // `LabelSelectorAsSelector(...).String()`: an empty selector prints as nothing here.
        let selector = label_selector(at(obj, &["spec", "selector"]))
            .unwrap_or_else(|()| "<invalid>".to_owned());
        let [names, images] = template_cells(obj, &["spec"]);
        vec![
            name_cell(obj),
            json!(ready),
            json!(int_at(obj, &["status", "updatedReplicas"])),
            json!(int_at(obj, &["status", "availableReplicas"])),
            age_cell(obj, now),
            names,
            images,
            json!(selector),
        ]
        .into()
    },
};

static REPLICA_SET: Printer = Printer {
    columns: &[
        NAME,
        col("Desired", "integer", Field(RS_SPEC, "replicas")),
        col("Current", "integer", Field(RS_STATUS, "replicas")),
        col("Ready", "integer", Field(RS_STATUS, "readyReplicas")),
        AGE,
        CONTAINERS,
        IMAGES,
        col("Selector", "string", Field(RS_SPEC, "selector")).wide(),
    ],
    print: |obj, now| {
        let [names, images] = template_cells(obj, &["spec"]);
        vec![
            name_cell(obj),
            json!(int_at(obj, &["spec", "replicas"])),
            json!(int_at(obj, &["status", "replicas"])),
            json!(int_at(obj, &["status", "readyReplicas"])),
            age_cell(obj, now),
            names,
            images,
            json!(format_label_selector(at(obj, &["spec", "selector"]))),
        ]
        .into()
    },
};

static STATEFUL_SET: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Ready",
            "string",
            Text("Number of the pod with ready state"),
        ),
        AGE,
        CONTAINERS,
        IMAGES,
    ],
    print: |obj, now| {
        let ready = format!(
            "{}/{}",
            int_at(obj, &["status", "readyReplicas"]),
            int_at(obj, &["spec", "replicas"])
        );
        let [names, images] = template_cells(obj, &["spec"]);
        vec![
            name_cell(obj),
            json!(ready),
            age_cell(obj, now),
            names,
            images,
        ]
        .into()
    },
};

static DAEMON_SET: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Desired",
            "integer",
            Field(DS_STATUS, "desiredNumberScheduled"),
        ),
        col(
            "Current",
            "integer",
            Field(DS_STATUS, "currentNumberScheduled"),
        ),
        col("Ready", "integer", Field(DS_STATUS, "numberReady")),
        col(
            "Up-to-date",
            "integer",
            Field(DS_STATUS, "updatedNumberScheduled"),
        ),
        col("Available", "integer", Field(DS_STATUS, "numberAvailable")),
        col(
            "Node Selector",
            "string",
            Field("io.k8s.api.core.v1.PodSpec", "nodeSelector"),
        ),
        AGE,
        CONTAINERS,
        IMAGES,
        col(
            "Selector",
            "string",
            Field("io.k8s.api.apps.v1.DaemonSetSpec", "selector"),
        )
        .wide(),
    ],
    print: |obj, now| {
        let status = |k: &str| json!(int_at(obj, &["status", k]));
        let [names, images] = template_cells(obj, &["spec"]);
        vec![
            name_cell(obj),
            status("desiredNumberScheduled"),
            status("currentNumberScheduled"),
            status("numberReady"),
            status("updatedNumberScheduled"),
            status("numberAvailable"),
            json!(labels(at(
                obj,
                &["spec", "template", "spec", "nodeSelector"]
            ))),
            age_cell(obj, now),
            names,
            images,
            json!(format_label_selector(at(obj, &["spec", "selector"]))),
        ]
        .into()
    },
};

static CONTROLLER_REVISION: Printer = Printer {
    columns: &[
        NAME,
        col("Controller", "string", Text("Controller of the object")),
        col(
            "Revision",
            "string",
            Field("io.k8s.api.apps.v1.ControllerRevision", "revision"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let controller = list_at(obj, &["metadata", "ownerReferences"])
            .iter()
            .find(|r| at(r, &["controller"]).as_bool() == Some(true))
            .map_or_else(
                || "<none>".to_owned(),
                |r| {
                    // `formatResourceName`: `kind.group/name` lowercased but the name.
                    let group = str_at(r, &["apiVersion"])
                        .rsplit_once('/')
                        .map_or("", |(g, _)| g);
                    let kind = str_at(r, &["kind"]);
                    let gk = if group.is_empty() {
                        kind.to_owned()
                    } else {
                        format!("{kind}.{group}")
                    };
                    if gk.is_empty() {
                        str_at(r, &["name"]).to_owned()
                    } else {
                        format!("{}/{}", gk.to_lowercase(), str_at(r, &["name"]))
                    }
                },
            );
        vec![
            name_cell(obj),
            json!(controller),
            json!(int_at(obj, &["revision"])),
            age_cell(obj, now),
        ]
        .into()
    },
};
