//! The core group's printers but pods, services, volumes and events: replication controllers,
//! nodes, namespaces, secrets, service accounts, config maps, component statuses and quotas
//! (printers.go `printReplicationController` ... `printResourceQuota`).

use serde_json::{Value, json};

use super::format::{
    age_cell, at, containers, int_at, labels, len_at, list_at, map_at, name_cell, quantity, str_at,
};
use super::{AGE, CONTAINERS, Description::Field, Description::Text, IMAGES, NAME};
use super::{Printer, Row, col};

const RC_SPEC: &str = "io.k8s.api.core.v1.ReplicationControllerSpec";
const RC_STATUS: &str = "io.k8s.api.core.v1.ReplicationControllerStatus";
const NODE_INFO: &str = "io.k8s.api.core.v1.NodeSystemInfo";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("", "ReplicationController", &REPLICATION_CONTROLLER),
    ("", "Node", &NODE),
    ("", "Namespace", &NAMESPACE),
    ("", "Secret", &SECRET),
    ("", "ServiceAccount", &SERVICE_ACCOUNT),
    ("", "ConfigMap", &CONFIG_MAP),
    ("", "ComponentStatus", &COMPONENT_STATUS),
    ("", "ResourceQuota", &RESOURCE_QUOTA),
];

static REPLICATION_CONTROLLER: Printer = Printer {
    columns: &[
        NAME,
        col("Desired", "integer", Field(RC_SPEC, "replicas")),
        col("Current", "integer", Field(RC_STATUS, "replicas")),
        col("Ready", "integer", Field(RC_STATUS, "readyReplicas")),
        AGE,
        CONTAINERS,
        IMAGES,
        col("Selector", "string", Field(RC_SPEC, "selector")).wide(),
    ],
    print: |obj, now| {
        let (names, images) = containers(list_at(obj, &["spec", "template", "spec", "containers"]));
        vec![
            name_cell(obj),
            json!(int_at(obj, &["spec", "replicas"])),
            json!(int_at(obj, &["status", "replicas"])),
            json!(int_at(obj, &["status", "readyReplicas"])),
            age_cell(obj, now),
            json!(names),
            json!(images),
            json!(labels(at(obj, &["spec", "selector"]))),
        ]
        .into()
    },
};

static NODE: Printer = Printer {
    columns: &[
        NAME,
        col("Status", "string", Text("The status of the node")),
        col("Roles", "string", Text("The roles of the node")),
        AGE,
        col("Version", "string", Field(NODE_INFO, "kubeletVersion")),
        col(
            "Internal-IP",
            "string",
            Field("io.k8s.api.core.v1.NodeStatus", "addresses"),
        )
        .wide(),
        col(
            "External-IP",
            "string",
            Field("io.k8s.api.core.v1.NodeStatus", "addresses"),
        )
        .wide(),
        col("OS-Image", "string", Field(NODE_INFO, "osImage")).wide(),
        col(
            "Kernel-Version",
            "string",
            Field(NODE_INFO, "kernelVersion"),
        )
        .wide(),
        col(
            "Container-Runtime",
            "string",
            Field(NODE_INFO, "containerRuntimeVersion"),
        )
        .wide(),
    ],
    print: node,
};

/// `printNode`.
fn node(obj: &Value, now: i64) -> Row {
    let mut status: Vec<String> = list_at(obj, &["status", "conditions"])
        .iter()
        .rev()
        .find(|c| str_at(c, &["type"]) == "Ready") // Go keeps the last condition of a type
        .map(|c| match str_at(c, &["status"]) {
            "True" => "Ready".to_owned(),
            _ => "NotReady".to_owned(),
        })
        .into_iter()
        .collect();
    if status.is_empty() {
        status.push("Unknown".to_owned());
    }
    if at(obj, &["spec", "unschedulable"]).as_bool() == Some(true) {
        status.push("SchedulingDisabled".to_owned());
    }
    let mut roles: Vec<&str> = map_at(obj, &["metadata", "labels"])
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| match k.strip_prefix("node-role.kubernetes.io/") {
            Some(role) if !role.is_empty() => Some(role),
            Some(_) => None,
            None => (k == "kubernetes.io/role")
                .then(|| v.as_str().unwrap_or(""))
                .filter(|v| !v.is_empty()),
        })
        .collect();
    roles.sort_unstable();
    roles.dedup();
    let address = |ty: &str| {
        list_at(obj, &["status", "addresses"])
            .iter()
            .find(|a| str_at(a, &["type"]) == ty)
            .map_or("<none>", |a| str_at(a, &["address"]))
    };
    let info = at(obj, &["status", "nodeInfo"]);
    let unknown = |k: &str| match str_at(info, &[k]) {
        "" => "<unknown>",
        v => v,
    };
    vec![
        name_cell(obj),
        json!(status.join(",")),
        json!(if roles.is_empty() {
            "<none>".to_owned()
        } else {
            roles.join(",")
        }),
        age_cell(obj, now),
        json!(str_at(info, &["kubeletVersion"])),
        json!(address("InternalIP")),
        json!(address("ExternalIP")),
        json!(unknown("osImage")),
        json!(unknown("kernelVersion")),
        json!(unknown("containerRuntimeVersion")),
    ]
    .into()
}

static NAMESPACE: Printer = Printer {
    columns: &[
        NAME,
        col("Status", "string", Text("The status of the namespace")),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(str_at(obj, &["status", "phase"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static SECRET: Printer = Printer {
    columns: &[
        NAME,
        col("Type", "string", Field("io.k8s.api.core.v1.Secret", "type")),
        col("Data", "string", Field("io.k8s.api.core.v1.Secret", "data")),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(str_at(obj, &["type"])),
            json!(len_at(obj, &["data"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static SERVICE_ACCOUNT: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Secrets",
            "string",
            Field("io.k8s.api.core.v1.ServiceAccount", "secrets"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(len_at(obj, &["secrets"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static CONFIG_MAP: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Data",
            "string",
            Field("io.k8s.api.core.v1.ConfigMap", "data"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let n = len_at(obj, &["data"]) + len_at(obj, &["binaryData"]);
        vec![name_cell(obj), json!(n), age_cell(obj, now)].into()
    },
};

static COMPONENT_STATUS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Status",
            "string",
            Text("Status of the component conditions"),
        ),
        col(
            "Message",
            "string",
            Text("Message of the component conditions"),
        ),
        col("Error", "string", Text("Error of the component conditions")),
    ],
    print: |obj, _| {
        let healthy = list_at(obj, &["conditions"])
            .iter()
            .find(|c| str_at(c, &["type"]) == "Healthy");
        let (status, message, error) = match healthy {
            Some(c) => (
                if str_at(c, &["status"]) == "True" {
                    "Healthy"
                } else {
                    "Unhealthy"
                },
                str_at(c, &["message"]),
                str_at(c, &["error"]),
            ),
            None => ("Unknown", "", ""),
        };
        vec![name_cell(obj), json!(status), json!(message), json!(error)].into()
    },
};

static RESOURCE_QUOTA: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Request",
            "string",
            Text("Request represents a minimum amount of cpu/memory that a container may consume."),
        ),
        col(
            "Limit",
            "string",
            Text(
                "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.",
            ),
        ),
        AGE,
    ],
    print: |obj, now| {
        // `status.hard`'s resources in name order (a JSON object is already).
        let (mut requests, mut limits) = (Vec::new(), Vec::new());
        for (resource, hard) in map_at(obj, &["status", "hard"]).into_iter().flatten() {
            let used = quantity(at(obj, &["status", "used", resource]));
            let text = format!("{resource}: {used}/{}", quantity(hard));
            let pieces: Vec<&str> = resource.split('.').collect();
            if pieces.len() > 1 && pieces[0] == "limits" {
                limits.push(text);
            } else {
                requests.push(text);
            }
        }
        vec![
            name_cell(obj),
            json!(requests.join(", ")),
            json!(limits.join(", ")),
            age_cell(obj, now),
        ]
        .into()
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selector_of_a_pod_template_owner_is_a_map() {
        // A replication controller's selector is a map, printed as labels.
        let rc =
            json!({"metadata": {"name": "rc"}, "spec": {"replicas": 2, "selector": {"a": "b"}}});
        assert_eq!(REPLICATION_CONTROLLER.row(&rc, 0).cells[7], json!("a=b"));
    }
}
