//! The printers of the other groups: leases, priority and runtime classes, flow control,
//! dynamic resources, (kube-aggregator's own) API services and the `/scale` subresource.

use serde_json::{Value, json};

use super::format::{age_cell, at, int_at, list_at, name_cell, str_at};
use super::{AGE, Column, Description::Field, Description::Text, NAME, OBJECT_META, Printer, col};

const FLOW_QUEUING: &str = "io.k8s.api.flowcontrol.v1.QueuingConfiguration";
const RESOURCE_SLICE_SPEC: &str = "io.k8s.api.resource.v1.ResourceSliceSpec";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("coordination.k8s.io", "Lease", &LEASE),
    ("scheduling.k8s.io", "PriorityClass", &PRIORITY_CLASS),
    ("node.k8s.io", "RuntimeClass", &RUNTIME_CLASS),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema", &FLOW_SCHEMA),
    (
        "flowcontrol.apiserver.k8s.io",
        "PriorityLevelConfiguration",
        &PRIORITY_LEVEL,
    ),
    ("resource.k8s.io", "DeviceClass", &NAME_AND_AGE),
    ("resource.k8s.io", "ResourceClaim", &RESOURCE_CLAIM),
    ("resource.k8s.io", "ResourceClaimTemplate", &NAME_AND_AGE),
    ("resource.k8s.io", "ResourceSlice", &RESOURCE_SLICE),
    ("apiregistration.k8s.io", "APIService", &API_SERVICE),
    ("autoscaling", "Scale", &SCALE),
];

static LEASE: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Holder",
            "string",
            Field("io.k8s.api.coordination.v1.LeaseSpec", "holderIdentity"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(str_at(obj, &["spec", "holderIdentity"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static PRIORITY_CLASS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Value",
            "integer",
            Field("io.k8s.api.scheduling.v1.PriorityClass", "value"),
        ),
        col(
            "Global-Default",
            "boolean",
            Field("io.k8s.api.scheduling.v1.PriorityClass", "globalDefault"),
        ),
        AGE,
        col(
            "PreemptionPolicy",
            "string",
            Field("io.k8s.api.scheduling.v1.PriorityClass", "preemptionPolicy"),
        ),
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(int_at(obj, &["value"])),
            json!(at(obj, &["globalDefault"]).as_bool().unwrap_or(false)),
            age_cell(obj, now),
            json!(str_at(obj, &["preemptionPolicy"])),
        ]
        .into()
    },
};

/// Go describes the handler with `ObjectMeta`'s doc of `handler`, which does not exist: empty.
static RUNTIME_CLASS: Printer = Printer {
    columns: &[
        NAME,
        col("Handler", "string", Field(OBJECT_META, "handler")),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(str_at(obj, &["handler"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static FLOW_SCHEMA: Printer = Printer {
    columns: &[
        NAME,
        col(
            "PriorityLevel",
            "string",
            Field(
                "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference",
                "name",
            ),
        ),
        col(
            "MatchingPrecedence",
            "string",
            Field(
                "io.k8s.api.flowcontrol.v1.FlowSchemaSpec",
                "matchingPrecedence",
            ),
        ),
        col(
            "DistinguisherMethod",
            "string",
            Field(
                "io.k8s.api.flowcontrol.v1.FlowSchemaSpec",
                "distinguisherMethod",
            ),
        ),
        AGE,
        col(
            "MissingPL",
            "string",
            Text("references a broken or non-existent PriorityLevelConfiguration"),
        ),
    ],
    print: |obj, now| {
        let method = at(obj, &["spec", "distinguisherMethod", "type"])
            .as_str()
            .unwrap_or("<none>");
        let dangling = list_at(obj, &["status", "conditions"])
            .iter()
            .find(|c| str_at(c, &["type"]) == "Dangling")
            .map_or("?", |c| str_at(c, &["status"]));
        vec![
            name_cell(obj),
            json!(str_at(obj, &["spec", "priorityLevelConfiguration", "name"])),
            json!(int_at(obj, &["spec", "matchingPrecedence"])),
            json!(method),
            age_cell(obj, now),
            json!(dangling),
        ]
        .into()
    },
};

static PRIORITY_LEVEL: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Type",
            "string",
            Field(
                "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec",
                "type",
            ),
        ),
        col(
            "NominalConcurrencyShares",
            "string",
            Field(
                "io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
                "nominalConcurrencyShares",
            ),
        ),
        col("Queues", "string", Field(FLOW_QUEUING, "queues")),
        col("HandSize", "string", Field(FLOW_QUEUING, "handSize")),
        col(
            "QueueLengthLimit",
            "string",
            Field(FLOW_QUEUING, "queueLengthLimit"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let limited = at(obj, &["spec", "limited"]);
        let queuing = at(limited, &["limitResponse", "queuing"]);
        let none = || json!("<none>");
        let num = |v: &Value, k: &str| json!(int_at(v, &[k]));
        let (ncs, queues, hand, limit) = match (limited.is_null(), queuing.is_null()) {
            (true, _) => (none(), none(), none(), none()),
            (false, true) => (
                num(limited, "nominalConcurrencyShares"),
                none(),
                none(),
                none(),
            ),
            (false, false) => (
                num(limited, "nominalConcurrencyShares"),
                num(queuing, "queues"),
                num(queuing, "handSize"),
                num(queuing, "queueLengthLimit"),
            ),
        };
        vec![
            name_cell(obj),
            json!(str_at(obj, &["spec", "type"])),
            ncs,
            queues,
            hand,
            limit,
            age_cell(obj, now),
        ]
        .into()
    },
};

static NAME_AND_AGE: Printer = Printer {
    columns: &[NAME, AGE],
    print: |obj, now| vec![name_cell(obj), age_cell(obj, now)].into(),
};

static RESOURCE_CLAIM: Printer = Printer {
    columns: &[
        NAME,
        col(
            "State",
            "string",
            Text("A summary of the current state (allocated, pending, reserved, etc.)."),
        ),
        AGE,
    ],
    print: |obj, now| {
        // `resourceClaimState`.
        let deleted = !at(obj, &["metadata", "deletionTimestamp"]).is_null();
        let mut states = Vec::new();
        if deleted {
            states.push("deleted");
        }
        if at(obj, &["status", "allocation"]).is_null() {
            if !deleted {
                states.push("pending");
            }
        } else {
            states.push("allocated");
            if !list_at(obj, &["status", "reservedFor"]).is_empty() {
                states.push("reserved");
            }
        }
        vec![name_cell(obj), json!(states.join(",")), age_cell(obj, now)].into()
    },
};

static RESOURCE_SLICE: Printer = Printer {
    columns: &[
        NAME,
        col("Node", "string", Field(RESOURCE_SLICE_SPEC, "nodeName")),
        col("Driver", "string", Field(RESOURCE_SLICE_SPEC, "driver")),
        col(
            "Pool",
            "string",
            Field("io.k8s.api.resource.v1.ResourcePool", "name"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(str_at(obj, &["spec", "nodeName"])),
            json!(str_at(obj, &["spec", "driver"])),
            json!(str_at(obj, &["spec", "pool", "name"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

/// kube-aggregator `pkg/registry/apiservice/etcd/etcd.go` `ConvertToTable`.
static API_SERVICE: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Service",
            "string",
            Text("The reference to the service that hosts this API endpoint."),
        ),
        col(
            "Available",
            "string",
            Text("Whether this service is available."),
        ),
        AGE,
    ],
    print: |obj, now| {
        let svc = at(obj, &["spec", "service"]);
        let service = if svc.is_null() {
            "Local".to_owned()
        } else {
            format!("{}/{}", str_at(svc, &["namespace"]), str_at(svc, &["name"]))
        };
        let available = list_at(obj, &["status", "conditions"])
            .iter()
            .find(|c| str_at(c, &["type"]) == "Available");
        let status = match available {
            None => "Unknown".to_owned(),
            Some(c) => match (str_at(c, &["status"]), str_at(c, &["reason"])) {
                ("True", _) => "True".to_owned(),
                (s, "") => s.to_owned(),
                (s, r) => format!("{s} ({r})"),
            },
        };
        vec![
            name_cell(obj),
            json!(service),
            json!(status),
            age_cell(obj, now),
        ]
        .into()
    },
};

/// The `/scale` subresource's table.
static SCALE: Printer = Printer {
    columns: &[
        Column { format: "", ..NAME },
        col(
            "Desired",
            "integer",
            Field("io.k8s.api.autoscaling.v1.ScaleSpec", "replicas"),
        ),
        col(
            "Available",
            "integer",
            Field("io.k8s.api.autoscaling.v1.ScaleStatus", "replicas"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(int_at(obj, &["spec", "replicas"])),
            json!(int_at(obj, &["status", "replicas"])),
            age_cell(obj, now),
        ]
        .into()
    },
};
