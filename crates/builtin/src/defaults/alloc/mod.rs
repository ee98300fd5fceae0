//! Cluster IPs and node ports: the Service REST storage's allocation, over ranges and an
//! in-memory state the server owns.
//!
//! Mirrors kubernetes `pkg/registry/core/service/storage/alloc.go` (`initIPFamilyFields`,
//! `allocClusterIPs`, `initNodePorts`, `allocHealthCheckNodePort`, `updateClusterIPs`,
//! `updateNodePorts`), `storage.go` (`patchAllocatedValues`, `normalizeClusterIPs`),
//! `strategy.go` (`dropTypeDependentFields`) and the errors of `ipallocator` and
//! `portallocator`. What differs: addresses and ports are handed out in order (Go picks at
//! random), starting above the lower band Go keeps for static requests; dry runs are the
//! caller's (allocate, then [`ServiceAllocator::revert`]).
//!
//! The API server allocates before `PrepareForCreate` and validation (`BeginCreate`), so a
//! server calls [`ServiceAllocator::allocate_create`] right after defaulting, and
//! [`ServiceAllocator::revert`] when a later step fails; on delete, [`ServiceAllocator::release`].

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

use crdkit_apimachinery::field::FieldError;

mod families;
mod fields;
mod node_ports;
mod ranges;

pub(crate) use self::fields::drop_type_dependent_fields;
use self::fields::{normalize_cluster_ips, patch_allocated_values};
use self::node_ports::node_ports;
use self::ranges::{IpRange, PortRange};

use crdkit_apimachinery::goparse::parse_ip;

/// Why an allocation failed, as the API server answers it.
#[derive(Clone, Debug, PartialEq)]
pub enum AllocError {
    /// 422: `Service "x" is invalid: <errors>`.
    Invalid(Vec<FieldError>),
    /// 500: `Internal error occurred: <message>`.
    Internal(String),
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocError::Invalid(errs) => f.write_str(&crdkit_apimachinery::field::aggregate(errs)),
            AllocError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for AllocError {}

/// What an allocation took and what it will give back, for [`ServiceAllocator::commit`] or
/// [`ServiceAllocator::revert`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Allocation {
    /// Addresses taken (family index, address).
    ips: Vec<(usize, u128)>,
    /// Ports taken.
    ports: Vec<u16>,
    /// Addresses to release once the write succeeded.
    release_ips: Vec<(usize, u128)>,
    /// Ports to release once the write succeeded.
    release_ports: Vec<u16>,
}

/// The state of cluster IP and node port allocation, owned by a server.
#[derive(Clone, Debug)]
pub struct ServiceAllocator {
    /// One range per family, the primary (default) family first.
    ranges: Vec<IpRange>,
    ports: PortRange,
}

impl Default for ServiceAllocator {
    /// kube-apiserver's defaults as envtest and kind run it: `10.96.0.0/12`, `30000-32767`.
    fn default() -> Self {
        ServiceAllocator::new(&["10.96.0.0/12"], "30000-32767").unwrap_or_else(|_| unreachable!())
    }
}

impl ServiceAllocator {
    /// Ranges as kube-apiserver's flags take them: one or two CIDRs (dual stack: one per
    /// family, the first one primary) and a `base-last` port range.
    ///
    /// # Errors
    /// A CIDR or port range that does not parse, or two CIDRs of one family.
    pub fn new(cluster_ip_ranges: &[&str], node_ports: &str) -> Result<ServiceAllocator, String> {
        let ranges: Vec<IpRange> = cluster_ip_ranges
            .iter()
            .map(|c| IpRange::parse(c))
            .collect::<Result<_, _>>()?;
        if ranges.is_empty()
            || ranges.len() > 2
            || (ranges.len() == 2 && ranges[0].v4 == ranges[1].v4)
        {
            return Err(
                "expected one service IP range, or two of different IP families".to_owned(),
            );
        }
        let bad = || format!("invalid port range {node_ports:?}");
        let (base, last) = node_ports.split_once('-').ok_or_else(bad)?;
        let (base, last): (u16, u16) = (
            base.trim().parse().map_err(|_| bad())?,
            last.trim().parse().map_err(|_| bad())?,
        );
        if last < base {
            return Err(bad());
        }
        // KEP-3668: the lower band (1/32nd, at least 16, at most 128) is kept for static ports.
        let size = u32::from(last - base) + 1;
        let band = u16::try_from((size / 32).clamp(16, 128)).unwrap_or(128);
        let dynamic = base.saturating_add(band).min(last);
        Ok(ServiceAllocator {
            ranges,
            ports: PortRange {
                base,
                last,
                dynamic,
                used: BTreeSet::new(),
            },
        })
    }

    fn family_index(&self, family: &str) -> Option<usize> {
        self.ranges.iter().position(|r| r.family() == family)
    }

    /// Marks what a stored Service holds as taken (a server rebuilding its state at start).
    pub fn reserve(&mut self, svc: &Value) {
        let Some(spec) = svc.get("spec").and_then(Value::as_object) else {
            return;
        };
        for ip in spec
            .get("clusterIPs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(ip) = ip.as_str() else { continue };
            if let Some((b, _)) = parse_ip(ip, true) {
                let n = u128::from_be_bytes(b);
                for r in &mut self.ranges {
                    if (r.first..=r.last).contains(&n) {
                        r.used.insert(n);
                    }
                }
            }
        }
        for p in node_ports(spec) {
            if let Ok(p) = u16::try_from(p) {
                self.ports.used.insert(p);
            }
        }
    }

    /// What Service `a` holds that `b` does not (cluster IPs, node ports), as a Service for
    /// [`ServiceAllocator::release`]: what an update took (`new` minus `old`) or freed (`old`
    /// minus `new`).
    #[must_use]
    pub fn difference(a: &Value, b: &Value) -> Value {
        let spec = |v: &Value| {
            v.get("spec")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (sa, sb) = (spec(a), spec(b));
        let ips = |s: &serde_json::Map<String, Value>| -> Vec<Value> {
            s.get("clusterIPs")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let b_ips = ips(&sb);
        let b_ports = node_ports(&sb);
        let taken_ips: Vec<Value> = ips(&sa)
            .into_iter()
            .filter(|ip| !b_ips.contains(ip))
            .collect();
        let taken_ports: Vec<Value> = node_ports(&sa)
            .into_iter()
            .filter(|p| !b_ports.contains(p))
            .map(|p| serde_json::json!({"nodePort": p}))
            .collect();
        serde_json::json!({"spec": {"clusterIPs": taken_ips, "ports": taken_ports}})
    }

    /// Gives back what a deleted Service held.
    pub fn release(&mut self, svc: &Value) {
        let Some(spec) = svc.get("spec").and_then(Value::as_object) else {
            return;
        };
        for ip in spec
            .get("clusterIPs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some((b, _)) = ip.as_str().and_then(|ip| parse_ip(ip, true)) {
                let n = u128::from_be_bytes(b);
                for r in &mut self.ranges {
                    r.used.remove(&n);
                }
            }
        }
        for p in node_ports(spec) {
            if let Ok(p) = u16::try_from(p) {
                self.ports.used.remove(&p);
            }
        }
    }

    /// Undoes an allocation whose write failed.
    pub fn revert(&mut self, a: &Allocation) {
        for (f, n) in &a.ips {
            self.ranges[*f].used.remove(n);
        }
        for p in &a.ports {
            self.ports.used.remove(p);
        }
    }

    /// Completes an update's allocation once it is stored: what it replaced is released.
    pub fn commit(&mut self, a: &Allocation) {
        for (f, n) in &a.release_ips {
            self.ranges[*f].used.remove(n);
        }
        for p in &a.release_ports {
            self.ports.used.remove(p);
        }
    }

    /// `beginCreate`: `normalizeClusterIPs`, `initIPFamilyFields`, then cluster IPs, node
    /// ports and the health check node port.
    ///
    /// # Errors
    /// The API server's Invalid (422) and InternalError (500) answers; nothing stays taken.
    pub fn allocate_create(&mut self, svc: &mut Value) -> Result<Allocation, AllocError> {
        let mut a = Allocation::default();
        let Some(spec) = svc.get_mut("spec").and_then(Value::as_object_mut) else {
            return Ok(a);
        };
        normalize_cluster_ips(spec, None);
        let result = self
            .init_ip_families(spec, None)
            .and_then(|()| self.alloc_cluster_ips(spec, &mut a))
            .and_then(|()| self.alloc_node_ports(spec, None, &mut a));
        match result {
            Ok(()) => Ok(a),
            Err(e) => {
                self.revert(&a);
                Err(e)
            }
        }
    }

    /// `beginUpdate`: `patchAllocatedValues`, `normalizeClusterIPs`, `initIPFamilyFields`,
    /// then what a type change or a dual-stack upgrade needs; what is no longer needed is
    /// released on [`ServiceAllocator::commit`].
    ///
    /// # Errors
    /// As [`ServiceAllocator::allocate_create`].
    pub fn allocate_update(
        &mut self,
        new: &mut Value,
        old: &Value,
    ) -> Result<Allocation, AllocError> {
        let mut a = Allocation::default();
        let (Some(spec), Some(os)) = (
            new.get_mut("spec").and_then(Value::as_object_mut),
            old.get("spec").and_then(Value::as_object),
        ) else {
            return Ok(a);
        };
        patch_allocated_values(spec, os);
        normalize_cluster_ips(spec, Some(os));
        let result = self
            .init_ip_families(spec, Some(os))
            .and_then(|()| self.update_cluster_ips(spec, os, &mut a))
            .and_then(|()| self.alloc_node_ports(spec, Some(os), &mut a));
        match result {
            Ok(()) => Ok(a),
            Err(e) => {
                self.revert(&a);
                Err(e)
            }
        }
    }
}
