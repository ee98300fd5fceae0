//! The service printers (printers.go `printService`, `printEndpoints`).

use serde_json::{Value, json};

use super::format::{age_cell, at, int_at, labels, list_at, name_cell, str_at};
use super::{AGE, Description::Field, NAME};
use super::{Printer, Row, col};

const SERVICE_SPEC: &str = "io.k8s.api.core.v1.ServiceSpec";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] =
    &[("", "Service", &SERVICE), ("", "Endpoints", &ENDPOINTS)];

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
        name_cell(obj),
        json!(svc_type),
        json!(cluster_ip),
        json!(external_ip),
        json!(ports),
        age_cell(obj, now),
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
    print: |obj, now| vec![name_cell(obj), json!(endpoints(obj)), age_cell(obj, now)].into(),
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
