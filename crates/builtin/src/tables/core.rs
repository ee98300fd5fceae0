//! The core group's printers but volumes and events: pods, templates, replication
//! controllers, services, endpoints, nodes, namespaces, secrets, service accounts, config maps,
//! component statuses and quotas (printers.go `printPod` ... `printResourceQuota`).

use serde_json::{Value, json};

use super::format::{
    age_at, at, containers, int_at, labels, len_at, list_at, map_at, quantity, str_at, timestamp,
};
use super::{AGE, CONTAINERS, Column, Description::Field, Description::Text, IMAGES, NAME};
use super::{Printer, Row, col};
use crdkit_apimachinery::duration::human_duration;

const POD_STATUS: &str = "io.k8s.api.core.v1.PodStatus";
const POD_SPEC: &str = "io.k8s.api.core.v1.PodSpec";
const RC_SPEC: &str = "io.k8s.api.core.v1.ReplicationControllerSpec";
const RC_STATUS: &str = "io.k8s.api.core.v1.ReplicationControllerStatus";
const SERVICE_SPEC: &str = "io.k8s.api.core.v1.ServiceSpec";
const NODE_INFO: &str = "io.k8s.api.core.v1.NodeSystemInfo";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("", "Pod", &POD),
    ("", "PodTemplate", &POD_TEMPLATE),
    ("", "ReplicationController", &REPLICATION_CONTROLLER),
    ("", "Service", &SERVICE),
    ("", "Endpoints", &ENDPOINTS),
    ("", "Node", &NODE),
    ("", "Namespace", &NAMESPACE),
    ("", "Secret", &SECRET),
    ("", "ServiceAccount", &SERVICE_ACCOUNT),
    ("", "ConfigMap", &CONFIG_MAP),
    ("", "ComponentStatus", &COMPONENT_STATUS),
    ("", "ResourceQuota", &RESOURCE_QUOTA),
];

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
#[allow(clippy::too_many_lines)] // one Go function, kept in one piece to compare with it
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

fn name(obj: &Value) -> Value {
    json!(str_at(obj, &["metadata", "name"]))
}

fn age(obj: &Value, now: i64) -> Value {
    json!(age_at(obj, &["metadata", "creationTimestamp"], now))
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
        vec![name(obj), json!(names), json!(images), json!(pod_labels)].into()
    },
};

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
            name(obj),
            json!(int_at(obj, &["spec", "replicas"])),
            json!(int_at(obj, &["status", "replicas"])),
            json!(int_at(obj, &["status", "readyReplicas"])),
            age(obj, now),
            json!(names),
            json!(images),
            json!(labels(at(obj, &["spec", "selector"]))),
        ]
        .into()
    },
};

static SERVICE: Printer = Printer {
    columns: &[
        NAME,
        col("Type", "string", Field(SERVICE_SPEC, "type")),
        col("Cluster-IP", "string", Field(SERVICE_SPEC, "clusterIP")),
        col("External-IP", "string", Field(SERVICE_SPEC, "externalIPs")),
        col("Port(s)", "string", Field(SERVICE_SPEC, "ports")),
        AGE,
        col("Selector", "string", Field(SERVICE_SPEC, "selector")).wide(),
    ],
    print: service,
};

/// `loadBalancerStatusStringer` (wide: the API server never clips it): the ingress IPs or
/// hostnames, sorted and unique.
pub(super) fn load_balancer(status: &Value) -> String {
    let mut points: Vec<&str> = list_at(status, &["ingress"])
        .iter()
        .map(|i| match str_at(i, &["ip"]) {
            "" => str_at(i, &["hostname"]),
            ip => ip,
        })
        .filter(|s| !s.is_empty())
        .collect();
    points.sort_unstable();
    points.dedup();
    points.join(",")
}

/// `printService`.
fn service(obj: &Value, now: i64) -> Row {
    let spec = at(obj, &["spec"]);
    let svc_type = str_at(spec, &["type"]);
    // v1's `clusterIP` stands for `clusterIPs` when those are missing (the conversion).
    let cluster_ip = match list_at(spec, &["clusterIPs"])
        .first()
        .and_then(Value::as_str)
    {
        Some(ip) => ip,
        None => str_at(spec, &["clusterIP"]),
    };
    let external: Vec<&str> = list_at(spec, &["externalIPs"])
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let external_ip = match svc_type {
        "ClusterIP" | "NodePort" if external.is_empty() => "<none>".to_owned(),
        "ClusterIP" | "NodePort" => external.join(","),
        "LoadBalancer" => {
            let lb = load_balancer(at(obj, &["status", "loadBalancer"]));
            match (lb.is_empty(), external.is_empty()) {
                (_, false) => lb
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .chain(external)
                    .collect::<Vec<_>>()
                    .join(","),
                (false, true) => lb,
                (true, true) => "<pending>".to_owned(),
            }
        }
        "ExternalName" => str_at(spec, &["externalName"]).to_owned(),
        _ => "<unknown>".to_owned(),
    };
    let ports: Vec<String> = list_at(spec, &["ports"])
        .iter()
        .map(|p| {
            let (port, proto) = (int_at(p, &["port"]), str_at(p, &["protocol"]));
            match int_at(p, &["nodePort"]) {
                n if n > 0 => format!("{port}:{n}/{proto}"),
                _ => format!("{port}/{proto}"),
            }
        })
        .collect();
    let ports = if ports.is_empty() {
        "<none>".to_owned()
    } else {
        ports.join(",")
    };
    let cluster_ip = if cluster_ip.is_empty() {
        "<none>"
    } else {
        cluster_ip
    };
    vec![
        name(obj),
        json!(svc_type),
        json!(cluster_ip),
        json!(external_ip),
        json!(ports),
        age(obj, now),
        json!(labels(at(spec, &["selector"]))),
    ]
    .into()
}

static ENDPOINTS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Endpoints",
            "string",
            Field("io.k8s.api.core.v1.Endpoints", "subsets"),
        ),
        AGE,
    ],
    print: |obj, now| vec![name(obj), json!(endpoints(obj)), age(obj, now)].into(),
};

/// `formatEndpoints` with every port: the first three `ip:port`, then `+ N more...`.
fn endpoints(obj: &Value) -> String {
    let subsets = list_at(obj, &["subsets"]);
    if subsets.is_empty() {
        return "<none>".to_owned();
    }
    let (max, mut list, mut count) = (3, Vec::new(), 0);
    for ss in subsets {
        let addresses = list_at(ss, &["addresses"]);
        let ports = list_at(ss, &["ports"]);
        if ports.is_empty() {
            // Headless services with no ports.
            count += addresses.len();
            list.extend(
                addresses
                    .iter()
                    .take(max - list.len().min(max))
                    .map(|a| str_at(a, &["ip"]).to_owned()),
            );
            continue;
        }
        for port in ports {
            count += addresses.len();
            for a in addresses {
                if list.len() == max {
                    break;
                }
                let ip = str_at(a, &["ip"]);
                let host = if ip.contains(':') {
                    format!("[{ip}]")
                } else {
                    ip.to_owned()
                };
                list.push(format!("{host}:{}", int_at(port, &["port"])));
            }
        }
    }
    let ret = list.join(",");
    if count > max {
        format!("{ret} + {} more...", count - max)
    } else {
        ret
    }
}

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
        name(obj),
        json!(status.join(",")),
        json!(if roles.is_empty() {
            "<none>".to_owned()
        } else {
            roles.join(",")
        }),
        age(obj, now),
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
            name(obj),
            json!(str_at(obj, &["status", "phase"])),
            age(obj, now),
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
            name(obj),
            json!(str_at(obj, &["type"])),
            json!(len_at(obj, &["data"])),
            age(obj, now),
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
    print: |obj, now| vec![name(obj), json!(len_at(obj, &["secrets"])), age(obj, now)].into(),
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
        vec![name(obj), json!(n), age(obj, now)].into()
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
        vec![name(obj), json!(status), json!(message), json!(error)].into()
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
            name(obj),
            json!(requests.join(", ")),
            json!(limits.join(", ")),
            age(obj, now),
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
