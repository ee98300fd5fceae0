//! The pod printers (printers.go `printPod`, `printPodTemplate`).

use serde_json::{Value, json};

use super::format::{
    age_at, at, containers, int_at, labels, list_at, name_cell, str_at, timestamp,
};
use super::{AGE, CONTAINERS, Column, Description::Field, Description::Text, IMAGES, NAME};
use super::{Printer, Row, col};
use crdkit_apimachinery::duration::human_duration;

const POD_STATUS: &str = "io.k8s.api.core.v1.PodStatus";
const POD_SPEC: &str = "io.k8s.api.core.v1.PodSpec";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] =
    &[("", "Pod", &POD), ("", "PodTemplate", &POD_TEMPLATE)];

static POD: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Ready",
            "string",
            Text("The aggregate readiness state of this pod for accepting traffic."),
        ),
        col(
            "Status",
            "string",
            Text("The aggregate status of the containers in this pod."),
        ),
        col(
            "Restarts",
            "string",
            Text(
                "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
            ),
        ),
        AGE,
        col("IP", "string", Field(POD_STATUS, "podIP")).wide(),
        col("Node", "string", Field(POD_SPEC, "nodeName")).wide(),
        col(
            "Nominated Node",
            "string",
            Field(POD_STATUS, "nominatedNodeName"),
        )
        .wide(),
        col(
            "Readiness Gates",
            "string",
            Field(POD_SPEC, "readinessGates"),
        )
        .wide(),
    ],
    print: pod,
};

/// The later of two restart times (`metav1.Time.Before`; `None` is Go's zero time).
fn later(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

fn finished_at(status: &Value) -> Option<i64> {
    timestamp(at(status, &["lastState", "terminated", "finishedAt"]))
}

/// `podutil.IsRestartableInitContainer`: a sidecar.
fn is_sidecar(container: Option<&Value>) -> bool {
    container.is_some_and(|c| str_at(c, &["restartPolicy"]) == "Always")
}

/// `Signal:N` / `ExitCode:N` of a termination without a reason.
fn terminated_code(t: &Value) -> String {
    match int_at(t, &["signal"]) {
        0 => format!("ExitCode:{}", int_at(t, &["exitCode"])),
        s => format!("Signal:{s}"),
    }
}

/// `printPod`.
fn pod(obj: &Value, now: i64) -> Row {
    let spec = at(obj, &["spec"]);
    let status = at(obj, &["status"]);
    let init_specs = list_at(spec, &["initContainers"]);
    let conditions = list_at(status, &["conditions"]);
    let phase = str_at(status, &["phase"]);
    let mut reason = match str_at(status, &["reason"]) {
        "" => phase.to_owned(),
        r => r.to_owned(),
    };
    if conditions.iter().any(|c| {
        str_at(c, &["type"]) == "PodScheduled" && str_at(c, &["reason"]) == "SchedulingGated"
    }) {
        "SchedulingGated".clone_into(&mut reason);
    }
    let mut total = list_at(spec, &["containers"]).len();
    total += init_specs.iter().filter(|c| is_sidecar(Some(c))).count();
    let init_spec = |name: &str| init_specs.iter().find(|c| str_at(c, &["name"]) == name);

    let (mut restarts, mut sidecar_restarts, mut ready) = (0i64, 0i64, 0usize);
    let (mut last_restart, mut last_sidecar_restart) = (None, None);
    let mut initializing = false;
    for (i, c) in list_at(status, &["initContainerStatuses"])
        .iter()
        .enumerate()
    {
        restarts += int_at(c, &["restartCount"]);
        last_restart = later(last_restart, finished_at(c));
        let sidecar = is_sidecar(init_spec(str_at(c, &["name"])));
        if sidecar {
            sidecar_restarts += int_at(c, &["restartCount"]);
            last_sidecar_restart = later(last_sidecar_restart, finished_at(c));
        }
        let terminated = at(c, &["state", "terminated"]);
        let waiting_reason = str_at(c, &["state", "waiting", "reason"]);
        if terminated.is_object() && int_at(terminated, &["exitCode"]) == 0 {
            continue;
        }
        if sidecar && at(c, &["started"]).as_bool() == Some(true) {
            if at(c, &["ready"]).as_bool() == Some(true) {
                ready += 1;
            }
            continue;
        }
        reason = if terminated.is_object() {
            match str_at(terminated, &["reason"]) {
                "" => format!("Init:{}", terminated_code(terminated)),
                r => format!("Init:{r}"),
            }
        } else if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" {
            format!("Init:{waiting_reason}")
        } else {
            format!("Init:{i}/{}", init_specs.len())
        };
        initializing = true;
        break;
    }
    let initialized = conditions
        .iter()
        .find(|c| str_at(c, &["type"]) == "Initialized")
        .is_some_and(|c| str_at(c, &["status"]) == "True");
    if !initializing || initialized {
        restarts = sidecar_restarts;
        last_restart = last_sidecar_restart;
        let mut has_running = false;
        for c in list_at(status, &["containerStatuses"]).iter().rev() {
            restarts += int_at(c, &["restartCount"]);
            last_restart = later(last_restart, finished_at(c));
            let waiting = str_at(c, &["state", "waiting", "reason"]);
            let terminated = at(c, &["state", "terminated"]);
            if !waiting.is_empty() {
                waiting.clone_into(&mut reason);
            } else if terminated.is_object() {
                reason = match str_at(terminated, &["reason"]) {
                    "" => terminated_code(terminated),
                    r => r.to_owned(),
                };
            } else if at(c, &["ready"]).as_bool() == Some(true)
                && at(c, &["state", "running"]).is_object()
            {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            let pod_ready = conditions
                .iter()
                .any(|c| str_at(c, &["type"]) == "Ready" && str_at(c, &["status"]) == "True");
            if pod_ready { "Running" } else { "NotReady" }.clone_into(&mut reason);
        }
    }
    let deleting = !at(obj, &["metadata", "deletionTimestamp"]).is_null();
    if deleting && str_at(status, &["reason"]) == "NodeLost" {
        "Unknown".clone_into(&mut reason);
    } else if deleting && phase != "Succeeded" && phase != "Failed" {
        "Terminating".clone_into(&mut reason);
    }
    let restarts_text = match last_restart {
        Some(t) if restarts != 0 => format!("{restarts} ({} ago)", human_duration(now - t)),
        _ => restarts.to_string(),
    };
    // v1's `podIP` stands for `podIPs[0]` (the conversion to the internal type).
    let ip = match str_at(status, &["podIP"]) {
        "" => list_at(status, &["podIPs"])
            .first()
            .map_or("", |p| str_at(p, &["ip"])),
        ip => ip,
    };
    let or_none = |s: &str| {
        if s.is_empty() {
            "<none>".to_owned()
        } else {
            s.to_owned()
        }
    };
    let gates = list_at(spec, &["readinessGates"]);
    let gates_text = if gates.is_empty() {
        "<none>".to_owned()
    } else {
        let true_ = gates
            .iter()
            .filter(|g| {
                let t = str_at(g, &["conditionType"]);
                conditions
                    .iter()
                    .find(|c| str_at(c, &["type"]) == t)
                    .is_some_and(|c| str_at(c, &["status"]) == "True")
            })
            .count();
        format!("{true_}/{}", gates.len())
    };
    let completed = |reason: &str, message: &str| {
        vec![json!({"type": "Completed", "status": "True", "reason": reason, "message": message})]
    };
    Row {
        cells: vec![
            json!(str_at(obj, &["metadata", "name"])),
            json!(format!("{ready}/{total}")),
            json!(reason),
            json!(restarts_text),
            json!(age_at(obj, &["metadata", "creationTimestamp"], now)),
            json!(or_none(ip)),
            json!(or_none(str_at(spec, &["nodeName"]))),
            json!(or_none(str_at(status, &["nominatedNodeName"]))),
            json!(gates_text),
        ],
        conditions: match phase {
            "Succeeded" => completed("Succeeded", "The pod has completed successfully."),
            "Failed" => completed("Failed", "The pod failed."),
            _ => Vec::new(),
        },
    }
}

static POD_TEMPLATE: Printer = Printer {
    columns: &[
        NAME,
        Column {
            priority: 0,
            ..CONTAINERS
        },
        Column {
            priority: 0,
            ..IMAGES
        },
        col(
            "Pod Labels",
            "string",
            Text("The labels for the pod template."),
        ),
    ],
    print: |obj, _| {
        let (names, images) = containers(list_at(obj, &["template", "spec", "containers"]));
        let pod_labels = labels(at(obj, &["template", "metadata", "labels"]));
        vec![
            name_cell(obj),
            json!(names),
            json!(images),
            json!(pod_labels),
        ]
        .into()
    },
};
