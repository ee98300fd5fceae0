//! The printers of the other groups: networking, RBAC bindings, certificates, leases,
//! scheduling, runtime classes, endpoint slices, admission, flow control, dynamic resources and
//! (kube-aggregator's own) API services.

use serde_json::{Value, json};

use super::core::load_balancer;
use super::format::{
    age_at, at, format_label_selector, int_at, len_at, list_at, list_with_more, str_at,
};
use super::{AGE, Column, Description::Field, Description::Text, NAME, OBJECT_META, Printer, col};
use crdkit_apimachinery::duration::human_duration;

const NETWORK_POLICY_SPEC: &str = "io.k8s.api.networking.v1.NetworkPolicySpec";
const SERVICE_CIDR_SPEC: &str = "io.k8s.api.networking.v1.ServiceCIDRSpec";
const IP_ADDRESS_SPEC: &str = "io.k8s.api.networking.v1.IPAddressSpec";
const ENDPOINT_SLICE: &str = "io.k8s.api.discovery.v1.EndpointSlice";
const FLOW_QUEUING: &str = "io.k8s.api.flowcontrol.v1.QueuingConfiguration";
const RESOURCE_SLICE_SPEC: &str = "io.k8s.api.resource.v1.ResourceSliceSpec";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("networking.k8s.io", "Ingress", &INGRESS),
    ("networking.k8s.io", "IngressClass", &INGRESS_CLASS),
    ("networking.k8s.io", "NetworkPolicy", &NETWORK_POLICY),
    ("networking.k8s.io", "ServiceCIDR", &SERVICE_CIDR),
    ("networking.k8s.io", "IPAddress", &IP_ADDRESS),
    ("rbac.authorization.k8s.io", "RoleBinding", &ROLE_BINDING),
    (
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        &CLUSTER_ROLE_BINDING,
    ),
    ("certificates.k8s.io", "CertificateSigningRequest", &CSR),
    ("coordination.k8s.io", "Lease", &LEASE),
    ("scheduling.k8s.io", "PriorityClass", &PRIORITY_CLASS),
    ("node.k8s.io", "RuntimeClass", &RUNTIME_CLASS),
    ("discovery.k8s.io", "EndpointSlice", &ENDPOINT_SLICE_PRINTER),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        &WEBHOOKS,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        &WEBHOOKS,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        &VALIDATING_ADMISSION_POLICY,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
        &VALIDATING_ADMISSION_POLICY_BINDING,
    ),
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

fn name(obj: &Value) -> Value {
    json!(str_at(obj, &["metadata", "name"]))
}

fn age(obj: &Value, now: i64) -> Value {
    json!(age_at(obj, &["metadata", "creationTimestamp"], now))
}

static INGRESS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Class",
            "string",
            Text(
                "The name of the IngressClass resource that should be used for additional configuration",
            ),
        ),
        col(
            "Hosts",
            "string",
            Text("Hosts that incoming requests are matched against before the ingress rule"),
        ),
        col(
            "Address",
            "string",
            Text("Address is a list containing ingress points for the load-balancer"),
        ),
        col(
            "Ports",
            "string",
            Text("Ports of TLS configurations that open"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let class = at(obj, &["spec", "ingressClassName"])
            .as_str()
            .unwrap_or("<none>");
        // `formatHosts`: the first three hosts set, then `+ N more...` counting rules.
        let rules = list_at(obj, &["spec", "rules"]);
        let (mut hosts, mut more) = (Vec::new(), false);
        for rule in rules {
            if hosts.len() == 3 {
                more = true;
            }
            let host = str_at(rule, &["host"]);
            if !more && !host.is_empty() {
                hosts.push(host);
            }
        }
        let hosts = match (hosts.is_empty(), more) {
            (true, _) => "*".to_owned(),
            (false, true) => format!("{} + {} more...", hosts.join(","), rules.len() - 3),
            (false, false) => hosts.join(","),
        };
        let ports = if list_at(obj, &["spec", "tls"]).is_empty() {
            "80"
        } else {
            "80, 443"
        };
        vec![
            name(obj),
            json!(class),
            json!(hosts),
            json!(load_balancer(at(obj, &["status", "loadBalancer"]))),
            json!(ports),
            age(obj, now),
        ]
        .into()
    },
};

static INGRESS_CLASS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Controller",
            "string",
            Text("Controller that is responsible for handling this class"),
        ),
        col(
            "Parameters",
            "string",
            Text("A reference to a resource with additional parameters"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let p = at(obj, &["spec", "parameters"]);
        let parameters = if p.is_null() {
            "<none>".to_owned()
        } else {
            let group = at(p, &["apiGroup"])
                .as_str()
                .map(|g| format!(".{g}"))
                .unwrap_or_default();
            format!("{}{group}/{}", str_at(p, &["kind"]), str_at(p, &["name"]))
        };
        vec![
            name(obj),
            json!(str_at(obj, &["spec", "controller"])),
            json!(parameters),
            age(obj, now),
        ]
        .into()
    },
};

static NETWORK_POLICY: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Pod-Selector",
            "string",
            Field(NETWORK_POLICY_SPEC, "podSelector"),
        ),
        AGE,
    ],
    print: |obj, now| {
        // `FormatLabelSelector(&spec.podSelector)`: never nil, so empty is `<none>`.
        let sel = at(obj, &["spec", "podSelector"]);
        let sel = if sel.is_null() {
            json!({})
        } else {
            sel.clone()
        };
        vec![name(obj), json!(format_label_selector(&sel)), age(obj, now)].into()
    },
};

static SERVICE_CIDR: Printer = Printer {
    columns: &[
        NAME,
        col("CIDRs", "string", Field(SERVICE_CIDR_SPEC, "cidrs")),
        AGE,
    ],
    print: |obj, now| {
        let cidrs: Vec<&str> = list_at(obj, &["spec", "cidrs"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        vec![name(obj), json!(cidrs.join(",")), age(obj, now)].into()
    },
};

/// Two columns and three cells, as Go has it (the Age cell has no column).
static IP_ADDRESS: Printer = Printer {
    columns: &[
        NAME,
        col("ParentRef", "string", Field(IP_ADDRESS_SPEC, "parentRef")),
    ],
    print: |obj, now| {
        let p = at(obj, &["spec", "parentRef"]);
        let parent = if p.is_null() {
            "<none>".to_owned()
        } else {
            // `GroupResource.String()` lowercased, then the namespace and the name.
            let (group, resource) = (str_at(p, &["group"]), str_at(p, &["resource"]));
            let mut s = if group.is_empty() {
                resource.to_owned()
            } else {
                format!("{resource}.{group}")
            }
            .to_lowercase();
            if !str_at(p, &["namespace"]).is_empty() {
                s = format!("{s}/{}", str_at(p, &["namespace"]));
            }
            format!("{s}/{}", str_at(p, &["name"]))
        };
        vec![name(obj), json!(parent), age(obj, now)].into()
    },
};

/// `rbac.SubjectsStrings`: users, groups and service accounts (`namespace/name`).
fn subjects(obj: &Value) -> [Value; 3] {
    let (mut users, mut groups, mut sas) = (Vec::new(), Vec::new(), Vec::new());
    for s in list_at(obj, &["subjects"]) {
        match str_at(s, &["kind"]) {
            "ServiceAccount" => sas.push(format!(
                "{}/{}",
                str_at(s, &["namespace"]),
                str_at(s, &["name"])
            )),
            "User" => users.push(str_at(s, &["name"]).to_owned()),
            "Group" => groups.push(str_at(s, &["name"]).to_owned()),
            _ => {}
        }
    }
    [
        json!(users.join(", ")),
        json!(groups.join(", ")),
        json!(sas.join(", ")),
    ]
}

fn binding_row(obj: &Value, now: i64) -> super::Row {
    let role = format!(
        "{}/{}",
        str_at(obj, &["roleRef", "kind"]),
        str_at(obj, &["roleRef", "name"])
    );
    let [users, groups, sas] = subjects(obj);
    vec![name(obj), json!(role), age(obj, now), users, groups, sas].into()
}

static ROLE_BINDING: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Role",
            "string",
            Field("io.k8s.api.rbac.v1.RoleBinding", "roleRef"),
        ),
        AGE,
        col("Users", "string", Text("Users in the roleBinding")).wide(),
        col("Groups", "string", Text("Groups in the roleBinding")).wide(),
        col(
            "ServiceAccounts",
            "string",
            Text("ServiceAccounts in the roleBinding"),
        )
        .wide(),
    ],
    print: binding_row,
};

static CLUSTER_ROLE_BINDING: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Role",
            "string",
            Field("io.k8s.api.rbac.v1.ClusterRoleBinding", "roleRef"),
        ),
        AGE,
        col("Users", "string", Text("Users in the clusterRoleBinding")).wide(),
        col("Groups", "string", Text("Groups in the clusterRoleBinding")).wide(),
        col(
            "ServiceAccounts",
            "string",
            Text("ServiceAccounts in the clusterRoleBinding"),
        )
        .wide(),
    ],
    print: binding_row,
};

static CSR: Printer = Printer {
    columns: &[
        NAME,
        AGE,
        col(
            "SignerName",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestSpec",
                "signerName",
            ),
        ),
        col(
            "Requestor",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestSpec",
                "request",
            ),
        ),
        col(
            "RequestedDuration",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestSpec",
                "expirationSeconds",
            ),
        ),
        col(
            "Condition",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestStatus",
                "conditions",
            ),
        ),
    ],
    print: |obj, now| {
        // `extractCSRStatus`: Denied over Approved over Pending, then Failed, then Issued.
        let has = |t: &str| {
            list_at(obj, &["status", "conditions"])
                .iter()
                .any(|c| str_at(c, &["type"]) == t)
        };
        let mut status = if has("Denied") {
            "Denied"
        } else if has("Approved") {
            "Approved"
        } else {
            "Pending"
        }
        .to_owned();
        if has("Failed") {
            status.push_str(",Failed");
        }
        if !str_at(obj, &["status", "certificate"]).is_empty() {
            status.push_str(",Issued");
        }
        let signer = match str_at(obj, &["spec", "signerName"]) {
            "" => "<none>",
            s => s,
        };
        let duration = at(obj, &["spec", "expirationSeconds"])
            .as_i64()
            .map_or_else(|| "<none>".to_owned(), human_duration);
        vec![
            name(obj),
            age(obj, now),
            json!(signer),
            json!(str_at(obj, &["spec", "username"])),
            json!(duration),
            json!(status),
        ]
        .into()
    },
};

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
            name(obj),
            json!(str_at(obj, &["spec", "holderIdentity"])),
            age(obj, now),
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
            name(obj),
            json!(int_at(obj, &["value"])),
            json!(at(obj, &["globalDefault"]).as_bool().unwrap_or(false)),
            age(obj, now),
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
    print: |obj, now| vec![name(obj), json!(str_at(obj, &["handler"])), age(obj, now)].into(),
};

static ENDPOINT_SLICE_PRINTER: Printer = Printer {
    columns: &[
        NAME,
        col(
            "AddressType",
            "string",
            Field(ENDPOINT_SLICE, "addressType"),
        ),
        col("Ports", "string", Field(ENDPOINT_SLICE, "ports")),
        col("Endpoints", "string", Field(ENDPOINT_SLICE, "endpoints")),
        AGE,
    ],
    print: |obj, now| {
        // `formatDiscoveryPorts` and `formatDiscoveryEndpoints`: three at most.
        let ports = list_at(obj, &["ports"]);
        let port_list: Vec<String> = ports
            .iter()
            .take(3)
            .map(
                |p| match (at(p, &["port"]).as_i64(), at(p, &["name"]).as_str()) {
                    (Some(n), _) => n.to_string(),
                    (None, Some(name)) => name.to_owned(),
                    (None, None) => "*".to_owned(),
                },
            )
            .collect();
        let addresses: Vec<String> = list_at(obj, &["endpoints"])
            .iter()
            .flat_map(|e| {
                list_at(e, &["addresses"])
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
            })
            .collect();
        let shown: Vec<String> = addresses.iter().take(3).cloned().collect();
        vec![
            name(obj),
            json!(str_at(obj, &["addressType"])),
            json!(list_with_more(&port_list, ports.len(), 3)),
            json!(list_with_more(&shown, addresses.len(), 3)),
            age(obj, now),
        ]
        .into()
    },
};

static WEBHOOKS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Webhooks",
            "integer",
            Text("Webhooks indicates the number of webhooks registered in this configuration"),
        ),
        AGE,
    ],
    print: |obj, now| vec![name(obj), json!(len_at(obj, &["webhooks"])), age(obj, now)].into(),
};

static VALIDATING_ADMISSION_POLICY: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Validations",
            "integer",
            Text(
                "Validations indicates the number of validation rules defined in this configuration",
            ),
        ),
        col(
            "ParamKind",
            "string",
            Text("ParamKind specifies the kind of resources used to parameterize this policy"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let pk = at(obj, &["spec", "paramKind"]);
        let param_kind = if pk.is_null() {
            "<unset>".to_owned()
        } else {
            format!("{}/{}", str_at(pk, &["apiVersion"]), str_at(pk, &["kind"]))
        };
        vec![
            name(obj),
            json!(len_at(obj, &["spec", "validations"])),
            json!(param_kind),
            age(obj, now),
        ]
        .into()
    },
};

static VALIDATING_ADMISSION_POLICY_BINDING: Printer = Printer {
    columns: &[
        NAME,
        col(
            "PolicyName",
            "string",
            Text("PolicyName indicates the policy definition which the policy binding binded to"),
        ),
        col(
            "ParamRef",
            "string",
            Text("ParamRef indicates the param resource which sets the configration param"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let pr = at(obj, &["spec", "paramRef"]);
        let param = match (str_at(pr, &["name"]), str_at(pr, &["namespace"])) {
            _ if pr.is_null() => "<unset>".to_owned(),
            ("", _) if !at(pr, &["selector"]).is_null() => {
                selector_go_string(at(pr, &["selector"]))
            }
            ("", _) => "<unset>".to_owned(),
            (name, "") => format!("*/{name}"),
            (name, ns) => format!("{ns}/{name}"),
        };
        vec![
            name(obj),
            json!(str_at(obj, &["spec", "policyName"])),
            json!(param),
            age(obj, now),
        ]
        .into()
    },
};

/// A `*metav1.LabelSelector`'s generated `String()` (`&LabelSelector{MatchLabels:map[...]...}`).
fn selector_go_string(sel: &Value) -> String {
    use std::fmt::Write;
    let mut out = String::from("&LabelSelector{MatchLabels:map[string]string{");
    for (k, v) in at(sel, &["matchLabels"]).as_object().into_iter().flatten() {
        let _ = write!(out, "{k}: {},", v.as_str().unwrap_or(""));
    }
    out.push_str("},MatchExpressions:[]LabelSelectorRequirement{");
    for e in list_at(sel, &["matchExpressions"]) {
        let values: Vec<&str> = list_at(e, &["values"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let _ = write!(
            out,
            "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
            str_at(e, &["key"]),
            str_at(e, &["operator"]),
            values.join(" ")
        );
    }
    out.push_str("},}");
    out
}

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
            name(obj),
            json!(str_at(obj, &["spec", "priorityLevelConfiguration", "name"])),
            json!(int_at(obj, &["spec", "matchingPrecedence"])),
            json!(method),
            age(obj, now),
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
            name(obj),
            json!(str_at(obj, &["spec", "type"])),
            ncs,
            queues,
            hand,
            limit,
            age(obj, now),
        ]
        .into()
    },
};

static NAME_AND_AGE: Printer = Printer {
    columns: &[NAME, AGE],
    print: |obj, now| vec![name(obj), age(obj, now)].into(),
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
        vec![name(obj), json!(states.join(",")), age(obj, now)].into()
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
            name(obj),
            json!(str_at(obj, &["spec", "nodeName"])),
            json!(str_at(obj, &["spec", "driver"])),
            json!(str_at(obj, &["spec", "pool", "name"])),
            age(obj, now),
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
        vec![name(obj), json!(service), json!(status), age(obj, now)].into()
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
            name(obj),
            json!(int_at(obj, &["spec", "replicas"])),
            json!(int_at(obj, &["status", "replicas"])),
            age(obj, now),
        ]
        .into()
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selector_strings_as_gogo_writes_them() {
        let sel = json!({"matchLabels": {"b": "2", "a": "1"}, "matchExpressions": [{"key": "k", "operator": "In", "values": ["x", "y"]}]});
        assert_eq!(
            selector_go_string(&sel),
            "&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}"
        );
    }
}
