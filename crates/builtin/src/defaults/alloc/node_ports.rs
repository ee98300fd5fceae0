//! Node ports and health check node ports (`initNodePorts`, `updateNodePorts`,
//! `allocHealthCheckNodePort` of kubernetes `pkg/registry/core/service/storage/alloc.go`).

use serde_json::Value;

use super::super::json::{Obj, str_of};
use super::{AllocError, Allocation, ServiceAllocator};
use crate::validation::needs_health_check;
use crdkit_apimachinery::field::{FieldError, FieldPath};

impl ServiceAllocator {
    /// `initNodePorts`/`updateNodePorts` and the health check node port.
    pub(super) fn alloc_node_ports(
        &mut self,
        spec: &mut Obj,
        old: Option<&Obj>,
        a: &mut Allocation,
    ) -> Result<(), AllocError> {
        let kind = str_of(spec, "type").to_owned();
        let old_ports: Vec<i64> = old.map(node_ports).unwrap_or_default();
        let old_needed =
            old.is_some_and(|o| matches!(str_of(o, "type"), "NodePort" | "LoadBalancer"));
        if old_needed && !matches!(kind.as_str(), "NodePort" | "LoadBalancer") {
            a.release_ports
                .extend(old_ports.iter().filter_map(|p| u16::try_from(*p).ok()));
        }
        if matches!(kind.as_str(), "NodePort" | "LoadBalancer") {
            let allocate_new = kind == "NodePort"
                || spec.get("allocateLoadBalancerNodePorts") != Some(&Value::Bool(false));
            let ports: Vec<(i64, i64)> = spec
                .get("ports")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|p| {
                    (
                        p.get("port").and_then(Value::as_i64).unwrap_or(0),
                        p.get("nodePort").and_then(Value::as_i64).unwrap_or(0),
                    )
                })
                .collect();
            let mut by_port: Vec<(i64, i64)> = Vec::new();
            let mut assigned = Vec::with_capacity(ports.len());
            for (i, (port, np)) in ports.iter().enumerate() {
                let path = FieldPath::new("spec")
                    .child("ports")
                    .index(i)
                    .child("nodePort");
                let invalid =
                    |v: i64, e: String| AllocError::Invalid(vec![FieldError::invalid(&path, v, e)]);
                if *np == 0 && !allocate_new {
                    assigned.push(0);
                    continue;
                }
                let shared = by_port.iter().find(|(p, _)| p == port).map(|(_, n)| *n);
                let value = match (shared, *np) {
                    (Some(n), 0) => n,
                    (Some(n), requested) if requested == n => n,
                    (_, requested) if requested != 0 => {
                        if !old_ports.contains(&requested) && !assigned.contains(&requested) {
                            self.ports
                                .allocate(requested)
                                .map_err(|e| invalid(requested, e))?;
                            a.ports.push(u16::try_from(requested).unwrap_or(0));
                        }
                        requested
                    }
                    _ => {
                        // A port number requested further down the list is shared.
                        let later = ports[i..]
                            .iter()
                            .find(|(p, n)| p == port && *n != 0)
                            .map(|(_, n)| *n);
                        if let Some(n) = later {
                            self.ports.allocate(n).map_err(|e| invalid(n, e))?;
                            a.ports.push(u16::try_from(n).unwrap_or(0));
                            n
                        } else {
                            let p = self.ports.allocate_next().ok_or_else(|| {
                                AllocError::Internal(
                                    "failed to allocate a nodePort: range is full".to_owned(),
                                )
                            })?;
                            a.ports.push(p);
                            i64::from(p)
                        }
                    }
                };
                by_port.push((*port, value));
                assigned.push(value);
            }
            if let Some(list) = spec.get_mut("ports").and_then(Value::as_array_mut) {
                for (p, np) in list.iter_mut().zip(&assigned) {
                    if let Some(p) = p.as_object_mut()
                        && *np != 0
                    {
                        p.insert("nodePort".to_owned(), Value::from(*np));
                    }
                }
            }
            a.release_ports.extend(
                old_ports
                    .iter()
                    .filter(|p| !assigned.contains(p))
                    .filter_map(|p| u16::try_from(*p).ok()),
            );
        }
        let old_hc = old.filter(|o| needs_health_check(o)).map(|o| {
            o.get("healthCheckNodePort")
                .and_then(Value::as_i64)
                .unwrap_or(0)
        });
        if needs_health_check(spec) {
            let hc = spec
                .get("healthCheckNodePort")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if old_hc.is_none() {
                if hc != 0 {
                    self.ports.allocate(hc).map_err(|e| {
                        AllocError::Internal(format!(
                            "failed to allocate requested HealthCheck NodePort {hc}: {e}"
                        ))
                    })?;
                    a.ports.push(u16::try_from(hc).unwrap_or(0));
                } else {
                    let p = self.ports.allocate_next().ok_or_else(|| {
                        AllocError::Internal(
                            "failed to allocate a HealthCheck NodePort 0: range is full".to_owned(),
                        )
                    })?;
                    a.ports.push(p);
                    spec.insert("healthCheckNodePort".to_owned(), Value::from(p));
                }
            }
        } else if let Some(hc) = old_hc.filter(|hc| *hc != 0) {
            a.release_ports.push(u16::try_from(hc).unwrap_or(0));
        }
        Ok(())
    }
}

/// The node ports a Service spec holds (including its health check port).
pub(super) fn node_ports(spec: &Obj) -> Vec<i64> {
    let mut out: Vec<i64> = spec
        .get("ports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("nodePort").and_then(Value::as_i64))
        .filter(|p| *p != 0)
        .collect();
    if let Some(hc) = spec
        .get("healthCheckNodePort")
        .and_then(Value::as_i64)
        .filter(|p| *p != 0)
    {
        out.push(hc);
    }
    out.sort_unstable();
    out.dedup();
    out
}
