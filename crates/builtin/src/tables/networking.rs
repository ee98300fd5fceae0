//! The networking printers: ingresses and their classes, network policies, service CIDRs, IP
//! addresses and endpoint slices (printers.go `printIngress` ... `printEndpointSlice`).

use serde_json::{Value, json};

use super::format::{
    age_cell, at, format_label_selector, list_at, list_with_more, name_cell, str_at,
};
use super::services::load_balancer;
use super::{AGE, Description::Field, Description::Text, NAME, Printer, col};

const NETWORK_POLICY_SPEC: &str = "io.k8s.api.networking.v1.NetworkPolicySpec";
const SERVICE_CIDR_SPEC: &str = "io.k8s.api.networking.v1.ServiceCIDRSpec";
const IP_ADDRESS_SPEC: &str = "io.k8s.api.networking.v1.IPAddressSpec";
const ENDPOINT_SLICE: &str = "io.k8s.api.discovery.v1.EndpointSlice";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("networking.k8s.io", "Ingress", &INGRESS),
    ("networking.k8s.io", "IngressClass", &INGRESS_CLASS),
    ("networking.k8s.io", "NetworkPolicy", &NETWORK_POLICY),
    ("networking.k8s.io", "ServiceCIDR", &SERVICE_CIDR),
    ("networking.k8s.io", "IPAddress", &IP_ADDRESS),
    ("discovery.k8s.io", "EndpointSlice", &ENDPOINT_SLICE_PRINTER),
];

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
            name_cell(obj),
            json!(class),
            json!(hosts),
            json!(load_balancer(at(obj, &["status", "loadBalancer"]))),
            json!(ports),
            age_cell(obj, now),
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
            name_cell(obj),
            json!(str_at(obj, &["spec", "controller"])),
            json!(parameters),
            age_cell(obj, now),
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
        vec![
            name_cell(obj),
            json!(format_label_selector(&sel)),
            age_cell(obj, now),
        ]
        .into()
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
        vec![name_cell(obj), json!(cidrs.join(",")), age_cell(obj, now)].into()
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
        vec![name_cell(obj), json!(parent), age_cell(obj, now)].into()
    },
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
            name_cell(obj),
            json!(str_at(obj, &["addressType"])),
            json!(list_with_more(&port_list, ports.len(), 3)),
            json!(list_with_more(&shown, addresses.len(), 3)),
            age_cell(obj, now),
        ]
        .into()
    },
};
